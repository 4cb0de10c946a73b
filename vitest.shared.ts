import { defineProject, type UserWorkspaceConfig } from 'vitest/config';

/**
 * The vitest project of one package: tests run from source, resolving workspace
 * packages through their `@relay/source` export condition, so no build is needed.
 */
export function createProjectConfig(
  name: string,
  extra: UserWorkspaceConfig = {},
): UserWorkspaceConfig {
  return defineProject({
    ...extra,
    resolve: { conditions: ['@relay/source', 'module', 'node', 'import', 'default'] },
    // vitest hands these to Node as --conditions for the test workers, where they apply to
    // require() too: an `import` condition there makes a CommonJS package's require() of a dual
    // package load its ESM build (pg requiring pg-pool then fails). Vite and Node add `import`
    // and `require` themselves, by the kind of each import.
    ssr: { resolve: { conditions: ['@relay/source', 'module', 'node', 'default'] } },
    test: {
      name,
      environment: 'node',
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      ...extra.test,
    },
  });
}
