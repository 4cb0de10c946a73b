import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DemoWorldIds, ForgeSim } from '@relay/forge-sim';
import { buildCli, runBinary, startRelayStack } from './relay-stack.js';
import type { BuiltCli, RelayStack } from './relay-stack.js';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * `relay native pr view` through the BUILT binary (tsdown into a directory of its own) against
 * relay-server and @relay/forge-sim on loopback: gh's non-TTY preview and `--json` of the PR
 * forge-sim holds, the rule 8 cache note and max-age=0, gh's error for a missing PR, a branch
 * and the current branch found as gh's finder does (REST head lookup), and rule 9's detail
 * export.
 */
let cli: BuiltCli;

/** Runs the built binary in `cwd` (also its HOME). */
async function relay(args: readonly string[], env: Record<string, string>, cwd: string) {
  const result = await runBinary(cli.bin, args, { HOME: cwd, ...env }, cwd);
  return { code: result.code, stdout: result.stdout, stderr: result.stderr };
}

const HIT_NOTE =
  'relay: pr_view served from the relay cache (hit; the relay reports no refresh time — RELAY_FRESH=1 reads it fresh)\n';

/** A fake gh that records its argv and exits 7. */
function writeFakeGh(dir: string): string {
  const path = join(dir, 'fake-gh');
  writeFileSync(path, `#!/bin/sh\nprintf '%s\\n' "$@" > "${dir}/native-argv"\nexit 7\n`);
  chmodSync(path, 0o755);
  return path;
}

async function jsonOf(url: string): Promise<Record<string, unknown>> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
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
  cli = await buildCli('relay-native-pr-view-cli');
}, 120_000);
afterAll(() => {
  cli.remove();
});

