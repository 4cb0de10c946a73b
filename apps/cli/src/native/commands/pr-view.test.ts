import type { RelayEnvelope } from '@relay/protocol';
import { describe, expect, it } from 'vitest';
import type { JqRunner } from '../export/export-output.js';
import { createFakeDependencies } from '../../../test/cli-harness.js';
import type { ProcessOutput } from '../../cli-dependencies.js';
import type { RelayPort, RelayRead } from '../relay-port.js';
import { readCurrentBranchSelection } from './pr-branch-git.js';
import { runPrView } from './pr-view.js';

const REPO = {
  repo: { host: 'github.com', owner: 'OWNER', name: 'REPO' },
  source: 'flag' as const,
};

function account(login: string, type = 'User') {
  return { login, node_id: `U_${login}`, type };
}

function repoOf(id: number, owner: ReturnType<typeof account>, name = 'REPO') {
  return { id, node_id: `R_${String(id)}`, name, owner };
}

/** gh's fixture prViewPreview.json as REST gives it. */
function pull(overrides: Record<string, unknown> = {}) {
  return {
    id: 1012,
    node_id: 'PR_12',
    number: 12,
    html_url: 'https://github.com/OWNER/REPO/pull/12',
    state: 'open',
    title: 'Blueberries are from a fork',
    body: '**blueberries taste good**',
    draft: false,
    user: account('nobody'),
    labels: [],
    milestone: null,
    assignees: [],
    requested_reviewers: [],
    requested_teams: [],
    created_at: '2020-01-26T19:06:38Z',
    updated_at: '2020-01-27T19:06:38Z',
    closed_at: null,
    merged_at: null,
    head: { ref: 'blueberries', sha: 'a'.repeat(40), repo: repoOf(2, account('hubot'), 'REPO') },
    base: { ref: 'master', sha: 'b'.repeat(40), repo: repoOf(1, account('OWNER', 'Organization')) },
    auto_merge: null,
    additions: 100,
    deletions: 10,
    changed_files: 2,
    mergeable: null,
    merged_by: null,
    maintainer_can_modify: true,
    ...overrides,
  };
}

function envelope(body: unknown, status = 200, cache = 'miss', route = 'pr_view'): RelayEnvelope {
  return {
    status,
    headers: {},
    body,
    body_encoding: 'json',
    relay: {
      pool: 'team',
      request_id: 'r',
      cacheable: true,
      cache,
      stale_ok: cache === 'stale',
      ...(cache === 'stale'
        ? { stale_reason: 'identities_cooling_down', cache_expires_at: '2026-11-22T10:00:00Z' }
        : {}),
      route_kind: route,
    },
  } as unknown as RelayEnvelope;
}

/** A fake port answering reads in order and recording them. */
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
const plan = (args: string[], flags: Record<string, string[]> = {}) => ({
  args,
  flags,
  repo: REPO,
});

const PREVIEW = [
  'title:\tBlueberries are from a fork',
  'state:\tOPEN',
  'author:\tnobody',
  'labels:\t',
  'assignees:\t',
  'reviewers:\t',
  'projects:\t',
  'milestone:\t',
  'number:\t12',
  'url:\thttps://github.com/OWNER/REPO/pull/12',
  'additions:\t100',
  'deletions:\t10',
  'auto-merge:\tdisabled',
  '--',
  '**blueberries taste good**',
  '',
].join('\n');

