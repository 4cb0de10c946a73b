import { createProjectConfig } from '../../vitest.shared.ts';

// clipanion 3.2.1 uses a directory import that only works when vitest inlines it (TOOLCHAIN.md).
export default createProjectConfig('@relay/cli', {
  test: { server: { deps: { inline: ['clipanion'] } } },
});