describe('relay native pr view (built binary) against relay-server and forge-sim', () => {
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

  it('prints gh’s preview of the forge’s PR; a second read is a cache hit with the stderr note', async () => {
    const n = String(ids.pullNumber);
    const pull = await jsonOf(`${sim.urls.api}/repos/acme/widgets/pulls/${n}`);
    const expected = [
      'title:\tAdd sprockets',
      'state:\tOPEN',
      'author:\tbob',
      'labels:\tenhancement',
      'assignees:\t',
      // alice approved (her request was cleared); carol is still requested.
      'reviewers:\talice (Approved), carol (Requested)',
      'projects:\t',
      'milestone:\t',
      `number:\t${n}`,
      `url:\t${String(pull.html_url)}`,
      `additions:\t${String(pull.additions)}`,
      `deletions:\t${String(pull.deletions)}`,
      'auto-merge:\tdisabled',
      '--',
      'Sprockets make widgets spin.',
      '',
    ].join('\n');
    const argv = ['native', 'pr', 'view', n, '-R', 'acme/widgets'];

    expect(await relay(argv, env, dir.path)).toEqual({ code: 0, stdout: expected, stderr: '' });
    expect(await relay(argv, env, dir.path)).toEqual({
      code: 0,
      stdout: expected,
      stderr: HIT_NOTE,
    });
    expect(await relay(argv, { ...env, RELAY_QUIET_CACHE: '1' }, dir.path)).toEqual({
      code: 0,
      stdout: expected,
      stderr: '',
    });
    // Rule 8: live fields read with max-age=0 (a refill, so no note); RELAY_FRESH likewise.
    const live = await relay(
      ['native', 'pr', 'view', `#${n}`, '-R', 'acme/widgets', '--json', 'state,mergeable,number'],
      env,
      dir.path,
    );
    expect(live).toEqual({
      code: 0,
      stdout: `{"mergeable":"MERGEABLE","number":${n},"state":"OPEN"}\n`,
      stderr: '',
    });
    expect(await relay(argv, { ...env, RELAY_FRESH: '1' }, dir.path)).toEqual({
      code: 0,
      stdout: expected,
      stderr: '',
    });
  }, 60_000);

  it('--json of a merged PR: rule 9 state, people with their names, --jq', async () => {
    const n = String(ids.mergedPullNumber);
    const pull = await jsonOf(`${sim.urls.api}/repos/acme/widgets/pulls/${n}`);
    const carol = await jsonOf(`${sim.urls.api}/users/carol`);
    const person = {
      id: (pull.user as { node_id: string }).node_id,
      is_bot: false,
      login: 'carol',
      name: typeof carol.name === 'string' ? carol.name : '',
    };
    const result = await relay(
      [
        'native',
        'pr',
        'view',
        `https://github.com/acme/widgets/pull/${n}`,
        '-R',
        'acme/other',
        '--json',
        'state,author,mergedAt,closed,isDraft',
      ],
      env,
      dir.path,
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(
      `${JSON.stringify({
        author: person,
        closed: true,
        isDraft: false,
        mergedAt: String(pull.merged_at).replace(/\.\d+Z$/, 'Z'),
        state: 'MERGED',
      })}\n`,
    );
    // A PR URL needs no repository (none here: no -R, no GH_REPO, no git remote).
    const jq = await relay(
      [
        'native',
        'pr',
        'view',
        `https://github.com/acme/widgets/pull/${n}`,
        '--json',
        'author',
        '--jq',
        '.author.login',
      ],
      env,
      dir.path,
    );
    expect(jq).toMatchObject({ code: 0, stdout: 'carol\n' });
  }, 60_000);

  it('no argument on a branch whose merge ref is refs/pull/N/head (gh pr checkout) views PR N', async () => {
    const n = String(ids.pullNumber);
    const work = join(dir.path, 'work');
    mkdirSync(work);
    for (const args of [
      ['init', '-q'],
      ['symbolic-ref', 'HEAD', `refs/heads/pr-${n}`],
      ['remote', 'add', 'origin', 'https://github.com/acme/widgets.git'],
      ['config', `branch.pr-${n}.remote`, 'origin'],
      ['config', `branch.pr-${n}.merge`, `refs/pull/${n}/head`],
    ]) {
      expect(await run('git', args, work)).toBe(0);
    }
    const result = await relay(['native', 'pr', 'view', '--json', 'number,title'], env, work);
    expect(result).toEqual({
      code: 0,
      stdout: `{"number":${n},"title":"Add sprockets"}\n`,
      stderr: '',
    });
  }, 60_000);

  it('a branch: gh’s preview of its PR, looked up by head through the relay (route pr_list)', async () => {
    const n = String(ids.pullNumber);
    const argv = ['native', 'pr', 'view', 'feature/sprockets', '-R', 'acme/widgets'];
    const byBranch = await relay(argv, env, dir.path);
    expect(byBranch).toMatchObject({ code: 0, stderr: '' });
    expect(byBranch.stdout).toContain(`number:\t${n}\n`);
    // The same bytes as by number (whose PR read is now a relay cache hit).
    expect(await relay(['native', 'pr', 'view', n, '-R', 'acme/widgets'], env, dir.path)).toEqual({
      code: 0,
      stdout: byBranch.stdout,
      stderr: HIT_NOTE,
    });
    // The lookup went through the relay: read again, it is a relay cache hit too.
    expect(await relay(argv, env, dir.path)).toEqual({
      code: 0,
      stdout: byBranch.stdout,
      stderr:
        'relay: pr_list served from the relay cache (hit; the relay reports no refresh time — RELAY_FRESH=1 reads it fresh)\n',
    });
    // gh's finder keeps a merged PR when its head is not the default branch.
    const merged = await relay(
      ['native', 'pr', 'view', 'fix/typo', '-R', 'acme/widgets', '--json', 'number,state'],
      env,
      dir.path,
    );
    expect(merged).toEqual({
      code: 0,
      stdout: `{"number":${String(ids.mergedPullNumber)},"state":"MERGED"}\n`,
      stderr: '',
    });
    expect(existsSync(join(dir.path, 'native-argv'))).toBe(false);
  }, 60_000);

  it('a branch with no PR, or another owner’s fork branch, prints gh’s not-found error (exit 1)', async () => {
    for (const branch of ['no-such-branch', 'hubot:feature/sprockets']) {
      expect(
        await relay(['native', 'pr', 'view', branch, '-R', 'acme/widgets'], env, dir.path),
      ).toEqual({
        code: 1,
        stdout: '',
        stderr: `no pull requests found for branch "${branch}"\n`,
      });
    }
  }, 60_000);

  it('no argument: the current branch (tracking feature/sprockets under another local name)', async () => {
    const work = join(dir.path, 'work');
    mkdirSync(work);
    for (const args of [
      ['init', '-q'],
      ['symbolic-ref', 'HEAD', 'refs/heads/my-sprockets'],
      ['remote', 'add', 'origin', 'https://github.com/acme/widgets.git'],
      ['config', 'branch.my-sprockets.remote', 'origin'],
      ['config', 'branch.my-sprockets.merge', 'refs/heads/feature/sprockets'],
    ]) {
      expect(await run('git', args, work)).toBe(0);
    }
    const result = await relay(['native', 'pr', 'view', '--json', 'number,title'], env, work);
    expect(result).toEqual({
      code: 0,
      stdout: `{"number":${String(ids.pullNumber)},"title":"Add sprockets"}\n`,
      stderr: '',
    });
    // Untracked, the branch is looked up by its own name: no PR has that head.
    expect(await run('git', ['config', '--unset', 'branch.my-sprockets.remote'], work)).toBe(0);
    expect(await relay(['native', 'pr', 'view'], env, work)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'no pull requests found for branch "my-sprockets"\n',
    });
  }, 60_000);

  it('a missing PR prints gh’s GraphQL error with exit 1', async () => {
    const result = await relay(
      ['native', 'pr', 'view', '999', '-R', 'acme/widgets'],
      env,
      dir.path,
    );
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'GraphQL: Could not resolve to a PullRequest with the number of 999. (repository.pullRequest)\n',
    });
  }, 60_000);

  it('--json comments is rule 9’s detail export: the native gh, or unsupported_pr_detail_export', async () => {
    const argv = ['pr', 'view', String(ids.pullNumber), '-R', 'acme/widgets', '--json', 'comments'];
    const native = await relay(['native', ...argv], env, dir.path);
    expect(native.code).toBe(7);
    expect(native.stderr).toBe('relay: running the native gh (reason unsupported_flag)\n');
    expect(readFileSync(join(dir.path, 'native-argv'), 'utf8')).toBe(
      argv.map((arg) => `${arg}\n`).join(''),
    );
    const blocked = await relay(['native', ...argv], { ...env, RELAY_NO_FALLBACK: '1' }, dir.path);
    expect(blocked.code).toBe(1);
    expect(blocked.stdout).toBe('');
    expect(blocked.stderr).toContain('(unsupported_pr_detail_export)');
  }, 60_000);
});
