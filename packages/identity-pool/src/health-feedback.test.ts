import { describe, expect, it } from 'vitest';
import { COOLDOWN_MS } from '@relay/protocol';
import {
  FRESH_TOKEN_GRACE_MS,
  decideHealthFeedback,
  type FeedbackRule,
} from './health-feedback.js';
import type { CooldownScope } from './cooldown.js';

const NOW = Date.UTC(2026, 0, 1);
const ROUTE_KEY = 'repo_view:octo/hello';

interface Row {
  readonly name: string;
  readonly status: number | 'transport';
  readonly headers?: Record<string, string>;
  readonly mintedAgoMs?: number;
  readonly rule: FeedbackRule;
  readonly scope?: CooldownScope;
  readonly durationMs?: number;
}

const GLOBAL: CooldownScope = { kind: 'global' };
const ROUTE: CooldownScope = { kind: 'route', routeKey: ROUTE_KEY };

// One row per line of SPEC.md's cooldown table, and the boundaries around each.
const rows: readonly Row[] = [
  {
    name: '401 → global 120 s',
    status: 401,
    rule: 'unauthorized',
    scope: GLOBAL,
    durationMs: COOLDOWN_MS,
  },
  {
    name: '401 with Retry-After → global for that long',
    status: 401,
    headers: { 'Retry-After': '30' },
    rule: 'unauthorized',
    scope: GLOBAL,
    durationMs: 30_000,
  },
  {
    name: '401 on a token minted 3 s ago → no cooldown (replication delay)',
    status: 401,
    mintedAgoMs: 3_000,
    rule: 'fresh_token_unauthorized',
  },
  {
    name: '401 on a token minted at the grace boundary → global 120 s',
    status: 401,
    mintedAgoMs: FRESH_TOKEN_GRACE_MS,
    rule: 'unauthorized',
    scope: GLOBAL,
    durationMs: COOLDOWN_MS,
  },
  {
    name: '500 with Retry-After → global for that long',
    status: 500,
    headers: { 'retry-after': '7' },
    rule: 'retry_after',
    scope: GLOBAL,
    durationMs: 7_000,
  },
  {
    name: '403 with Retry-After → global for that long',
    status: 403,
    headers: { 'retry-after': '60', 'x-ratelimit-remaining': '4000' },
    rule: 'retry_after',
    scope: GLOBAL,
    durationMs: 60_000,
  },
  {
    name: '429 with an HTTP-date Retry-After → global until then',
    status: 429,
    headers: { 'retry-after': new Date(NOW + 45_000).toUTCString() },
    rule: 'retry_after',
    scope: GLOBAL,
    durationMs: 45_000,
  },
  {
    name: '403 with budget remaining (secondary limit) → global 120 s',
    status: 403,
    headers: { 'x-ratelimit-remaining': '4999' },
    rule: 'secondary_limit',
    scope: GLOBAL,
    durationMs: COOLDOWN_MS,
  },
  {
    name: '403 without rate headers (budget not known spent) → global 120 s',
    status: 403,
    rule: 'secondary_limit',
    scope: GLOBAL,
    durationMs: COOLDOWN_MS,
  },
  {
    name: '403 with remaining 0 → no cooldown (rate state holds it until reset)',
    status: 403,
    headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1767226000' },
    rule: 'quota_exhausted',
  },
  {
    name: '429 → the route bucket, 120 s',
    status: 429,
    rule: 'rate_limited',
    scope: { kind: 'bucket', bucket: 'core' },
    durationMs: COOLDOWN_MS,
  },
  {
    name: '429 naming its resource → that bucket, 120 s',
    status: 429,
    headers: { 'x-ratelimit-resource': 'search' },
    rule: 'rate_limited',
    scope: { kind: 'bucket', bucket: 'search' },
    durationMs: COOLDOWN_MS,
  },
  {
    name: '500 → route key 120 s',
    status: 500,
    rule: 'failure',
    scope: ROUTE,
    durationMs: COOLDOWN_MS,
  },
  {
    name: '503 → route key 120 s',
    status: 503,
    rule: 'failure',
    scope: ROUTE,
    durationMs: COOLDOWN_MS,
  },
  {
    name: '408 → route key 120 s',
    status: 408,
    rule: 'failure',
    scope: ROUTE,
    durationMs: COOLDOWN_MS,
  },
  {
    name: 'transport error → route key 120 s',
    status: 'transport',
    rule: 'failure',
    scope: ROUTE,
    durationMs: COOLDOWN_MS,
  },
  { name: '200 → nothing', status: 200, rule: 'success' },
  { name: '304 → nothing', status: 304, rule: 'success' },
  { name: '404 answers the request → nothing', status: 404, rule: 'answer' },
  { name: '422 answers the request → nothing', status: 422, rule: 'answer' },
  {
    name: '200 with Retry-After is no error → nothing',
    status: 200,
    headers: { 'retry-after': '30' },
    rule: 'success',
  },
];

describe('decideHealthFeedback', () => {
  it.each(rows)('$name', (row) => {
    const feedback = decideHealthFeedback({
      outcome:
        row.status === 'transport'
          ? { kind: 'transport_error' }
          : { kind: 'response', status: row.status, headers: row.headers ?? {} },
      routeKey: ROUTE_KEY,
      bucket: 'core',
      now: NOW,
      credentialMintedAt: row.mintedAgoMs === undefined ? undefined : NOW - row.mintedAgoMs,
    });
    expect(feedback.rule).toBe(row.rule);
    if (row.scope === undefined) {
      expect(feedback.cooldown).toBeUndefined();
    } else {
      expect(feedback.cooldown).toMatchObject({ scope: row.scope, durationMs: row.durationMs });
    }
  });

  it('drops the cached credential after a 401, but not after a fresh-token 401', () => {
    const base = { routeKey: ROUTE_KEY, bucket: 'core', now: NOW } as const;
    const outcome = { kind: 'response', status: 401, headers: {} } as const;
    expect(decideHealthFeedback({ ...base, outcome }).invalidateCredential).toBe(true);
    expect(
      decideHealthFeedback({ ...base, outcome, credentialMintedAt: NOW - 1_000 })
        .invalidateCredential,
    ).toBe(false);
  });

  it.each([
    [403, { 'x-ratelimit-remaining': '0' }, 'forge_identity_depleted'],
    [429, { 'x-ratelimit-remaining': '0' }, 'forge_identity_depleted'],
    [403, { 'x-ratelimit-remaining': '12' }, 'forge_rate_limited'],
    [429, {}, 'forge_rate_limited'],
    [500, {}, undefined],
    [401, {}, undefined],
  ] as const)('status %i with %o stands for fallback reason %s', (status, headers, reason) => {
    const feedback = decideHealthFeedback({
      outcome: { kind: 'response', status, headers },
      routeKey: ROUTE_KEY,
      bucket: 'core',
      now: NOW,
    });
    expect(feedback.fallbackReason).toBe(reason);
  });

  it('honours a configured default cooldown', () => {
    const feedback = decideHealthFeedback({
      outcome: { kind: 'response', status: 502, headers: {} },
      routeKey: ROUTE_KEY,
      bucket: 'core',
      now: NOW,
      cooldownMs: 5_000,
    });
    expect(feedback.cooldown?.durationMs).toBe(5_000);
  });
});
