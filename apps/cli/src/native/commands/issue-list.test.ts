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

describe('toIssueListQuery (issue list flags as REST parameters or gh’s search)', () => {
  const LIST = { state: 'open', sort: 'created', direction: 'desc' };

  it.each([
    [{ app: ['dependabot'] }, 'unsupported_flag'],
    [{ assignee: ['@me'] }, 'unsupported_flag'],
    [{ assignee: ['*'] }, 'unsupported_flag'],
    [{ assignee: ['none'] }, 'unsupported_flag'],
    [{ author: ['app/dependabot'] }, 'unsupported_flag'],
    [{ mention: ['@me'] }, 'unsupported_flag'],
    [{ label: ['"a,b"'] }, 'unsupported_flag'],
    [{ label: ['bug,'] }, 'unsupported_flag'],
    [{ label: ['"bug'] }, 'invalid_usage'],
    [{ search: ['crash'], label: ['bug'] }, 'unsupported_flag'],
    [{ search: ['crash'], milestone: ['v1'] }, 'unsupported_flag'],
    [{ search: ['crash'], assignee: ['hubot'] }, 'unsupported_flag'],
    [{ search: ['crash'], author: ['hubot'] }, 'unsupported_flag'],
    [{ search: ['crash'], mention: ['hubot'] }, 'unsupported_flag'],
    [{ search: ['crash'], app: ['dependabot'] }, 'unsupported_flag'],
    [{ state: ['merged'] }, 'invalid_usage'],
    [{ limit: ['0'] }, 'invalid_usage'],
    [{ limit: ['101'] }, 'unsupported_flag'],
  ])('%j runs gh', (flags, reason) => {
    expect(toIssueListQuery(flags)).toEqual({ ok: false, outcome: { kind: 'delegate', reason } });
  });

  it.each([
    [{}, LIST],
    [{ label: ['bug'] }, { ...LIST, labels: 'bug' }],
    [{ label: ['bug,"help wanted"', 'ui'] }, { ...LIST, labels: 'bug,help wanted,ui' }],
    [{ label: [''] }, LIST],
    [{ mention: ['hubot'] }, { ...LIST, mentioned: 'hubot' }],
    [
      { state: ['closed'], assignee: ['hubot'], author: ['monalisa'], label: ['bug'] },
      { ...LIST, state: 'closed', assignee: 'hubot', creator: 'monalisa', labels: 'bug' },
    ],
    [{ search: [''], milestone: [''] }, LIST],
    // gh's enum flag takes any case; the command lower-cases the value.
    [{ state: ['CLOSED'] }, { ...LIST, state: 'closed' }],
    [{ state: ['All'] }, { ...LIST, state: 'all' }],
  ])('%j reads REST’s issue list with %j', (flags, query) => {
    expect(toIssueListQuery(flags)).toEqual({ ok: true, kind: 'list', query, limit: 30 });
  });

  it('--milestone is kept to resolve; --search alone is gh’s search mode', () => {
    expect(toIssueListQuery({ milestone: ['v1'], label: ['bug'] })).toEqual({
      ok: true,
      kind: 'list',
      query: { ...LIST, labels: 'bug' },
      milestone: 'v1',
      limit: 30,
    });
    expect(toIssueListQuery({ search: ['crash'], state: ['all'], limit: ['5'] })).toEqual({
      ok: true,
      kind: 'search',
      text: 'crash',
      state: 'all',
      limit: 5,
    });
  });

  it('--limit 0x10 is 16; an empty --assignee is no filter', () => {
    expect(toIssueListQuery({ limit: ['0x10'], assignee: [''] })).toEqual({
      ok: true,
      kind: 'list',
      limit: 16,
      query: LIST,
    });
  });
});

