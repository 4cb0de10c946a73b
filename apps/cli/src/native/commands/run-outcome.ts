import type { CliDependencies } from '../../cli-dependencies.js';
import { CliError } from '../../cli-error.js';
import { delegateToNative } from '../delegate/native-delegation.js';
import type { ActionsOutcome } from './run-reads.js';
import type { NativeOutput } from './served-command.js';
import { finishOutcome } from './served-outcome.js';

/**
 * Ends an Actions command: {@link finishOutcome}, and client rule 9's run-export hand-off — a
 * `--json` run export the relay cannot prove runs gh, or fails with `unsupported_run_export`
 * under RELAY_NO_FALLBACK=1.
 *
 * @throws CliError `unsupported_run_export`, `fallback_local` under RELAY_NO_FALLBACK=1
 */
export async function finishActionsOutcome(
  deps: CliDependencies,
  output: NativeOutput,
  argv: readonly string[],
  outcome: ActionsOutcome,
): Promise<number> {
  if (outcome.kind !== 'run_export') return finishOutcome(deps, output, argv, outcome);
  if (deps.env.RELAY_NO_FALLBACK === '1') {
    throw new CliError('unsupported_run_export', {
      message:
        'This run export is not one the relay can prove (an integer beyond ±(2^53−1) or an unproved shape) and RELAY_NO_FALLBACK=1 forbids the native CLI.',
    });
  }
  return delegateToNative(deps, output.stderr, argv, 'unsupported_shape');
}
