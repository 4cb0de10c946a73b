import type { FallbackReason, RelayEnvelope } from '@relay/protocol';
import type { RelayPort, RelayRead } from '../relay-port.js';

/**
 * A fake relay port for the Actions command tests: answers by path and `page` (pages in
 * order), records every logical read so that a test can count them against SPEC.md client
 * rule 10's bounds. Test support only.
 */
export interface FakeRunPort extends RelayPort {
  readonly reads: RelayRead[];
}

/** One relay answer; `text` bodies are parsed as the relay's client parses envelopes. */
export interface FakeAnswer {
  /** The relay answers `fallback_local` with this reason. */
  readonly fallback?: FallbackReason;
  readonly body?: unknown;
  /** The JSON text of the body (parsed with `JSON.parse`, as the wire does). */
  readonly text?: string;
  readonly status?: number;
  readonly link?: string;
  readonly route?: string;
  readonly cache?: 'hit' | 'stale' | 'miss';
}

/** Builds a relay envelope the way the client receives one. */
export function fakeEnvelope(answer: FakeAnswer): RelayEnvelope {
  const status = answer.status ?? 200;
  const json = status >= 200 && status < 300;
  const body: unknown =
    answer.text === undefined ? answer.body : json ? JSON.parse(answer.text) : answer.text;
  const stale = answer.cache === 'stale';
  return {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(answer.link === undefined ? {} : { link: answer.link }),
    },
    body,
    body_encoding: json || answer.text === undefined ? 'json' : 'text',
    identity: null,
    relay: {
      pool: 'team',
      request_id: 'r',
      cacheable: true,
      cache: answer.cache ?? 'miss',
      stale_ok: stale,
      ...(stale
        ? { stale_reason: 'forge_rate_limited', cache_expires_at: '2024-01-01T00:00:00Z' }
        : {}),
      route_kind: answer.route ?? 'run_list',
    },
  } as unknown as RelayEnvelope;
}

/**
 * A fake port answering `answers[path]` (a list: the N-th read of a path gets the N-th
 * answer, or `answers["path?page=N"]` when the read names a page).
 */
export function createFakeRunPort(
  answers: Readonly<Record<string, FakeAnswer | readonly FakeAnswer[]>>,
): FakeRunPort {
  const reads: RelayRead[] = [];
  const used = new Map<string, number>();
  return {
    reads,
    read(request) {
      reads.push(request);
      const page = request.query?.page;
      const key = page === undefined ? request.path : `${request.path}?page=${page}`;
      const index = used.get(key) ?? 0;
      used.set(key, index + 1);
      const entry = answers[key];
      const answer = Array.isArray(entry) ? (entry as readonly FakeAnswer[])[index] : entry;
      if (answer === undefined) return Promise.reject(new Error(`unexpected read of ${key}`));
      const { fallback } = answer as FakeAnswer;
      if (fallback !== undefined) return Promise.resolve({ kind: 'fallback', reason: fallback });
      return Promise.resolve({ kind: 'served', envelope: fakeEnvelope(answer as FakeAnswer) });
    },
  };
}
