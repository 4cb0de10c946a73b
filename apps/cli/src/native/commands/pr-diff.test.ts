import type { RelayEnvelope } from '@relay/protocol';
import { describe, expect, it } from 'vitest';
import type { ServePlan } from '../argv/native-plan.js';
import type { RelayPort, RelayRead, RelayReadResult } from '../relay-port.js';
import { servePrDiff } from './pr-diff.js';
import type { PrDiffOutcome } from './pr-diff.js';

const DIFF =
  'diff --git a/a.txt b/a.txt\nindex 1..2 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-x\n+y\n';

function envelope(
  status: number,
  body: unknown,
  encoding: RelayEnvelope['body_encoding'],
): RelayEnvelope {
  return {
    status,
    headers: {
      'content-type': encoding === 'json' ? 'application/json' : 'application/vnd.github.diff',
    },
    body,
    body_encoding: encoding,
    identity: null,
    relay: {
      pool: 'team',
      request_id: 'r1',
      cacheable: true,
      cache: 'miss',
      stale_ok: false,
      route_kind: 'pr_view',
    },
  };
}

/** A fake relay port: records every read and answers with one result. */
function fakePort(result: RelayReadResult): RelayPort & { reads: RelayRead[] } {
  const reads: RelayRead[] = [];
  return {
    reads,
    read(request) {
      reads.push(request);
      return Promise.resolve(result);
    },
  };
}

function plan(args: string[], flags: Record<string, string[]> = {}): ServePlan {
  return {
    kind: 'serve',
    command: 'pr diff',
    args,
    flags,
    repo: { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, source: 'flag' },
  };
}

const served = (env: RelayEnvelope): RelayReadResult => ({ kind: 'served', envelope: env });
const textDiff = served(envelope(200, DIFF, 'text'));

describe('servePrDiff', () => {
  it.each<[string, ServePlan, RelayReadResult, RelayRead | undefined, PrDiffOutcome]>([
    [
      'a number: the diff bytes as served',
      plan(['7']),
      textDiff,
      { path: '/repos/acme/widgets/pulls/7', headers: { accept: 'application/vnd.github.diff' } },
      { kind: 'print', stdout: Buffer.from(DIFF) },
    ],
    [
      '#N and --color never',
      plan(['#7'], { color: ['never'] }),
      textDiff,
      { path: '/repos/acme/widgets/pulls/7', headers: { accept: 'application/vnd.github.diff' } },
      { kind: 'print', stdout: Buffer.from(DIFF) },
    ],
    [
      '--patch asks for the patch',
      plan(['7'], { patch: ['true'] }),
      served(envelope(200, 'From abc Mon Sep 17 00:00:00 2001\n', 'text')),
      { path: '/repos/acme/widgets/pulls/7', headers: { accept: 'application/vnd.github.patch' } },
      { kind: 'print', stdout: Buffer.from('From abc Mon Sep 17 00:00:00 2001\n') },
    ],
    [
      'base64 bodies are decoded to their exact bytes',
      plan(['7']),
      served(
        envelope(200, Buffer.from([0xef, 0xbb, 0xbf, 0x00, 0xff]).toString('base64'), 'base64'),
      ),
      { path: '/repos/acme/widgets/pulls/7', headers: { accept: 'application/vnd.github.diff' } },
      { kind: 'print', stdout: Buffer.from([0xef, 0xbb, 0xbf, 0x00, 0xff]) },
    ],
    [
      'an empty diff prints nothing',
      plan(['7']),
      served(envelope(200, '', 'text')),
      { path: '/repos/acme/widgets/pulls/7', headers: { accept: 'application/vnd.github.diff' } },
      { kind: 'print', stdout: Buffer.alloc(0) },
    ],
    [
      '--name-only reads the diff (even with --patch) and prints file names',
      plan(['7'], { 'name-only': ['true'], patch: ['true'] }),
      textDiff,
      { path: '/repos/acme/widgets/pulls/7', headers: { accept: 'application/vnd.github.diff' } },
      { kind: 'print', stdout: Buffer.from('a.txt\n') },
    ],
    [
      '--patch=false is the diff',
      plan(['7'], { patch: ['true', 'false'] }),
      textDiff,
      { path: '/repos/acme/widgets/pulls/7', headers: { accept: 'application/vnd.github.diff' } },
      { kind: 'print', stdout: Buffer.from(DIFF) },
    ],
    [
      'a PR URL names its own repository (over -R)',
      plan(['https://github.com/octo/gadgets/pull/3/files']),
      textDiff,
      { path: '/repos/octo/gadgets/pulls/3', headers: { accept: 'application/vnd.github.diff' } },
      { kind: 'print', stdout: Buffer.from(DIFF) },
    ],
    [
      'not found: gh error line',
      plan(['999']),
      served(envelope(404, { message: 'Not Found', documentation_url: 'https://docs' }, 'json')),
      { path: '/repos/acme/widgets/pulls/999', headers: { accept: 'application/vnd.github.diff' } },
      {
        kind: 'error',
        stderr:
          'could not find pull request diff: HTTP 404: Not Found (https://api.github.com/repos/acme/widgets/pulls/999)\n',
      },
    ],
    [
      'a relay fallback',
      plan(['7']),
      { kind: 'fallback', reason: 'repo_not_public' },
      { path: '/repos/acme/widgets/pulls/7', headers: { accept: 'application/vnd.github.diff' } },
      { kind: 'fallback', reason: 'repo_not_public' },
    ],
    [
      '+7 delegates',
      plan(['+7']),
      textDiff,
      undefined,
      { kind: 'delegate', reason: 'unsupported_shape' },
    ],
    [
      'another host’s URL delegates',
      plan(['https://ghe.example.com/acme/widgets/pull/3']),
      textDiff,
      undefined,
      { kind: 'delegate', reason: 'other_host' },
    ],
  ])('%s', async (_name, served, result, read, expected) => {
    const port = fakePort(result);
    expect(await servePrDiff(port, served)).toEqual(expected);
    expect(port.reads).toEqual(read === undefined ? [] : [read]);
  });
});

