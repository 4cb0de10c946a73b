import type { RelayEnvelope } from '@relay/protocol';
import { describe, expect, it } from 'vitest';
import type { JqRunner } from '../export/export-output.js';
import type { RelayPort, RelayRead } from '../relay-port.js';
import { runIssueView } from './issue-view.js';

const REPO = {
  repo: { host: 'github.com', owner: 'OWNER', name: 'REPO' },
  source: 'flag' as const,
};

type Cache = 'hit' | 'miss' | 'stale';

function envelope(
  body: unknown,
  status = 200,
  route = 'issue_view',
  cache: Cache = 'miss',
): RelayEnvelope {
  return {
    status,
    headers: {},
    body,
    body_encoding: 'json',
    identity: null,
    relay: {
      pool: 'team',
      request_id: 'r',
      cacheable: true,
      cache,
      stale_ok: cache === 'stale',
      ...(cache === 'stale'
        ? { stale_reason: 'forge_rate_limited', cache_expires_at: '2026-11-22T10:00:00Z' }
        : {}),
      route_kind: route,
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
      if (answer === undefined) throw new Error('unexpected read');
      return Promise.resolve({ kind: 'served', envelope: answer });
    },
  };
}

const noJq: JqRunner = () => Promise.resolve('missing');

function user(login: string, type = 'User') {
  return { login, type, id: 1, node_id: 'U_1' };
}

function label(id: number, name: string) {
  return { id, node_id: `LA_${String(id)}`, name, description: null, color: 'ededed' };
}

/** gh's issueView_preview.json fixture, as REST answers the same issue. */
const ISSUE = {
  node_id: 'I_123',
  number: 123,
  title: 'ix of coins',
  html_url: 'https://github.com/OWNER/REPO/issues/123',
  state: 'open',
  body: '**bold story**',
  user: user('marseilles'),
  labels: [],
  assignees: [],
  milestone: null,
  comments: 9,
  created_at: '2011-01-26T19:01:12Z',
  updated_at: '2011-01-27T19:01:12Z',
  closed_at: null,
};

function view(args: readonly string[], flags: Record<string, readonly string[]> = {}) {
  return { args, flags, repo: REPO };
}

