import type { RelayEnvelope } from '@relay/protocol';
import { describe, expect, it } from 'vitest';
import type { JqRunner } from '../export/export-output.js';
import type { RelayPort, RelayRead } from '../relay-port.js';
import { LIST_SEARCH_PULL_READS_IN_FLIGHT } from './list-search-read.js';
import { runPrList } from './pr-list.js';

const REPO = {
  repo: { host: 'github.com', owner: 'OWNER', name: 'REPO' },
  source: 'flag' as const,
};

function account(login: string, type = 'User') {
  return { login, node_id: `U_${login}`, type };
}

const BASE_REPO = { id: 1, node_id: 'R_1', name: 'REPO', owner: account('OWNER', 'Organization') };

/** A REST list item (no additions, mergeable, merged_by …). */
function item(number: number, title: string, overrides: Record<string, unknown> = {}) {
  return {
    id: 1000 + number,
    node_id: `PR_${String(number)}`,
    number,
    html_url: `https://github.com/OWNER/REPO/pull/${String(number)}`,
    state: 'open',
    title,
    body: null,
    draft: false,
    user: account('monalisa'),
    labels: [],
    milestone: null,
    assignees: [],
    requested_reviewers: [],
    requested_teams: [],
    created_at: '2022-08-24T20:01:12Z',
    updated_at: '2022-08-24T20:01:12Z',
    closed_at: null,
    merged_at: null,
    head: { ref: 'feature', sha: 'a'.repeat(40), repo: BASE_REPO },
    base: { ref: 'main', sha: 'b'.repeat(40), repo: BASE_REPO },
    auto_merge: null,
    ...overrides,
  };
}

function envelope(body: unknown, options: { link?: string; cache?: string } = {}): RelayEnvelope {
  const cache = options.cache ?? 'miss';
  return {
    status: 200,
    headers: options.link === undefined ? {} : { link: options.link },
    body,
    body_encoding: 'json',
    relay: {
      pool: 'team',
      request_id: 'r',
      cacheable: true,
      cache,
      stale_ok: false,
      route_kind: 'pr_list',
    },
  } as unknown as RelayEnvelope;
}

function fakePort(answers: readonly RelayEnvelope[]): RelayPort & { reads: RelayRead[] } {
  const reads: RelayRead[] = [];
  return {
    reads,
    read(request) {
      reads.push(request);
      const answer = answers[reads.length - 1];
      if (answer === undefined) throw new Error(`unexpected read ${request.path}`);
      return Promise.resolve({ kind: 'served', envelope: answer });
    },
  };
}

const noJq: JqRunner = () => Promise.resolve('missing');
const options = { jq: noJq, env: {} };
const plan = (flags: Record<string, string[]> = {}) => ({ flags, repo: REPO });
const NEXT = '<https://api.github.com/repositories/1/pulls?page=2>; rel="next"';

// gh's list/fixtures/prList.json, as REST list items.
const FIXTURE = [
  item(32, 'New feature', { draft: true }),
  item(29, 'Fixed bad bug', {
    head: {
      ref: 'bug-fix',
      sha: 'c'.repeat(40),
      repo: { id: 2, node_id: 'R_2', name: 'REPO', owner: account('hubot') },
    },
  }),
  item(28, 'Improve   documentation\n', {
    state: 'closed',
    merged_at: '2022-08-25T00:00:00Z',
    head: { ref: 'docs', sha: 'd'.repeat(40), repo: BASE_REPO },
  }),
];