describe('gh pr view through the relay port (human output)', () => {
  it('prints gh’s raw preview (view_test.go "Open PR without metadata") from the PR and its reviews', async () => {
    const port = fakePort([envelope(pull()), envelope([], 200, 'miss', 'pr_reviews')]);
    const outcome = await runPrView(port, plan(['12']), options);
    expect(outcome).toEqual({ kind: 'done', code: 0, stdout: PREVIEW, stderr: '' });
    expect(port.reads).toEqual([
      { path: '/repos/OWNER/REPO/pulls/12' },
      { path: '/repos/OWNER/REPO/pulls/12/reviews', query: { per_page: '100' } },
    ]);
  });

  it.each([
    ['Closed PR', { state: 'closed', closed_at: '2020-02-01T00:00:00Z' }, 'CLOSED'],
    ['Merged PR', { state: 'closed', merged_at: '2020-02-01T00:00:00Z' }, 'MERGED'],
    ['Draft PR', { draft: true }, 'DRAFT'],
    ['closed draft', { draft: true, state: 'closed' }, 'CLOSED'],
  ])('%s: state line %s', async (_name, overrides, state) => {
    const port = fakePort([envelope(pull(overrides)), envelope([])]);
    const outcome = await runPrView(port, plan(['#12']), options);
    expect(outcome).toMatchObject({ stdout: PREVIEW.replace('state:\tOPEN', `state:\t${state}`) });
  });

  it('reviewers, labels, milestone, auto-merge (view_test.go "with reviewers by number", "auto-merge enabled")', async () => {
    const review = (login: string | null, state: string) => ({
      user: login === null ? null : account(login),
      state,
    });
    const reviews = [
      review('123', 'COMMENTED'),
      review('def', 'CHANGES_REQUESTED'),
      review('abc', 'APPROVED'),
      review('DEF', 'COMMENTED'),
      review('xyz', 'APPROVED'),
      review(null, 'APPROVED'),
      review('hubot', 'CHANGES_REQUESTED'),
      review('hubot', 'DISMISSED'),
      review('monalisa', 'PENDING'),
      review('nobody', 'COMMENTED'),
    ];
    const label = (id: number, name: string) => ({
      id,
      node_id: `LA_${String(id)}`,
      name,
      description: null,
      color: 'ededed',
    });
    const port = fakePort([
      envelope(
        pull({
          requested_reviewers: [account('123'), account('abc')],
          requested_teams: [
            {
              name: 'Team 1',
              slug: 'team-1',
              html_url: 'https://github.com/orgs/my-org/teams/team-1',
            },
          ],
          labels: [
            label(5, 'Type: Bug'),
            label(1, 'Closed: Won’t Fix'),
            label(3, 'help wanted'),
            label(2, 'Status: In Progress'),
            label(4, 'Closed: Duplicate'),
          ],
          milestone: { number: 1, title: 'uluru', description: null, due_on: null },
          assignees: [account('marseilles')],
          auto_merge: { enabled_by: account('hubot'), merge_method: 'squash' },
        }),
      ),
      envelope(reviews),
    ]);
    const outcome = await runPrView(port, plan(['12']), options);
    expect(outcome).toMatchObject({
      code: 0,
      stdout: PREVIEW.replace(
        'reviewers:\t',
        'reviewers:\tDEF (Commented), def (Changes requested), ghost (Approved), hubot (Commented), xyz (Approved), 123 (Requested), abc (Requested), my-org/team-1 (Requested)',
      )
        .replace(
          'labels:\t',
          'labels:\tClosed: Duplicate, Closed: Won’t Fix, help wanted, Status: In Progress, Type: Bug',
        )
        .replace('assignees:\t', 'assignees:\tmarseilles')
        .replace('milestone:\t', 'milestone:\tuluru')
        .replace('auto-merge:\tdisabled', 'auto-merge:\tenabled\thubot\tsquash'),
    });
  });

  it('sorts labels by Go’s strings.ToLower: U+0130 lowers to i (JavaScript: i + U+0307)', async () => {
    const label = (id: number, name: string) => ({
      id,
      node_id: `LA_${String(id)}`,
      name,
      description: null,
      color: 'ededed',
    });
    const port = fakePort([
      envelope(pull({ labels: [label(1, 'ib'), label(2, '\u0130a'), label(3, 'Ia')] })),
      envelope([]),
    ]);
    const outcome = await runPrView(port, plan(['12']), options);
    expect(outcome).toMatchObject({
      stdout: PREVIEW.replace('labels:\t', 'labels:\t\u0130a, Ia, ib'),
    });
  });

  it('a bot author prints GraphQL’s login; control characters become caret notation', async () => {
    const port = fakePort([
      envelope(pull({ user: account('dependabot[bot]', 'Bot'), title: 'bump\u001b[31m' })),
      envelope([]),
    ]);
    const outcome = await runPrView(port, plan(['12']), options);
    expect(outcome).toMatchObject({
      stdout: PREVIEW.replace('author:\tnobody', 'author:\tdependabot').replace(
        'title:\tBlueberries are from a fork',
        'title:\tbump^[[31m',
      ),
    });
  });

  it.each([
    ['several assignees (order unproved)', { assignees: [account('a'), account('b')] }],
    ['a deleted author', { user: account('ghost') }],
    ['a bot review request', { requested_reviewers: [account('x[bot]', 'Bot')] }],
  ])('%s runs gh', async (_name, overrides) => {
    const outcome = await runPrView(
      fakePort([envelope(pull(overrides)), envelope([])]),
      plan(['12']),
      options,
    );
    expect(outcome).toEqual({ kind: 'delegate', reason: 'unsupported_shape' });
  });

  it('a PR URL reads that repository', async () => {
    const port = fakePort([envelope(pull()), envelope([])]);
    await runPrView(port, plan(['https://github.com/acme/widgets/pull/12/files']), options);
    expect(port.reads[0]).toEqual({ path: '/repos/acme/widgets/pulls/12' });
  });

  it('a missing PR in an existing repository prints gh’s GraphQL error, exit 1', async () => {
    const port = fakePort([
      envelope({ message: 'Not Found' }, 404),
      envelope({ full_name: 'OWNER/REPO' }, 200, 'miss', 'repo_view'),
    ]);
    expect(await runPrView(port, plan(['999']), options)).toEqual({
      kind: 'done',
      code: 1,
      stdout: '',
      stderr:
        'GraphQL: Could not resolve to a PullRequest with the number of 999. (repository.pullRequest)\n',
    });
    expect(port.reads[1]).toEqual({ path: '/repos/OWNER/REPO' });
  });

  it('a missing repository runs gh (GraphQL words it)', async () => {
    const port = fakePort([envelope({}, 404), envelope({}, 404)]);
    expect(await runPrView(port, plan(['1']), options)).toEqual({
      kind: 'delegate',
      reason: 'unsupported_shape',
    });
  });

  it('a relay fallback is handed back', async () => {
    const port: RelayPort = {
      read: () => Promise.resolve({ kind: 'fallback', reason: 'repo_not_public' }),
    };
    expect(await runPrView(port, plan(['1']), options)).toEqual({
      kind: 'fallback',
      reason: 'repo_not_public',
    });
  });
});

