import type { CliDependencies } from './cli-dependencies.js';

/**
 * Runs one `relay` command body and maps an expected failure (`CliError`) once: one stderr line
 * (styled for a terminal), the code's exit code. Anything else is rethrown. Shared by
 * `RelayCommand.execute` and the `relay native` entry (`native-main.ts`), which runs without
 * clipanion. The error module is imported lazily, so that a command that succeeds loads none of
 * it.
 */
export async function reportCliError(
  deps: CliDependencies,
  stderr: NodeJS.WritableStream,
  run: () => Promise<number>,
): Promise<number> {
  try {
    return await run();
  } catch (error) {
    const { CliError, formatCliError } = await import('./cli-error.js');
    if (!(error instanceof CliError)) throw error;
    const { createTerminalStyle } = await import('./terminal-style.js');
    const style = createTerminalStyle(deps.env, deps.stderrIsTTY);
    stderr.write(style.error(formatCliError(error)));
    return error.exitCode;
  }
}