describe('gh pr list through the relay port', () => {
  it('--state in another case is gh’s lower-cased state (its enum flag takes any case)', async () => {
    const upper = fakePort([envelope(FIXTURE)]);
    const lower = fakePort([envelope(FIXTURE)]);
    const shouted = await runPrList(upper, plan({ state: ['ALL'] }), options);
    expect(shouted).toMatchObject({ kind: 'done', code: 0 });
    expect(shouted).toEqual(await runPrList(lower, plan({ state: ['all'] }), options));
    expect(upper.reads).toEqual(lower.reads);
  });

  it('prints gh’s non-TTY table (list_test.go TestPRList_nontty) from one page', async () => {
    const port = fakePort([envelope(FIXTURE)]);
    const outcome = await runPrList(port, plan({ state: ['all'] }), options);
    expect(outcome).toEqual({
      kind: 'done',
      code: 0,
      stderr: '',
      stdout:
        '32\tNew feature\tfeature\tDRAFT\t2022-08-24T20:01:12Z\n' +
        '29\tFixed bad bug\thubot:bug-fix\tOPEN\t2022-08-24T20:01:12Z\n' +
        '28\tImprove documentation\tdocs\tMERGED\t2022-08-24T20:01:12Z\n',
    });
    expect(port.reads).toEqual([
      {
        path: '/repos/OWNER/REPO/pulls',
        query: { state: 'all', sort: 'created', direction: 'desc', per_page: '100' },
      },
    ]);
  });

  it('--limit stops once enough PRs are read (no second page)', async () => {
    const port = fakePort([envelope(FIXTURE, { link: NEXT })]);
    const outcome = await runPrList(port, plan({ limit: ['2'] }), options);
    expect(outcome).toMatchObject({
      stdout:
        '32\tNew feature\tfeature\tDRAFT\t2022-08-24T20:01:12Z\n29\tFixed bad bug\thubot:bug-fix\tOPEN\t2022-08-24T20:01:12Z\n',
    });
    expect(port.reads).toHaveLength(1);
  });

  it('--state merged reads closed PRs and keeps the merged ones, over every page', async () => {
    const closed = item(27, 'Abandoned', { state: 'closed', closed_at: '2022-08-25T00:00:00Z' });
    const port = fakePort([envelope([closed], { link: NEXT }), envelope([FIXTURE[2]])]);
    const outcome = await runPrList(port, plan({ state: ['merged'], base: ['main'] }), options);
    expect(outcome).toMatchObject({
      stdout: '28\tImprove documentation\tdocs\tMERGED\t2022-08-24T20:01:12Z\n',
    });
    expect(port.reads).toEqual([
      {
        path: '/repos/OWNER/REPO/pulls',
        query: {
          state: 'closed',
          base: 'main',
          sort: 'created',
          direction: 'desc',
          per_page: '100',
        },
      },
      {
        path: '/repos/OWNER/REPO/pulls',
        query: {
          state: 'closed',
          base: 'main',
          sort: 'created',
          direction: 'desc',
          per_page: '100',
          page: '2',
        },
      },
    ]);
  });

  it('--head keeps PRs of that head branch from any fork (GraphQL headRefName)', async () => {
    const outcome = await runPrList(
      fakePort([envelope(FIXTURE)]),
      plan({ head: ['bug-fix'] }),
      options,
    );
    expect(outcome).toMatchObject({
      stdout: '29\tFixed bad bug\thubot:bug-fix\tOPEN\t2022-08-24T20:01:12Z\n',
    });
  });

  it('no PRs: no output and exit 0; --json prints []', async () => {
    expect(await runPrList(fakePort([envelope([])]), plan(), options)).toEqual({
      kind: 'done',
      code: 0,
      stdout: '',
      stderr: '',
    });
    expect(await runPrList(fakePort([envelope([])]), plan({ json: ['number'] }), options)).toEqual({
      kind: 'done',
      code: 0,
      stdout: '[]\n',
      stderr: '',
    });
  });

  it('--json prints gh’s shapes per PR; people’s names come from /users', async () => {
    const port = fakePort([
      envelope(FIXTURE.slice(0, 2)),
      envelope({ login: 'monalisa', name: 'Mona Lisa' }),
    ]);
    const outcome = await runPrList(
      port,
      plan({ json: ['number,state,isDraft,author,headRefName,isCrossRepository'] }),
      options,
    );
    const author = '{"id":"U_monalisa","is_bot":false,"login":"monalisa","name":"Mona Lisa"}';
    expect(outcome).toMatchObject({
      code: 0,
      stdout:
        `[{"author":${author},"headRefName":"feature","isCrossRepository":false,"isDraft":true,"number":32,"state":"OPEN"},` +
        `{"author":${author},"headRefName":"bug-fix","isCrossRepository":true,"isDraft":false,"number":29,"state":"OPEN"}]\n`,
    });
    expect(port.reads.map((r) => r.path)).toEqual(['/repos/OWNER/REPO/pulls', '/users/monalisa']);
  });

  it('a cached page adds the stderr note', async () => {
    const outcome = await runPrList(fakePort([envelope([], { cache: 'hit' })]), plan(), options);
    expect(outcome).toMatchObject({
      stderr:
        'relay: pr_list served from the relay cache (hit; the relay reports no refresh time — RELAY_FRESH=1 reads it fresh)\n',
    });
  });

  it.each([
    ['--author', { author: ['monalisa'] }, 'unsupported_flag'],
    ['--app', { app: ['dependabot'] }, 'unsupported_flag'],
    ['--assignee', { assignee: ['@me'] }, 'unsupported_flag'],
    ['--label', { label: ['bug'] }, 'unsupported_flag'],
    ['--draft', { draft: ['true'] }, 'unsupported_flag'],
    ['--json additions (not in list items)', { json: ['additions'] }, 'unsupported_flag'],
    ['--json reviewDecision (GraphQL only)', { json: ['reviewDecision'] }, 'unsupported_flag'],
    ['--json comments', { json: ['comments'] }, 'unsupported_flag'],
    ['--limit 101', { limit: ['101'] }, 'unsupported_flag'],
    ['--limit 0', { limit: ['0'] }, 'invalid_usage'],
    ['--state draft', { state: ['draft'] }, 'invalid_usage'],
  ])('%s runs gh', async (_name, flags, reason) => {
    const port = fakePort([envelope(FIXTURE)]);
    const outcome = await runPrList(port, plan(flags), options);
    expect(outcome).toEqual({ kind: 'delegate', reason });
  });

  it('an unknown --json field prints gh’s error, exit 1', async () => {
    const outcome = await runPrList(fakePort([]), plan({ json: ['nope'] }), options);
    expect(outcome).toMatchObject({ code: 1, stdout: '' });
  });
});

