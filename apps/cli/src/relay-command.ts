import { Command } from 'clipanion';
import type { BaseContext } from 'clipanion';
import type { CliDependencies } from './cli-dependencies.js';
import { reportCliError } from './report-cli-error.js';

/** The clipanion context of `relay`: the base streams plus every injected effect. */
export interface RelayContext extends BaseContext {
  /** The effects; `main.ts` passes the real ones, tests pass fakes. */
  readonly deps?: CliDependencies;
}

/**
 * The base of every `relay` command. `execute` resolves the dependencies, runs `run`, and
 * maps an expected failure (`CliError`) once: one stderr line, the code's exit code
 * ({@link reportCliError}, which imports the error module lazily).
 */
export abstract class RelayCommand extends Command<RelayContext> {
  /** Runs the command; resolves its exit code. Throws `CliError` for expected failures. */
  abstract run(deps: CliDependencies): Promise<number>;

  override async execute(): Promise<number> {
    const deps = this.context.deps;
    if (deps === undefined) throw new TypeError('relay: the command context has no dependencies');
    return reportCliError(deps, this.context.stderr, () => this.run(deps));
  }
}
