import type { CliDependencies } from '../../cli-dependencies.js';
import type { ServePlan } from '../argv/native-plan.js';

/** Where a served command writes. */
export interface NativeOutput {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

/**
 * One served gh command (`native/commands/<group>-<verb>.ts`): given the plan, read through
 * the relay and print gh's bytes, or hand `argv` to the native gh on a fallback.
 */
export interface ServedCommand {
  /**
   * Runs the plan; resolves the exit code.
   *
   * @param argv - gh's argv exactly as given, for a fallback to the native gh
   * @throws CliError for failures that end the command
   */
  run(
    deps: CliDependencies,
    output: NativeOutput,
    plan: ServePlan,
    argv: readonly string[],
  ): Promise<number>;
}

/** Loads a served command lazily (so `relay native` loads only what it runs). */
export type ServedCommandLoader = () => Promise<ServedCommand>;
