import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ForgeSim } from '@relay/forge-sim';
import { buildCli, runBinary, startRelayStack } from './relay-stack.js';
import type { BuiltCli, RelayStack } from './relay-stack.js';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `relay native pr list` through the BUILT binary (tsdown into a directory of its own) against
 * relay-server and @relay/forge-sim on loopback: gh's non-TTY table and `--json` of the PRs
 * forge-sim holds, the cache note, a plain-term `--search` served through REST search (route
 * search_issues, then pr_view per PR), and search shapes outside the relay's grammar running
 * the native gh.
 */
let cli: BuiltCli;

/** Runs the built binary in `cwd` (also its HOME). */
async function relay(args: readonly string[], env: Record<string, string>, cwd: string) {
  const result = await runBinary(cli.bin, args, { HOME: cwd, ...env }, cwd);
  return { code: result.code, stdout: result.stdout, stderr: result.stderr };
}

const HIT_NOTE =
  'relay: pr_list served from the relay cache (hit; the relay reports no refresh time — RELAY_FRESH=1 reads it fresh)\n';

/** A fake gh that records its argv and exits 7. */
function writeFakeGh(dir: string): string {
  const path = join(dir, 'fake-gh');
  writeFileSync(path, `#!/bin/sh\nprintf '%s\\n' "$@" > "${dir}/native-argv"\nexit 7\n`);
  chmodSync(path, 0o755);
  return path;
}

beforeAll(async () => {
  cli = await buildCli('relay-native-pr-list-cli');
}, 120_000);
afterAll(() => {
  cli.remove();
});

