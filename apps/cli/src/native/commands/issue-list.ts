import type { RelayEnvelope } from '@relay/protocol';
import { PAGINATED_READ_MAX_PAGES } from '@relay/protocol';
import { findNextLink } from '../../gh-api-output.js';
import { parseLimitOption } from '../argv/go-int-option.js';
import type { ServePlan } from '../argv/native-plan.js';
import type { GhRepository } from '../argv/repo-selector.js';
import { sanitizeJson } from '../export/ascii-sanitizer.js';
import { delegated, printed, writeExport } from '../export/export-output.js';
import type { CommandOutcome, JqRunner } from '../export/export-output.js';
import type { GoJsonValue } from '../export/go-json-encoder.js';
import {
  ISSUE_ERROR_TEXTS,
  ISSUE_FIELD_SOURCES,
  isPullRequestItem,
  isRestIssue,
  issueFieldValue,
  renderIssueListTable,
} from '../export/issue-export.js';
import type { RestIssue } from '../export/issue-export.js';
import { formatJsonFieldError, selectJsonFields } from '../export/json-field-catalogue.js';
import type { JsonSelection } from '../export/json-field-catalogue.js';
import type { RelayPort } from '../relay-port.js';
import { repoPath } from './issue-view.js';
import { cacheNoteOptions, formatCacheNote } from './relay-cache-note.js';
import type { CacheNoteOptions } from './relay-cache-note.js';
import type { ServedCommand } from './served-command.js';
import { createJqRunner, finishOutcome } from './served-outcome.js';

/** gh's default `issue list --limit`. */
export const ISSUE_LIST_DEFAULT_LIMIT = 30;

/** The routes whose cached answers `issue list` notes on stderr (SPEC.md client rule 8). */
const NOTED_ROUTES = ['issue_list'];

/** The states gh's `--state` accepts (StringEnumFlag), as REST's `state` parameter. */
const STATES: readonly string[] = ['open', 'closed', 'all'];

/**
 * Filters gh turns into a GraphQL search (`--label`, `--milestone`, `--search`) or resolves
 * with a lookup (`--app`), and `--mention`, whose REST filter is unproved: they run gh.
 */
const DELEGATED_FILTERS: readonly string[] = ['label', 'milestone', 'search', 'app', 'mention'];

/** A login REST's `assignee`/`creator` filter reads exactly as GraphQL's `filterBy` does. */
const PLAIN_LOGIN = /^[A-Za-z0-9][A-Za-z0-9-]*$/;

/** The REST query of a served `issue list`, or why the invocation runs gh. */
export type IssueListQuery =
  | { readonly ok: true; readonly query: Readonly<Record<string, string>>; readonly limit: number }
  | { readonly ok: false; readonly outcome: CommandOutcome };

/**
 * Maps gh's `issue list` flags to `GET /repos/{o}/{r}/issues` parameters (gh's `listIssues`:
 * `states`, `filterBy {assignee, createdBy}`, `orderBy CREATED_AT DESC`). A login filter is
 * served only when it is a plain login (`@me`, `*`, `none` and app logins run gh).
 */
export function toIssueListQuery(
  flags: Readonly<Record<string, readonly string[]>>,
): IssueListQuery {
  const limit = parseLimitOption(flags.limit, ISSUE_LIST_DEFAULT_LIMIT);
  if (!limit.ok) return { ok: false, outcome: delegated(limit.reason) };
  const state = flags.state?.at(-1) ?? 'open';
  if (!STATES.includes(state)) return { ok: false, outcome: delegated('invalid_usage') };
  if (DELEGATED_FILTERS.some((flag) => flags[flag] !== undefined)) {
    return { ok: false, outcome: delegated('unsupported_flag') };
  }
  const query: Record<string, string> = { state, sort: 'created', direction: 'desc' };
  for (const [flag, parameter] of [
    ['assignee', 'assignee'],
    ['author', 'creator'],
  ] as const) {
    const login = flags[flag]?.at(-1) ?? '';
    if (login === '') continue;
    if (!PLAIN_LOGIN.test(login) || login === 'none') {
      return { ok: false, outcome: delegated('unsupported_flag') };
    }
    query[parameter] = login;
  }
  return { ok: true, query, limit: limit.limit };
}

/** What reading the issue pages ended with. */
type IssuePages =
  | { readonly kind: 'issues'; readonly issues: readonly RestIssue[] }
  | { readonly kind: 'missing' }
  | { readonly kind: 'outcome'; readonly outcome: CommandOutcome };

/**
 * Reads REST issue pages (100 a page, `page=N`, at most 10 pages) until `limit` issues that
 * are not pull requests are found or the `Link` header has no next page. Pull requests count
 * towards REST's pages but not towards the limit, so a limit gh could fill may need more
 * than 10 pages: then gh runs (`unsupported_shape`).
 */
