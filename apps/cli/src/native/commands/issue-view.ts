import type { RelayEnvelope } from '@relay/protocol';
import type { ServePlan } from '../argv/native-plan.js';
import { parseIssueSelector } from '../argv/issue-selector.js';
import { GITHUB_HOST } from '../argv/repo-selector.js';
import type { GhRepository } from '../argv/repo-selector.js';
import { sanitizeJson } from '../export/ascii-sanitizer.js';
import { delegated, printed, writeExport } from '../export/export-output.js';
import type { CommandOutcome, JqRunner } from '../export/export-output.js';
import {
  ISSUE_ERROR_TEXTS,
  ISSUE_FIELD_SOURCES,
  isRestIssue,
  issueFieldValue,
  issueLoginsNeedingNames,
  renderIssueView,
} from '../export/issue-export.js';
import type { GoJsonValue } from '../export/go-json-encoder.js';
import { formatJsonFieldError, selectJsonFields } from '../export/json-field-catalogue.js';
import type { JsonSelection } from '../export/json-field-catalogue.js';
import type { RelayPort } from '../relay-port.js';
import { readNames } from './pr-view.js';
import { cacheNoteOptions, formatCacheNote } from './relay-cache-note.js';
import type { CacheNoteOptions } from './relay-cache-note.js';
import type { ServedCommand } from './served-command.js';
import { createJqRunner, finishOutcome } from './served-outcome.js';

/** The routes whose cached answers `issue view` notes on stderr (SPEC.md client rule 8). */
const NOTED_ROUTES = ['issue_view'];

/** The repository's REST path (`/repos/{owner}/{name}`). */
export function repoPath(repo: GhRepository): string {
  return `/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.name)}`;
}

/**
 * Why a forge 404 happened, worded as gh's GraphQL query words it: one read of the repository
 * (route repo_view) tells a missing repository from a missing issue and from disabled issues.
 */
async function explainNotFound(
  port: RelayPort,
  repo: GhRepository,
  notFound: string,
): Promise<CommandOutcome> {
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
  return printed('', notFound, 1);
}

/**
 * `gh issue view {<number> | <url>}` through the relay (pure of I/O but the port and jq): one
 * read of the issue (route issue_view), then `/users/{login}` (route user_view) for the
 * `name` of an `author`/`assignees` export; a 404 reads the repository once more to print
 * gh's own error. Pull requests (gh shows them through `issueOrPullRequest` with PR fields), other
 * forge statuses, fields REST cannot give exactly (ISSUE_FIELD_SOURCES) and human output that
 * cannot be proved (renderIssueView) run gh. The rule 8 cache note goes first on stderr.
 */
export async function runIssueView(
  port: RelayPort,
  plan: Pick<ServePlan, 'args' | 'flags' | 'repo'>,
  jq: JqRunner,
  notes: CacheNoteOptions = { fresh: false, quiet: false },
): Promise<CommandOutcome> {
  const selection = selectJsonFields('issue view', plan.flags);
  if (!selection.ok) {
    if (selection.error.code === 'invalid_csv') return delegated('invalid_usage');
    return printed('', formatJsonFieldError(selection.error), 1);
  }
  const argument = plan.args[0] ?? '';
  const selector = parseIssueSelector(argument);
  let repo: GhRepository;
  switch (selector.kind) {
    case 'invalid':
      return printed('', ISSUE_ERROR_TEXTS.invalidIssueFormat(argument), 1);
    case 'unmodelled':
      return delegated('unsupported_shape');
    case 'url':
      if (selector.repo.host !== GITHUB_HOST) return delegated('unsupported_shape');
      repo = selector.repo;
      break;
    case 'number':
      if (plan.repo === undefined) return delegated('unsupported_shape');
      repo = plan.repo.repo;
      break;
  }
  const selected = selection.value;
  if (
    selected.kind === 'json' &&
    selected.fields.some((field) => ISSUE_FIELD_SOURCES[field] === 'delegate')
  ) {
    return delegated('unsupported_flag');
  }

  const result = await port.read({ path: `${repoPath(repo)}/issues/${String(selector.number)}` });
  if (result.kind === 'fallback') return result;
  const { envelope } = result;
  const note = formatCacheNote([envelope], NOTED_ROUTES, notes);
  const outcome = await renderAnswer(port, repo, selector.number, envelope, selected, jq);
  if (outcome.kind !== 'done' || note === '') return outcome;
  return { ...outcome, stderr: `${note}${outcome.stderr}` };
}

async function renderAnswer(
  port: RelayPort,
  repo: GhRepository,
  number: number,
  envelope: RelayEnvelope,
  selected: JsonSelection<'issue view'>,
  jq: JqRunner,
): Promise<CommandOutcome> {
  if (envelope.status === 404) {
    return explainNotFound(port, repo, ISSUE_ERROR_TEXTS.issueNotFound(number));
  }
  if (envelope.status !== 200 || envelope.body_encoding !== 'json') {
    return delegated('unsupported_shape');
  }
  const issue = sanitizeJson(envelope.body);
  if (!isRestIssue(issue) || issue.pull_request !== undefined) {
    return delegated('unsupported_shape');
  }
  if (selected.kind === 'human') {
    const text = renderIssueView(issue);
    return text === undefined ? delegated('unsupported_shape') : printed(text);
  }
  const names = await readNames(port, issueLoginsNeedingNames(issue, selected.fields));
  if (!(names instanceof Map)) return names;
  const data: Record<string, GoJsonValue> = {};
  for (const field of selected.fields) {
    const value = issueFieldValue(issue, field, names);
    if (value === undefined) return delegated('unsupported_flag');
    data[field] = value;
  }
  return writeExport(data, selected.jq, jq);
}

/** `gh issue view` (SPEC.md `relay native` row; README "issue view"). */
export const ISSUE_VIEW_COMMAND: ServedCommand = {
  async run(deps, output, plan, argv) {
    const { createSessionRelayPort } = await import('../relay-port.js');
    const outcome = await runIssueView(
      createSessionRelayPort(deps),
      plan,
      createJqRunner(deps),
      cacheNoteOptions(deps.env),
    );
    return finishOutcome(deps, output, argv, outcome);
  },
};
