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
    ssr: { resolve: { conditions: ['@relay/source', 'module', 'node', 'import', 'default'] } },
    test: {
      name,
      environment: 'node',
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      ...extra.test,
    },
  });
}
