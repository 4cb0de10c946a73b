import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { poolHealthSchema } from './pool-health.js';
import { parseStatsWindow, poolStatsSchema, statsWindowSchema } from './pool-stats.js';

describe('parseStatsWindow', () => {
  it.each([
    ['30m', { label: '30m', ms: 30 * 60_000 }],
    ['24h', { label: '24h', ms: 24 * 3_600_000 }],
    ['7d', { label: '7d', ms: 7 * 86_400_000 }],
    [' 1h ', { label: '1h', ms: 3_600_000 }],
    ['30d', { label: '30d', ms: 30 * 86_400_000 }],
    ['31d', { label: '30d', ms: 30 * 86_400_000 }],
    ['1000h', { label: '30d', ms: 30 * 86_400_000 }],
  ])('%j → %j', (value, expected) => {
    expect(parseStatsWindow(value)).toEqual({ ok: true, value: expected });
  });

  it.each(['', '0m', '-1h', '1w', '1.5h', 'h', '24', '24H', '01h', '1h30m'])(
    'rejects %j',
    (value) => {
      expect(parseStatsWindow(value)).toEqual({ ok: false, error: { code: 'invalid_window' } });
    },
  );
});

describe('statsWindowSchema', () => {
  it('accepts exactly the windows parseStatsWindow reads (blanks aside)', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.stringMatching(/^ ?[0-9]{1,8}[mhdHw]? ?$/), fc.string({ maxLength: 6 })),
        (value) => {
          expect(statsWindowSchema.safeParse(value).success).toBe(
            value === value.trim() && parseStatsWindow(value).ok,
          );
        },
      ),
    );
    expect(statsWindowSchema.safeParse('7d').success).toBe(true);
  });
});

const stats = {
  pool: 'default',
  window: '24h',
  since: '2026-11-21T03:00:00Z',
  requests: 10,
  service_errors: 0,
  local_fallbacks: 1,
  cache_hit_rate: 0.5,
  eligible_cache_hit_rate: 0.625,
  coalesced_misses: 2,
  caller_usage: [{ login: 'octocat', requests: 10 }],
  client_usage: [{ client: 'laptop', requests: 10 }],
  client_routes: [{ client: 'laptop', route_kind: 'pr_view', requests: 4 }],
  active_clients: [{ client: 'laptop', last_used_at: '2026-11-22T03:00:00Z' }],
  cache_entries: 7,
  top_route_kinds: [{ route_kind: 'pr_view', requests: 4 }],
  upstream: [{ route_kind: 'pr_view', source: 'forge_identity', count: 2 }],
  fallback_reasons: { route_denied: 1 },
};

describe('poolStatsSchema', () => {
  it.each([
    ['a full body', stats],
    ['a filtered body', { ...stats, client_filter: 'laptop' }],
    [
      'an empty window with null rates',
      { ...stats, requests: 0, cache_hit_rate: null, eligible_cache_hit_rate: null },
    ],
  ])('accepts %s', (_name, input) => {
    expect(poolStatsSchema.safeParse(input).success).toBe(true);
  });

  it.each([
    ['a rate above 1', { ...stats, cache_hit_rate: 1.5 }],
    ['a negative count', { ...stats, requests: -1 }],
    [
      'an unknown upstream source',
      { ...stats, upstream: [{ route_kind: 'pr_view', source: 'cache', count: 1 }] },
    ],
    ['an unknown fallback reason', { ...stats, fallback_reasons: { nope: 1 } }],
    ['a missing client_usage', { ...stats, client_usage: undefined }],
  ])('rejects %s', (_name, input) => {
    expect(poolStatsSchema.safeParse(input).success).toBe(false);
  });
});

describe('poolHealthSchema', () => {
  const health = {
    pool: 'default',
    identities_total: 3,
    identities_healthy: 2,
    identities_cooling_down: 1,
    string_rewrite_revision: 1,
    pool_policy: {
      allowed_owners: [],
      allow_public_repos: true,
      allow_search: false,
      allow_logs: true,
    },
  };

  it('accepts a health body, and null policy or revision when unusable', () => {
    expect(poolHealthSchema.safeParse(health).success).toBe(true);
    expect(
      poolHealthSchema.safeParse({ ...health, pool_policy: null, string_rewrite_revision: null })
        .success,
    ).toBe(true);
  });

  it.each([
    ['a negative count', { ...health, identities_total: -1 }],
    ['a missing policy', { ...health, pool_policy: undefined }],
    ['revision 0', { ...health, string_rewrite_revision: 0 }],
  ])('rejects %s', (_name, input) => {
    expect(poolHealthSchema.safeParse(input).success).toBe(false);
  });
});
