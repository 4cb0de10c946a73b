import type { RelayEnvelope } from '@relay/protocol';
import { describe, expect, it } from 'vitest';
import type { JqRunner } from '../export/export-output.js';
import type { RelayPort, RelayRead } from '../relay-port.js';
import { runIssueList, toIssueListQuery } from './issue-list.js';

const REPO = {
  repo: { host: 'github.com', owner: 'OWNER', name: 'REPO' },
  source: 'flag' as const,
};

function envelope(
  body: unknown,
  options: { status?: number; link?: string; route?: string; cache?: 'hit' | 'miss' } = {},
): RelayEnvelope {
  return {
    status: options.status ?? 200,
    headers: options.link === undefined ? {} : { link: options.link },
    body,
    body_encoding: 'json',
    identity: null,
    relay: {
      pool: 'team',
      request_id: 'r',
      cacheable: true,
      cache: options.cache ?? 'miss',
      stale_ok: false,
      route_kind: options.route ?? 'issue_list',
    },
  } as unknown as RelayEnvelope;
}

const NEXT = '<https://api.github.com/repositories/1/issues?page=2>; rel="next"';

function fakePort(answers: readonly RelayEnvelope[]): RelayPort & { reads: RelayRead[] } {
  const reads: RelayRead[] = [];
  return {
    reads,
    read(request) {
      reads.push(request);
      const answer = answers[reads.length - 1];
      if (answer === undefined) throw new Error('unexpected read');
      return Promise.resolve({ kind: 'served', envelope: answer });
    },
  };
}

const noJq: JqRunner = () => Promise.resolve('missing');

function issue(number: number, title: string, updated: string, labels: readonly string[] = []) {
  return {
    node_id: `I_${String(number)}`,
    number,
    title,
    html_url: `https://github.com/OWNER/REPO/issues/${String(number)}`,
    state: 'open',
    body: null,
    user: { login: 'monalisa', node_id: 'U_1', type: 'User' },
    labels: labels.map((name, index) => ({
      id: 10 - index,
      node_id: `LA_${name}`,
      name,
      description: null,
      color: 'ededed',
    })),
    assignees: [],
    milestone: null,
    comments: 0,
    created_at: '2020-01-01T00:00:00Z',
    updated_at: updated,
    closed_at: null,
  };
}

function pull(number: number) {
  return { ...issue(number, 'a pull request', '2022-01-01T00:00:00Z'), pull_request: { url: 'x' } };
}

/** gh's list_test.go fixture issueList.json, as REST answers it (with a pull request among them). */
const PAGE = [
  issue(1, 'number  won', '2022-08-24T22:01:12Z', ['label']),
  pull(3),
  issue(2, 'number\ttoo', '2022-07-20T19:01:12Z', ['label']),
  issue(4, 'number fore', '2020-01-26T19:01:12Z', ['label']),
];

const QUERY = { state: 'open', sort: 'created', direction: 'desc', per_page: '100' };

