import type { CliEnv } from '../../cli-dependencies.js';

/** The public forge host every native child is forced to (SPEC.md client rule 16). */
export const PUBLIC_FORGE_HOST = 'github.com';

/**
 * Variables removed from a native child's environment: the repository override gh honours
 * (`GH_REPO`, gh v2.60.0 `help environment`) and the enterprise tokens, which only an
 * enterprise host (never the forced public host) would use.
 */
export const REMOVED_CHILD_VARIABLES: readonly string[] = [
  'GH_REPO',
  'GH_ENTERPRISE_TOKEN',
  'GITHUB_ENTERPRISE_TOKEN',
];

/**
 * The environment of a native child (SPEC.md client rule 16): `env` (already without relay
 * credentials) with `GH_HOST` forced to the public host and every inherited repository override
 * removed, so that what relay checked is what gh publishes, and where. An explicit `-R` on the
 * command line stays: it is part of the checked argv.
 *
 * @param env - the environment the child would otherwise get
 * @example
 * ```ts
 * forcePublicHost({ GH_HOST: 'ghe.example', GH_REPO: 'a/b', PATH: '/bin' });
 * // { GH_HOST: 'github.com', PATH: '/bin' }
 * ```
 */
export function forcePublicHost(env: CliEnv): CliEnv {
  const out: Record<string, string | undefined> = { ...env, GH_HOST: PUBLIC_FORGE_HOST };
  for (const name of REMOVED_CHILD_VARIABLES) Reflect.deleteProperty(out, name);
  return out;
}
