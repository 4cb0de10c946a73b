import type { RelayEnvelope, RouteKind } from '@relay/protocol';
import { describe, expect, it } from 'vitest';
import type { RelayPort, RelayRead } from '../relay-port.js';
import {
  choosePull,
  findPull,
  findPullForBranch,
  formatBranchNotFound,
  headLabel,
  isBranchCandidate,
  quoteGoString,
  toHeadQuery,
} from './pr-branch-finder.js';
import type { BranchCandidate, FindPullResult, PullChoice } from './pr-branch-finder.js';

const BASE = { id: 1, owner: { login: 'acme' } };
const FORK = { id: 2, owner: { login: 'hubot' } };
const OTHER_ACME_REPO = { id: 3, owner: { login: 'acme' } };

/** A REST list item (only what the finder reads, plus noise). */
function candidate(
  number: number,
  state: 'open' | 'closed',
  ref: string,
  headRepo: typeof BASE | null = BASE,
): BranchCandidate {
  return {
    number,
    state,
    head: { ref, repo: headRepo },
    base: { repo: { id: BASE.id } },
  };
}

describe('toHeadQuery: the REST head filter of a selector', () => {
  it.each([
    ['feature', { owner: 'acme', branch: 'feature' }],
    ['fix/a.b', { owner: 'acme', branch: 'fix/a.b' }],
    ['hubot:feature', { owner: 'hubot', branch: 'feature' }],
    ['hu-bot2:f', { owner: 'hu-bot2', branch: 'f' }],
    [':feature', undefined],
    ['hubot:', undefined],
    ['a:b:c', undefined],
    ['hu bot:feature', undefined],
  ])('%j → %j', (selector, query) => {
    expect(toHeadQuery(selector, 'acme')).toEqual(query);
  });
});

describe('headLabel (gh’s PullRequest.HeadLabel)', () => {
  it.each([
    ['same repository', candidate(1, 'open', 'f'), 'f'],
    ['a fork', candidate(1, 'open', 'f', FORK), 'hubot:f'],
    ['another repository of the same owner', candidate(1, 'open', 'f', OTHER_ACME_REPO), 'acme:f'],
    ['a deleted fork', candidate(1, 'open', 'f', null), ':f'],
  ])('%s', (_name, pull, label) => {
    expect(headLabel(pull)).toBe(label);
  });
});

describe('choosePull (gh’s findForBranch pick)', () => {
  it.each<[string, BranchCandidate[], string, string | undefined, PullChoice]>([
    [
      'the newest open PR',
      [candidate(9, 'open', 'f'), candidate(3, 'open', 'f')],
      'f',
      undefined,
      { kind: 'found', number: 9 },
    ],
    [
      'open before a newer closed one',
      [candidate(9, 'closed', 'f'), candidate(3, 'open', 'f')],
      'f',
      undefined,
      { kind: 'found', number: 3 },
    ],
    [
      'only closed: the default branch decides',
      [candidate(9, 'closed', 'f'), candidate(3, 'closed', 'f')],
      'f',
      undefined,
      { kind: 'needs_default_branch' },
    ],
    [
      'only closed, default branch elsewhere: the newest',
      [candidate(9, 'closed', 'f'), candidate(3, 'closed', 'f')],
      'f',
      'main',
      { kind: 'found', number: 9 },
    ],
    [
      'only merged, on the default branch: none',
      [candidate(9, 'closed', 'main')],
      'main',
      'main',
      { kind: 'not_found' },
    ],
    [
      'open on the default branch counts',
      [candidate(9, 'closed', 'main'), candidate(4, 'open', 'main')],
      'main',
      undefined,
      { kind: 'found', number: 4 },
    ],
    [
      'a plain selector skips fork heads',
      [candidate(9, 'open', 'f', FORK), candidate(3, 'closed', 'f')],
      'f',
      'main',
      { kind: 'found', number: 3 },
    ],
    [
      'owner:branch keeps only that owner’s other repository',
      [candidate(9, 'open', 'f'), candidate(3, 'closed', 'f', FORK)],
      'hubot:f',
      undefined,
      { kind: 'found', number: 3 },
    ],
    [
      'owner:branch compares the login exactly',
      [candidate(3, 'open', 'f', FORK)],
      'HUBOT:f',
      undefined,
      { kind: 'not_found' },
    ],
    [
      'branch names compare exactly',
      [candidate(3, 'open', 'F')],
      'f',
      undefined,
      { kind: 'not_found' },
    ],
    ['nothing', [], 'f', undefined, { kind: 'not_found' }],
  ])('%s', (_name, candidates, selector, defaultBranch, choice) => {
    expect(choosePull(candidates, selector, defaultBranch)).toEqual(choice);
  });
});

describe('gh’s not-found error (Go %q)', () => {
  it.each([
    ['feature', 'no pull requests found for branch "feature"\n'],
    ['hubot:fix/a"b\\c', 'no pull requests found for branch "hubot:fix/a\\"b\\\\c"\n'],
    ['café-ünï', 'no pull requests found for branch "café-ünï"\n'],
    ['tab\there', 'no pull requests found for branch "tab\\there"\n'],
  ])('%j', (selector, text) => {
    expect(formatBranchNotFound(selector)).toBe(text);
  });

  it.each([
    ['\u0001\u007f', '"\\x01\\x7f"'],
    ['\u00a0', '"\\u00a0"'],
    ['\u200b', '"\\u200b"'],
    ['😀', '"😀"'],
    ['\u{e0001}', '"\\U000e0001"'],
    ['\ufffd', undefined],
    ['\ud800', undefined],
  ])('quoteGoString(%j) = %j', (text, quoted) => {
    expect(quoteGoString(text)).toBe(quoted);
  });
});

