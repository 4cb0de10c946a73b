import type { CliDependencies } from '../cli-dependencies.js';
import { needsGitRemotes, planNativeInvocation } from './argv/native-plan.js';
import type { NativePlan } from './argv/native-plan.js';
import type { NativeOutput } from './commands/served-command.js';
import { SERVED_COMMANDS } from './commands/served-commands.js';
import { delegateToNative } from './delegate/native-delegation.js';
import { readGitRemotes } from './git-remotes.js';

export { readGitRemotes } from './git-remotes.js';

/**
 * Plans one `relay native <gh argv>` invocation from the real environment: reads the git
 * remotes only when the plan needs them.
 */
export async function planFromEnvironment(
  deps: CliDependencies,
  argv: readonly string[],
): Promise<NativePlan> {
  const base = { env: deps.env, stdoutIsTTY: deps.stdoutIsTTY };
  const gitRemotes = needsGitRemotes(argv, base) ? await readGitRemotes(deps) : [];
  return planNativeInvocation(argv, { ...base, gitRemotes });
}

/**
 * Runs `relay native <gh argv>`: one plan ({@link planNativeInvocation}); a served plan runs
 * its command module from {@link SERVED_COMMANDS}; gh's own flag or argument error (a `fail`
 * plan) is printed on stderr with gh's exit code, running nothing; any other plan (and a
 * served shape without a module yet: `not_yet_served`) runs the native gh with the same argv.
 *
 * @returns the exit code (the native gh's own after a delegation)
 * @throws CliError for failures that end the command (RELAY_NO_FALLBACK=1, a missing gh, …)
 */
export async function dispatchNative(
  deps: CliDependencies,
  output: NativeOutput,
  argv: readonly string[],
): Promise<number> {
  const plan = await planFromEnvironment(deps, argv);
  if (plan.kind === 'delegate') return delegateToNative(deps, output.stderr, argv, plan.reason);
  if (plan.kind === 'fail') {
    output.stderr.write(plan.stderr);
    return plan.exitCode;
  }
  const load = SERVED_COMMANDS[plan.command];
  if (load === undefined) return delegateToNative(deps, output.stderr, argv, 'not_yet_served');
  const command = await load();
  return command.run(deps, output, plan, argv);
}