describe('relay native pr list (built binary) against relay-server and forge-sim', () => {
  let stack: RelayStack;
  let sim: ForgeSim;
  let env: Record<string, string>;
  let dir: { readonly path: string };

  beforeEach(async () => {
    stack = await startRelayStack({
      bin: cli.bin,
      env: (path) => ({ RELAY_NATIVE_CLI: writeFakeGh(path) }),
    });
    ({ sim, env } = stack);
    dir = { path: stack.dir };
  });
  afterEach(async () => {
    await stack.close();
  });

  it('prints gh’s table of the forge’s PRs, newest first, per state; --json; the cache note', async () => {
    const response = await fetch(`${sim.urls.api}/repos/acme/widgets/pulls?state=all`);
    const pulls = (await response.json()) as {
      number: number;
      title: string;
      state: string;
      draft: boolean;
      merged_at: string | null;
      created_at: string;
      head: { ref: string };
    }[];
    const row = (p: (typeof pulls)[number]): string =>
      `${String(p.number)}\t${p.title}\t${p.head.ref}\t${
        p.state === 'open'
          ? p.draft
            ? 'DRAFT'
            : 'OPEN'
          : p.merged_at === null
            ? 'CLOSED'
            : 'MERGED'
      }\t${p.created_at.replace(/\.\d+Z$/, 'Z')}\n`;
    const open = pulls.filter((p) => p.state === 'open');
    const merged = pulls.filter((p) => p.merged_at !== null);
    expect(open.length).toBeGreaterThan(0);
    expect(merged.length).toBeGreaterThan(0);

    const argv = ['native', 'pr', 'list', '-R', 'acme/widgets'];
    expect(await relay(argv, env, dir.path)).toEqual({
      code: 0,
      stdout: open.map(row).join(''),
      stderr: '',
    });
    expect(await relay(argv, env, dir.path)).toEqual({
      code: 0,
      stdout: open.map(row).join(''),
      stderr: HIT_NOTE,
    });
    expect(
      await relay(['native', 'pr', 'list', '-R', 'acme/widgets', '-s', 'all'], env, dir.path),
    ).toMatchObject({ code: 0, stdout: pulls.map(row).join('') });
    expect(
      await relay(
        ['native', 'pr', 'list', '-R', 'acme/widgets', '--state', 'merged'],
        env,
        dir.path,
      ),
    ).toMatchObject({ code: 0, stdout: merged.map(row).join('') });
    expect(
      await relay(
        ['native', 'pr', 'list', '-R', 'acme/widgets', '-H', 'no-such-branch'],
        env,
        dir.path,
      ),
    ).toEqual({ code: 0, stdout: '', stderr: HIT_NOTE }); // the open list's cached page, filtered

    const json = await relay(
      [
        'native',
        'pr',
        'list',
        '-R',
        'acme/widgets',
        '-s',
        'all',
        '--json',
        'number,state,headRefName',
      ],
      env,
      dir.path,
    );
    expect(json).toMatchObject({ code: 0, stderr: HIT_NOTE }); // the -s all page, cached above
    expect(json.stdout).toBe(
      `${JSON.stringify(
        pulls.map((p) => ({
          headRefName: p.head.ref,
          number: p.number,
          state: p.state === 'open' ? 'OPEN' : p.merged_at === null ? 'CLOSED' : 'MERGED',
        })),
      )}\n`,
    );
  }, 60_000);

  it('titles are collapsed as gh’s text.RemoveExcessiveWhitespace: ASCII runs only, Unicode ends', async () => {
    sim.world.addBranch({ owner: 'acme', repo: 'widgets', name: 'spaces' });
    sim.world.addCommit({
      owner: 'acme',
      repo: 'widgets',
      branch: 'spaces',
      message: 'spaces',
      files: { 'spaces.txt': 'spaces\n' },
    });
    const { pull } = sim.world.addPull({
      owner: 'acme',
      repo: 'widgets',
      title: '\u00a0 Tab\t\tand\r\nline\u00a0\u00a0nbsp\u2003em\ufeffbom \u3000',
      head: 'spaces',
    });
    const result = await relay(['native', 'pr', 'list', '-R', 'acme/widgets'], env, dir.path);
    expect(result.code).toBe(0);
    const row = result.stdout
      .split('\n')
      .find((line) => line.startsWith(`${String(pull.number)}\t`));
    // strings.TrimSpace drops the Unicode spaces at both ends; RE2's \s (tab, LF, FF, CR,
    // space) joins runs inside; NBSP, U+2003 and U+FEFF inside stay as they are.
    expect(row?.split('\t').slice(0, 4)).toEqual([
      String(pull.number),
      'Tab and line\u00a0\u00a0nbsp\u2003em\ufeffbom',
      'spaces',
      'OPEN',
    ]);
  }, 60_000);

  it('--search with plain terms: gh’s query through the relay’s REST search, then each PR', async () => {
    const response = await fetch(`${sim.urls.api}/repos/acme/widgets/pulls?state=all`);
    const pulls = (await response.json()) as {
      number: number;
      title: string;
      head: { ref: string };
      merged_at: string | null;
      created_at: string;
    }[];
    const sprockets = pulls.find((p) => p.title === 'Add sprockets');
    const typo = pulls.find((p) => p.title === 'Fix typo');
    if (sprockets === undefined || typo?.merged_at == null) {
      throw new Error('the demo world lacks its open and merged PRs');
    }
    const row = (p: typeof sprockets, state: string): string =>
      `${String(p.number)}\t${p.title}\t${p.head.ref}\t${state}\t${p.created_at.replace(/\.\d+Z$/, 'Z')}\n`;
    const searches = (): string[] =>
      sim.requests
        .find({ path: '/search/issues' })
        .map((request) => new URLSearchParams(request.query).get('q') ?? '');

    expect(
      await relay(
        ['native', 'pr', 'list', '-R', 'acme/widgets', '--search', 'sprockets'],
        env,
        dir.path,
      ),
    ).toEqual({ code: 0, stdout: row(sprockets, 'OPEN'), stderr: '' });
    expect(
      await relay(
        ['native', 'pr', 'list', '-R', 'acme/widgets', '-S', 'typo', '-s', 'closed'],
        env,
        dir.path,
      ),
    ).toEqual({ code: 0, stdout: row(typo, 'MERGED'), stderr: '' });
    expect(searches()).toEqual([
      'sprockets repo:acme/widgets state:open type:pr',
      'typo repo:acme/widgets state:closed type:pr',
    ]);
    expect(
      sim.requests.count({ path: `/repos/acme/widgets/pulls/${String(sprockets.number)}` }),
    ).toBe(1);
    expect(sim.requests.count({ path: `/repos/acme/widgets/pulls/${String(typo.number)}` })).toBe(
      1,
    );

    // A qualifier in the text is outside the relay's search grammar: gh runs, nothing is read.
    const argv = ['pr', 'list', '-R', 'acme/widgets', '--search', 'is:open sprockets'];
    const result = await relay(['native', ...argv], env, dir.path);
    expect(result).toEqual({
      code: 7,
      stdout: '',
      stderr: 'relay: running the native gh (reason unsupported_flag)\n',
    });
    expect(readFileSync(join(dir.path, 'native-argv'), 'utf8')).toBe(
      argv.map((arg) => `${arg}\n`).join(''),
    );
    expect(searches()).toHaveLength(2);
  }, 60_000);

  it('a search-backed flag runs the native gh with the exact argv', async () => {
    const argv = ['pr', 'list', '-R', 'acme/widgets', '--author', 'bob'];
    const result = await relay(['native', ...argv], env, dir.path);
    expect(result.code).toBe(7);
    expect(result.stderr).toBe('relay: running the native gh (reason unsupported_flag)\n');
    expect(readFileSync(join(dir.path, 'native-argv'), 'utf8')).toBe(
      argv.map((arg) => `${arg}\n`).join(''),
    );
  }, 60_000);
});
