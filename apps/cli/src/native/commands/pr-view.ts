import type { RelayEnvelope } from '@relay/protocol';
import type { CurrentBranchSelection } from '../argv/current-branch-pr.js';
import type { ServePlan } from '../argv/native-plan.js';
import type { GhRepository } from '../argv/repo-selector.js';
import { sanitizeJson } from '../export/ascii-sanitizer.js';
import { delegated, printed, writeExport } from '../export/export-output.js';
import type { CommandOutcome, JqRunner } from '../export/export-output.js';
import { formatJsonFieldError, selectJsonFields } from '../export/json-field-catalogue.js';
import { exportFields } from '../export/json-export-writer.js';
import {
  PR_FIELD_SOURCES,
  PR_LIVE_FIELDS,
  accountsNeedingNames,
  isRestPull,
  isRestReview,
  prFieldValue,
  renderPrPreview,
} from '../export/pr-export.js';
import type { PrField, RestPull } from '../export/pr-export.js';
import type { RelayPort } from '../relay-port.js';
import { readAllPages } from '../relay-port.js';
import { findPull } from './pr-branch-finder.js';
import { cacheNoteOptions, formatCacheNote } from './relay-cache-note.js';
import type { ServedCommand } from './served-command.js';
import { createJqRunner, finishOutcome } from './served-outcome.js';

/** What `pr view` ends with: a {@link CommandOutcome}, or client rule 9's detail hand-off. */
export type PrViewOutcome =
  | CommandOutcome
  /** `--json` asks for commits, comments or reviews: gh runs the whole command. */
  | { readonly kind: 'detail_export' };

/** What `pr view` reads besides the port: jq and the environment (rule 8). */
export interface PrViewOptions {
  readonly jq: JqRunner;
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * The current branch's PR selector from git (`pr view` without an argument); without a
   * reader, no argument runs gh.
   */
  readonly currentBranch?: (repo: GhRepository) => Promise<CurrentBranchSelection>;
}

/** The PR to read. */
interface Target {
  readonly repo: GhRepository;
  readonly number: number;
}

/** The routes whose cache hits the note names: the head lookup's and the PR's. */
const NOTED_ROUTES: readonly string[] = ['pr_list', 'pr_view'];

/** Rule 8's note over these reads; a read that asked for max-age=0 makes a hit quiet too. */
function noteOf(
  envelopes: readonly RelayEnvelope[],
  maxAgeZero: boolean,
  env: PrViewOptions['env'],
): string {
  const options = cacheNoteOptions(env);
  return formatCacheNote(envelopes, NOTED_ROUTES, {
    ...options,
    fresh: options.fresh || maxAgeZero,
  });
}

/** A repository's REST path prefix. */
export function repoPath(repo: GhRepository): string {
  return `/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.name)}`;
}

/**
 * gh's error for a PR number the repository does not have (GraphQL's
 * `repository.pullRequest` error, printed by gh's error path; exit 1).
 */
export function formatPrNotFound(number: number): string {
  return `GraphQL: Could not resolve to a PullRequest with the number of ${String(number)}. (repository.pullRequest)\n`;
}

type PullRead =
  | { readonly kind: 'pull'; readonly pull: RestPull; readonly note: string }
  | { readonly kind: 'outcome'; readonly outcome: CommandOutcome };

/**
 * Reads the PR (route pr_view); a 404 in a repository that exists prints gh's GraphQL error,
 * any other failure (a missing repository, which GraphQL words itself, a forge error) runs gh.
 * The note covers the head lookup's reads (`lookup`) too.
 */
async function readPull(
  port: RelayPort,
  target: Target,
  maxAgeZero: boolean,
  env: PrViewOptions['env'],
  lookup: readonly RelayEnvelope[],
): Promise<PullRead> {
  const base = repoPath(target.repo);
  const result = await port.read({
    path: `${base}/pulls/${String(target.number)}`,
    ...(maxAgeZero ? { headers: { 'cache-control': 'max-age=0' } } : {}),
  });
  if (result.kind === 'fallback') return { kind: 'outcome', outcome: result };
  const { envelope } = result;
  if (envelope.status === 404) {
    const repo = await port.read({ path: base });
    if (repo.kind === 'fallback') return { kind: 'outcome', outcome: repo };
    if (repo.envelope.status === 200) {
      return { kind: 'outcome', outcome: printed('', formatPrNotFound(target.number), 1) };
    }
    return { kind: 'outcome', outcome: delegated('unsupported_shape') };
  }
  const pull = envelope.status === 200 ? sanitizeJson(jsonBody(envelope)) : undefined;
  if (!isRestPull(pull)) return { kind: 'outcome', outcome: delegated('unsupported_shape') };
  return { kind: 'pull', pull, note: noteOf([...lookup, envelope], maxAgeZero, env) };
}

function jsonBody(envelope: RelayEnvelope): unknown {
  return envelope.body_encoding === 'json' ? envelope.body : undefined;
}

/**
 * `name` of each login (`GET /users/{login}`, route user_view; `null` → `""`); a read that
 * is not a 200 user runs gh.
 */
export async function readNames(
  port: RelayPort,
  logins: readonly string[],
): Promise<Map<string, string> | CommandOutcome> {
  const names = new Map<string, string>();
  for (const login of logins) {
    const result = await port.read({ path: `/users/${encodeURIComponent(login)}` });
    if (result.kind === 'fallback') return result;
    const body = sanitizeJson(jsonBody(result.envelope));
    const name =
      typeof body === 'object' && body !== null ? (body as Record<string, unknown>).name : 1;
    if (result.envelope.status !== 200 || (typeof name !== 'string' && name !== null)) {
      return delegated('unsupported_shape');
    }
    names.set(login, name ?? '');
  }
  return names;
}