describe('gh issue list through the relay port', () => {
  it('prints gh’s non-TTY table without pull requests (list_test.go TestIssueList_nontty)', async () => {
    const port = fakePort([envelope(PAGE)]);
    const outcome = await runIssueList(port, { flags: {}, repo: REPO }, noJq);
    expect(outcome).toEqual({
      kind: 'done',
      code: 0,
      stdout:
        '1\tOPEN\tnumber won\tlabel\t2022-08-24T22:01:12Z\n2\tOPEN\tnumber too\tlabel\t2022-07-20T19:01:12Z\n4\tOPEN\tnumber fore\tlabel\t2020-01-26T19:01:12Z\n',
      stderr: '',
    });
    expect(port.reads).toEqual([{ path: '/repos/OWNER/REPO/issues', query: QUERY }]);
  });

  it('labels in creation (id) order; --limit counts issues, not pull requests, across pages', async () => {
    const port = fakePort([
      envelope([pull(9), issue(8, 'x', '2022-01-01T00:00:00Z', ['b', 'a'])], { link: NEXT }),
      envelope(
        [pull(7), issue(6, 'y', '2022-01-02T00:00:00Z'), issue(5, 'z', '2022-01-03T00:00:00Z')],
        {
          link: NEXT,
        },
      ),
    ]);
    const outcome = await runIssueList(
      port,
      {
        flags: { limit: ['2'], state: ['all'], assignee: ['hubot'], author: ['monalisa'] },
        repo: REPO,
      },
      noJq,
    );
    expect(outcome).toMatchObject({
      stdout: '8\tOPEN\tx\ta, b\t2022-01-01T00:00:00Z\n6\tOPEN\ty\t\t2022-01-02T00:00:00Z\n',
    });
    const query = { ...QUERY, state: 'all', assignee: 'hubot', creator: 'monalisa' };
    expect(port.reads).toEqual([
      { path: '/repos/OWNER/REPO/issues', query },
      { path: '/repos/OWNER/REPO/issues', query: { ...query, page: '2' } },
    ]);
  });

  it('more than 10 pages to fill the limit runs gh', async () => {
    const pages = Array.from({ length: 10 }, () => envelope([pull(1)], { link: NEXT }));
    const outcome = await runIssueList(fakePort(pages), { flags: {}, repo: REPO }, noJq);
    expect(outcome).toEqual({ kind: 'delegate', reason: 'unsupported_shape' });
  });

  it('no issues: nothing on stdout, exit 0 (NoResultsError is silent off a terminal); --json prints []', async () => {
    const repoAnswer = envelope({ has_issues: true }, { route: 'repo_view' });
    const human = fakePort([envelope([pull(2)]), repoAnswer]);
    expect(await runIssueList(human, { flags: {}, repo: REPO }, noJq)).toEqual({
      kind: 'done',
      code: 0,
      stdout: '',
      stderr: '',
    });
    expect(human.reads[1]).toEqual({ path: '/repos/OWNER/REPO' });
    const json = fakePort([envelope([]), repoAnswer]);
    expect(
      await runIssueList(json, { flags: { json: ['number'] }, repo: REPO }, noJq),
    ).toMatchObject({ code: 0, stdout: '[]\n' });
  });

  it.each([
    [
      'disabled issues',
      envelope([]),
      envelope({ has_issues: false }, { route: 'repo_view' }),
      "the 'OWNER/REPO' repository has disabled issues\n",
    ],
    [
      'a missing repository',
      envelope({ message: 'Not Found' }, { status: 404 }),
      envelope({ message: 'Not Found' }, { status: 404, route: 'repo_view' }),
      "GraphQL: Could not resolve to a Repository with the name 'OWNER/REPO'. (repository)\n",
    ],
  ])('prints gh’s error for %s (exit 1)', async (_name, list, repoAnswer, stderr) => {
    const outcome = await runIssueList(
      fakePort([list, repoAnswer]),
      { flags: {}, repo: REPO },
      noJq,
    );
    expect(outcome).toEqual({ kind: 'done', code: 1, stdout: '', stderr });
  });

  it('prints --json with gh’s shapes, keys sorted', async () => {
    const outcome = await runIssueList(
      fakePort([envelope(PAGE.slice(0, 2))]),
      { flags: { json: ['url,number,labels,state,title'] }, repo: REPO },
      noJq,
    );
    expect(outcome).toMatchObject({
      code: 0,
      stdout:
        '[{"labels":[{"id":"LA_label","name":"label","description":"","color":"ededed"}],"number":1,"state":"OPEN","title":"number  won","url":"https://github.com/OWNER/REPO/issues/1"}]\n',
    });
  });

  it('notes a cache hit of issue_list on stderr', async () => {
    const outcome = await runIssueList(
      fakePort([envelope(PAGE, { cache: 'hit' })]),
      { flags: {}, repo: REPO },
      noJq,
    );
    expect(outcome).toMatchObject({
      code: 0,
      stderr:
        'relay: issue_list served from the relay cache (hit; the relay reports no refresh time — RELAY_FRESH=1 reads it fresh)\n',
    });
  });

  it.each(['author', 'assignees', 'comments', 'isPinned'])(
    '--json %s runs gh before anything is read (issue list reads no user names)',
    async (field) => {
      const port = fakePort([]);
      const outcome = await runIssueList(port, { flags: { json: [field] }, repo: REPO }, noJq);
      expect(outcome).toEqual({ kind: 'delegate', reason: 'unsupported_flag' });
      expect(port.reads).toEqual([]);
    },
  );

  it('prints gh’s unknown-field error before anything is read', async () => {
    const port = fakePort([]);
    const outcome = await runIssueList(port, { flags: { json: ['numbr'] }, repo: REPO }, noJq);
    expect(outcome).toMatchObject({ kind: 'done', code: 1, stdout: '' });
    expect(port.reads).toEqual([]);
  });
});

describe('toIssueListQuery (issue list flags as REST parameters)', () => {
  it.each([
    [{ label: ['bug'] }, 'unsupported_flag'],
    [{ milestone: ['v1'] }, 'unsupported_flag'],
    [{ search: ['crash'] }, 'unsupported_flag'],
    [{ app: ['dependabot'] }, 'unsupported_flag'],
    [{ mention: ['hubot'] }, 'unsupported_flag'],
    [{ assignee: ['@me'] }, 'unsupported_flag'],
    [{ assignee: ['*'] }, 'unsupported_flag'],
    [{ assignee: ['none'] }, 'unsupported_flag'],
    [{ author: ['app/dependabot'] }, 'unsupported_flag'],
    [{ state: ['merged'] }, 'invalid_usage'],
    [{ limit: ['0'] }, 'invalid_usage'],
    [{ limit: ['101'] }, 'unsupported_flag'],
    [{ json: ['comments'] }, undefined],
    [{ json: ['author'] }, undefined],
  ])('%j', (flags, reason) => {
    const result = toIssueListQuery(flags);
    if (reason === undefined) expect(result.ok).toBe(true);
    else expect(result).toEqual({ ok: false, outcome: { kind: 'delegate', reason } });
  });

  it('--limit 0x10 is 16; an empty --assignee is no filter', () => {
    expect(toIssueListQuery({ limit: ['0x10'], assignee: [''] })).toEqual({
      ok: true,
      limit: 16,
      query: { state: 'open', sort: 'created', direction: 'desc' },
    });
  });
});
