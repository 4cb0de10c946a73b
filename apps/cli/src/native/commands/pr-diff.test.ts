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
      'a branch delegates',
      plan(['feature']),
      textDiff,
      undefined,
      { kind: 'delegate', reason: 'unsupported_shape' },
    ],
    [
      'no argument delegates',
      plan([]),
      textDiff,
      undefined,
      { kind: 'delegate', reason: 'unsupported_shape' },
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
