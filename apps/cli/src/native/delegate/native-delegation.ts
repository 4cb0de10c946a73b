import type { CliDependencies } from '../../cli-dependencies.js';
import { CliError } from '../../cli-error.js';
import type { DelegateReason } from '../argv/native-plan.js';

/** The variable that silences the delegation notice (`1` only), like RELAY_QUIET_CACHE. */
export const QUIET_FALLBACK_VARIABLE = 'RELAY_QUIET_FALLBACK';

/** The one stderr line printed before the native gh runs (unless RELAY_QUIET_FALLBACK=1). */
export function formatDelegationNotice(reason: DelegateReason): string {
  return `relay: running the native gh (reason ${reason})\n`;
}

/**
 * Hands a `relay native` invocation to the native gh (SPEC.md client rules 5, 7, 11): the
 * same argv, inherited stdio, the user's environment without relay credentials, and the
 * native exit code. Prints {@link formatDelegationNotice} on stderr first unless
 * RELAY_QUIET_FALLBACK=1. Under RELAY_NO_FALLBACK=1 nothing runs: the invocation fails with
 * `fallback_local` and the delegate reason (one stderr line, exit 1 — the same code and line
 * shape as a relay fallback of `native api` under RELAY_NO_FALLBACK=1). A protected invocation
 * passes the outbound string guard first (client rule 15: a relay login, a fresh policy, no
 * argument matching it), and a modeled publication is rewritten into private snapshots (client
 * rule 16); a guard failure prints its one line instead of the notice, and gh does not run.
 *
 * @param deps - the effects (env, the native CLI's lookup and `execInherited`)
 * @param stderr - where the notice goes
 * @param argv - gh's argv, exactly as given to `relay native`
 * @param reason - why the relay does not serve it
 * @returns the native gh's exit code
 * @throws CliError `fallback_local` under RELAY_NO_FALLBACK=1; `native_cli_missing`;
 *   `string_rewrite_policy_failure`, `string_rewrite_blocked`, `usage_error`
 */
export async function delegateToNative(
  deps: CliDependencies,
  stderr: NodeJS.WritableStream,
  argv: readonly string[],
  reason: DelegateReason,
): Promise<number> {
  if (deps.env.RELAY_NO_FALLBACK === '1') {
    throw new CliError('fallback_local', {
      reason,
      message: 'This gh command needs the native CLI and RELAY_NO_FALLBACK=1 forbids it.',
    });
  }
  const { dispatchNative } = await import('./publication-dispatch.js');
  return dispatchNative(deps, argv, {
    stderr,
    beforeRun: () => {
      if (deps.env[QUIET_FALLBACK_VARIABLE] !== '1') stderr.write(formatDelegationNotice(reason));
    },
  });
}