/** A search answer of `/search/issues` (items as REST issue objects of pull requests). */
function searchEnvelope(
  numbers: readonly number[],
  options: { cache?: string; incomplete?: boolean; status?: number } = {},
): RelayEnvelope {
  const base = envelope(
    {
      total_count: numbers.length,
      incomplete_results: options.incomplete ?? false,
      items: numbers.map((number) => ({
        number,
        title: `found ${String(number)}`,
        pull_request: { url: `https://api.github.com/repos/OWNER/REPO/pulls/${String(number)}` },
        score: 1,
      })),
    },
    options.cache === undefined ? {} : { cache: options.cache },
  );
  return {
    ...base,
    status: options.status ?? 200,
    relay: { ...base.relay, route_kind: 'search_issues' },
  };
}

/** A PR as `/pulls/{n}` answers it (the fixture's list item, plus the detail counts). */
function pullEnvelope(pull: ReturnType<typeof item>, cache = 'miss'): RelayEnvelope {
  const base = envelope({ ...pull, additions: pull.number, deletions: 1 }, { cache });
  return { ...base, relay: { ...base.relay, route_kind: 'pr_view' } };
}

/** A port answering by path (the PR reads run concurrently); `undefined` → fallback. */
function routedPort(
  answers: Readonly<Record<string, RelayEnvelope | 'fallback'>>,
): RelayPort & { reads: RelayRead[] } {
  const reads: RelayRead[] = [];
  return {
    reads,
    read(request) {
      reads.push(request);
      const answer = answers[request.path];
      if (answer === undefined) throw new Error(`unexpected read ${request.path}`);
      return Promise.resolve(
        answer === 'fallback'
          ? { kind: 'fallback', reason: 'search_denied' }
          : { kind: 'served', envelope: answer },
      );
    },
  };
}

const [NEW_FEATURE, BUG_FIX, DOCS] = FIXTURE as [
  ReturnType<typeof item>,
  ReturnType<typeof item>,
  ReturnType<typeof item>,
];

/** The PR reads of the fixture's three PRs. */
const PULL_ANSWERS = {
  '/repos/OWNER/REPO/pulls/32': pullEnvelope(NEW_FEATURE),
  '/repos/OWNER/REPO/pulls/29': pullEnvelope(BUG_FIX),
  '/repos/OWNER/REPO/pulls/28': pullEnvelope(DOCS),
};

