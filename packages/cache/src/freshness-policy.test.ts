import { ROUTE_KINDS, type RelayRequestHeaderName, type RouteKind } from '@relay/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CacheEntry } from './cache-entry.js';
import { decideLookup, type LookupDecision } from './freshness-policy.js';
import { ROUTE_LIFETIME_CLASSES, type CacheHints } from './lifetime-table.js';
import { decideStale } from './stale-policy.js';
import { planCacheWrite } from './write-policy.js';

const T0 = Date.UTC(2026, 0, 1);
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const HEAD = 'c'.repeat(40);

/** Stores a 200 answer at T0 through the write policy, as the relay would. */
function storedAt(routeKind: RouteKind, hints: CacheHints = {}, etag?: string): CacheEntry {
  const plan = planCacheWrite({
    routeKind,
    hints,
    answer: {
      status: 200,
      headers: etag === undefined ? {} : { etag },
      body: { ok: true },
      bodyEncoding: 'json',
    },
    lane: { kind: 'identity', id: 'pat-1' },
    now: T0,
  });
  if (!plan.ok) throw new Error(`not storable: ${plan.error.code}`);
  return plan.value;
}

type Headers = Partial<Record<RelayRequestHeaderName, string>>;
interface Row {
  readonly name: string;
  readonly routeKind: RouteKind;
  readonly hints?: CacheHints;
  readonly headers?: Headers;
  readonly entry: 'none' | 'stored' | 'pending';
  readonly ageMs: number;
  readonly expected: Pick<LookupDecision, 'kind'> & { readonly reason?: string };
}

const completed: CacheHints = { runCompleted: true };

