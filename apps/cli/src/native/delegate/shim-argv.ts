/** The name that makes `relay` act as gh: the shim symlink's name. */
export const SHIM_INVOCATION_NAME = 'gh';

/**
 * relay's argv from how it was started: through a file named `gh` (the shim symlink; the bin
 * is a node script, so the name is `process.argv[1]`'s basename) `relay` runs as
 * `relay native <argv>`; under any other name the argv is unchanged.
 *
 * @param scriptPath - `process.argv[1]`
 * @param args - `process.argv.slice(2)`
 */
export function toRelayArgv(scriptPath: string | undefined, args: readonly string[]): string[] {
  const name = scriptPath?.slice(scriptPath.lastIndexOf('/') + 1);
  return name === SHIM_INVOCATION_NAME ? ['native', ...args] : [...args];
}
