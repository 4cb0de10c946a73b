import { STALE_REASONS, type RouteKind } from '@relay/protocol';
import { describe, expect, it } from 'vitest';
import type { CacheEntry } from './cache-entry.js';
import { decideStale, type StaleRefusal } from './stale-policy.js';
import { planCacheWrite } from './write-policy.js';

const T0 = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function storedAt(routeKind: RouteKind): CacheEntry {
  const plan = planCacheWrite({
    routeKind,
    hints: { runCompleted: true },
    answer: { status: 200, headers: {}, body: [1, 2, 3], bodyEncoding: 'json' },
    lane: { kind: 'anonymous' },
    now: T0,
  });
  if (!plan.ok) throw new Error(plan.error.code);
  return plan.value;
}

describe('decideStale', () => {
  it.each(STALE_REASONS)('serves an expired entry during an outage (%s)', (reason) => {
    const entry = storedAt('release_list');
    const result = decideStale({ entry, reason, now: T0 + 2 * MINUTE });
    expect(result).toEqual({
      ok: true,
      value: {
        entry,
        cache: 'stale',
        stale_ok: true,
        stale_reason: reason,
        cache_expires_at: '2026-01-01T00:01:00.000Z',
      },
    });
  });

  it.each<[string, RouteKind, number, string | undefined, StaleRefusal | 'stale']>([
    ['an expired mutable entry', 'issue_timeline', 2 * MINUTE, undefined, 'stale'],
    [
      'the last moment of the stale window',
      'issue_timeline',
      MINUTE + HOUR - 1,
      undefined,
      'stale',
    ],
    [
      'the end of the stale window',
      'issue_timeline',
      MINUTE + HOUR,
      undefined,
      'stale_window_elapsed',
    ],
    ['an immutable entry after six days', 'git_commit', 6 * DAY, undefined, 'stale'],
    [
      'an immutable entry after eight days',
      'git_commit',
      8 * DAY,
      undefined,
      'stale_window_elapsed',
    ],
    ['an entry that has not expired', 'repo_view', 30_000, undefined, 'not_expired'],
    ['max-age=0', 'repo_view', 2 * MINUTE, 'max-age=0', 'age_bound'],
    ['an entry older than max-age', 'repo_view', 2 * MINUTE, 'max-age=60', 'age_bound'],
    ['an entry younger than max-age', 'repo_view', 2 * MINUTE, 'max-age=3600', 'stale'],
    ['an expired job log', 'job_logs', 7 * DAY, undefined, 'stale_window_elapsed'],
    ['a fresh job log awaiting its probe', 'job_logs', 2 * HOUR, undefined, 'not_expired'],
  ])('%s', (_name, kind, age, cacheControl, expected) => {
    const result = decideStale({
      entry: storedAt(kind),
      reason: 'identities_cooling_down',
      ...(cacheControl === undefined ? {} : { headers: { 'cache-control': cacheControl } }),
      now: T0 + age,
    });
    if (expected === 'stale') expect(result.ok).toBe(true);
    else expect(result).toEqual({ ok: false, error: expected });
  });

  it.each([
    [0, 'age_bound'],
    [60, 'age_bound'],
    [3600, 'stale'],
  ] as const)(
    'takes an already parsed max-age of %i s (maxAgeSeconds): %s',
    (maxAgeSeconds, expected) => {
      const result = decideStale({
        entry: storedAt('repo_view'),
        reason: 'identities_cooling_down',
        maxAgeSeconds,
        headers: { 'cache-control': 'max-age=999999' },
        now: T0 + 2 * MINUTE,
      });
      if (expected === 'stale') expect(result.ok).toBe(true);
      else expect(result).toEqual({ ok: false, error: expected });
    },
  );

  it('has nothing to serve without an entry', () => {
    expect(decideStale({ entry: undefined, reason: 'identity_pool_depleted', now: T0 })).toEqual({
      ok: false,
      error: 'no_entry',
    });
  });

  it('never serves a pending statistics entry', () => {
    const entry = { ...storedAt('repo_stats_code_frequency'), status: 202 };
    expect(
      decideStale({ entry, reason: 'forge_identity_depleted', now: T0 + 11 * MINUTE }),
    ).toEqual({ ok: false, error: 'pending_entry' });
  });
});