/** A port answering by path and query (`path?k=v&…`, keys as sent); unknown reads throw. */
function routedPort(
  answers: Readonly<Record<string, RelayEnvelope | 'fallback'>>,
): RelayPort & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    read(request) {
      const query = new URLSearchParams(request.query ?? {}).toString();
      const key = query === '' ? request.path : `${request.path}?${query}`;
      reads.push(key);
      const answer = answers[key];
      if (answer === undefined) throw new Error(`unexpected read ${key}`);
      return Promise.resolve(
        answer === 'fallback'
          ? { kind: 'fallback', reason: 'search_denied' }
          : { kind: 'served', envelope: answer },
      );
    },
  };
}

const REPO_OK = envelope({ has_issues: true }, { route: 'repo_view' });
const REPO_OFF = envelope({ has_issues: false }, { route: 'repo_view' });
const REPO_MISSING = envelope({ message: 'Not Found' }, { status: 404, route: 'repo_view' });
const NOT_FOUND = envelope({ message: 'Not Found' }, { status: 404 });
const MISSING_REPO_TEXT =
  "GraphQL: Could not resolve to a Repository with the name 'OWNER/REPO'. (repository)\n";
const ISSUES = '/repos/OWNER/REPO/issues';
const LIST_QUERY = 'state=open&sort=created&direction=desc';

function searchAnswer(
  items: readonly unknown[],
  options: { cache?: 'hit' | 'miss'; status?: number } = {},
) {
  return envelope(
    { total_count: items.length, incomplete_results: false, items },
    { route: 'search_issues', ...options },
  );
}

const TABLE =
  '1\tOPEN\tnumber won\tlabel\t2022-08-24T22:01:12Z\n2\tOPEN\tnumber too\tlabel\t2022-07-20T19:01:12Z\n';

describe('gh issue list --search (plain terms) through REST search', () => {
  const search = (q: string, perPage = 30) =>
    `/search/issues?${new URLSearchParams({ q, per_page: String(perPage) }).toString()}`;

  it('prints the found issues in the search’s order; the repository is read for gh’s issues check', async () => {
    const port = routedPort({
      [search('crash repo:OWNER/REPO state:open type:issue')]: searchAnswer([
        { ...PAGE[0], score: 1 },
        { ...PAGE[2], score: 0.5 },
      ]),
      '/repos/OWNER/REPO': REPO_OK,
    });
    const outcome = await runIssueList(port, { flags: { search: ['crash'] }, repo: REPO }, noJq);
    expect(outcome).toEqual({ kind: 'done', code: 0, stdout: TABLE, stderr: '' });
    expect(port.reads).toEqual([
      search('crash repo:OWNER/REPO state:open type:issue'),
      '/repos/OWNER/REPO',
    ]);
  });

  it.each([
    [{ state: ['closed'] }, 'wobble spin repo:OWNER/REPO state:closed type:issue'],
    [{ state: ['all'] }, 'wobble spin repo:OWNER/REPO type:issue'],
    [{ limit: ['3'] }, 'wobble spin repo:OWNER/REPO state:open type:issue', 3],
  ])('%j: q is gh’s search string', async (flags, q, perPage = 30) => {
    const port = routedPort({
      [search(q, perPage)]: searchAnswer([]),
      '/repos/OWNER/REPO': REPO_OK,
    });
    const outcome = await runIssueList(
      port,
      { flags: { ...flags, search: ['wobble spin'], json: ['number'] }, repo: REPO },
      noJq,
    );
    expect(outcome).toEqual({ kind: 'done', code: 0, stdout: '[]\n', stderr: '' });
  });

  it.each([
    ['a qualifier', 'crash is:open'],
    ['a grammar qualifier', 'crash state:closed'],
    ['a label qualifier', 'crash label:bug'],
    ['a quoted phrase', "'crash now'"],
    ['OR', 'crash OR hang'],
    ['a negated term', 'crash -hang'],
    ['only whitespace', ' \t '],
  ])('%s in the text runs gh without a relay read', async (_name, text) => {
    const port = routedPort({});
    expect(await runIssueList(port, { flags: { search: [text] }, repo: REPO }, noJq)).toEqual({
      kind: 'delegate',
      reason: 'unsupported_flag',
    });
    expect(port.reads).toEqual([]);
  });

  it.each([
    [
      'a missing repository (search 422)',
      searchAnswer([], { status: 422 }),
      REPO_MISSING,
      MISSING_REPO_TEXT,
    ],
    [
      'disabled issues',
      searchAnswer([PAGE[0]]),
      REPO_OFF,
      "the 'OWNER/REPO' repository has disabled issues\n",
    ],
  ])('prints gh’s error for %s (exit 1)', async (_name, answer, repoAnswer, stderr) => {
    const port = routedPort({
      [search('crash repo:OWNER/REPO state:open type:issue')]: answer,
      '/repos/OWNER/REPO': repoAnswer,
    });
    expect(await runIssueList(port, { flags: { search: ['crash'] }, repo: REPO }, noJq)).toEqual({
      kind: 'done',
      code: 1,
      stdout: '',
      stderr,
    });
  });

  it.each([
    ['a pull request among the items', searchAnswer([PAGE[1]])],
    ['a 422 for a repository that reads', searchAnswer([], { status: 422 })],
  ])('%s runs gh', async (_name, answer) => {
    const port = routedPort({
      [search('crash repo:OWNER/REPO state:open type:issue')]: answer,
      '/repos/OWNER/REPO': REPO_OK,
    });
    expect(await runIssueList(port, { flags: { search: ['crash'] }, repo: REPO }, noJq)).toEqual({
      kind: 'delegate',
      reason: 'unsupported_shape',
    });
  });

  it('a relay fallback_local (search_denied) runs gh as the relay asks', async () => {
    const port = routedPort({
      [search('crash repo:OWNER/REPO state:open type:issue')]: 'fallback',
    });
    expect(await runIssueList(port, { flags: { search: ['crash'] }, repo: REPO }, noJq)).toEqual({
      kind: 'fallback',
      reason: 'search_denied',
    });
  });

  it('a cached search adds the stderr note', async () => {
    const port = routedPort({
      [search('crash repo:OWNER/REPO state:open type:issue')]: searchAnswer([PAGE[0]], {
        cache: 'hit',
      }),
      '/repos/OWNER/REPO': REPO_OK,
    });
    expect(
      await runIssueList(port, { flags: { search: ['crash'] }, repo: REPO }, noJq),
    ).toMatchObject({
      code: 0,
      stderr:
        'relay: search_issues served from the relay cache (hit; the relay reports no refresh time — RELAY_FRESH=1 reads it fresh)\n',
    });
  });
});

