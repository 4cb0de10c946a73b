import { describe, expect, it } from 'vitest';
import {
  classifyReply,
  parseRetries,
  retryDelayMs,
  sendWithRetries,
} from './relay-retry-policy.js';
import type { RelayReply } from './relay-http.js';

const error = (status: number, code: string, reason?: string): RelayReply =>
  ({ kind: 'error', status, code, reason, requestId: 'r' }) as RelayReply;

describe('classifyReply (client rules 5 and 6)', () => {
  it.each<[RelayReply, string]>([
    [{ kind: 'ok', status: 200, json: {} }, 'served'],
    [error(424, 'fallback_local', 'identities_cooling_down'), 'transient_fallback'],
    [error(424, 'fallback_local', 'identity_pool_depleted'), 'transient_fallback'],
    [error(424, 'fallback_local', 'forge_identity_depleted'), 'transient_fallback'],
    [error(424, 'fallback_local', 'forge_rate_limited'), 'transient_fallback'],
    [error(424, 'fallback_local', 'relay_overloaded'), 'transient_fallback'],
    [error(503, 'identities_cooling_down'), 'transient_fallback'],
    [error(424, 'fallback_local', 'route_denied'), 'fallback'],
    [error(424, 'fallback_local', 'repo_not_public'), 'fallback'],
    [error(424, 'fallback_local', 'local_credentials_required'), 'fallback'],
    [error(500, 'internal_error'), 'service_error'],
    [{ kind: 'malformed', status: 502 }, 'service_error'],
    [{ kind: 'malformed', status: 503 }, 'service_error'],
    [{ kind: 'malformed', status: 504 }, 'service_error'],
    [{ kind: 'malformed', status: 500 }, 'failure'],
    [error(403, 'string_rewrite_denied'), 'failure'],
    [error(503, 'pool_policy_unavailable'), 'failure'],
    [error(503, 'string_rewrite_policy_unavailable'), 'failure'],
    [error(401, 'unauthorized'), 'failure'],
    [{ kind: 'unreachable', url: 'http://127.0.0.1:9/v1/forge/request' }, 'failure'],
  ])('%j → %s', (reply, kind) => {
    expect(classifyReply(reply).kind).toBe(kind);
  });
});

describe('parseRetries', () => {
  it.each([
    [undefined, 2],
    ['', 2],
    ['0', 0],
    ['5', 5],
  ])('RELAY_RETRIES=%s → %i', (value, expected) => {
    expect(parseRetries(value === undefined ? {} : { RELAY_RETRIES: value })).toEqual({
      ok: true,
      value: expected,
    });
  });
  it.each(['-1', 'two', '1.5', '11'])('RELAY_RETRIES=%s is a usage error', (value) => {
    const result = parseRetries({ RELAY_RETRIES: value });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('usage_error');
  });
});

describe('sendWithRetries', () => {
  it('waits 1 s, then 3 s for every later retry', async () => {
    expect([0, 1, 2, 3].map(retryDelayMs)).toEqual([1000, 3000, 3000, 3000]);
    const sleeps: number[] = [];
    let sends = 0;
    const outcome = await sendWithRetries(
      () => {
        sends += 1;
        return Promise.resolve(error(424, 'fallback_local', 'forge_rate_limited'));
      },
      {
        retries: 4,
        sleep: (ms) => {
          sleeps.push(ms);
          return Promise.resolve();
        },
      },
    );
    expect(sends).toBe(5);
    expect(sleeps).toEqual([1000, 3000, 3000, 3000]);
    expect(outcome).toEqual({ kind: 'fallback', reason: 'forge_rate_limited', transient: true });
  });
});
