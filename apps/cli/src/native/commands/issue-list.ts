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
import {
  formatJsonFieldError,
  parseCsvRecord,
  selectJsonFields,
} from '../export/json-field-catalogue.js';
import type { JsonSelection } from '../export/json-field-catalogue.js';
import type { RelayPort } from '../relay-port.js';
import { formatMilestoneNotFound, resolveMilestone } from './issue-list-milestone.js';
import { repoPath } from './issue-view.js';
import { toListSearchQuery } from './list-search-query.js';
import type { ListSearchState } from './list-search-query.js';
import { readListSearch } from './list-search-read.js';
import { cacheNoteOptions, formatCacheNote } from './relay-cache-note.js';
import type { CacheNoteOptions } from './relay-cache-note.js';
import type { ServedCommand } from './served-command.js';
import { createJqRunner, finishOutcome } from './served-outcome.js';

/** gh's default `issue list --limit`. */
export const ISSUE_LIST_DEFAULT_LIMIT = 30;

/** The routes whose cached answers `issue list` notes on stderr (SPEC.md client rule 8). */
const NOTED_ROUTES = ['issue_list', 'search_issues'];

/** The states gh's `--state` accepts (StringEnumFlag), as REST's `state` parameter. */
const STATES: readonly ListSearchState[] = ['open', 'closed', 'all'];

/** A login REST's `assignee`/`creator`/`mentioned` filter reads exactly as gh's filters do. */
const PLAIN_LOGIN = /^[A-Za-z0-9][A-Za-z0-9-]*$/;

/** gh's login filters and the REST parameter each is. */
const LOGIN_FILTERS = [
  ['assignee', 'assignee'],
  ['author', 'creator'],
  ['mention', 'mentioned'],
] as const;

/** How a served `issue list` reads, or why the invocation runs gh. */
export type IssueListQuery =
  /** REST's issue list with these parameters; `milestone` still to resolve. */
  | {
      readonly ok: true;
      readonly kind: 'list';
      readonly query: Readonly<Record<string, string>>;
      readonly milestone?: string;
      readonly limit: number;
    }
  /** gh's search mode for a `--search` text alone. */
  | {
      readonly ok: true;
      readonly kind: 'search';
      readonly text: string;
      readonly state: ListSearchState;
      readonly limit: number;
    }
  | { readonly ok: false; readonly outcome: CommandOutcome };

/** The labels of every `--label` (pflag StringSlice: each value a CSV record), or why not. */
function parseLabels(values: readonly string[] | undefined): string[] | CommandOutcome {
  const labels: string[] = [];
  for (const value of values ?? []) {
    const record = parseCsvRecord(value);
    if (record === undefined) return delegated('invalid_usage'); // gh's flag error
    // An empty label still switches gh to search mode (a filter-only search ranking); a
    // comma cannot be said in REST's comma-separated `labels`.
    if (record.some((label) => label === '' || label.includes(','))) {
      return delegated('unsupported_flag');
    }
    labels.push(...record);
  }
  return labels;
}

/**
 * Maps gh's `issue list` flags to how they are read. Without `--search`: REST's
 * `GET /repos/{o}/{r}/issues` parameters — `state`, `sort=created`, `direction=desc`, and
 * `assignee`, `creator` and `mentioned` (gh's `filterBy {assignee, createdBy, mentioned}`, or
 * the same `assignee:`/`author:`/`mentions:` qualifiers in its search mode) for plain logins
 * only (`@me`, `*`, `none` and app logins run gh), `labels` (every `--label`, all required, as
 * gh's `label:` qualifiers) and the `--milestone` to resolve. With a non-empty `--search`:
 * gh's search mode, served only for the text alone (any other filter is a qualifier outside
 * SPEC.md's search grammar). `--app` always runs gh.
 */