function envelope(body: unknown, status = 200, route: RouteKind = 'pr_list'): RelayEnvelope {
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
      cache: 'miss',
      stale_ok: false,
      route_kind: route,
    },
  };
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

const REPO = { host: 'github.com', owner: 'acme', name: 'widgets' };
const listRead = (head: string, extra: Partial<RelayRead> = {}): RelayRead => ({
  path: '/repos/acme/widgets/pulls',
  query: { head, state: 'all', sort: 'created', direction: 'desc', per_page: '30' },
  ...extra,
});

describe('findPullForBranch through a fake port', () => {
  it('reads the list once and takes the open PR; max-age=0 when asked', async () => {
    const list = envelope([candidate(9, 'closed', 'f'), candidate(3, 'open', 'f')]);
    const port = fakePort([list]);
    expect(await findPullForBranch(port, REPO, 'f', { maxAgeZero: true })).toEqual({
      kind: 'found',
      repo: REPO,
      number: 3,
      envelopes: [list],
    });
    expect(port.reads).toEqual([listRead('acme:f', { headers: { 'cache-control': 'max-age=0' } })]);
  });

  it('reads the default branch only for a closed candidate', async () => {
    const list = envelope([candidate(9, 'closed', 'main')]);
    const repo = envelope({ default_branch: 'main' }, 200, 'repo_view');
    const port = fakePort([list, repo]);
    expect(await findPullForBranch(port, REPO, 'main')).toEqual({
      kind: 'error',
      stderr: 'no pull requests found for branch "main"\n',
    });
    expect(port.reads).toEqual([listRead('acme:main'), { path: '/repos/acme/widgets' }]);
  });

  it.each<[string, RelayEnvelope, FindPullResult]>([
    [
      'a missing repository runs gh',
      envelope({ message: 'Not Found' }, 404),
      { kind: 'delegate', reason: 'unsupported_shape' },
    ],
    [
      'an unproved list item runs gh',
      envelope([{ number: 1 }]),
      { kind: 'delegate', reason: 'unsupported_shape' },
    ],
    [
      'an empty list is gh’s error',
      envelope([]),
      { kind: 'error', stderr: 'no pull requests found for branch "hubot:f"\n' },
    ],
  ])('%s', async (_name, answer, result) => {
    expect(await findPullForBranch(fakePort([answer]), REPO, 'hubot:f')).toEqual(result);
  });

  it('a relay fallback is handed back', async () => {
    const port: RelayPort = {
      read: () => Promise.resolve({ kind: 'fallback', reason: 'repo_not_public' }),
    };
    expect(await findPullForBranch(port, REPO, 'f')).toEqual({
      kind: 'fallback',
      reason: 'repo_not_public',
    });
  });
});

describe('findPull: the selector kinds', () => {
  const plan = (args: string[]) => ({ args, repo: { repo: REPO, source: 'flag' as const } });

  it.each<[string, string[], FindPullResult]>([
    ['a number', ['12'], { kind: 'found', repo: REPO, number: 12, envelopes: [] }],
    [
      'a URL names its repository',
      ['https://github.com/octo/gadgets/pull/3'],
      {
        kind: 'found',
        repo: { host: 'github.com', owner: 'octo', name: 'gadgets' },
        number: 3,
        envelopes: [],
      },
    ],
    [
      'another host’s URL',
      ['https://ghe.example.com/a/b/pull/3'],
      { kind: 'delegate', reason: 'other_host' },
    ],
    ['+12', ['+12'], { kind: 'delegate', reason: 'unsupported_shape' }],
    ['no argument without a git reader', [], { kind: 'delegate', reason: 'unsupported_shape' }],
  ])('%s (no read)', async (_name, args, result) => {
    const port = fakePort([]);
    expect(await findPull(port, plan(args))).toEqual(result);
    expect(port.reads).toEqual([]);
  });

  it.each<[string, Parameters<typeof findPull>[2], FindPullResult]>([
    [
      'gh pr checkout’s branch',
      { currentBranch: () => Promise.resolve({ kind: 'number', number: 7 }) },
      { kind: 'found', repo: REPO, number: 7, envelopes: [] },
    ],
    [
      'HEAD not on a branch',
      { currentBranch: () => Promise.resolve({ kind: 'not_on_branch' }) },
      {
        kind: 'error',
        stderr: 'could not determine current branch: failed to run git: not on any branch\n',
      },
    ],
    [
      'an unmodelled configuration',
      { currentBranch: () => Promise.resolve({ kind: 'unmodelled' }) },
      { kind: 'delegate', reason: 'unsupported_shape' },
    ],
  ])('no argument: %s', async (_name, options, result) => {
    const port = fakePort([]);
    expect(await findPull(port, plan([]), options)).toEqual(result);
    expect(port.reads).toEqual([]);
  });

  it('no argument: the current branch’s selector is looked up, with the base repository', async () => {
    const list = envelope([candidate(5, 'open', 'f', FORK)]);
    const port = fakePort([list]);
    const seen: unknown[] = [];
    const result = await findPull(port, plan([]), {
      currentBranch: (repo) => {
        seen.push(repo);
        return Promise.resolve({ kind: 'branch', selector: 'hubot:f' });
      },
    });
    expect(result).toEqual({ kind: 'found', repo: REPO, number: 5, envelopes: [list] });
    expect(seen).toEqual([REPO]);
    expect(port.reads).toEqual([listRead('hubot:f')]);
  });

  it('keeps REST list items whose head repository was deleted', () => {
    expect(isBranchCandidate(candidate(1, 'closed', 'f', null))).toBe(true);
    expect(isBranchCandidate({ ...candidate(1, 'open', 'f'), base: { repo: null } })).toBe(false);
  });
});
