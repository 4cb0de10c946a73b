import { Command } from 'clipanion';
import type { BaseContext } from 'clipanion';
import type { CliDependencies } from './cli-dependencies.js';

/** The clipanion context of `relay`: the base streams plus every injected effect. */
export interface RelayContext extends BaseContext {
  /** The effects; `main.ts` passes the real ones, tests pass fakes. */
  readonly deps?: CliDependencies;
}

/**
 * The base of every `relay` command. `execute` resolves the dependencies, runs `run`, and
 * maps an expected failure (`CliError`) once: one stderr line, the code's exit code. The
 * error module is imported lazily, so that `relay --version` loads none of it.
 */
export abstract class RelayCommand extends Command<RelayContext> {
  /** Runs the command; resolves its exit code. Throws `CliError` for expected failures. */
  abstract run(deps: CliDependencies): Promise<number>;

  override async execute(): Promise<number> {
    const deps = this.context.deps;
    if (deps === undefined) throw new TypeError('relay: the command context has no dependencies');
    try {
      return await this.run(deps);
    } catch (error) {
      const { CliError, formatCliError } = await import('./cli-error.js');
      if (!(error instanceof CliError)) throw error;
      const { createTerminalStyle } = await import('./terminal-style.js');
      const style = createTerminalStyle(deps.env, deps.stderrIsTTY);
      this.context.stderr.write(style.error(formatCliError(error)));
      return error.exitCode;
    }
  }
}
