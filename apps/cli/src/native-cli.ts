import { isAbsolute } from 'node:path';
import type { CliDependencies, CliEnv } from './cli-dependencies.js';
import { CliError } from './cli-error.js';

/** The native CLI's executable name. */
export const NATIVE_CLI_NAME = 'gh';

/** Variables that hold relay credentials: never handed to the native CLI. */
export const RELAY_SECRET_VARIABLES: readonly string[] = ['RELAY_TOKEN', 'RELAY_ADMIN_TOKEN'];

/**
 * Finds the real native CLI (DESIGN.md §3): RELAY_NATIVE_CLI (an absolute path), else the
 * first `gh` on PATH that is not the relay shim.
 *
 * @throws CliError `native_cli_missing`
 */
export async function locateNativeCli(deps: CliDependencies): Promise<string> {
  const explicit = deps.env.RELAY_NATIVE_CLI?.trim();
  if (explicit !== undefined && explicit !== '') {
    if (!isAbsolute(explicit)) {
      throw new CliError('native_cli_missing', {
        message: 'RELAY_NATIVE_CLI must be an absolute path.',
      });
    }
    if (await deps.isRelayShim(explicit)) {
      throw new CliError('native_cli_missing', {
        message: 'RELAY_NATIVE_CLI points at the relay shim itself.',
      });
    }
    return explicit;
  }
  const found = await deps.findExecutable(
    NATIVE_CLI_NAME,
    deps.env,
    async (path) => !(await deps.isRelayShim(path)),
  );
  if (found === undefined) throw new CliError('native_cli_missing');
  return found;
}

/** The environment the native CLI runs with: the user's, without relay credentials. */
export function nativeEnv(env: CliEnv): CliEnv {
  const out: Record<string, string | undefined> = { ...env };
  for (const name of RELAY_SECRET_VARIABLES) Reflect.deleteProperty(out, name);
  return out;
}

/**
 * Runs the native CLI with the original arguments and inherited stdio, with the user's own
 * credentials, and resolves its exit code (client rules 5 and 7). The final native dispatch
 * (`dispatchNative`): a protected invocation first passes the outbound string guard (client
 * rule 15), a modeled publication runs from sanitized snapshots (client rule 16).
 *
 * @throws CliError `native_cli_missing` when it cannot be found or started;
 *   `string_rewrite_policy_failure`, `string_rewrite_blocked`, `usage_error` (gh does not run)
 */
export async function runNativeCli(
  deps: CliDependencies,
  argv: readonly string[],
): Promise<number> {
  const { dispatchNative } = await import('./native/delegate/publication-dispatch.js');
  return dispatchNative(deps, argv);
}