describe('gh issue view through the relay port', () => {
  it('prints gh’s non-TTY preview (view_test.go "Open issue without metadata")', async () => {
    const port = fakePort([envelope(ISSUE)]);
    const outcome = await runIssueView(port, view(['123']), noJq);
    expect(outcome).toEqual({
      kind: 'done',
      code: 0,
      stdout:
        'title:\tix of coins\nstate:\tOPEN\nauthor:\tmarseilles\nlabels:\t\ncomments:\t9\nassignees:\t\nprojects:\t\nmilestone:\t\nnumber:\t123\n--\n**bold story**\n',
      stderr: '',
    });
    expect(port.reads).toEqual([{ path: '/repos/OWNER/REPO/issues/123' }]);
  });

  it('sorts labels case-insensitively and prints the milestone ("Open issue with metadata")', async () => {
    const issue = {
      ...ISSUE,
      labels: [
        label(1, "Closed: Won't Fix"),
        label(2, 'Status: In Progress'),
        label(3, 'Type: Bug'),
        label(4, 'help wanted'),
        label(5, 'Closed: Duplicate'),
      ],
      assignees: [user('monaco')],
      milestone: { number: 1, title: 'uluru', description: null, due_on: null },
    };
    const outcome = await runIssueView(fakePort([envelope(issue)]), view(['#123']), noJq);
    expect(outcome).toMatchObject({
      stdout: expect.stringContaining(
        "labels:\tClosed: Duplicate, Closed: Won't Fix, help wanted, Status: In Progress, Type: Bug\ncomments:\t9\nassignees:\tmonaco\nprojects:\t\nmilestone:\tuluru\n",
      ) as unknown,
    });
  });

  it('sorts labels by Go’s strings.ToLower: U+0130 lowers to i, Σ to σ (no final sigma)', async () => {
    const issue = {
      ...ISSUE,
      labels: [label(1, 'ib'), label(2, '\u0130a'), label(3, 'ΑΣ'), label(4, 'ας')],
    };
    const outcome = await runIssueView(fakePort([envelope(issue)]), view(['123']), noJq);
    // Go: "ia" < "ib"; JavaScript's "İa".toLowerCase() is "i\u0307a", which sorts after "ib".
    expect(outcome).toMatchObject({
      stdout: expect.stringContaining('labels:\t\u0130a, ib, ας, ΑΣ\n') as unknown,
    });
  });

  it('a closed issue with an empty body, a bot author without [bot] ("Closed issue", "empty body")', async () => {
    const issue = { ...ISSUE, state: 'closed', body: null, user: user('dependabot[bot]', 'Bot') };
    const outcome = await runIssueView(fakePort([envelope(issue)]), view(['123']), noJq);
    expect(outcome).toMatchObject({
      stdout: expect.stringMatching(
        /^title:\tix of coins\nstate:\tCLOSED\nauthor:\tdependabot\n[^]*number:\t123\n--\n\n$/,
      ) as unknown,
    });
  });

  it('takes the repository from an issue URL and prints --json with gh’s shapes (keys sorted, labels as structs)', async () => {
    const issue = {
      ...ISSUE,
      labels: [{ ...label(9, 'b<&>'), description: 'x' }, label(2, 'a')],
      milestone: { number: 4, title: 'v1', description: null, due_on: null },
    };
    const port = fakePort([envelope(issue)]);
    const outcome = await runIssueView(
      port,
      view(['https://github.com/acme/widgets/issues/123'], {
        json: ['title,labels,state,milestone,closedAt,id,url,number,createdAt,body,updatedAt'],
      }),
      noJq,
    );
    expect(port.reads).toEqual([{ path: '/repos/acme/widgets/issues/123' }]);
    expect(outcome).toMatchObject({
      code: 0,
      stdout:
        '{"body":"**bold story**","closedAt":null,"createdAt":"2011-01-26T19:01:12Z","id":"I_123","labels":[{"id":"LA_2","name":"a","description":"","color":"ededed"},{"id":"LA_9","name":"b<&>","description":"x","color":"ededed"}],"milestone":{"number":4,"title":"v1","description":"","dueOn":null},"number":123,"state":"OPEN","title":"ix of coins","updatedAt":"2011-01-27T19:01:12Z","url":"https://github.com/OWNER/REPO/issues/123"}\n',
    });
  });

  it.each([
    ['comments (rule 9)', 'comments'],
    ['closed (rule 9)', 'closed'],
    ['stateReason (rule 9)', 'stateReason'],
    ['isPinned (GraphQL only)', 'isPinned'],
    ['reactionGroups', 'title,reactionGroups'],
  ])('delegates the whole invocation for %s without reading', async (_name, fields) => {
    const port = fakePort([]);
    const outcome = await runIssueView(port, view(['1'], { json: [fields] }), noJq);
    expect(outcome).toEqual({ kind: 'delegate', reason: 'unsupported_flag' });
    expect(port.reads).toEqual([]);
  });

  it('--json author and assignees read each person’s name (route user_view) for gh’s shapes', async () => {
    const issue = { ...ISSUE, assignees: [{ ...user('monaco'), node_id: 'U_2' }] };
    const port = fakePort([
      envelope(issue),
      envelope({ login: 'marseilles', name: null }, 200, 'user_view'),
      envelope({ login: 'monaco', name: 'Mona <C>' }, 200, 'user_view'),
    ]);
    const outcome = await runIssueView(port, view(['123'], { json: ['author,assignees'] }), noJq);
    expect(outcome).toMatchObject({
      code: 0,
      stdout:
        '{"assignees":[{"id":"U_2","login":"monaco","name":"Mona <C>"}],"author":{"id":"U_1","is_bot":false,"login":"marseilles","name":""}}\n',
    });
    expect(port.reads.slice(1)).toEqual([{ path: '/users/marseilles' }, { path: '/users/monaco' }]);
  });

  it('a bot author needs no name read; several assignees or a ghost author run gh', async () => {
    const bot = { ...ISSUE, user: user('dependabot[bot]', 'Bot') };
    const port = fakePort([envelope(bot)]);
    expect(await runIssueView(port, view(['1'], { json: ['author'] }), noJq)).toMatchObject({
      stdout: '{"author":{"is_bot":true,"login":"app/dependabot"}}\n',
    });
    expect(port.reads).toHaveLength(1);
    const several = { ...ISSUE, user: user('ghost'), assignees: [user('a'), user('b')] };
    for (const fields of ['assignees', 'author']) {
      const names = [envelope({ login: 'a', name: 'A' }, 200, 'user_view')];
      expect(
        await runIssueView(
          fakePort([envelope(several), ...names, ...names]),
          view(['1'], { json: [fields] }),
          noJq,
        ),
      ).toEqual({ kind: 'delegate', reason: 'unsupported_flag' });
    }
  });

  it('prints gh’s unknown-field error (exit 1, nothing read)', async () => {
    const port = fakePort([]);
    const outcome = await runIssueView(port, view(['1'], { json: ['title,nope'] }), noJq);
    expect(outcome).toMatchObject({ kind: 'done', code: 1, stdout: '' });
    expect(outcome.kind === 'done' && outcome.stderr).toBe(
      'Unknown JSON field: "nope"\nAvailable fields:\n  assignees\n  author\n  body\n  closed\n  closedAt\n  comments\n  createdAt\n  id\n  isPinned\n  labels\n  milestone\n  number\n  projectCards\n  projectItems\n  reactionGroups\n  state\n  stateReason\n  title\n  updatedAt\n  url\n',
    );
  });

  it('prints gh’s invalid-format error for a word; delegates signed numbers and foreign hosts', async () => {
    expect(await runIssueView(fakePort([]), view(['five']), noJq)).toEqual({
      kind: 'done',
      code: 1,
      stdout: '',
      stderr: 'invalid issue format: "five"\n',
    });
    expect(await runIssueView(fakePort([]), view(['-3']), noJq)).toMatchObject({
      kind: 'delegate',
    });
    expect(
      await runIssueView(fakePort([]), view(['https://ghe.example/o/r/issues/1']), noJq),
    ).toMatchObject({ kind: 'delegate' });
  });

  it.each([
    [
      'a missing issue',
      envelope({ has_issues: true }, 200, 'repo_view'),
      'GraphQL: Could not resolve to an issue or pull request with the number of 999. (repository.issue)\n',
    ],
    [
      'disabled issues (view_test.go TestIssueView_disabledIssues)',
      envelope({ has_issues: false }, 200, 'repo_view'),
      "the 'OWNER/REPO' repository has disabled issues\n",
    ],
    [
      'a missing repository',
      envelope({ message: 'Not Found' }, 404, 'repo_view'),
      "GraphQL: Could not resolve to a Repository with the name 'OWNER/REPO'. (repository)\n",
    ],
  ])('a 404 prints gh’s error for %s (exit 1)', async (_name, repoAnswer, stderr) => {
    const port = fakePort([envelope({ message: 'Not Found' }, 404), repoAnswer]);
    const outcome = await runIssueView(port, view(['999']), noJq);
    expect(outcome).toEqual({ kind: 'done', code: 1, stdout: '', stderr });
    expect(port.reads[1]).toEqual({ path: '/repos/OWNER/REPO' });
  });

  it.each([
    ['a pull request number', { ...ISSUE, pull_request: { url: 'x' } }, 200],
    [
      'several assignees (GraphQL order unknown)',
      { ...ISSUE, assignees: [user('a'), user('b')] },
      200,
    ],
    ['a bot assignee', { ...ISSUE, assignees: [user('copilot[bot]', 'Bot')] }, 200],
    ['a deleted author', { ...ISSUE, user: user('ghost') }, 200],
    ['a transferred issue', { message: 'Moved Permanently' }, 301],
    ['a deleted issue', { message: 'This issue was deleted' }, 410],
  ])('delegates %s', async (_name, body, status) => {
    const outcome = await runIssueView(fakePort([envelope(body, status)]), view(['1']), noJq);
    expect(outcome).toEqual({ kind: 'delegate', reason: 'unsupported_shape' });
  });

  it('a milestone with a due date delegates --json milestone; one without is null-safe', async () => {
    const issue = {
      ...ISSUE,
      milestone: { number: 1, title: 'm', description: 'd', due_on: '2026-12-01T08:00:00Z' },
    };
    const outcome = await runIssueView(
      fakePort([envelope(issue)]),
      view(['1'], { json: ['milestone'] }),
      noJq,
    );
    expect(outcome).toEqual({ kind: 'delegate', reason: 'unsupported_flag' });
  });

  it('runs --jq over the exported JSON', async () => {
    const seen: string[] = [];
    const jq: JqRunner = (filter, json) => {
      seen.push(filter, json);
      return Promise.resolve({ ok: true, text: 'ix of coins\n' });
    };
    const outcome = await runIssueView(
      fakePort([envelope(ISSUE)]),
      view(['123'], { json: ['title'], jq: ['.title'] }),
      jq,
    );
    expect(outcome).toMatchObject({ code: 0, stdout: 'ix of coins\n' });
    expect(seen).toEqual(['.title', '{"title":"ix of coins"}\n']);
  });

  it.each([
    [
      'a hit',
      'hit' as const,
      { fresh: false, quiet: false },
      'relay: issue_view served from the relay cache (hit; the relay reports no refresh time — RELAY_FRESH=1 reads it fresh)\n',
    ],
    ['a hit under RELAY_FRESH=1', 'hit' as const, { fresh: true, quiet: false }, ''],
    [
      'a stale answer, even under RELAY_FRESH=1',
      'stale' as const,
      { fresh: true, quiet: false },
      'relay: issue_view served stale from the relay cache (expired 2026-11-22T10:00:00Z, forge_rate_limited) — unsafe for live decisions\n',
    ],
    [
      'a stale answer under RELAY_QUIET_CACHE=1',
      'stale' as const,
      { fresh: false, quiet: true },
      '',
    ],
    ['a miss', 'miss' as const, { fresh: false, quiet: false }, ''],
  ])('rule 8 cache note for %s; stdout unchanged', async (_name, cache, notes, stderr) => {
    const port = fakePort([envelope(ISSUE, 200, 'issue_view', cache)]);
    const outcome = await runIssueView(port, view(['123']), noJq, notes);
    expect(outcome).toMatchObject({ code: 0, stderr });
    expect(outcome.kind === 'done' && outcome.stdout).toMatch(/^title:\tix of coins\n/);
  });
});
