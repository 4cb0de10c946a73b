import type { RelayEnvelope } from '@relay/protocol';
import { describe, expect, it } from 'vitest';
import type { JqRunner } from '../export/export-output.js';
import type { RelayPort, RelayRead } from '../relay-port.js';
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
    ['--search', { search: ['fix'] }, 'unsupported_flag'],
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
