import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeDependencies, runCli, startStubRelay } from '../../test/cli-harness.js';
import type { FakeOptions, StubRelay } from '../../test/cli-harness.js';

const NATIVE = '/opt/gh/bin/gh';
const REMOTES = 'remote.origin.url git@github.com:acme/widgets.git\n';

/** A relay login (explicit token) whose pool has an empty string-rewrite policy (rule 15). */
let relay: StubRelay;
beforeAll(async () => {
  relay = await startStubRelay(() => ({ status: 500, json: {} }));
});
afterAll(async () => {
  await relay.close();
});

function fake(env: Record<string, string> = {}, options: FakeOptions = {}) {
  return createFakeDependencies({
    env: {
      RELAY_CONFIG_DIR: '/nonexistent-config',
      RELAY_URL: relay.url,
      RELAY_TOKEN: 'rly_test-token',
      RELAY_POOL: 'team',
      ...env,
    },
    executables: { gh: NATIVE },
    nativeExitCode: 5,
    runProcess: () =>
      Promise.resolve({ code: 0, stdout: Buffer.from(REMOTES), stderr: new Uint8Array() }),
    ...options,
  });
}

describe('relay native <gh argv>: the dispatcher behind clipanion', () => {
  it.each<[string[], string]>([
    [['repo', 'list', 'acme', '--limit', '5'], 'unsupported_command'],
    [['frobnicate', '--x', '--', '-y'], 'unknown_command'],
    [[], 'no_command'],
    [['--help'], 'help'],
    [['pr', 'create', '--fill'], 'write'],
    [['pr', 'view', '1', '--web'], 'web'],
    [['issue', 'list', '--bogus'], 'unknown_flag'],
  ])('relay native %j runs gh with the same argv (%s)', async (argv, reason) => {
    const deps = fake();
    const result = await runCli(['native', ...argv], deps);
    expect(result.stdout).not.toMatch(/Command not found/);
    expect(result.code).toBe(5);
    expect(deps.nativeRuns).toEqual([{ file: NATIVE, args: argv, env: expect.any(Object) }]);
    expect(result.stderr).toBe(`relay: running the native gh (reason ${reason})\n`);
  });

  it('reads the git remotes only when the plan needs them', async () => {
    const served = fake();
    await runCli(['native', 'pr', 'view', '1'], served);
    expect(served.processRuns.map((run) => run.file)).toEqual(['git']);
    const write = fake();
    await runCli(['native', 'pr', 'create'], write);
    expect(write.processRuns).toEqual([]);
  });

  it('RELAY_QUIET_FALLBACK=1 silences the notice', async () => {
    const deps = fake({ RELAY_QUIET_FALLBACK: '1' });
    const result = await runCli(['native', 'repo', 'clone', 'acme/widgets'], deps);
    expect(result).toMatchObject({ code: 5, stderr: '' });
  });

  it('RELAY_NO_FALLBACK=1 fails with one line and runs nothing', async () => {
    const deps = fake({ RELAY_NO_FALLBACK: '1' });
    const result = await runCli(['native', 'issue', 'comment', '3', '--body', 'x'], deps);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toHaveLength(2);
    expect(result.stderr).toMatch(/\(fallback_local, reason write\)\n$/);
    expect(deps.nativeRuns).toEqual([]);
  });

  it('relay native api keeps its own command: no notice on its delegations', async () => {
    const deps = fake();
    const result = await runCli(['native', 'api', 'repos/o/r', '-f', 'a=b'], deps);
    expect(result).toMatchObject({ code: 5, stderr: '' });
    expect(deps.nativeRuns[0]?.args).toEqual(['api', 'repos/o/r', '-f', 'a=b']);
  });

  it('fails with native_cli_missing when there is no gh', async () => {
    const deps = fake({}, { executables: {} });
    const result = await runCli(['native', 'pr', 'create'], deps);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/native_cli_missing/);
  });
});
