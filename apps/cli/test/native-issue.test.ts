import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ForgeSim } from '@relay/forge-sim';
import { buildCli, runBinary, startRelayStack } from './relay-stack.js';
import type { BuiltCli, RelayStack } from './relay-stack.js';

/**
 * `relay native issue view` and `issue list` end to end: the BUILT binary against
 * relay-server and @relay/forge-sim on loopback (routes issue_view, issue_list, repo_view,
 * milestone_list, milestone_view, search_issues), compared with what forge-sim holds and
 * answers and with the requests forge-sim saw.
 */
let cli: BuiltCli;
/** Runs the built binary; the result as text (code, stdout, stderr). */
const relay = async (args: readonly string[], env: Record<string, string>) => {
  const { stdoutBytes: _bytes, ...text } = await runBinary(cli.bin, args, env);
  return text;
};

beforeAll(async () => {
  cli = await buildCli('relay-native-issue-cli');
}, 120_000);
afterAll(() => {
  cli.remove();
});

describe('relay native issue view / issue list through relay-server and the simulated forge', () => {
  let stack: RelayStack;
  let sim: ForgeSim;
  let env: Record<string, string>;
  let number: number;
  let token: string;

  beforeEach(async () => {
    stack = await startRelayStack({
      bin: cli.bin,
      seed: (forge) => {
        forge.world.addLabel({ owner: 'acme', repo: 'widgets', name: 'Docs' });
        forge.world.addLabel({ owner: 'acme', repo: 'widgets', name: 'api' });
        number = forge.world.addIssue({
          owner: 'acme',
          repo: 'widgets',
          title: 'Crash   on <start> & exit',
          body: 'Steps:\r\n1. run',
          author: 'bob',
          labels: ['api', 'Docs'],
          assignees: ['carol'],
          milestone: 'v1',
        }).number;
      },
      env: () => ({ RELAY_NO_FALLBACK: '1' }),
    });
    ({ sim, env, token } = stack);
  });
  afterEach(async () => {
    await stack.close();
  });

  /** What forge-sim answers for a REST path (read directly, not through the relay). */
  async function forge(path: string): Promise<unknown> {
    const response = await fetch(`${sim.urls.api}${path}`, {
      headers: { authorization: `token ${token}` },
    });
    return response.json();
  }

  interface RestIssueRow {
    number: number;
    title: string;
    updated_at: string;
    labels: { id: number; name: string }[];
  }

  /** gh's non-TTY `issue list` row of a REST issue (labels in creation order). */
  const issueRow = (i: RestIssueRow): string =>
    `${String(i.number)}\tOPEN\t${i.title.replace(/\s+/g, ' ').trim()}\t${[...i.labels]
      .sort((a, b) => a.id - b.id)
      .map((l) => l.name)
      .join(', ')}\t${i.updated_at}\n`;

  /** The forge requests of `path` (as the relay sent them), each query as a record. */
  const forgeReads = (path: string): Record<string, string>[] =>
    sim.requests
      .find({ path })
      .map((request) => Object.fromEntries(new URLSearchParams(request.query)));

  it('issue view prints gh’s preview and --json, then notes the cache hit on stderr', async () => {
    const expected = [
      'title:\tCrash   on <start> & exit',
      'state:\tOPEN',
      'author:\tbob',
      'labels:\tapi, Docs',
      'comments:\t0',
      'assignees:\tcarol',
      'projects:\t',
      'milestone:\tv1',
      `number:\t${String(number)}`,
      '--',
      'Steps:\r\n1. run',
      '',
    ].join('\n');
    const argv = ['native', 'issue', 'view', String(number), '-R', 'acme/widgets'];
    const first = await relay(argv, env);
    expect(first).toEqual({ code: 0, stdout: expected, stderr: '' });

    const again = await relay(argv, env);
    expect(again).toEqual({
      code: 0,
      stdout: expected,
      stderr:
        'relay: issue_view served from the relay cache (hit; the relay reports no refresh time — RELAY_FRESH=1 reads it fresh)\n',
    });
    expect(await relay(argv, { ...env, RELAY_QUIET_CACHE: '1' })).toMatchObject({ stderr: '' });

    const rest = (await forge(`/repos/acme/widgets/issues/${String(number)}`)) as {
      node_id: string;
      html_url: string;
      labels: { id: number; node_id: string; name: string; color: string }[];
    };
    const labels = [...rest.labels].sort((a, b) => a.id - b.id);
    const json = await relay(
      [
        'native',
        'issue',
        'view',
        `https://github.com/acme/widgets/issues/${String(number)}`,
        // The URL's repository wins; -R only spares the planner a git remote lookup.
        '-R',
        'other/elsewhere',
        '--json',
        'title,labels,id,url,state',
      ],
      { ...env, RELAY_QUIET_CACHE: '1' },
    );
    expect(json).toEqual({
      code: 0,
      stderr: '',
      stdout: `{"id":${JSON.stringify(rest.node_id)},"labels":[${labels
        .map(
          (l) =>
            `{"id":${JSON.stringify(l.node_id)},"name":${JSON.stringify(l.name)},"description":"","color":${JSON.stringify(l.color)}}`,
        )
        .join(
          ',',
        )}],"state":"OPEN","title":"Crash   on <start> & exit","url":${JSON.stringify(rest.html_url)}}\n`,
    });
  }, 60_000);

  it('issue view --json author,assignees reads each name through the relay (user_view)', async () => {
    const rest = (await forge(`/repos/acme/widgets/issues/${String(number)}`)) as {
      user: { node_id: string };
      assignees: { node_id: string }[];
    };
    const json = await relay(
      [
        'native',
        'issue',
        'view',
        String(number),
        '-R',
        'acme/widgets',
        '--json',
        'author,assignees',
      ],
      env,
    );
    expect(json).toEqual({
      code: 0,
      stderr: '',
      stdout: `{"assignees":[{"id":${JSON.stringify(rest.assignees[0]?.node_id)},"login":"carol","name":"Carol Danvers"}],"author":{"id":${JSON.stringify(rest.user.node_id)},"is_bot":false,"login":"bob","name":"Bob Builder"}}\n`,
    });
  }, 60_000);

  it('issue view --jq reads objects as gh’s gojq does (keys sorted); env and $ENV run gh', async () => {
    const rest = (await forge(`/repos/acme/widgets/issues/${String(number)}`)) as {
      labels: { id: number; node_id: string; name: string; color: string }[];
    };
    const first = [...rest.labels].sort((a, b) => a.id - b.id)[0];
    const argv = ['native', 'issue', 'view', String(number), '-R', 'acme/widgets', '--json'];
    const quiet = { ...env, RELAY_QUIET_CACHE: '1' };
    // gh decodes its export into Go maps before gojq runs: the label's struct order (id, name,
    // description, color) is gone, so tojson and to_entries see the keys sorted.
    const tojson = await relay([...argv, 'labels', '--jq', '.labels[0] | tojson'], quiet);
    expect(tojson).toEqual({
      code: 0,
      stderr: '',
      stdout: `{"color":${JSON.stringify(first?.color)},"description":"","id":${JSON.stringify(first?.node_id)},"name":${JSON.stringify(first?.name)}}\n`,
    });
    const keys = await relay(
      [...argv, 'author', '--jq', '.author | to_entries | map(.key) | join(",")'],
      quiet,
    );
    expect(keys).toEqual({ code: 0, stderr: '', stdout: 'id,is_bot,login,name\n' });
    const entries = await relay([...argv, 'labels', '--jq', '[.labels[0][]] | @tsv'], quiet);
    expect(entries).toEqual({
      code: 0,
      stderr: '',
      stdout: `${String(first?.color)}\t\t${String(first?.node_id)}\t${String(first?.name)}\n`,
    });
    // gojq reads gh's own environment (go-gh's WithEnvironLoader): not the relay's jq child's.
    for (const filter of ['env.HOME', '$ENV.HOME', '.title | . + now']) {
      const result = await relay([...argv, 'title', '--jq', filter], quiet);
      expect(result).toEqual({
        code: 1,
        stdout: '',
        stderr:
          'relay: This gh command needs the native CLI and RELAY_NO_FALLBACK=1 forbids it. (fallback_local, reason unsupported_flag)\n',
      });
    }
  }, 60_000);

  it('issue view prints gh’s errors: a missing issue, a word, an unknown field', async () => {
    const missing = await relay(['native', 'issue', 'view', '9999', '-R', 'acme/widgets'], env);
    expect(missing).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'GraphQL: Could not resolve to an issue or pull request with the number of 9999. (repository.issue)\n',
    });
    const word = await relay(['native', 'issue', 'view', 'five', '-R', 'acme/widgets'], env);
    expect(word).toEqual({ code: 1, stdout: '', stderr: 'invalid issue format: "five"\n' });
    const unknown = await relay(
      ['native', 'issue', 'view', '1', '-R', 'acme/widgets', '--json', 'nope'],
      env,
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(
      /^Unknown JSON field: "nope"\nAvailable fields:\n {2}assignees\n/,
    );
    const comments = await relay(
      ['native', 'issue', 'view', '1', '-R', 'acme/widgets', '--json', 'comments'],
      env,
    );
    expect(comments.code).toBe(1);
    expect(comments.stderr).toContain('fallback_local, reason unsupported_flag');
  }, 60_000);

  it('issue list prints the forge’s open issues without pull requests, as a table and --json', async () => {
    const rest = (await forge(
      '/repos/acme/widgets/issues?state=open&sort=created&direction=desc&per_page=100',
    )) as {
      number: number;
      title: string;
      updated_at: string;
      pull_request?: unknown;
      labels: { id: number; name: string }[];
    }[];
    const issues = rest.filter((item) => item.pull_request === undefined);
    expect(rest.length).toBeGreaterThan(issues.length);
    expect(issues.length).toBeGreaterThan(0);

    const table = await relay(['native', 'issue', 'list', '-R', 'acme/widgets'], {
      ...env,
      RELAY_QUIET_CACHE: '1',
    });
    expect(table).toEqual({
      code: 0,
      stderr: '',
      stdout: issues
        .map(
          (i) =>
            `${String(i.number)}\tOPEN\t${i.title.replace(/\s+/g, ' ').trim()}\t${[...i.labels]
              .sort((a, b) => a.id - b.id)
              .map((l) => l.name)
              .join(', ')}\t${i.updated_at}\n`,
        )
        .join(''),
    });

    const json = await relay(
      ['native', 'issue', 'list', '-R', 'acme/widgets', '--json', 'number,state', '-L', '1'],
      { ...env, RELAY_QUIET_CACHE: '1' },
    );
    expect(json).toEqual({
      code: 0,
      stderr: '',
      stdout: `[{"number":${String(issues[0]?.number)},"state":"OPEN"}]\n`,
    });

    const none = await relay(
      ['native', 'issue', 'list', '-R', 'acme/widgets', '--author', 'nobody-here'],
      env,
    );
    expect(none).toEqual({ code: 0, stdout: '', stderr: '' });
  }, 60_000);

  it('issue list collapses titles as gh’s text.RemoveExcessiveWhitespace (VT and NBSP stay)', async () => {
    const issue = sim.world.addIssue({
      owner: 'acme',
      repo: 'widgets',
      title: '\u2003 two\t\tspaces\vvt\u00a0\u00a0nbsp \u00a0',
    });
    const result = await relay(['native', 'issue', 'list', '-R', 'acme/widgets'], {
      ...env,
      RELAY_QUIET_CACHE: '1',
    });
    expect(result.code).toBe(0);
    const row = result.stdout
      .split('\n')
      .find((line) => line.startsWith(`${String(issue.number)}\t`));
    // go-gh's sanitizer keeps VT; RE2's \s does not include it, so gh keeps it in the title.
    expect(row?.split('\t').slice(0, 3)).toEqual([
      String(issue.number),
      'OPEN',
      'two spaces\vvt\u00a0\u00a0nbsp',
    ]);
  }, 60_000);

  it('issue list --label (all required) and --milestone (title or number) are served through the relay', async () => {
    const quiet = { ...env, RELAY_QUIET_CACHE: '1' };
    const seeded = (await forge(`/repos/acme/widgets/issues/${String(number)}`)) as RestIssueRow;
    const wobble = (
      (await forge('/repos/acme/widgets/issues?state=open&per_page=100')) as (RestIssueRow & {
        milestone: { number: number; title: string } | null;
      })[]
    ).find((i) => i.title === 'Widgets wobble');
    if (wobble?.milestone === undefined || wobble.milestone === null) {
      throw new Error('the demo world has no milestone on “Widgets wobble”');
    }

    const labels = await relay(
      ['native', 'issue', 'list', '-R', 'acme/widgets', '--label', 'api', '-l', 'Docs'],
      quiet,
    );
    expect(labels).toEqual({ code: 0, stdout: issueRow(seeded), stderr: '' });
    expect(forgeReads('/repos/acme/widgets/issues')).toContainEqual(
      expect.objectContaining({ labels: 'api,Docs', state: 'open', sort: 'created' }),
    );
    // Every label is required: `api` with `bug` (Widgets wobble's) matches nothing.
    expect(
      await relay(['native', 'issue', 'list', '-R', 'acme/widgets', '-l', 'api,bug'], quiet),
    ).toEqual({ code: 0, stdout: '', stderr: '' });

    const title = await relay(
      ['native', 'issue', 'list', '-R', 'acme/widgets', '--milestone', 'v1'],
      quiet,
    );
    expect(title).toEqual({ code: 0, stdout: issueRow(seeded), stderr: '' });
    expect(forgeReads('/repos/acme/widgets/milestones')).toContainEqual(
      expect.objectContaining({ state: 'all' }),
    );
    const byNumber = await relay(
      ['native', 'issue', 'list', '-R', 'acme/widgets', '-m', String(wobble.milestone.number)],
      quiet,
    );
    expect(byNumber).toEqual({ code: 0, stdout: issueRow(wobble), stderr: '' });
    expect(
      sim.requests.count({
        path: `/repos/acme/widgets/milestones/${String(wobble.milestone.number)}`,
      }),
    ).toBe(1);
    expect(forgeReads('/repos/acme/widgets/issues')).toContainEqual(
      expect.objectContaining({ milestone: String(wobble.milestone.number) }),
    );

    expect(
      await relay(['native', 'issue', 'list', '-R', 'acme/widgets', '-m', '99'], quiet),
    ).toEqual({ code: 1, stdout: '', stderr: "no milestone found with number '99'\n" });
    expect(
      await relay(
        [
          'native',
          'issue',
          'list',
          '-R',
          'acme/widgets',
          '-m',
          'no such milestone',
          '--json',
          'number',
        ],
        quiet,
      ),
    ).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  }, 60_000);

  it('issue list --search with plain terms runs gh’s query through the relay’s REST search', async () => {
    const wobble = (
      (await forge('/repos/acme/widgets/issues?state=open&per_page=100')) as RestIssueRow[]
    ).find((i) => i.title === 'Widgets wobble');
    if (wobble === undefined) throw new Error('the demo world has no “Widgets wobble”');
    const argv = ['native', 'issue', 'list', '-R', 'acme/widgets', '--search', 'wobble'];
    expect(await relay(argv, env)).toEqual({ code: 0, stdout: issueRow(wobble), stderr: '' });
    expect(forgeReads('/search/issues')).toEqual([
      expect.objectContaining({ q: 'wobble repo:acme/widgets state:open type:issue' }),
    ]);
    // The second run is the relay's cached search: the note names the route.
    expect(await relay(argv, env)).toEqual({
      code: 0,
      stdout: issueRow(wobble),
      stderr:
        'relay: search_issues served from the relay cache (hit; the relay reports no refresh time — RELAY_FRESH=1 reads it fresh)\n',
    });
    expect(
      await relay(
        ['native', 'issue', 'list', '-R', 'acme/widgets', '-S', 'wobble', '-s', 'closed'],
        env,
      ),
    ).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(forgeReads('/search/issues').at(-1)).toMatchObject({
      q: 'wobble repo:acme/widgets state:closed type:issue',
    });
  }, 60_000);
});
