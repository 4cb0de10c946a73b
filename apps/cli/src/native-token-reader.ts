import type { CliDependencies } from './cli-dependencies.js';
import { CliError } from './cli-error.js';
import { locateNativeCli } from './native-cli.js';

/** The public forge host whose token login uses, whatever host override is set. */
export const PUBLIC_FORGE_HOST = 'github.com';

/** Variables that select another host or an enterprise credential: removed for `gh auth token`. */
const HOST_OVERRIDES: readonly string[] = [
  'GH_HOST',
  'GH_ENTERPRISE_TOKEN',
  'GITHUB_ENTERPRISE_TOKEN',
  'GH_REPO',
];

function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/** Where the forge token came from (never the token itself). */
export type NativeTokenSource = 'GH_TOKEN' | 'GITHUB_TOKEN' | 'native_cli';

/**
 * Reads the local forge token for login (client rule 1): GH_TOKEN, then GITHUB_TOKEN, then
 * `gh auth token --hostname github.com` (always the public host; enterprise variables are never
 * read). Blank values count as missing.
 *
 * @throws CliError `native_token_missing` when none yields a nonblank token
 */
export async function readNativeToken(
  deps: CliDependencies,
): Promise<{ token: string; source: NativeTokenSource }> {
  const fromGh = nonBlank(deps.env.GH_TOKEN);
  if (fromGh !== undefined) return { token: fromGh, source: 'GH_TOKEN' };
  const fromGithub = nonBlank(deps.env.GITHUB_TOKEN);
  if (fromGithub !== undefined) return { token: fromGithub, source: 'GITHUB_TOKEN' };
  let native: string;
  try {
    native = await locateNativeCli(deps);
  } catch {
    throw new CliError('native_token_missing');
  }
  const env: Record<string, string | undefined> = { ...deps.env };
  for (const name of HOST_OVERRIDES) Reflect.deleteProperty(env, name);
  let output;
  try {
    output = await deps.runProcess(native, ['auth', 'token', '--hostname', PUBLIC_FORGE_HOST], {
      env,
    });
  } catch {
    throw new CliError('native_token_missing');
  }
  const token =
    output.code === 0 ? nonBlank(Buffer.from(output.stdout).toString('utf8')) : undefined;
  if (token === undefined || /\s/.test(token)) throw new CliError('native_token_missing');
  return { token, source: 'native_cli' };
}
