import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toIsoSeconds } from '@relay/forge-sim';
import type { ForgeSim } from '@relay/forge-sim';
import { buildCli, runBinary, startRelayStack } from './relay-stack.js';
import type { BuiltCli, RelayStack } from './relay-stack.js';

/**
 * `relay native search …` and `gist view --files` end to end: the BUILT binary against
 * relay-server and @relay/forge-sim on loopback (routes search_issues, search_repositories,
 * search_commits, gist_view). Expected bytes come from the forge's own records. Every run sets
 * RELAY_NO_FALLBACK=1, so a hand-off to gh shows as a `fallback_local` failure naming why.
 */
let cli: BuiltCli;
const relay = async (args: readonly string[], env: Record<string, string>) => {
  const { stdoutBytes: _bytes, ...text } = await runBinary(cli.bin, args, env);
  return text;
};

beforeAll(async () => {
  cli = await buildCli('relay-search-cli');
}, 120_000);
afterAll(() => {
  cli.remove();
});

describe('a pool that allows search', () => {
  let stack: RelayStack;
  let sim: ForgeSim;
  let env: Record<string, string>;

  beforeAll(async () => {
    stack = await startRelayStack({ bin: cli.bin, env: () => ({ RELAY_NO_FALLBACK: '1' }) });
    ({ sim, env } = stack);
    // Before the first relayed read, so that the relay loads this policy.
    await stack.server.database.db
      .updateTable('pools')
      .set({ policy_json: '{"allow_search":true}' })
      .where('id', '=', 'team')
      .execute();
  }, 60_000);
  afterAll(async () => {
    await stack.close();
  });

  const widgets = () => {
    const repo = sim.world.getRepo('acme', 'widgets');
    if (repo === undefined) throw new Error('no acme/widgets');
    return repo;
  };

  it('search issues: gh’s table of the matching issues, --json, and no results (silent, or [] with --json)', async () => {
    const issue = [...widgets().issues.values()].find((i) => i.title === 'Widgets wobble');
    if (issue === undefined) throw new Error('no issue');
    const table = await relay(['native', 'search', 'issues', 'wobble', '-R', 'acme/widgets'], env);
    expect(table).toMatchObject({ code: 0, stderr: '' });
    expect(table.stdout).toBe(
      `acme/widgets\t${issue.number}\topen\tWidgets wobble\tbug\t${toIsoSeconds(issue.updatedAt)}\n`,
    );

    const json = await relay(
      [
        'native',
        'search',
        'issues',
        'wobble',
        '--repo=acme/widgets',
        '--state',
        'open',
        '--json',
        'number,state,repository,isPullRequest',
      ],
      env,
    );
    expect(json).toMatchObject({ code: 0, stderr: '' });
    expect(json.stdout).toBe(
      `[{"isPullRequest":false,"number":${issue.number},"repository":{"name":"widgets","nameWithOwner":"acme/widgets"},"state":"open"}]\n`,
    );

    const none = await relay(
      ['native', 'search', 'issues', 'nothingmatchesthis', '-R', 'acme/widgets'],
      env,
    );
    expect(none).toEqual({ code: 0, stdout: '', stderr: '' });
    const noneJson = await relay(
      ['native', 'search', 'issues', 'nothingmatchesthis', '-R', 'acme/widgets', '--json', 'url'],
      env,
    );
    expect(noneJson).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  }, 60_000);

  it('search prs: a merged pull request shows merged', async () => {
    const pull = [...widgets().issues.values()].find((i) => i.title === 'Fix typo');
    if (pull === undefined) throw new Error('no pull');
    const table = await relay(['native', 'search', 'prs', 'typo', '-R', 'acme/widgets'], env);
    expect(table).toMatchObject({ code: 0, stderr: '' });
    expect(table.stdout).toBe(
      `acme/widgets\t${pull.number}\tmerged\tFix typo\t\t${toIsoSeconds(pull.updatedAt)}\n`,
    );
  }, 60_000);

  it('search repos and search commits (pooled-policy search routes)', async () => {
    const repo = widgets();
    const repos = await relay(['native', 'search', 'repos', 'everyone', '--limit', '1'], env);
    expect(repos).toMatchObject({ code: 0, stderr: '' });
    expect(repos.stdout).toBe(
      `acme/widgets\tWidgets for everyone\tpublic\t${toIsoSeconds(repo.updatedAt)}\n`,
    );

    const commits = [...repo.commits.values()]
      .filter((c) => c.message.includes('sprockets'))
      .sort((a, b) => b.date - a.date);
    expect(commits).toHaveLength(2);
    const table = await relay(
      ['native', 'search', 'commits', 'sprockets', '-R', 'acme/widgets'],
      env,
    );
    expect(table).toMatchObject({ code: 0, stderr: '' });
    expect(table.stdout).toBe(
      commits
        .map((c) => `acme/widgets\t${c.sha}\t${c.message}\t${c.author}\t${toIsoSeconds(c.date)}\n`)
        .join(''),
    );
    const jq = await relay(
      [
        'native',
        'search',
        'commits',
        'sprockets',
        '-R',
        'acme/widgets',
        '--json',
        'sha',
        '--jq',
        '.[].sha',
      ],
      env,
    );
    expect(jq).toMatchObject({ code: 0, stderr: '' });
    expect(jq.stdout).toBe(commits.map((c) => `${c.sha}\n`).join(''));
  }, 60_000);

  it('gist view: the file names, the raw contents, gh’s missing-file error', async () => {
    const gist = sim.world.gists().find((g) => g.description === 'hello gist');
    if (gist === undefined) throw new Error('no gist');
    const files = await relay(['native', 'gist', 'view', gist.id, '--files'], env);
    expect(files).toEqual({ code: 0, stdout: 'hello.txt\n', stderr: '' });
    const view = await relay(['native', 'gist', 'view', gist.id], env);
    expect(view).toEqual({ code: 0, stdout: 'hello gist\n\nhello\n', stderr: '' });
    const missing = await relay(['native', 'gist', 'view', gist.id, '-f', 'nope.txt'], env);
    expect(missing).toEqual({ code: 1, stdout: '', stderr: 'gist has no such file: "nope.txt"\n' });
  }, 60_000);

  it('gist list --public: the saved login’s public gists, newest created first; secret ones need gh', async () => {
    // alice (the saved login) has the demo's "hello gist"; two more, seconds apart.
    sim.clock.advance(2_000);
    const noDescription = sim.world.addGist({ owner: 'alice', files: { 'notes.md': 'n\n' } });
    sim.clock.advance(2_000);
    sim.world.addGist({ owner: 'alice', description: 'private', public: false, files: { a: 'a' } });
    sim.clock.advance(2_000);
    const latest = sim.world.addGist({
      owner: 'alice',
      description: 'two  files',
      files: { 'gistfile1.txt': 'x', 'b.txt': 'y' },
    });
    const hello = sim.world.gists().find((g) => g.description === 'hello gist');
    if (hello === undefined) throw new Error('no gist');
    const row = (id: string, description: string, files: string, at: number) =>
      `${id}\t${description}\t${files}\tpublic\t${toIsoSeconds(at)}\n`;
    const before = sim.requests.count({ path: '/users/alice/gists' });
    const list = await relay(['native', 'gist', 'list', '--public'], env);
    expect(list).toEqual({
      code: 0,
      stdout:
        row(latest.id, 'two files', '2 files', latest.createdAt) +
        row(noDescription.id, 'notes.md', '1 file', noDescription.createdAt) +
        row(hello.id, 'hello gist', '1 file', hello.createdAt),
      stderr: '',
    });
    // One page of the user's gists.
    expect(sim.requests.count({ path: '/users/alice/gists' })).toBe(before + 1);
    // gh's alias `gist ls` is the same command.
    expect(await relay(['native', 'gist', 'ls', '--public'], env)).toEqual(list);
    const aliasLimit = await relay(['native', 'gist', 'ls', '--public', '-L', '0'], env);
    expect(aliasLimit.stderr).toMatch(/^invalid limit: 0\n\nUsage: {2}gh gist list \[flags\]\n/);
    const filtered = await relay(
      ['native', 'gist', 'list', '--public', '--filter', 'hello', '-L', '1'],
      env,
    );
    expect(filtered).toEqual({
      code: 0,
      stdout: row(hello.id, 'hello gist', '1 file', hello.createdAt),
      stderr: '',
    });
    const all = await relay(['native', 'gist', 'list'], env);
    expect(all.code).toBe(1);
    expect(all.stderr).toContain('reason unsupported_shape');
    const limit = await relay(['native', 'gist', 'list', '--public', '-L', '0'], env);
    expect(limit.code).toBe(1);
    expect(limit.stderr).toMatch(/^invalid limit: 0\n\nUsage: {2}gh gist list \[flags\]\n/);
  }, 60_000);

  it.each([
    [
      ['search', 'code'],
      'specify search keywords or flags\n\nUsage:  gh search code <query> [flags]\n',
    ],
    [
      ['search', 'repos', 'x', '-L', '1001'],
      '`--limit` must be between 1 and 1000\n\nUsage:  gh search repos [<query>] [flags]\n',
    ],
    [
      ['search', 'prs', 'x', '--author', 'a', '--app', 'b'],
      'specify only `--author` or `--app`\n\nUsage:  gh search prs [<query>] [flags]\n',
    ],
  ])(
    'prints gh’s own refusal of %j itself (no forge read, no gh)',
    async (argv, start) => {
      const before = sim.requests.entries.length;
      const result = await relay(['native', ...argv], env);
      expect(result).toMatchObject({ code: 1, stdout: '' });
      expect(result.stderr.startsWith(start)).toBe(true);
      expect(result.stderr).not.toContain('fallback_local');
      expect(sim.requests.entries.length).toBe(before);
    },
    60_000,
  );

  it.each([
    [
      'a qualifier flag (--author)',
      ['search', 'issues', 'x', '-R', 'acme/widgets', '--author', 'bob'],
      'unsupported_flag',
    ],
    ['OR', ['search', 'issues', 'a', 'OR', 'b', '-R', 'acme/widgets'], 'unsupported_shape'],
    [
      'a quoted phrase',
      ['search', 'prs', 'add sprockets', '-R', 'acme/widgets'],
      'unsupported_shape',
    ],
    ['no repo qualifier', ['search', 'issues', 'wobble'], 'unsupported_shape'],
    ['--limit above 100', ['search', 'repos', 'x', '-L', '101'], 'unsupported_flag'],
    ['gist view without an argument (gh prompts)', ['gist', 'view'], 'unsupported_shape'],
  ])(
    'runs gh before any forge read: %s',
    async (_name, argv, reason) => {
      const before = sim.requests.entries.length;
      const result = await relay(['native', ...argv], env);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain(`reason ${reason}`);
      expect(sim.requests.entries.length).toBe(before);
    },
    60_000,
  );
});

