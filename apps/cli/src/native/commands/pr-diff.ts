import type { FallbackReason } from '@relay/protocol';
import { envelopeBodyBytes } from '../../gh-api-output.js';
import type { DelegateReason, ServePlan } from '../argv/native-plan.js';
import { GITHUB_HOST } from '../argv/repo-selector.js';
import type { RelayPort } from '../relay-port.js';
import { changedFileNames } from './diff-file-names.js';
import { formatGhHttpErrorText } from './gh-http-error.js';
import { findPull } from './pr-branch-finder.js';
import type { FindPullOptions } from './pr-branch-finder.js';
import type { ServedCommand } from './served-command.js';

/** The media types gh's `fetchDiff` asks for, in the spelling the relay's web lane reads. */
export const PR_DIFF_ACCEPT = {
  diff: 'application/vnd.github.diff',
  patch: 'application/vnd.github.patch',
} as const;

/** What `gh pr diff` ends with, as data (printed by {@link PR_DIFF_COMMAND}). */
export type PrDiffOutcome =
  /** gh's stdout bytes; exit 0. */
  | { readonly kind: 'print'; readonly stdout: Buffer }
  /** gh's error line (with its newline) on stderr; exit 1. */
  | { readonly kind: 'error'; readonly stderr: string }
  /** A shape the relay does not serve exactly: the native gh runs it (with a notice). */
  | { readonly kind: 'delegate'; readonly reason: DelegateReason }
  /** The relay asked for a local run (424 `fallback_local`). */
  | { readonly kind: 'fallback'; readonly reason: FallbackReason };

function isOn(plan: ServePlan, flag: string): boolean {
  return plan.flags[flag]?.at(-1) === 'true';
}

/**
 * Serves `gh pr diff [<number> | <url> | <branch>] [-R repo] [--patch] [--name-only]
 * [--color never|auto]` (non-terminal stdout; no argument: the current branch's PR) through
 * the relay, as gh v2.60's `diffRun` does: the PR is found as gh's finder does
 * ({@link findPull}: a number or URL without a read, a branch looked up by head through
 * route pr_list, none found is gh's `no pull requests found for branch "<b>"`, exit 1), then
 * one read of the PR with accept `application/vnd.github.diff` (`.patch` with `--patch`,
 * unless `--name-only`), which the relay serves from the public `.diff`/`.patch` page; a 200
 * prints the body's exact bytes (or, with `--name-only`, the names of the changed files); any
 * other status prints `could not find pull request diff: HTTP <code>: <message> (<api url>)`
 * and exits 1.
 *
 * @param port - the relay (a fake one in unit tests)
 * @param plan - the served plan (`command: 'pr diff'`)
 * @param options - the current branch's reader (no argument)
 * @returns what to print, or why the native gh runs instead
 * @throws CliError for relay failures (from the port)
 */
export async function servePrDiff(
  port: RelayPort,
  plan: ServePlan,
  options: Pick<FindPullOptions, 'currentBranch'> = {},
): Promise<PrDiffOutcome> {
  const target = await findPull(port, plan, options);
  if (target.kind !== 'found') return target;
  const nameOnly = isOn(plan, 'name-only');
  const format = isOn(plan, 'patch') && !nameOnly ? 'patch' : 'diff';
  const path = `/repos/${target.repo.owner}/${target.repo.name}/pulls/${String(target.number)}`;
  const result = await port.read({ path, headers: { accept: PR_DIFF_ACCEPT[format] } });
  if (result.kind === 'fallback') return result;
  const { envelope } = result;
  if (envelope.status !== 200) {
    const url = `https://api.${GITHUB_HOST}${path}`;
    const text = formatGhHttpErrorText(envelope, url);
    return { kind: 'error', stderr: `could not find pull request diff: ${text}\n` };
  }
  const body = envelopeBodyBytes(envelope);
  return { kind: 'print', stdout: nameOnly ? changedFileNames(body) : body };
}

/** `gh pr diff`: {@link servePrDiff} over the saved session's relay port. */
export const PR_DIFF_COMMAND: ServedCommand = {
  async run(deps, output, plan, argv) {
    const [
      { createSessionRelayPort },
      { delegateToNative },
      { runNativeCli },
      { CliError },
      { readCurrentBranchSelection },
    ] = await Promise.all([
      import('../relay-port.js'),
      import('../delegate/native-delegation.js'),
      import('../../native-cli.js'),
      import('../../cli-error.js'),
      import('./pr-branch-git.js'),
    ]);
    const outcome = await servePrDiff(createSessionRelayPort(deps), plan, {
      currentBranch: (repo) => readCurrentBranchSelection(deps, repo),
    });
    switch (outcome.kind) {
      case 'print':
        output.stdout.write(outcome.stdout);
        return 0;
      case 'error':
        output.stderr.write(outcome.stderr);
        return 1;
      case 'delegate':
        return delegateToNative(deps, output.stderr, argv, outcome.reason);
      case 'fallback':
        if (deps.env.RELAY_NO_FALLBACK === '1') {
          throw new CliError('fallback_local', {
            reason: outcome.reason,
            message: 'The relay asks for a local run and RELAY_NO_FALLBACK=1 forbids it.',
          });
        }
        return runNativeCli(deps, argv);
    }
  },
};