describe('gh pr view --json through the relay port', () => {
  it('prints gh’s shapes with sorted keys and struct fields in declaration order', async () => {
    const port = fakePort([
      envelope(
        pull({
          labels: [
            { id: 9, node_id: 'LA_9', name: 'b<&>', description: null, color: 'fff' },
            { id: 3, node_id: 'LA_3', name: 'a', description: 'd', color: '000' },
          ],
          milestone: { number: 2, title: 'v1', description: null, due_on: null },
          requested_teams: [
            { name: 'Core', slug: 'core', html_url: 'https://github.com/orgs/OWNER/teams/core' },
          ],
        }),
      ),
      envelope({ login: 'nobody', name: null }, 200, 'miss', 'user_view'),
      envelope({ login: 'hubot', name: 'Hu Bot' }, 200, 'miss', 'user_view'),
    ]);
    const outcome = await runPrView(
      port,
      plan(['12'], {
        json: [
          'number,title,labels,milestone,author,headRepositoryOwner',
          'headRepository,isCrossRepository,fullDatabaseId,reviewRequests,autoMergeRequest,title',
        ],
      }),
      options,
    );
    expect(outcome).toEqual({
      kind: 'done',
      code: 0,
      stderr: '',
      stdout:
        '{"author":{"id":"U_nobody","is_bot":false,"login":"nobody","name":""},"autoMergeRequest":null,' +
        '"fullDatabaseId":"1012","headRepository":{"id":"R_2","name":"REPO"},' +
        '"headRepositoryOwner":{"id":"U_hubot","name":"Hu Bot","login":"hubot"},"isCrossRepository":true,' +
        '"labels":[{"id":"LA_3","name":"a","description":"d","color":"000"},{"id":"LA_9","name":"b<&>","description":"","color":"fff"}],' +
        '"milestone":{"number":2,"title":"v1","description":"","dueOn":null},"number":12,' +
        '"reviewRequests":[{"__typename":"Team","name":"Core","slug":"OWNER/core"}],"title":"Blueberries are from a fork"}\n',
    });
    expect(port.reads.map((r) => r.path)).toEqual([
      '/repos/OWNER/REPO/pulls/12',
      '/users/nobody',
      '/users/hubot',
    ]);
  });

  it.each([
    [{ state: 'open', merged_at: null, mergeable: true }, 'OPEN', 'MERGEABLE'],
    [{ state: 'closed', merged_at: null, mergeable: false }, 'CLOSED', 'CONFLICTING'],
    [{ state: 'closed', merged_at: '2020-02-01T00:00:00Z', mergeable: null }, 'MERGED', 'UNKNOWN'],
  ])('rule 9 conversions and rule 8 max-age=0 for live fields: %o', async (fields, state, m) => {
    const port = fakePort([envelope(pull(fields))]);
    const outcome = await runPrView(port, plan(['12'], { json: ['state,mergeable'] }), options);
    expect(outcome).toMatchObject({ stdout: `{"mergeable":"${m}","state":"${state}"}\n` });
    expect(port.reads).toEqual([
      { path: '/repos/OWNER/REPO/pulls/12', headers: { 'cache-control': 'max-age=0' } },
    ]);
  });

  it('descriptive fields stay cached; a cache hit adds the stderr note', async () => {
    const port = fakePort([envelope(pull(), 200, 'hit')]);
    const outcome = await runPrView(
      port,
      plan(['12'], { json: ['title,isDraft,closed'] }),
      options,
    );
    expect(outcome).toEqual({
      kind: 'done',
      code: 0,
      stdout: '{"closed":false,"isDraft":false,"title":"Blueberries are from a fork"}\n',
      stderr:
        'relay: pr_view served from the relay cache (hit; the relay reports no refresh time — RELAY_FRESH=1 reads it fresh)\n',
    });
    expect(port.reads).toEqual([{ path: '/repos/OWNER/REPO/pulls/12' }]);
  });

  it.each([
    [
      {},
      'stale',
      'relay: pr_view served stale from the relay cache (expired 2026-11-22T10:00:00Z, identities_cooling_down) — unsafe for live decisions\n',
    ],
    [{ RELAY_FRESH: '1' }, 'hit', ''],
    [{ RELAY_QUIET_CACHE: '1' }, 'stale', ''],
    [{}, 'miss', ''],
  ])('cache note under %o for a %s read', async (env, cache, note) => {
    const port = fakePort([envelope(pull(), 200, cache), envelope([], 200, cache)]);
    const outcome = await runPrView(port, plan(['12']), { jq: noJq, env });
    expect(outcome).toMatchObject({ stdout: PREVIEW, stderr: note });
  });

  it('--json number answers without a read (gh’s finder)', async () => {
    const port = fakePort([]);
    const outcome = await runPrView(port, plan(['#7'], { json: ['number'] }), options);
    expect(outcome).toMatchObject({ stdout: '{"number":7}\n' });
    expect(port.reads).toEqual([]);
  });

  it.each([['comments'], ['commits'], ['reviews'], ['title,reviews']])(
    '--json %s is rule 9’s detail export',
    async (json) => {
      const port = fakePort([]);
      expect(await runPrView(port, plan(['12'], { json: [json] }), options)).toEqual({
        kind: 'detail_export',
      });
    },
  );

  it.each([
    ['mergeCommit'],
    ['mergeStateStatus'],
    ['reviewDecision'],
    ['statusCheckRollup'],
    ['files'],
    ['projectItems'],
  ])('--json %s runs gh without a read', async (json) => {
    const port = fakePort([]);
    expect(await runPrView(port, plan(['12'], { json: [json] }), options)).toEqual({
      kind: 'delegate',
      reason: 'unsupported_flag',
    });
  });

  it('a milestone with a due date runs gh (REST’s due_on time of day is not GraphQL’s dueOn)', async () => {
    const milestone = { number: 2, title: 'v1', description: null, due_on: '2020-05-01T07:00:00Z' };
    const port = fakePort([envelope(pull({ milestone }))]);
    expect(await runPrView(port, plan(['12'], { json: ['milestone'] }), options)).toEqual({
      kind: 'delegate',
      reason: 'unsupported_flag',
    });
  });

  it('an enabled auto-merge (no enabledAt in REST) runs gh', async () => {
    const port = fakePort([
      envelope(pull({ auto_merge: { enabled_by: account('hubot'), merge_method: 'merge' } })),
    ]);
    expect(await runPrView(port, plan(['12'], { json: ['autoMergeRequest'] }), options)).toEqual({
      kind: 'delegate',
      reason: 'unsupported_flag',
    });
  });

  it('an unknown field prints gh’s error (exit 1) before any read', async () => {
    const outcome = await runPrView(fakePort([]), plan(['12'], { json: ['nope'] }), options);
    expect(outcome).toMatchObject({ code: 1, stdout: '' });
    if (outcome.kind !== 'done') throw new Error('expected done');
    expect(outcome.stderr).toMatch(
      /^Unknown JSON field: "nope"\nAvailable fields:\n {2}additions\n {2}assignees\n/,
    );
    expect(outcome.stderr).toContain(
      '  mergeCommit\n  mergeStateStatus\n  mergeable\n  mergedAt\n',
    );
  });

  it('the unknown-field error lists view_test.go TestJSONFields’ 44 fields, byte-sorted', async () => {
    const outcome = await runPrView(fakePort([]), plan(['12'], { json: ['x'] }), options);
    const fields = [
      'additions',
      'assignees',
      'author',
      'autoMergeRequest',
      'baseRefName',
      'body',
      'changedFiles',
      'closed',
      'closedAt',
      'comments',
      'commits',
      'createdAt',
      'deletions',
      'files',
      'fullDatabaseId',
      'headRefName',
      'headRefOid',
      'headRepository',
      'headRepositoryOwner',
      'id',
      'isCrossRepository',
      'isDraft',
      'labels',
      'latestReviews',
      'maintainerCanModify',
      'mergeCommit',
      'mergeStateStatus',
      'mergeable',
      'mergedAt',
      'mergedBy',
      'milestone',
      'number',
      'potentialMergeCommit',
      'projectCards',
      'projectItems',
      'reactionGroups',
      'reviewDecision',
      'reviewRequests',
      'reviews',
      'state',
      'statusCheckRollup',
      'title',
      'updatedAt',
      'url',
    ];
    expect(outcome).toEqual({
      kind: 'done',
      code: 1,
      stdout: '',
      stderr: `Unknown JSON field: "x"\nAvailable fields:\n${fields.map((f) => `  ${f}\n`).join('')}`,
    });
  });

  it('--jq runs over the export', async () => {
    const jq: JqRunner = (filter, json) => {
      expect([filter, json]).toEqual(['.title', '{"title":"Blueberries are from a fork"}\n']);
      return Promise.resolve({ ok: true, text: 'Blueberries are from a fork\n' });
    };
    const outcome = await runPrView(
      fakePort([envelope(pull())]),
      plan(['12'], { json: ['title'], jq: ['.title'] }),
      { jq, env: {} },
    );
    expect(outcome).toMatchObject({ stdout: 'Blueberries are from a fork\n' });
  });
});