// SPEC.md "Cache result", row by row, then every lifetime rule at its boundary.
const ROWS: readonly Row[] = [
  {
    name: 'fresh entry within lifetime',
    routeKind: 'repo_view',
    entry: 'stored',
    ageMs: 30 * SECOND,
    expected: { kind: 'hit' },
  },
  {
    name: 'fresh entry within max-age',
    routeKind: 'repo_view',
    headers: { 'cache-control': 'max-age=31' },
    entry: 'stored',
    ageMs: 30 * SECOND,
    expected: { kind: 'hit' },
  },
  {
    name: 'fresh entry older than max-age',
    routeKind: 'repo_view',
    headers: { 'cache-control': 'max-age=10' },
    entry: 'stored',
    ageMs: 30 * SECOND,
    expected: { kind: 'miss', reason: 'max_age' },
  },
  {
    name: 'fresh entry exactly max-age old',
    routeKind: 'repo_view',
    headers: { 'cache-control': 'max-age=30' },
    entry: 'stored',
    ageMs: 30 * SECOND,
    expected: { kind: 'miss', reason: 'max_age' },
  },
  {
    name: 'max-age=0 on a brand-new entry',
    routeKind: 'repo_view',
    headers: { 'cache-control': 'max-age=0' },
    entry: 'stored',
    ageMs: 0,
    expected: { kind: 'miss', reason: 'max_age' },
  },
  {
    name: 'other cache-control directives',
    routeKind: 'repo_view',
    headers: { 'cache-control': 'no-cache, no-store' },
    entry: 'stored',
    ageMs: 30 * SECOND,
    expected: { kind: 'hit' },
  },
  {
    name: 'expired entry',
    routeKind: 'repo_view',
    entry: 'stored',
    ageMs: MINUTE,
    expected: { kind: 'miss', reason: 'expired' },
  },
  {
    name: 'no entry',
    routeKind: 'repo_view',
    entry: 'none',
    ageMs: 0,
    expected: { kind: 'miss', reason: 'absent' },
  },
  {
    name: 'if-none-match',
    routeKind: 'repo_view',
    headers: { 'if-none-match': '"x"' },
    entry: 'stored',
    ageMs: 0,
    expected: { kind: 'bypass', reason: 'conditional' },
  },
  {
    name: 'if-modified-since',
    routeKind: 'issue_timeline',
    headers: { 'if-modified-since': 'Tue, 01 Jan 2030 00:00:00 GMT' },
    entry: 'none',
    ageMs: 0,
    expected: { kind: 'bypass', reason: 'conditional' },
  },
  {
    name: 'rate_limit',
    routeKind: 'rate_limit',
    entry: 'none',
    ageMs: 0,
    expected: { kind: 'bypass', reason: 'non_cacheable' },
  },
  {
    name: 'a native-protection shape',
    routeKind: 'branch_protection',
    entry: 'none',
    ageMs: 0,
    expected: { kind: 'bypass', reason: 'non_cacheable' },
  },
  {
    name: 'a known large payload',
    routeKind: 'release_asset',
    hints: { largePayload: true },
    entry: 'none',
    ageMs: 0,
    expected: { kind: 'bypass', reason: 'large_payload' },
  },
  {
    name: 'job log of an active run',
    routeKind: 'job_logs',
    hints: { runCompleted: false },
    entry: 'none',
    ageMs: 0,
    expected: { kind: 'bypass', reason: 'log' },
  },
  {
    name: 'job log without a preflight',
    routeKind: 'job_logs',
    entry: 'none',
    ageMs: 0,
    expected: { kind: 'bypass', reason: 'log' },
  },
  {
    name: 'job log of a completed run',
    routeKind: 'job_logs',
    hints: completed,
    entry: 'none',
    ageMs: 0,
    expected: { kind: 'miss', reason: 'absent' },
  },
  {
    name: 'cached job log inside the zero-contact window',
    routeKind: 'job_logs',
    entry: 'stored',
    ageMs: HOUR - 1,
    expected: { kind: 'hit' },
  },
  {
    name: 'cached job log past the zero-contact window',
    routeKind: 'job_logs',
    entry: 'stored',
    ageMs: HOUR,
    expected: { kind: 'probe' },
  },
  {
    name: 'cached job log on its last day',
    routeKind: 'job_logs',
    entry: 'stored',
    ageMs: 7 * DAY - 1,
    expected: { kind: 'probe' },
  },
  {
    name: 'cached job log after seven days',
    routeKind: 'job_logs',
    hints: completed,
    entry: 'stored',
    ageMs: 7 * DAY,
    expected: { kind: 'miss', reason: 'expired' },
  },
  {
    name: 'pending stats entry',
    routeKind: 'repo_stats_contributors',
    entry: 'pending',
    ageMs: 0,
    expected: { kind: 'miss', reason: 'pending' },
  },
  {
    name: 'ready stats entry',
    routeKind: 'repo_stats_contributors',
    entry: 'stored',
    ageMs: 10 * MINUTE - 1,
    expected: { kind: 'hit' },
  },
  {
    name: 'ready stats entry after ten minutes',
    routeKind: 'repo_stats_punch_card',
    entry: 'stored',
    ageMs: 10 * MINUTE,
    expected: { kind: 'miss', reason: 'expired' },
  },
  {
    name: 'open PR before two minutes',
    routeKind: 'pr_view',
    entry: 'stored',
    ageMs: 2 * MINUTE - 1,
    expected: { kind: 'hit' },
  },
  {
    name: 'open PR at two minutes',
    routeKind: 'pr_view',
    entry: 'stored',
    ageMs: 2 * MINUTE,
    expected: { kind: 'miss', reason: 'expired' },
  },
  {
    name: 'PR files of a known head before five minutes',
    routeKind: 'pr_files',
    hints: { prHeadSha: HEAD },
    entry: 'stored',
    ageMs: 5 * MINUTE - 1,
    expected: { kind: 'hit' },
  },
  {
    name: 'PR files of a known head at five minutes',
    routeKind: 'pr_files',
    hints: { prHeadSha: HEAD },
    entry: 'stored',
    ageMs: 5 * MINUTE,
    expected: { kind: 'miss', reason: 'expired' },
  },
  {
    name: 'PR files of an unknown head after a minute',
    routeKind: 'pr_files',
    entry: 'stored',
    ageMs: MINUTE,
    expected: { kind: 'miss', reason: 'expired' },
  },
  {
    name: 'a blob by SHA after a day less 1 ms',
    routeKind: 'git_blob',
    entry: 'stored',
    ageMs: DAY - 1,
    expected: { kind: 'hit' },
  },
  {
    name: 'a tree by SHA after an hour',
    routeKind: 'git_tree',
    hints: { immutable: true },
    entry: 'stored',
    ageMs: HOUR,
    expected: { kind: 'hit' },
  },
  {
    name: 'a tree by ref name after a minute',
    routeKind: 'git_tree',
    entry: 'stored',
    ageMs: MINUTE,
    expected: { kind: 'miss', reason: 'expired' },
  },
  {
    name: 'global metadata before an hour',
    routeKind: 'emoji_list',
    entry: 'stored',
    ageMs: HOUR - 1,
    expected: { kind: 'hit' },
  },
  {
    name: 'a release list after a minute',
    routeKind: 'release_list',
    entry: 'stored',
    ageMs: MINUTE,
    expected: { kind: 'miss', reason: 'expired' },
  },
];

function entryFor(row: Row): CacheEntry | undefined {
  if (row.entry === 'none') return undefined;
  const entry = storedAt(row.routeKind, { ...row.hints, runCompleted: true }, '"v1"');
  return row.entry === 'pending' ? { ...entry, status: 202 } : entry;
}