const withNote = (note: string, outcome: CommandOutcome): CommandOutcome =>
  outcome.kind === 'done' && note !== ''
    ? { ...outcome, stderr: `${note}${outcome.stderr}` }
    : outcome;

/**
 * `gh pr view [<number> | <url> | <branch>] [-R repo] [--json fields [--jq expr]]` (no
 * argument: the current branch's PR, {@link PrViewOptions.currentBranch}) through the relay
 * (stdout not a terminal), as gh v2.60's `viewRun`:
 * - the PR is found as gh's finder does ({@link findPull}: a branch is looked up by head,
 *   route pr_list; none is gh's `no pull requests found for branch "<b>"`, exit 1);
 * - human output: the PR (route pr_view) and all its reviews (pr_reviews, at most 10 pages)
 *   rendered as `printRawPrPreview` ({@link renderPrPreview}); unproved lines run gh;
 * - `--json`: only `number` answers without reading the PR (as gh's finder); otherwise the
 *   PR, plus `/users/{login}` for people's names; a field REST cannot give exactly runs gh;
 *   commits, comments or reviews are client rule 9's detail export (`detail_export`);
 * - client rule 8: a `--json` read naming a live field ({@link PR_LIVE_FIELDS}) sends
 *   `cache-control: max-age=0` (the head lookup too); a PR or lookup read served from the
 *   relay cache adds the stderr note;
 * - a PR number the repository lacks: gh's GraphQL error, exit 1.
 *
 * @param port - the relay (a fake one in unit tests)
 * @returns gh's bytes, or why the native gh runs instead
 * @throws CliError for relay failures (from the port)
 */
export async function runPrView(
  port: RelayPort,
  plan: Pick<ServePlan, 'args' | 'flags' | 'repo'>,
  options: PrViewOptions,
): Promise<PrViewOutcome> {
  const selection = selectJsonFields('pr view', plan.flags);
  if (!selection.ok) {
    if (selection.error.code === 'invalid_csv') return delegated('invalid_usage');
    return printed('', formatJsonFieldError(selection.error), 1);
  }
  const selected = selection.value;
  const fields = selected.kind === 'human' ? [] : selected.fields;
  if (fields.some((field) => PR_FIELD_SOURCES[field] === 'detail')) {
    return { kind: 'detail_export' };
  }
  if (fields.some((field) => PR_FIELD_SOURCES[field] === 'delegate')) {
    return delegated('unsupported_flag');
  }
  const live = fields.some((field) => PR_LIVE_FIELDS.includes(field));
  const found = await findPull(port, plan, {
    ...(options.currentBranch === undefined ? {} : { currentBranch: options.currentBranch }),
    maxAgeZero: live,
  });
  switch (found.kind) {
    case 'fallback':
      return found;
    case 'delegate':
      // The planner always selects a github.com repository: only the selector shape is left.
      return delegated('unsupported_shape');
    case 'error':
      return printed('', found.stderr, 1);
    case 'found':
      break;
  }
  const target: Target = found;
  if (selected.kind === 'human') {
    const read = await readPull(port, target, false, options.env, found.envelopes);
    if (read.kind === 'outcome') return read.outcome;
    const pages = await readAllPages(port, {
      path: `${repoPath(target.repo)}/pulls/${String(target.number)}/reviews`,
    });
    if (pages.kind === 'fallback') return pages;
    const reviews = pages.kind === 'pages' ? sanitizeJson(pages.items) : undefined;
    if (!Array.isArray(reviews) || !reviews.every(isRestReview)) {
      return delegated('unsupported_shape');
    }
    const text = renderPrPreview(read.pull, reviews);
    return text === undefined ? delegated('unsupported_shape') : withNote(read.note, printed(text));
  }

  if (fields.length === 1 && fields[0] === 'number') {
    const note = noteOf(found.envelopes, live, options.env);
    return withNote(note, await writeExport({ number: target.number }, selected.jq, options.jq));
  }
  const read = await readPull(port, target, live, options.env, found.envelopes);
  if (read.kind === 'outcome') return read.outcome;
  const names = await readNames(port, accountsNeedingNames(read.pull, fields));
  if (!(names instanceof Map)) return names;
  if (fields.some((field: PrField) => prFieldValue(read.pull, field, names) === undefined)) {
    return delegated('unsupported_flag');
  }
  const data = exportFields(
    read.pull,
    fields,
    (pull, field) => prFieldValue(pull, field, names) ?? null,
  );
  return withNote(read.note, await writeExport(data, selected.jq, options.jq));
}

/** `gh pr view` (SPEC.md `relay native` row; README "pr view"). */
export const PR_VIEW_COMMAND: ServedCommand = {
  async run(deps, output, plan, argv) {
    const [
      { createSessionRelayPort },
      { CliError },
      { delegateToNative },
      { readCurrentBranchSelection },
    ] = await Promise.all([
      import('../relay-port.js'),
      import('../../cli-error.js'),
      import('../delegate/native-delegation.js'),
      import('./pr-branch-git.js'),
    ]);
    const outcome = await runPrView(createSessionRelayPort(deps), plan, {
      jq: createJqRunner(deps),
      env: deps.env,
      currentBranch: (repo) => readCurrentBranchSelection(deps, repo),
    });
    if (outcome.kind !== 'detail_export') return finishOutcome(deps, output, argv, outcome);
    if (deps.env.RELAY_NO_FALLBACK === '1') {
      throw new CliError('unsupported_pr_detail_export', {
        message:
          'pr view --json with commits, comments or reviews needs the native CLI and RELAY_NO_FALLBACK=1 forbids it.',
      });
    }
    return delegateToNative(deps, output.stderr, argv, 'unsupported_flag');
  },
};