/** A REST list item of the head lookup: head branch `ref` of `acme/widgets` itself. */
function listItem(number: number, ref: string, state = 'open') {
  const repo = { id: 1, owner: { login: 'acme' } };
  return { number, state, head: { ref, repo }, base: { ref: 'main', repo } };
}

/** A fake port answering reads in order. */
function sequencePort(answers: readonly RelayReadResult[]): RelayPort & { reads: RelayRead[] } {
  const reads: RelayRead[] = [];
  return {
    reads,
    read(request) {
      reads.push(request);
      const answer = answers[reads.length - 1];
      if (answer === undefined) throw new Error(`unexpected read ${request.path}`);
      return Promise.resolve(answer);
    },
  };
}

const lookup = (head: string): RelayRead => ({
  path: '/repos/acme/widgets/pulls',
  query: { head, state: 'all', sort: 'created', direction: 'desc', per_page: '30' },
});
const diffRead = (number: number): RelayRead => ({
  path: `/repos/acme/widgets/pulls/${String(number)}`,
  headers: { accept: 'application/vnd.github.diff' },
});
const listOf = (...items: unknown[]) => served(envelope(200, items, 'json'));

describe('servePrDiff of a branch (gh’s finder, then the diff as by number)', () => {
  it('the open PR of the branch', async () => {
    const port = sequencePort([listOf(listItem(7, 'feature')), textDiff]);
    expect(await servePrDiff(port, plan(['feature']))).toEqual({
      kind: 'print',
      stdout: Buffer.from(DIFF),
    });
    expect(port.reads).toEqual([lookup('acme:feature'), diffRead(7)]);
  });

  it('a closed PR and an older open one: the open one', async () => {
    const port = sequencePort([
      listOf(listItem(9, 'feature', 'closed'), listItem(7, 'feature')),
      textDiff,
    ]);
    await servePrDiff(port, plan(['feature']));
    expect(port.reads[1]).toEqual(diffRead(7));
  });

  it('owner:branch: the fork’s PR', async () => {
    const fork = {
      ...listItem(8, 'feature'),
      head: { ref: 'feature', repo: { id: 2, owner: { login: 'hubot' } } },
    };
    const port = sequencePort([listOf(listItem(7, 'feature'), fork), textDiff]);
    await servePrDiff(port, plan(['hubot:feature']));
    expect(port.reads).toEqual([lookup('hubot:feature'), diffRead(8)]);
  });

  it('the default branch with only a merged PR: gh’s not-found error', async () => {
    const port = sequencePort([
      listOf(listItem(3, 'main', 'closed')),
      served(envelope(200, { default_branch: 'main' }, 'json')),
    ]);
    expect(await servePrDiff(port, plan(['main']))).toEqual({
      kind: 'error',
      stderr: 'no pull requests found for branch "main"\n',
    });
    expect(port.reads).toEqual([lookup('acme:main'), { path: '/repos/acme/widgets' }]);
  });

  it('not found', async () => {
    const port = sequencePort([listOf()]);
    expect(await servePrDiff(port, plan(['feature']))).toEqual({
      kind: 'error',
      stderr: 'no pull requests found for branch "feature"\n',
    });
  });

  it('a lookup the relay sends home runs gh locally', async () => {
    const port = sequencePort([{ kind: 'fallback', reason: 'repo_not_public' }]);
    expect(await servePrDiff(port, plan(['feature']))).toEqual({
      kind: 'fallback',
      reason: 'repo_not_public',
    });
  });

  it.each<[string, { kind: 'branch'; selector: string }, RelayRead, number]>([
    ['a fork remote', { kind: 'branch', selector: 'hubot:feature' }, lookup('hubot:feature'), 8],
    ['a refs/heads rename', { kind: 'branch', selector: 'feature' }, lookup('acme:feature'), 7],
  ])('no argument: the current branch’s selector (%s)', async (_name, selection, read, number) => {
    const fork = {
      ...listItem(8, 'feature'),
      head: { ref: 'feature', repo: { id: 2, owner: { login: 'hubot' } } },
    };
    const port = sequencePort([listOf(listItem(7, 'feature'), fork), textDiff]);
    const outcome = await servePrDiff(port, plan([]), {
      currentBranch: () => Promise.resolve(selection),
    });
    expect(outcome).toEqual({ kind: 'print', stdout: Buffer.from(DIFF) });
    expect(port.reads).toEqual([read, diffRead(number)]);
  });

  it('no argument, HEAD not on a branch: gh’s error', async () => {
    const port = sequencePort([]);
    expect(
      await servePrDiff(port, plan([]), {
        currentBranch: () => Promise.resolve({ kind: 'not_on_branch' }),
      }),
    ).toEqual({
      kind: 'error',
      stderr: 'could not determine current branch: failed to run git: not on any branch\n',
    });
  });

  it('no argument without a git reader runs gh', async () => {
    expect(await servePrDiff(sequencePort([]), plan([]))).toEqual({
      kind: 'delegate',
      reason: 'unsupported_shape',
    });
  });
});