describe('decideLookup', () => {
  it.each(ROWS)('$name: $expected.kind', (row) => {
    const decision = decideLookup({
      routeKind: row.routeKind,
      ...(row.hints === undefined ? {} : { hints: row.hints }),
      ...(row.headers === undefined ? {} : { headers: row.headers }),
      entry: entryFor(row),
      now: T0 + row.ageMs,
    });
    expect(decision.kind).toBe(row.expected.kind);
    if (row.expected.reason !== undefined) {
      expect(decision).toMatchObject({ reason: row.expected.reason });
    }
  });

  it.each([
    ['an already parsed bound older than the entry', 10, undefined, 'miss'],
    ['an already parsed bound of 0', 0, undefined, 'miss'],
    ['an already parsed bound younger than the entry', 31, undefined, 'hit'],
    ['a parsed bound over a looser header', 10, 'max-age=3600', 'miss'],
    ['a parsed bound over a stricter header', 3600, 'max-age=0', 'hit'],
  ] as const)('takes %s as the max-age (maxAgeSeconds)', (_name, maxAgeSeconds, header, kind) => {
    const decision = decideLookup({
      routeKind: 'repo_view',
      maxAgeSeconds,
      ...(header === undefined ? {} : { headers: { 'cache-control': header } }),
      entry: storedAt('repo_view'),
      now: T0 + 30 * SECOND,
    });
    expect(decision.kind).toBe(kind);
  });

  it('hands an expired entry to the refill with a revalidation from the lane that got it', () => {
    const entry = storedAt('repo_stats_contributors', {}, '"v1"');
    const decision = decideLookup({ routeKind: 'repo_stats_contributors', entry, now: T0 + DAY });
    expect(decision).toEqual({
      kind: 'miss',
      reason: 'expired',
      entry,
      revalidation: {
        lane: { kind: 'identity', id: 'pat-1' },
        headers: { 'if-none-match': '"v1"' },
      },
    });
  });

  it('never hands a pending entry to a revalidation or an outage', () => {
    const entry = { ...storedAt('repo_stats_contributors', {}, '"v1"'), status: 202 };
    const decision = decideLookup({ routeKind: 'repo_stats_contributors', entry, now: T0 });
    expect(decision).toEqual({ kind: 'miss', reason: 'pending' });
  });

  const kinds = fc.constantFrom(
    ...ROUTE_KINDS.filter((k) => ROUTE_LIFETIME_CLASSES[k] !== 'never'),
  );
  const hints = fc.record(
    {
      immutable: fc.boolean(),
      prHeadSha: fc.constant(HEAD),
      runCompleted: fc.boolean(),
    },
    { requiredKeys: [] },
  );

  it('never serves a hit at or beyond max-age (property)', () => {
    fc.assert(
      fc.property(
        kinds,
        hints,
        fc.nat({ max: 8 * DAY }),
        fc.nat({ max: (2 * DAY) / SECOND }),
        (kind, h, age, maxAge) => {
          const entry = storedAt(kind, { ...h, runCompleted: true });
          const headers = { 'cache-control': `max-age=${maxAge}` };
          const decision = decideLookup({
            routeKind: kind,
            hints: h,
            headers,
            entry,
            now: T0 + age,
          });
          if (decision.kind === 'hit') {
            expect(age).toBeLessThan(maxAge * SECOND);
            expect(T0 + age).toBeLessThan(entry.expiresAt);
          }
          const stale = decideStale({
            entry,
            reason: 'identity_pool_depleted',
            headers,
            now: T0 + age,
          });
          if (stale.ok) expect(age).toBeLessThan(maxAge * SECOND);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never serves data from a pending entry (property)', () => {
    fc.assert(
      fc.property(
        kinds,
        hints,
        fc.integer({ min: -DAY, max: 30 * DAY }),
        fc.option(fc.constantFrom('max-age=0', 'max-age=600', 'no-cache'), { nil: undefined }),
        (kind, h, offset, cacheControl) => {
          const entry = { ...storedAt(kind, { ...h, runCompleted: true }, '"p"'), status: 202 };
          const headers = cacheControl === undefined ? {} : { 'cache-control': cacheControl };
          const now = T0 + offset;
          const decision = decideLookup({ routeKind: kind, hints: h, headers, entry, now });
          expect(['hit', 'probe']).not.toContain(decision.kind);
          expect(decision).not.toHaveProperty('entry');
          expect(decision).not.toHaveProperty('revalidation');
          const stale = decideStale({ entry, reason: 'forge_rate_limited', headers, now });
          expect(stale).toEqual({ ok: false, error: 'pending_entry' });
        },
      ),
      { numRuns: 500 },
    );
  });
});