describe('gh issue list --label / --milestone / --mention through REST’s issue list', () => {
  const list = (extra: string) => `${ISSUES}?${LIST_QUERY}${extra}&per_page=100`;
  const MILESTONES = '/repos/OWNER/REPO/milestones?state=all&per_page=100';
  const milestones = (titles: readonly string[]) =>
    envelope(
      titles.map((title, index) => ({ number: index + 1, title })),
      { route: 'milestone_list' },
    );

  it('--label (repeatable, all required) and --mention are REST parameters', async () => {
    const port = routedPort({
      [list('&mentioned=hubot&labels=label%2Chelp+wanted')]: envelope(PAGE),
    });
    const outcome = await runIssueList(
      port,
      { flags: { label: ['label', 'help wanted'], mention: ['hubot'], limit: ['2'] }, repo: REPO },
      noJq,
    );
    expect(outcome).toEqual({ kind: 'done', code: 0, stdout: TABLE, stderr: '' });
  });

  it.each([
    ['a number', '2', [], '&milestone=2'],
    ['a number with leading zeros (Go ParseInt)', '002', [], '&milestone=2'],
    ['an exact title', 'v2', ['v1', 'v2', 'V2.0'], '&milestone=2'],
    ['a title with spaces', 'The big 1.0', ['Later', 'The big 1.0'], '&milestone=2'],
  ])('--milestone %s lists that milestone’s issues', async (_name, value, titles, extra) => {
    const port = routedPort({
      '/repos/OWNER/REPO/milestones/2': envelope(
        { number: 2, title: 'v2' },
        { route: 'milestone_view' },
      ),
      [MILESTONES]: milestones(titles),
      [list(extra)]: envelope(PAGE),
    });
    const outcome = await runIssueList(
      port,
      { flags: { milestone: [value], limit: ['2'] }, repo: REPO },
      noJq,
    );
    expect(outcome).toEqual({ kind: 'done', code: 0, stdout: TABLE, stderr: '' });
    expect(port.reads.at(-1)).toBe(list(extra));
  });

  it('--milestone reads every page of milestones (all states) for a title', async () => {
    const next = '<https://api.github.com/repositories/1/milestones?page=2>; rel="next"';
    const port = routedPort({
      [MILESTONES]: envelope([{ number: 1, title: 'v1' }], { link: next }),
      '/repos/OWNER/REPO/milestones?state=all&per_page=100&page=2': envelope([
        { number: 7, title: 'v7' },
      ]),
      [list('&milestone=7')]: envelope([]),
      '/repos/OWNER/REPO': REPO_OK,
    });
    const outcome = await runIssueList(port, { flags: { milestone: ['v7'] }, repo: REPO }, noJq);
    expect(outcome).toEqual({ kind: 'done', code: 0, stdout: '', stderr: '' });
  });

  it('a title no milestone has: gh’s empty search result (after its issues check)', async () => {
    const port = routedPort({ [MILESTONES]: milestones(['v1']), '/repos/OWNER/REPO': REPO_OK });
    expect(
      await runIssueList(
        port,
        { flags: { milestone: ['v9'], json: ['number'] }, repo: REPO },
        noJq,
      ),
    ).toEqual({ kind: 'done', code: 0, stdout: '[]\n', stderr: '' });
    expect(port.reads).toEqual([MILESTONES, '/repos/OWNER/REPO']);
  });

  it.each([
    ['a missing number', NOT_FOUND, REPO_OK, "no milestone found with number '9'\n"],
    ['a number in a missing repository', NOT_FOUND, REPO_MISSING, MISSING_REPO_TEXT],
  ])('--milestone 9, %s: gh’s error (exit 1)', async (_name, answer, repoAnswer, stderr) => {
    const port = routedPort({
      '/repos/OWNER/REPO/milestones/9': answer,
      '/repos/OWNER/REPO': repoAnswer,
    });
    expect(await runIssueList(port, { flags: { milestone: ['9'] }, repo: REPO }, noJq)).toEqual({
      kind: 'done',
      code: 1,
      stdout: '',
      stderr,
    });
  });

  it('a title in a missing repository: gh’s error (exit 1)', async () => {
    const port = routedPort({ [MILESTONES]: NOT_FOUND, '/repos/OWNER/REPO': REPO_MISSING });
    expect(await runIssueList(port, { flags: { milestone: ['v1'] }, repo: REPO }, noJq)).toEqual({
      kind: 'done',
      code: 1,
      stdout: '',
      stderr: MISSING_REPO_TEXT,
    });
  });

  it.each([
    [
      'a missing number with issues disabled',
      '9',
      { '/repos/OWNER/REPO/milestones/9': NOT_FOUND, '/repos/OWNER/REPO': REPO_OFF },
    ],
    ['a title that matches only without case', 'V1', { [MILESTONES]: milestones(['v1']) }],
  ])('--milestone, %s, runs gh', async (_name, value, answers) => {
    expect(
      await runIssueList(routedPort(answers), { flags: { milestone: [value] }, repo: REPO }, noJq),
    ).toMatchObject({ kind: 'delegate' });
  });

  it.each(['+1', '-1', '99999999999', ' v1', 'v1 ', 'big  one', 'say "hi"', 'a\\b', 'tab\there'])(
    '--milestone %j runs gh without a relay read',
    async (value) => {
      const port = routedPort({});
      expect(await runIssueList(port, { flags: { milestone: [value] }, repo: REPO }, noJq)).toEqual(
        { kind: 'delegate', reason: 'unsupported_flag' },
      );
      expect(port.reads).toEqual([]);
    },
  );
});