/** A PR whose head is a branch of the base repository itself. */
function sameRepoPull(number: number, ref: string, overrides: Record<string, unknown> = {}) {
  const base = repoOf(1, account('OWNER', 'Organization'));
  return pull({
    number,
    html_url: `https://github.com/OWNER/REPO/pull/${String(number)}`,
    head: { ref, sha: 'a'.repeat(40), repo: base },
    base: { ref: 'master', sha: 'b'.repeat(40), repo: base },
    ...overrides,
  });
}

const MERGED = { state: 'closed', merged_at: '2020-02-01T00:00:00Z' };

/** The head lookup read (route pr_list) for `head`. */
const lookup = (head: string, extra: Partial<RelayRead> = {}): RelayRead => ({
  path: '/repos/OWNER/REPO/pulls',
  query: { head, state: 'all', sort: 'created', direction: 'desc', per_page: '30' },
  ...extra,
});

const list = (items: unknown[], cache = 'miss') => envelope(items, 200, cache, 'pr_list');

describe('gh pr view of a branch (gh’s findForBranch over REST route pr_list)', () => {
  it('a plain branch: the open PR of the base repository, then gh’s preview as by number', async () => {
    const port = fakePort([list([sameRepoPull(12, 'feature')]), envelope(pull()), envelope([])]);
    const outcome = await runPrView(port, plan(['feature']), options);
    expect(outcome).toEqual({ kind: 'done', code: 0, stdout: PREVIEW, stderr: '' });
    expect(port.reads).toEqual([
      lookup('OWNER:feature'),
      { path: '/repos/OWNER/REPO/pulls/12' },
      { path: '/repos/OWNER/REPO/pulls/12/reviews', query: { per_page: '100' } },
    ]);
  });

  it('a closed PR and an older open one: the open one wins', async () => {
    const port = fakePort([
      list([sameRepoPull(15, 'feature', MERGED), sameRepoPull(12, 'feature')]),
      envelope(pull()),
      envelope([]),
    ]);
    expect(await runPrView(port, plan(['feature']), options)).toMatchObject({ stdout: PREVIEW });
    expect(port.reads[1]).toEqual({ path: '/repos/OWNER/REPO/pulls/12' });
  });

  it('only a closed PR, not on the default branch: that one (the default branch is read)', async () => {
    const port = fakePort([
      list([sameRepoPull(15, 'feature', MERGED)]),
      envelope({ default_branch: 'master' }, 200, 'miss', 'repo_view'),
    ]);
    const outcome = await runPrView(port, plan(['feature'], { json: ['number'] }), options);
    expect(outcome).toEqual({ kind: 'done', code: 0, stdout: '{"number":15}\n', stderr: '' });
    expect(port.reads).toEqual([lookup('OWNER:feature'), { path: '/repos/OWNER/REPO' }]);
  });

  it('owner:branch: a PR from that owner’s fork (HeadLabel), not the base repository’s', async () => {
    const port = fakePort([
      list([sameRepoPull(20, 'blueberries'), pull()]),
      envelope(pull()),
      envelope([]),
    ]);
    expect(await runPrView(port, plan(['hubot:blueberries']), options)).toMatchObject({
      stdout: PREVIEW,
    });
    expect(port.reads[0]).toEqual(lookup('hubot:blueberries'));
    expect(port.reads[1]).toEqual({ path: '/repos/OWNER/REPO/pulls/12' });
  });

  it('the default branch with only a merged PR: gh’s not-found error, exit 1', async () => {
    const port = fakePort([
      list([sameRepoPull(3, 'master', MERGED)]),
      envelope({ default_branch: 'master' }, 200, 'miss', 'repo_view'),
    ]);
    expect(await runPrView(port, plan(['master']), options)).toEqual({
      kind: 'done',
      code: 1,
      stdout: '',
      stderr: 'no pull requests found for branch "master"\n',
    });
    expect(port.reads).toEqual([lookup('OWNER:master'), { path: '/repos/OWNER/REPO' }]);
  });

  it('no PR with that head (a fork’s PR does not count for a plain branch): not found', async () => {
    const port = fakePort([list([pull({ head: { ...pull().head, ref: 'nope' } })])]);
    expect(await runPrView(port, plan(['nope']), options)).toEqual({
      kind: 'done',
      code: 1,
      stdout: '',
      stderr: 'no pull requests found for branch "nope"\n',
    });
    expect(port.reads).toHaveLength(1);
  });

  it('--json number reads only the lookup; a cached lookup adds the note', async () => {
    const port = fakePort([list([sameRepoPull(12, 'feature')], 'hit')]);
    expect(await runPrView(port, plan(['feature'], { json: ['number'] }), options)).toEqual({
      kind: 'done',
      code: 0,
      stdout: '{"number":12}\n',
      stderr:
        'relay: pr_list served from the relay cache (hit; the relay reports no refresh time — RELAY_FRESH=1 reads it fresh)\n',
    });
    expect(port.reads).toEqual([lookup('OWNER:feature')]);
  });

  it('rule 8: live fields read the lookup and the PR with max-age=0', async () => {
    const port = fakePort([list([sameRepoPull(12, 'feature')]), envelope(pull())]);
    const outcome = await runPrView(port, plan(['feature'], { json: ['state'] }), options);
    expect(outcome).toEqual({ kind: 'done', code: 0, stdout: '{"state":"OPEN"}\n', stderr: '' });
    const fresh = { headers: { 'cache-control': 'max-age=0' } };
    expect(port.reads).toEqual([
      lookup('OWNER:feature', fresh),
      { path: '/repos/OWNER/REPO/pulls/12', ...fresh },
    ]);
  });

  it('a stale lookup is named even when the PR read is fresh', async () => {
    const port = fakePort([
      list([sameRepoPull(12, 'feature')], 'stale'),
      envelope(pull()),
      envelope([]),
    ]);
    const outcome = await runPrView(port, plan(['feature']), options);
    expect(outcome).toMatchObject({
      stdout: PREVIEW,
      stderr:
        'relay: pr_list served stale from the relay cache (expired 2026-11-22T10:00:00Z, identities_cooling_down) — unsafe for live decisions\n',
    });
  });

  it('detail fields hand off before any lookup', async () => {
    const port = fakePort([]);
    expect(await runPrView(port, plan(['feature'], { json: ['comments'] }), options)).toEqual({
      kind: 'detail_export',
    });
    expect(port.reads).toEqual([]);
  });
});

