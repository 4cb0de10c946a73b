import type { RelayEnvelope } from '@relay/protocol';
import type { CliDependencies } from '../../cli-dependencies.js';
import type { DelegateReason, ServePlan } from '../argv/native-plan.js';
import {
  GIT_CURRENT_BRANCH_ARGS,
  branchConfigArgs,
  parseCurrentBranch,
  pullNumberOfBranchConfig,
} from '../argv/current-branch-pr.js';
import { parsePrSelector } from '../argv/pr-selector.js';
import { GITHUB_HOST } from '../argv/repo-selector.js';
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
   * The PR number git's configuration gives the current branch (`refs/pull/N/head`), for
   * `pr view` without an argument; `undefined` (or no reader) runs gh.
   */
  readonly currentBranchPr?: () => Promise<number | undefined>;
}

/** A PR named without an API call. */
interface Target {
  readonly repo: GhRepository;
  readonly number: number;
}

/**
 * The PR a `pr view` plan names without an API call: a number (`12`, `#12`) in the selected
 * repository, or a PR URL's repository. A branch, or no argument, needs gh's GraphQL head
 * lookup (30 newest PRs with that head from any fork, open first, git's push configuration):
 * those delegate.
 */
export function resolvePrTarget(plan: Pick<ServePlan, 'args' | 'repo'>): Target | DelegateReason {
  const selector = parsePrSelector(plan.args[0]);
  switch (selector.kind) {
    case 'number':
      return plan.repo === undefined
        ? 'repo_unresolved'
        : { repo: plan.repo.repo, number: selector.number };
    case 'url':
      return selector.repo.host === GITHUB_HOST
        ? { repo: selector.repo, number: selector.number }
        : 'other_host';
    case 'branch':
    case 'current_branch':
    case 'unmodelled':
      return 'unsupported_shape';
  }
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
 */
async function readPull(
  port: RelayPort,
  target: Target,
  maxAgeZero: boolean,
  env: PrViewOptions['env'],
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
  // A read that asked for max-age=0 was refreshed for this call: its hit is quiet too.
  const noteOptions = cacheNoteOptions(env);
  const note = formatCacheNote([envelope], ['pr_view'], {
    ...noteOptions,
    fresh: noteOptions.fresh || maxAgeZero,
  });
  return { kind: 'pull', pull, note };
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
 * `gh pr view [<number> | <url>] [-R repo] [--json fields [--jq expr]]` (or no argument on a
 * branch whose git `merge` ref is `refs/pull/N/head`, {@link PrViewOptions.currentBranchPr})
 * through the relay
 * (stdout not a terminal), as gh v2.60's `viewRun`:
 * - human output: the PR (route pr_view) and all its reviews (pr_reviews, at most 10 pages)
 *   rendered as `printRawPrPreview` ({@link renderPrPreview}); unproved lines run gh;
 * - `--json`: only `number` answers without a read (as gh's finder); otherwise the PR, plus
 *   `/users/{login}` for people's names; a field REST cannot give exactly runs gh; commits,
 *   comments or reviews are client rule 9's detail export (`detail_export`);
 * - client rule 8: a `--json` read naming a live field ({@link PR_LIVE_FIELDS}) sends
 *   `cache-control: max-age=0`; a PR read served from the relay cache adds the stderr note;
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
  let target = resolvePrTarget(plan);
  if (plan.args.length === 0 && plan.repo !== undefined && options.currentBranchPr !== undefined) {
    const number = await options.currentBranchPr();
    if (number !== undefined) target = { repo: plan.repo.repo, number };
  }
  // The planner always selects a github.com repository: only the selector shape is left.
  if (typeof target === 'string') return delegated('unsupported_shape');
  if (selected.kind === 'human') {
    const read = await readPull(port, target, false, options.env);
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

  const fields = selected.fields;
  if (fields.some((field) => PR_FIELD_SOURCES[field] === 'detail'))
    return { kind: 'detail_export' };
  if (fields.some((field) => PR_FIELD_SOURCES[field] === 'delegate')) {
    return delegated('unsupported_flag');
  }
  if (fields.length === 1 && fields[0] === 'number') {
    return writeExport({ number: target.number }, selected.jq, options.jq);
  }
  const live = fields.some((field) => PR_LIVE_FIELDS.includes(field));
  const read = await readPull(port, target, live, options.env);
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

/**
 * The current branch's PR number from git (`git symbolic-ref --quiet HEAD`, then its
 * `branch.<name>.merge`), as gh's finder reads it; `undefined` when git fails, HEAD is
 * detached, or the branch does not merge a `refs/pull/N/head`.
 */
async function readCurrentBranchPr(deps: CliDependencies): Promise<number | undefined> {
  const git = async (args: readonly string[]): Promise<string | undefined> => {
    try {
      const result = await deps.runProcess('git', args, { env: deps.env });
      return result.code === 0 ? Buffer.from(result.stdout).toString('utf8') : undefined;
    } catch {
      return undefined;
    }
  };
  const head = await git(GIT_CURRENT_BRANCH_ARGS);
  const branch = head === undefined ? undefined : parseCurrentBranch(head);
  if (branch === undefined) return undefined;
  const config = await git(branchConfigArgs(branch));
  return config === undefined ? undefined : pullNumberOfBranchConfig(config);
}

/** `gh pr view` (SPEC.md `relay native` row; README "pr view"). */
export const PR_VIEW_COMMAND: ServedCommand = {
  async run(deps, output, plan, argv) {
    const [{ createSessionRelayPort }, { CliError }, { delegateToNative }] = await Promise.all([
      import('../relay-port.js'),
      import('../../cli-error.js'),
      import('../delegate/native-delegation.js'),
    ]);
    const outcome = await runPrView(createSessionRelayPort(deps), plan, {
      jq: createJqRunner(deps),
      env: deps.env,
      currentBranchPr: () => readCurrentBranchPr(deps),
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