export function toIssueListQuery(
  flags: Readonly<Record<string, readonly string[]>>,
): IssueListQuery {
  const limit = parseLimitOption(flags.limit, ISSUE_LIST_DEFAULT_LIMIT);
  if (!limit.ok) return { ok: false, outcome: delegated(limit.reason) };
  // gh's enum flag accepts any case and the command lower-cases it (`strings.ToLower(opts.State)`).
  const state = (flags.state?.at(-1) ?? 'open').toLowerCase();
  if (!(STATES as readonly string[]).includes(state)) {
    return { ok: false, outcome: delegated('invalid_usage') };
  }
  if (flags.app !== undefined) return { ok: false, outcome: delegated('unsupported_flag') };
  const labels = parseLabels(flags.label);
  if (!Array.isArray(labels)) return { ok: false, outcome: labels };
  const milestone = flags.milestone?.at(-1) ?? '';
  const text = flags.search?.at(-1) ?? '';
  const query: Record<string, string> = { state, sort: 'created', direction: 'desc' };
  let filtered = labels.length > 0 || milestone !== '';
  for (const [flag, parameter] of LOGIN_FILTERS) {
    const login = flags[flag]?.at(-1) ?? '';
    if (login === '') continue;
    if (!PLAIN_LOGIN.test(login) || login === 'none') {
      return { ok: false, outcome: delegated('unsupported_flag') };
    }
    query[parameter] = login;
    filtered = true;
  }
  if (text !== '') {
    if (filtered) {
      return { ok: false, outcome: delegated('unsupported_flag') };
    }
    return { ok: true, kind: 'search', text, state: state as ListSearchState, limit: limit.limit };
  }
  if (labels.length > 0) query.labels = labels.join(',');
  return {
    ok: true,
    kind: 'list',
    query,
    ...(milestone === '' ? {} : { milestone }),
    limit: limit.limit,
  };
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

/** What one read of the repository (route repo_view) says about its issues. */
type RepositoryIssues =
  | { readonly kind: 'missing' | 'disabled' | 'enabled' }
  | { readonly kind: 'outcome'; readonly outcome: CommandOutcome };

async function readRepositoryIssues(
  port: RelayPort,
  repo: GhRepository,
): Promise<RepositoryIssues> {
  const result = await port.read({ path: repoPath(repo) });
  if (result.kind === 'fallback') return { kind: 'outcome', outcome: result };
  const { envelope } = result;
  if (envelope.status === 404) return { kind: 'missing' };
  const body = envelope.body as { has_issues?: unknown } | null;
  if (envelope.status !== 200 || typeof body?.has_issues !== 'boolean') {
    return { kind: 'outcome', outcome: delegated('unsupported_shape') };
  }
  return { kind: body.has_issues ? 'enabled' : 'disabled' };
}

/**
 * gh's answer when the issue list is missing or empty, or its search mode's
 * `hasIssuesEnabled` check: one read of the repository tells a missing repository and
 * disabled issues (gh's errors, exit 1) from a repository whose issues read (`undefined`).
 */
async function checkRepository(
  port: RelayPort,
  repo: GhRepository,
): Promise<CommandOutcome | undefined> {
  const issues = await readRepositoryIssues(port, repo);
  switch (issues.kind) {
    case 'outcome':
      return issues.outcome;
    case 'missing':
      return printed('', ISSUE_ERROR_TEXTS.repositoryNotFound(repo.owner, repo.name), 1);
    case 'disabled':
      return printed('', ISSUE_ERROR_TEXTS.issuesDisabled(repo.owner, repo.name), 1);
    case 'enabled':
      return undefined;
  }
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

/** The issues a served `issue list` prints, or how it ends instead. */
type ListedIssues =
  | { readonly kind: 'issues'; readonly issues: readonly RestIssue[] }
  | { readonly kind: 'outcome'; readonly outcome: CommandOutcome };

/** What both ways of listing read. */
interface IssueListRead {
  readonly port: RelayPort;
  readonly repo: GhRepository;
  readonly envelopes: RelayEnvelope[];
}

const ended = (outcome: CommandOutcome): ListedIssues => ({ kind: 'outcome', outcome });

/**
 * The REST `milestone` parameter of `--milestone` ({@link resolveMilestone}), or how the
 * command ends: gh's errors for a missing repository or milestone number, an empty list for a
 * title no milestone has (after gh's issues-enabled check), gh for the rest.
 */
async function milestoneParameter(
  read: IssueListRead,
  value: string,
): Promise<string | ListedIssues> {
  const { port, repo } = read;
  const milestone = await resolveMilestone(port, repo, value);
  switch (milestone.kind) {
    case 'number':
      return String(milestone.number);
    case 'outcome':
      return ended(milestone.outcome);
    case 'repository_unreadable':
      return ended((await checkRepository(port, repo)) ?? delegated('unsupported_shape'));
    case 'no_such_title': {
      const problem = await checkRepository(port, repo);
      return problem === undefined ? { kind: 'issues', issues: [] } : ended(problem);
    }
    case 'no_such_number': {
      const issues = await readRepositoryIssues(port, repo);
      switch (issues.kind) {
        case 'outcome':
          return ended(issues.outcome);
        case 'missing':
          return ended(printed('', ISSUE_ERROR_TEXTS.repositoryNotFound(repo.owner, repo.name), 1));
        case 'enabled':
          return ended(printed('', formatMilestoneNotFound(milestone.number), 1));
        case 'disabled':
          // GraphQL may still know the milestone, and then gh's error is the disabled one.
          return ended(delegated('unsupported_shape'));
      }
    }
  }
}

/**
 * REST's issue list (route issue_list), newest created first, pull requests filtered out: gh's
 * `listIssues` (GraphQL `issues`, `orderBy CREATED_AT DESC`), and for `--label`/`--milestone`
 * the same filter as gh's search mode (`label:`/`milestone:` qualifiers). That search has no
 * text to rank by; GitHub answers a filter-only search newest created first as well (as
 * forge-sim does), which is taken as given, not proved. An empty or missing list reads the
 * repository once (gh's errors).
 */
async function listIssues(
  read: IssueListRead,
  request: Extract<IssueListQuery, { kind: 'list' }>,
): Promise<ListedIssues> {
  const { port, repo, envelopes } = read;
  let query = request.query;
  if (request.milestone !== undefined) {
    const milestone = await milestoneParameter(read, request.milestone);
    if (typeof milestone !== 'string') return milestone;
    query = { ...query, milestone };
  }
  const pages = await readIssuePages(
    port,
    `${repoPath(repo)}/issues`,
    query,
    request.limit,
    envelopes,
  );
  if (pages.kind === 'outcome') return ended(pages.outcome);
  if (pages.kind === 'missing') {
    return ended((await checkRepository(port, repo)) ?? delegated('unsupported_shape'));
  }
  if (pages.issues.length === 0) {
    const problem = await checkRepository(port, repo);
    if (problem !== undefined) return ended(problem);
  }
  return { kind: 'issues', issues: pages.issues };
}

/**
 * gh's search mode for `--search <text>` alone (`searchIssues`: GraphQL
 * `search(type: ISSUE, last: <limit>, query: "<text> repo:o/r [state:…] type:issue")`, best
 * match) as REST `GET /search/issues` (route search_issues) with the same `q` and
 * `per_page=<limit>`: the items are REST issue objects. gh asks for `last: N` without a
 * `before` cursor; GitHub's search connection answers that with the leading N results of its
 * ranking — were it the trailing ones, gh's everyday `issue list --label` (the same query)
 * would list the oldest matches first — which is what REST's first page holds. gh reads
 * `repository.hasIssuesEnabled` in the same query, so the repository is read too (gh's
 * errors); a 422 (a repository the forge cannot search) reads it as well.
 */
async function searchIssues(
  read: IssueListRead,
  request: Extract<IssueListQuery, { kind: 'search' }>,
): Promise<ListedIssues> {
  const { port, repo, envelopes } = read;
  const query = toListSearchQuery({
    text: request.text,
    repo,
    state: request.state,
    entity: 'issue',
  });
  if (!query.ok) return ended(delegated('unsupported_flag'));
  const found = await readListSearch(port, query.q, request.limit, envelopes);
  if (found.kind === 'outcome') return ended(found.outcome);
  const problem = await checkRepository(port, repo);
  if (problem !== undefined) return ended(problem);
  if (found.kind === 'unprocessable') return ended(delegated('unsupported_shape'));
  const issues: RestIssue[] = [];
  for (const item of found.items) {
    // `type:issue` finds no pull request; one found means the query was not understood.
    if (isPullRequestItem(item) || !isRestIssue(item)) {
      return ended(delegated('unsupported_shape'));
    }
    issues.push(item);
  }
  return { kind: 'issues', issues };
}

/**
 * `gh issue list` through the relay (pure of I/O but the port and jq): {@link listIssues}
 * (state, assignee, author, mention, label and milestone filters), or {@link searchIssues}
 * for a `--search` text alone; at most `--limit` (≤ 100, so gh's "capped at 1000 results"
 * warning never applies). An empty result prints nothing (exit 0), or `[]` with `--json`.
 * Other search shapes, `--app`, REST-less fields and unprovable output run gh. The rule 8
 * cache note goes first on stderr.
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

  const read: IssueListRead = { port, repo, envelopes: [] };
  const listed =
    request.kind === 'search' ? await searchIssues(read, request) : await listIssues(read, request);
  let outcome: CommandOutcome;
  if (listed.kind === 'outcome') outcome = listed.outcome;
  else {
    const rendered = renderIssues(listed.issues, selected);
    if (rendered === undefined) outcome = delegated('unsupported_shape');
    else if (typeof rendered === 'string') outcome = printed(rendered);
    else
      outcome = await writeExport(rendered, selected.kind === 'json' ? selected.jq : undefined, jq);
  }
  const note = formatCacheNote(read.envelopes, NOTED_ROUTES, notes);
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