describe('gh pr list --search through the relay (REST search, then each PR)', () => {
  it('prints gh’s table in the search’s order from each PR’s own read', async () => {
    const port = routedPort({ '/search/issues': searchEnvelope([28, 32, 29]), ...PULL_ANSWERS });
    const outcome = await runPrList(port, plan({ search: ['fix crash'] }), options);
    expect(outcome).toEqual({
      kind: 'done',
      code: 0,
      stderr: '',
      stdout:
        '28\tImprove documentation\tdocs\tMERGED\t2022-08-24T20:01:12Z\n' +
        '32\tNew feature\tfeature\tDRAFT\t2022-08-24T20:01:12Z\n' +
        '29\tFixed bad bug\thubot:bug-fix\tOPEN\t2022-08-24T20:01:12Z\n',
    });
    expect(port.reads[0]).toEqual({
      path: '/search/issues',
      query: { q: 'fix crash repo:OWNER/REPO state:open type:pr', per_page: '30' },
    });
    expect(port.reads.slice(1).map((r) => r.path)).toEqual([
      '/repos/OWNER/REPO/pulls/28',
      '/repos/OWNER/REPO/pulls/32',
      '/repos/OWNER/REPO/pulls/29',
    ]);
  });

  it.each([
    [
      '--state open (the default)',
      { search: ['crash'] },
      'crash repo:OWNER/REPO state:open type:pr',
    ],
    [
      '--state closed',
      { search: ['crash'], state: ['closed'] },
      'crash repo:OWNER/REPO state:closed type:pr',
    ],
    [
      '--state all (no state qualifier)',
      { search: ['crash'], state: ['all'] },
      'crash repo:OWNER/REPO type:pr',
    ],
    [
      'the text as given (tabs, runs of spaces)',
      { search: [' fix\t crash '] },
      ' fix\t crash  repo:OWNER/REPO state:open type:pr',
    ],
    [
      'empty --base/--head (gh adds no qualifier)',
      { search: ['x'], base: [''], head: [''] },
      'x repo:OWNER/REPO state:open type:pr',
    ],
    [
      'terms gh does not read as operators',
      { search: ['or and not @me #12 a-b'] },
      'or and not @me #12 a-b repo:OWNER/REPO state:open type:pr',
    ],
  ])('%s: q is gh’s search string', async (_name, flags, q) => {
    const port = routedPort({ '/search/issues': searchEnvelope([]) });
    const outcome = await runPrList(port, plan({ ...flags, limit: ['7'] }), options);
    expect(outcome).toEqual({ kind: 'done', code: 0, stdout: '', stderr: '' });
    expect(port.reads).toEqual([{ path: '/search/issues', query: { q, per_page: '7' } }]);
  });

  it.each([
    ['--state merged (is:merged)', { search: ['crash'], state: ['merged'] }],
    ['--base (base:)', { search: ['crash'], base: ['main'] }],
    ['--head (head:)', { search: ['crash'], head: ['feature'] }],
    ['--author', { search: ['crash'], author: ['monalisa'] }],
    ['--label', { search: ['crash'], label: ['bug'] }],
    ['--draft', { search: ['crash'], draft: ['true'] }],
    ['a qualifier in the text', { search: ['crash is:open'] }],
    ['a grammar qualifier in the text', { search: ['crash state:closed'] }],
    ['a repo qualifier in the text', { search: ['repo:OWNER/REPO crash'] }],
    ['a quoted phrase', { search: ['"fix crash"'] }],
    ['OR', { search: ['fix OR crash'] }],
    ['NOT', { search: ['fix NOT crash'] }],
    ['a negated term', { search: ['fix -crash'] }],
    ['grouping', { search: ['(fix crash)'] }],
    ['a line break', { search: ['fix\ncrash'] }],
    ['only whitespace (a filter-only search)', { search: ['  '] }],
    ['a text over 1024 characters with the qualifiers', { search: ['a'.repeat(1000)] }],
  ])('%s runs gh without a relay read', async (_name, flags) => {
    const port = routedPort({});
    expect(await runPrList(port, plan(flags), options)).toEqual({
      kind: 'delegate',
      reason: 'unsupported_flag',
    });
    expect(port.reads).toEqual([]);
  });

  it('--search "" is gh’s plain list (no search)', async () => {
    const port = fakePort([envelope(FIXTURE.slice(0, 1))]);
    const outcome = await runPrList(port, plan({ search: [''] }), options);
    expect(outcome).toMatchObject({
      code: 0,
      stdout: '32\tNew feature\tfeature\tDRAFT\t2022-08-24T20:01:12Z\n',
    });
    expect(port.reads.map((r) => r.path)).toEqual(['/repos/OWNER/REPO/pulls']);
  });

  it('--json reads full PRs, so detail counts like additions are served; names from /users', async () => {
    const port = routedPort({
      '/search/issues': searchEnvelope([29]),
      ...PULL_ANSWERS,
      '/users/monalisa': envelope({ login: 'monalisa', name: 'Mona Lisa' }),
    });
    const outcome = await runPrList(
      port,
      plan({ search: ['bug'], json: ['number,additions,author,headRefName'] }),
      options,
    );
    expect(outcome).toEqual({
      kind: 'done',
      code: 0,
      stderr: '',
      stdout:
        '[{"additions":29,"author":{"id":"U_monalisa","is_bot":false,"login":"monalisa","name":"Mona Lisa"},"headRefName":"bug-fix","number":29}]\n',
    });
  });

  it.each([
    [
      'a cached search',
      { '/search/issues': searchEnvelope([32], { cache: 'hit' }), ...PULL_ANSWERS },
      'search_issues',
    ],
    [
      'a cached PR read',
      {
        '/search/issues': searchEnvelope([32]),
        '/repos/OWNER/REPO/pulls/32': pullEnvelope(NEW_FEATURE, 'hit'),
      },
      'pr_view',
    ],
  ])('%s adds the stderr note', async (_name, answers, route) => {
    const outcome = await runPrList(routedPort(answers), plan({ search: ['x'] }), options);
    expect(outcome).toMatchObject({
      code: 0,
      stderr: `relay: ${route} served from the relay cache (hit; the relay reports no refresh time — RELAY_FRESH=1 reads it fresh)\n`,
    });
  });

  it('a relay fallback_local on the search (search_denied) runs gh as the relay asks', async () => {
    const port = routedPort({ '/search/issues': 'fallback' });
    expect(await runPrList(port, plan({ search: ['x'] }), options)).toEqual({
      kind: 'fallback',
      reason: 'search_denied',
    });
  });

  it('a relay fallback_local on a PR read stops the other reads and runs gh', async () => {
    const numbers = [32, 29, 28, 27, 26, 25, 24];
    const port = routedPort({
      '/search/issues': searchEnvelope(numbers),
      ...Object.fromEntries(
        numbers.map((n) => [`/repos/OWNER/REPO/pulls/${String(n)}`, pullEnvelope(item(n, 'x'))]),
      ),
      '/repos/OWNER/REPO/pulls/28': 'fallback',
    });
    expect(await runPrList(port, plan({ search: ['x'] }), options)).toMatchObject({
      kind: 'fallback',
    });
    // The four first reads were in flight; the fallback of #28 ends the rest.
    expect(port.reads.length).toBeLessThan(1 + numbers.length);
  });

  it.each([
    [
      'a 422 (a repository the forge cannot search)',
      { '/search/issues': searchEnvelope([], { status: 422 }) },
    ],
    [
      'incomplete results (a search that timed out)',
      { '/search/issues': searchEnvelope([32], { incomplete: true }) },
    ],
    [
      'a found item that is not a pull request',
      {
        '/search/issues': {
          ...searchEnvelope([]),
          body: { total_count: 1, incomplete_results: false, items: [{ number: 3 }] },
        },
      },
    ],
    [
      'a PR that no longer reads',
      {
        '/search/issues': searchEnvelope([32]),
        '/repos/OWNER/REPO/pulls/32': {
          ...pullEnvelope(NEW_FEATURE),
          status: 404,
        },
      },
    ],
  ])('%s runs gh', async (_name, answers) => {
    expect(await runPrList(routedPort(answers), plan({ search: ['x'] }), options)).toEqual({
      kind: 'delegate',
      reason: 'unsupported_shape',
    });
  });

  it(`reads at most ${String(LIST_SEARCH_PULL_READS_IN_FLIGHT)} PRs at once, and keeps the search order`, async () => {
    const numbers = Array.from({ length: 12 }, (_, index) => 40 - index);
    let inFlight = 0;
    let most = 0;
    const reads: string[] = [];
    const port: RelayPort = {
      async read(request) {
        reads.push(request.path);
        if (request.path === '/search/issues') {
          return { kind: 'served', envelope: searchEnvelope(numbers) };
        }
        inFlight += 1;
        most = Math.max(most, inFlight);
        const number = Number(request.path.split('/').at(-1));
        // Later PRs answer sooner: the order must come from the search, not from arrival.
        await new Promise((resolve) => setTimeout(resolve, 50 - number));
        inFlight -= 1;
        return { kind: 'served', envelope: pullEnvelope(item(number, `PR ${String(number)}`)) };
      },
    };
    const outcome = await runPrList(port, plan({ search: ['x'], json: ['number'] }), options);
    expect(outcome).toMatchObject({
      code: 0,
      stdout: `${JSON.stringify(numbers.map((number) => ({ number })))}\n`,
    });
    expect(most).toBe(LIST_SEARCH_PULL_READS_IN_FLIGHT);
    expect(reads).toHaveLength(1 + numbers.length);
  });
});