describe('a pool without allow_search', () => {
  let stack: RelayStack;

  beforeAll(async () => {
    stack = await startRelayStack({ bin: cli.bin, env: () => ({ RELAY_NO_FALLBACK: '1' }) });
  }, 60_000);
  afterAll(async () => {
    await stack.close();
  });

  it('the token-free issue search still runs; a repository search is the relay’s search_denied', async () => {
    const issues = await relay(
      ['native', 'search', 'issues', 'wobble', '-R', 'acme/widgets', '--json', 'title'],
      stack.env,
    );
    expect(issues).toEqual({ code: 0, stdout: '[{"title":"Widgets wobble"}]\n', stderr: '' });

    const repos = await relay(['native', 'search', 'repos', 'widgets'], stack.env);
    expect(repos.code).not.toBe(0);
    expect(repos.stdout).toBe('');
    expect(repos.stderr).toContain('search_denied');
  }, 60_000);
});

describe('search code through a pooled identity (the forge’s code search needs authentication)', () => {
  let stack: RelayStack;
  const secrets: Record<string, string> = {};

  beforeAll(async () => {
    stack = await startRelayStack({
      bin: cli.bin,
      env: () => ({ RELAY_NO_FALLBACK: '1' }),
      secrets,
    });
    await stack.server.database.db
      .updateTable('pools')
      .set({ policy_json: '{"allow_search":true}' })
      .where('id', '=', 'team')
      .execute();
    secrets.CODE_READER = stack.sim.tokens.addPat({ login: 'carol' }).token;
    const registered = await relay(
      [
        'admin',
        'identity',
        '--pool',
        'team',
        '--id',
        'code-reader',
        '--kind',
        'pat',
        '--login',
        'carol',
        '--secret-ref',
        'CODE_READER',
        '--scope',
        'acme',
      ],
      {
        ...stack.env,
        RELAY_ADMIN_TOKEN: 'admin-token-for-native-e2e-0123456789',
        RELAY_URL: stack.server.url,
      },
    );
    if (registered.code !== 0)
      throw new Error(`identity registration failed: ${registered.stderr}`);
  }, 60_000);
  afterAll(async () => {
    await stack.close();
  });

  it('gh’s non-TTY lines from the text matches (`repo:path: line`), --json, and no results', async () => {
    const { sim, env } = stack;
    // The forge's own answer with text matches, read with the identity's token.
    const direct = (await (
      await fetch(`${sim.urls.api}/search/code?q=widget+repo:acme/widgets`, {
        headers: {
          authorization: `token ${secrets.CODE_READER ?? ''}`,
          accept: 'application/vnd.github.text-match+json',
        },
      })
    ).json()) as { items: { path: string; text_matches: { fragment: string }[] }[] };
    expect(direct.items.length).toBeGreaterThan(0);
    const expected = direct.items
      .flatMap((item) =>
        item.text_matches.flatMap((match) =>
          match.fragment
            .split('\n')
            .filter((line) => line.toLowerCase().includes('widget'))
            .map((line) => `acme/widgets:${item.path}: ${line.trim()}\n`),
        ),
      )
      .join('');
    expect(expected).not.toBe('');
    const before = sim.requests.count({ path: '/search/code' });
    const lines = await relay(['native', 'search', 'code', 'widget', '-R', 'acme/widgets'], env);
    expect(lines).toEqual({ code: 0, stdout: expected, stderr: '' });
    // One page (30 results wanted, fewer found).
    expect(sim.requests.count({ path: '/search/code' })).toBe(before + 1);

    const json = await relay(
      [
        'native',
        'search',
        'code',
        'widget',
        '-R',
        'acme/widgets',
        '--json',
        'path',
        '--jq',
        '.[].path',
      ],
      env,
    );
    expect(json).toEqual({
      code: 0,
      stdout: direct.items.map((item) => `${item.path}\n`).join(''),
      stderr: '',
    });
    const none = await relay(
      ['native', 'search', 'code', 'nothingmatchesthis', '-R', 'acme/widgets'],
      env,
    );
    expect(none).toEqual({ code: 0, stdout: '', stderr: '' });
  }, 60_000);
});
