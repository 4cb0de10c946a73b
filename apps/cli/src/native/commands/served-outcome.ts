import type { CliDependencies } from '../../cli-dependencies.js';
import { CliError } from '../../cli-error.js';
import { runNativeCli } from '../../native-cli.js';
import { delegateToNative } from '../delegate/native-delegation.js';
import type { CommandOutcome, JqRunner } from '../export/export-output.js';
import { runJqExport } from '../export/jq-export.js';
import type { NativeOutput } from './served-command.js';

/** The system jq as a {@link JqRunner} (looked up on PATH at the first use). */
export function createJqRunner(deps: CliDependencies): JqRunner {
  return async (filter, json) => {
    const path = await deps.findExecutable('jq', deps.env);
    if (path === undefined) return 'missing';
    return runJqExport(deps, path, filter, json);
  };
}

/**
 * Ends a served command: prints its bytes and resolves its exit code, or runs the native gh
 * — a delegation with the dispatcher's notice, a relay `fallback_local` like `native api`
 * (RELAY_NO_FALLBACK=1 fails with the relay's reason instead).
 *
 * @throws CliError `fallback_local` under RELAY_NO_FALLBACK=1
 */
export async function finishOutcome(
  deps: CliDependencies,
  output: NativeOutput,
  argv: readonly string[],
  outcome: CommandOutcome,
): Promise<number> {
  switch (outcome.kind) {
    case 'done':
      if (outcome.stdout !== '') output.stdout.write(outcome.stdout);
      if (outcome.stderr !== '') output.stderr.write(outcome.stderr);
      return outcome.code;
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
}
