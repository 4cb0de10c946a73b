import type { CliDependencies } from '../../cli-dependencies.js';

/** The two zsh start-ups the installer proves the shim under: `zsh -c` and `zsh -l -c`. */
export const SHIM_VERIFICATION_SHELLS = [
  { name: 'zsh -c', args: ['-c'] },
  { name: 'zsh -l -c', args: ['-l', '-c'] },
] as const;

const GH_MARK = 'relay-shim-gh=';
const NATIVE_MARK = 'relay-shim-native=';

/**
 * The script each verification shell runs after its startup files: where `command -v gh`
 * resolves, and the pinned RELAY_NATIVE_CLI, on marked lines (startup files may print too).
 */
export const SHIM_VERIFICATION_SCRIPT = `print -r -- "${GH_MARK}$(command -v gh)"; print -r -- "${NATIVE_MARK}\${RELAY_NATIVE_CLI-}"`;

/** What one verification shell saw. */
export interface ShimVerification {
  /** `zsh -c` or `zsh -l -c`. */
  readonly shell: string;
  /** What `command -v gh` printed (`''` when gh was not found or the shell failed). */
  readonly gh: string;
  /** RELAY_NATIVE_CLI in that shell. */
  readonly nativeCli: string;
  /** Whether gh is the shim and RELAY_NATIVE_CLI the pinned native gh. */
  readonly ok: boolean;
}

function markedValue(output: string, mark: string): string {
  const lines = output.split('\n').filter((line) => line.startsWith(mark));
  return lines.at(-1)?.slice(mark.length) ?? '';
}

/** Reads a verification shell's stdout: the last marked lines win. */
export function parseShimVerification(
  shell: string,
  stdout: string,
  expected: { readonly shimPath: string; readonly nativeCli: string },
): ShimVerification {
  const gh = markedValue(stdout, GH_MARK);
  const nativeCli = markedValue(stdout, NATIVE_MARK);
  return { shell, gh, nativeCli, ok: gh === expected.shimPath && nativeCli === expected.nativeCli };
}

/**
 * Runs a non-interactive and a login zsh with the current environment (what a new shell
 * started from here sees) and checks that `command -v gh` is the shim and RELAY_NATIVE_CLI the
 * pinned native gh in both.
 */
export async function verifyShim(
  deps: CliDependencies,
  zsh: string,
  expected: { readonly shimPath: string; readonly nativeCli: string },
): Promise<readonly ShimVerification[]> {
  const results: ShimVerification[] = [];
  for (const shell of SHIM_VERIFICATION_SHELLS) {
    const output = await deps
      .runProcess(zsh, [...shell.args, SHIM_VERIFICATION_SCRIPT], { env: deps.env })
      .catch(() => undefined);
    const stdout = output === undefined ? '' : Buffer.from(output.stdout).toString('utf8');
    results.push(parseShimVerification(shell.name, stdout, expected));
  }
  return results;
}
