import { describe, expect, it } from 'vitest';
import { createFakeDependencies, runCli } from '../../test/cli-harness.js';

describe('relay install-shim (command runner)', () => {
  it.each<[string[], Record<string, string>, string]>([
    [['--shell', 'bash'], { SHELL: '/bin/zsh' }, 'bash'],
    [[], { SHELL: '/usr/local/bin/fish' }, 'fish'],
    [['--dry-run'], { SHELL: '/bin/bash' }, 'bash'],
  ])('relay install-shim %j with %j refuses with one line, exit 2', async (args, env, shell) => {
    const deps = createFakeDependencies({ env });
    const result = await runCli(['install-shim', ...args], deps);
    expect(result).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `relay: Only zsh is supported, not ${shell}. (shell_unsupported)\n`,
    });
    expect(deps.processRuns).toEqual([]);
  });

  it('has help', async () => {
    const result = await runCli(['install-shim', '--help'], createFakeDependencies());
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('$ relay install-shim');
    expect(result.stdout).toContain('--dry-run     print the plan, change nothing');
  });
});