const out = (stdout: string, code = 0): ProcessOutput => ({
  code,
  stdout: Buffer.from(stdout),
  stderr: new Uint8Array(),
});

/** `currentBranch` reading a fake git: symbolic-ref, branch config, remotes. */
function currentBranchFrom(head: ProcessOutput, config = '', remotes = '') {
  const deps = createFakeDependencies({
    runProcess: (_file, args) => {
      if (args[0] === 'symbolic-ref') return Promise.resolve(head);
      return Promise.resolve(
        (args[2] ?? '').startsWith('^branch') ? out(config, config === '' ? 1 : 0) : out(remotes),
      );
    },
  });
  return {
    ...options,
    currentBranch: (repo: Parameters<typeof readCurrentBranchSelection>[1]) =>
      readCurrentBranchSelection(deps, repo),
  };
}

const REMOTES =
  'remote.origin.url https://github.com/OWNER/REPO.git\nremote.fork.url git@github.com:hubot/REPO.git\n';

describe('gh pr view with no argument: the current branch’s PR', () => {
  it('gh pr checkout’s merge ref refs/pull/N/head: PR N without a lookup', async () => {
    const port = fakePort([envelope(pull()), envelope([])]);
    const outcome = await runPrView(
      port,
      plan([]),
      currentBranchFrom(out('refs/heads/pr-12\n'), 'branch.pr-12.merge refs/pull/12/head\n'),
    );
    expect(outcome).toMatchObject({ code: 0, stdout: PREVIEW });
    expect(port.reads[0]).toEqual({ path: '/repos/OWNER/REPO/pulls/12' });
  });

  it('a branch pushed to a fork (remote by name): owner:branch of the merge ref', async () => {
    const port = fakePort([list([pull()]), envelope(pull()), envelope([])]);
    const outcome = await runPrView(
      port,
      plan([]),
      currentBranchFrom(
        out('refs/heads/local-blue\n'),
        'branch.local-blue.remote fork\nbranch.local-blue.merge refs/heads/blueberries\n',
        REMOTES,
      ),
    );
    expect(outcome).toMatchObject({ code: 0, stdout: PREVIEW });
    expect(port.reads[0]).toEqual(lookup('hubot:blueberries'));
  });

  it('a branch tracking another name on the base repository’s remote: refs/heads rename', async () => {
    const port = fakePort([list([sameRepoPull(12, 'feature')]), envelope(pull()), envelope([])]);
    const outcome = await runPrView(
      port,
      plan([]),
      currentBranchFrom(
        out('refs/heads/my-local\n'),
        'branch.my-local.remote origin\nbranch.my-local.merge refs/heads/feature\n',
        REMOTES,
      ),
    );
    expect(outcome).toMatchObject({ code: 0, stdout: PREVIEW });
    expect(port.reads[0]).toEqual(lookup('OWNER:feature'));
  });

  it('an untracked branch is looked up by its own name; none is gh’s error', async () => {
    const port = fakePort([list([])]);
    expect(await runPrView(port, plan([]), currentBranchFrom(out('refs/heads/wip\n')))).toEqual({
      kind: 'done',
      code: 1,
      stdout: '',
      stderr: 'no pull requests found for branch "wip"\n',
    });
    expect(port.reads).toEqual([lookup('OWNER:wip')]);
  });

  it('HEAD not on a branch: gh’s error, no read', async () => {
    const port = fakePort([]);
    expect(await runPrView(port, plan([]), currentBranchFrom(out('', 1)))).toEqual({
      kind: 'done',
      code: 1,
      stdout: '',
      stderr: 'could not determine current branch: failed to run git: not on any branch\n',
    });
    expect(port.reads).toEqual([]);
  });

  it('without a git reader, no argument runs gh', async () => {
    const port = fakePort([]);
    expect(await runPrView(port, plan([]), options)).toEqual({
      kind: 'delegate',
      reason: 'unsupported_shape',
    });
  });
});