async function readIssuePages(
  port: RelayPort,
  path: string,
  query: Readonly<Record<string, string>>,
  limit: number,
  envelopes: RelayEnvelope[],
): Promise<IssuePages> {
  const issues: RestIssue[] = [];
  for (let page = 1; page <= PAGINATED_READ_MAX_PAGES; page += 1) {
    const result = await port.read({
      path,
      query: { ...query, per_page: '100', ...(page === 1 ? {} : { page: String(page) }) },
    });
    if (result.kind === 'fallback') return { kind: 'outcome', outcome: result };
    const { envelope } = result;
    envelopes.push(envelope);
    if (envelope.status === 404 || envelope.status === 410) return { kind: 'missing' };
    if (envelope.status !== 200 || !Array.isArray(envelope.body)) {
      return { kind: 'outcome', outcome: delegated('unsupported_shape') };
    }
    for (const item of sanitizeJson(envelope.body) as unknown[]) {
      if (isPullRequestItem(item)) continue;
      if (!isRestIssue(item)) return { kind: 'outcome', outcome: delegated('unsupported_shape') };
      issues.push(item);
      if (issues.length === limit) return { kind: 'issues', issues };
    }
    if (findNextLink(envelope.headers.link) === undefined) return { kind: 'issues', issues };
  }
  return { kind: 'outcome', outcome: delegated('unsupported_shape') };
}

/**
 * gh's answer when the issue list is missing or empty: one read of the repository (route
 * repo_view) tells a missing repository and disabled issues (gh's errors, exit 1) from a
 * repository without matching issues (`undefined`: print the empty result).
 */
async function checkRepository(
  port: RelayPort,
  repo: GhRepository,
): Promise<CommandOutcome | undefined> {
  const result = await port.read({ path: repoPath(repo) });
  if (result.kind === 'fallback') return result;
  const { envelope } = result;
  if (envelope.status === 404) {
    return printed('', ISSUE_ERROR_TEXTS.repositoryNotFound(repo.owner, repo.name), 1);
  }
  const body = envelope.body as { has_issues?: unknown } | null;
  if (envelope.status !== 200 || typeof body?.has_issues !== 'boolean') {
    return delegated('unsupported_shape');
  }
  if (!body.has_issues) {
    return printed('', ISSUE_ERROR_TEXTS.issuesDisabled(repo.owner, repo.name), 1);
  }
  return undefined;
}

function renderIssues(
  issues: readonly RestIssue[],
  selected: JsonSelection<'issue list'>,
): GoJsonValue[] | string | undefined {
  if (selected.kind === 'human') return renderIssueListTable(issues);
  const rows: GoJsonValue[] = [];
  for (const issue of issues) {
    const row: Record<string, GoJsonValue> = {};
    for (const field of selected.fields) {
      const value = issueFieldValue(issue, field);
      if (value === undefined) return undefined;
      row[field] = value;
    }
    rows.push(row);
  }
  return rows;
}

/**
 * `gh issue list` through the relay (pure of I/O but the port and jq): REST's issue list
 * (route issue_list) newest created first, pull requests filtered out, at most `--limit`
 * (≤ 100) issues from at most 10 pages; state, assignee and author filters map to REST
 * parameters. An empty or missing list reads the repository once (gh's errors; an empty
 * result prints nothing, or `[]` with `--json`, exit 0). Search-backed filters, REST-less
 * fields and unprovable output run gh. The rule 8 cache note goes first on stderr.
 */
export async function runIssueList(
  port: RelayPort,
  plan: Pick<ServePlan, 'flags' | 'repo'>,
  jq: JqRunner,
  notes: CacheNoteOptions = { fresh: false, quiet: false },
): Promise<CommandOutcome> {
  const selection = selectJsonFields('issue list', plan.flags);
  if (!selection.ok) {
    if (selection.error.code === 'invalid_csv') return delegated('invalid_usage');
    return printed('', formatJsonFieldError(selection.error), 1);
  }
  const selected = selection.value;
  const request = toIssueListQuery(plan.flags);
  if (!request.ok) return request.outcome;
  if (
    selected.kind === 'json' &&
    selected.fields.some((field) => ISSUE_FIELD_SOURCES[field] !== 'rest')
  ) {
    return delegated('unsupported_flag');
  }
  const repo = plan.repo?.repo;
  if (repo === undefined) return delegated('unsupported_shape');

  const envelopes: RelayEnvelope[] = [];
  const pages = await readIssuePages(
    port,
    `${repoPath(repo)}/issues`,
    request.query,
    request.limit,
    envelopes,
  );
  const note = formatCacheNote(envelopes, NOTED_ROUTES, notes);
  let outcome: CommandOutcome;
  if (pages.kind === 'outcome') outcome = pages.outcome;
  else if (pages.kind === 'missing') {
    outcome = (await checkRepository(port, repo)) ?? delegated('unsupported_shape');
  } else {
    const problem = pages.issues.length === 0 ? await checkRepository(port, repo) : undefined;
    const rendered = renderIssues(pages.issues, selected);
    if (problem !== undefined) outcome = problem;
    else if (rendered === undefined) outcome = delegated('unsupported_shape');
    else if (typeof rendered === 'string') outcome = printed(rendered);
    else
      outcome = await writeExport(rendered, selected.kind === 'json' ? selected.jq : undefined, jq);
  }
  if (outcome.kind !== 'done' || note === '') return outcome;
  return { ...outcome, stderr: `${note}${outcome.stderr}` };
}

/** `gh issue list` (SPEC.md `relay native` row; README "issue list"). */
export const ISSUE_LIST_COMMAND: ServedCommand = {
  async run(deps, output, plan, argv) {
    const { createSessionRelayPort } = await import('../relay-port.js');
    const outcome = await runIssueList(
      createSessionRelayPort(deps),
      plan,
      createJqRunner(deps),
      cacheNoteOptions(deps.env),
    );
    return finishOutcome(deps, output, argv, outcome);
  },
};
