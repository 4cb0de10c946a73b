import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DemoWorldIds, ForgeSim } from '@relay/forge-sim';
import { buildCli, runBinary, startRelayStack } from './relay-stack.js';
import type { BuiltCli, RelayStack } from './relay-stack.js';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * `relay native pr diff` through the BUILT binary (tsdown into a directory of its own) against
 * the real relay-server and @relay/forge-sim on loopback: the bytes printed are forge-sim's
 * own `.diff`/`.patch` pages of the PR, read through the relay's token-free web lane; a branch
 * and the current branch are found as gh's finder does (a REST head lookup).
 */
let cli: BuiltCli;

/** Runs the built binary in `cwd` (also its HOME). */
async function relay(args: readonly string[], env: Record<string, string>, cwd: string) {
  const result = await runBinary(cli.bin, args, { HOME: cwd, ...env }, cwd);
  return { code: result.code, stdout: result.stdoutBytes, stderr: result.stderr };
}

/** A fake gh that records its argv and exits 7. */
function writeFakeGh(dir: string): string {
  const path = join(dir, 'fake-gh');
  writeFileSync(path, `#!/bin/sh\nprintf '%s\\n' "$@" > "${dir}/native-argv"\nexit 7\n`);
  chmodSync(path, 0o755);
  return path;
}

async function bytesOf(url: string): Promise<Buffer> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

/** Runs a command in `cwd`; its exit code. */
function run(command: string, args: readonly string[], cwd: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', resolve);
  });
}

beforeAll(async () => {
  cli = await buildCli('relay-native-pr-diff-cli');
}, 120_000);
afterAll(() => {
  cli.remove();
});

describe('relay native pr diff (built binary) against relay-server and forge-sim', () => {
  let stack: RelayStack;
  let sim: ForgeSim;
  let env: Record<string, string>;
  let ids: DemoWorldIds;
  let dir: { readonly path: string };

  beforeEach(async () => {
    stack = await startRelayStack({
      bin: cli.bin,
      env: (path) => ({ RELAY_NATIVE_CLI: writeFakeGh(path) }),
    });
    ({ sim, env, ids } = stack);
    dir = { path: stack.dir };
  });
  afterEach(async () => {
    await stack.close();
  });

  it("prints forge-sim's .diff and .patch bytes of the PR, and the names of its files", async () => {
    const n = String(ids.pullNumber);
    const page = `${sim.urls.web}/acme/widgets/pull/${n}`;
    const diff = await bytesOf(`${page}.diff`);
    const patch = await bytesOf(`${page}.patch`);
    expect(diff.length).toBeGreaterThan(0);

    const cases: [readonly string[], Buffer][] = [
      [['pr', 'diff', n, '-R', 'acme/widgets'], diff],
      [['pr', 'diff', `#${n}`, '--color', 'never', '-R', 'acme/widgets'], diff],
      [['pr', 'diff', `https://github.com/acme/widgets/pull/${n}/files`, '-R', 'acme/other'], diff],
      [['pr', 'diff', n, '--patch', '-R', 'acme/widgets'], patch],
    ];
    for (const [argv, expected] of cases) {
      const result = await relay(['native', ...argv], env, dir.path);
      expect({ argv, code: result.code, stderr: result.stderr }).toEqual({
        argv,
        code: 0,
        stderr: '',
      });
      expect(result.stdout.equals(expected)).toBe(true);
    }

    const filesResponse = await fetch(`${sim.urls.api}/repos/acme/widgets/pulls/${n}/files`);
    const files = (await filesResponse.json()) as { filename: string }[];
    expect(files.length).toBeGreaterThan(0);
    const names = await relay(
      ['native', 'pr', 'diff', n, '--name-only', '--patch', '-R', 'acme/widgets'],
      env,
      dir.path,
    );
    expect(names).toMatchObject({ code: 0, stderr: '' });
    expect(names.stdout.toString('utf8')).toBe(files.map((file) => `${file.filename}\n`).join(''));
  }, 60_000);

  it('a branch, or the current branch, prints the diff of its PR (found as gh’s finder does)', async () => {
    const diff = await bytesOf(`${sim.urls.web}/acme/widgets/pull/${String(ids.pullNumber)}.diff`);
    const byBranch = await relay(
      ['native', 'pr', 'diff', 'feature/sprockets', '-R', 'acme/widgets'],
      env,
      dir.path,
    );
    expect({ code: byBranch.code, stderr: byBranch.stderr }).toEqual({ code: 0, stderr: '' });
    expect(byBranch.stdout.equals(diff)).toBe(true);

    const work = join(dir.path, 'work');
    mkdirSync(work);
    for (const args of [
      ['init', '-q'],
      ['symbolic-ref', 'HEAD', 'refs/heads/feature/sprockets'],
      ['remote', 'add', 'origin', 'git@github.com:acme/widgets.git'],
    ]) {
      expect(await run('git', args, work)).toBe(0);
    }
    const current = await relay(['native', 'pr', 'diff'], env, work);
    expect({ code: current.code, stderr: current.stderr }).toEqual({ code: 0, stderr: '' });
    expect(current.stdout.equals(diff)).toBe(true);

    // HEAD not on a branch: gh's error, exit 1.
    const git = [
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@example.com',
      '-c',
      'commit.gpgsign=false',
    ];
    expect(await run('git', [...git, 'commit', '-q', '--allow-empty', '-m', 'x'], work)).toBe(0);
    expect(await run('git', ['checkout', '-q', '--detach'], work)).toBe(0);
    const detached = await relay(['native', 'pr', 'diff'], env, work);
    expect({
      code: detached.code,
      stdout: detached.stdout.length,
      stderr: detached.stderr,
    }).toEqual({
      code: 1,
      stdout: 0,
      stderr: 'could not determine current branch: failed to run git: not on any branch\n',
    });
    expect(existsSync(join(dir.path, 'native-argv'))).toBe(false);
  }, 60_000);

  it('a branch without a PR prints gh’s not-found error with exit 1', async () => {
    const result = await relay(
      ['native', 'pr', 'diff', 'no-such-branch', '-R', 'acme/widgets'],
      env,
      dir.path,
    );
    expect({ code: result.code, stdout: result.stdout.length, stderr: result.stderr }).toEqual({
      code: 1,
      stdout: 0,
      stderr: 'no pull requests found for branch "no-such-branch"\n',
    });
  }, 60_000);

  it("prints gh's error line with exit 1 for a PR that does not exist", async () => {
    const result = await relay(
      ['native', 'pr', 'diff', '999', '-R', 'acme/widgets'],
      env,
      dir.path,
    );
    expect(result.stdout.length).toBe(0);
    expect(result.stderr).toBe(
      'could not find pull request diff: HTTP 404: Not Found (https://api.github.com/repos/acme/widgets/pulls/999)\n',
    );
    expect(result.code).toBe(1);
  }, 60_000);

  it('runs the native gh for a private repository (the relay answers fallback_local)', async () => {
    const argv = ['pr', 'diff', '1', '-R', 'acme/secret-sauce'];
    const result = await relay(['native', ...argv], env, dir.path);
    expect(result.code).toBe(7);
    expect(readFileSync(join(dir.path, 'native-argv'), 'utf8')).toBe(
      argv.map((arg) => `${arg}\n`).join(''),
    );
  }, 60_000);
});
