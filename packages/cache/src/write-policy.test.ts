import type { RouteKind } from '@relay/protocol';
import { describe, expect, it } from 'vitest';
import repoView from './__fixtures__/repo-view.json' with { type: 'json' };
import type { CacheEntry } from './cache-entry.js';
import { decideLookup } from './freshness-policy.js';
import fc from 'fast-check';
import {
  applyNotModified,
  confirmEntry,
  confirmFromItem,
  jsonEqual,
  planCacheWrite,
  type UpstreamAnswer,
  type WriteRefusal,
} from './write-policy.js';

const T0 = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const pat = { kind: 'identity', id: 'pat-7' } as const;
const ok200: UpstreamAnswer = {
  status: 200,
  headers: {
    'Content-Type': 'application/json; charset=utf-8',
    ETag: 'W/"e1"',
    'Last-Modified': 'Tue, 01 Jan 2030 00:00:00 GMT',
    'X-RateLimit-Remaining': '4999',
    'X-RateLimit-Reset': '1767225600',
    'X-RateLimit-Limit': '5000',
    'X-RateLimit-Used': '1',
    'X-RateLimit-Resource': 'core',
    'Retry-After': '60',
    'X-GitHub-Request-Id': 'ABCD:1234',
    Link: '<https://api.github.com/x?page=2>; rel="next"',
    'Set-Cookie': 'session=secret',
    'X-OAuth-Scopes': 'repo',
  },
  body: [{ id: 1 }],
  bodyEncoding: 'json',
};

function write(routeKind: RouteKind, answer: UpstreamAnswer = ok200, extra = {}) {
  return planCacheWrite({ routeKind, answer, lane: pat, now: T0, ...extra });
}

function stored(routeKind: RouteKind, answer: UpstreamAnswer = ok200): CacheEntry {
  const plan = write(routeKind, answer);
  if (!plan.ok) throw new Error(plan.error.code);
  return plan.value;
}

describe('planCacheWrite', () => {
  it('stores the answer with its lifetime and replayable headers only', () => {
    const entry = stored('issue_list');
    expect(entry.headers).toEqual({
      'content-type': 'application/json; charset=utf-8',
      etag: 'W/"e1"',
      'last-modified': 'Tue, 01 Jan 2030 00:00:00 GMT',
      link: '<https://api.github.com/x?page=2>; rel="next"',
    });
    expect(entry).toMatchObject({
      status: 200,
      body: [{ id: 1 }],
      validatedAt: T0,
      expiresAt: T0 + MINUTE,
      staleUntil: T0 + MINUTE + HOUR,
    });
    expect(entry.bytes).toBeGreaterThan(JSON.stringify(entry.body).length);
  });

  it('keeps the validators with the identity that obtained them', () => {
    expect(stored('pr_list').validators).toEqual({
      etag: 'W/"e1"',
      lastModified: 'Tue, 01 Jan 2030 00:00:00 GMT',
      lane: pat,
    });
    const anonymous = planCacheWrite({
      routeKind: 'release_list',
      answer: ok200,
      lane: { kind: 'anonymous' },
      now: T0,
    });
    expect(anonymous.ok && anonymous.value.validators?.lane).toEqual({ kind: 'anonymous' });
  });

  it('stores no validators when upstream sent none', () => {
    const entry = stored('pr_list', { ...ok200, headers: { 'content-type': 'application/json' } });
    expect(entry).not.toHaveProperty('validators');
  });

  it('stores a 204 answer', () => {
    expect(
      stored('org_public_member_view', { ...ok200, status: 204, body: null, bodyEncoding: 'text' })
        .status,
    ).toBe(204);
  });

  it.each<[string, RouteKind, Partial<UpstreamAnswer>, object, WriteRefusal]>([
    [
      'a 202 pending statistics answer',
      'repo_stats_contributors',
      { status: 202, body: {} },
      {},
      { code: 'pending', existing: 'keep', cache: 'miss' },
    ],
    [
      'a 404',
      'issue_view',
      { status: 404 },
      {},
      { code: 'uncacheable_status', existing: 'evict', cache: 'miss' },
    ],
    [
      'a 410',
      'issue_view',
      { status: 410 },
      {},
      { code: 'uncacheable_status', existing: 'evict', cache: 'miss' },
    ],
    [
      'a 500',
      'issue_view',
      { status: 500 },
      {},
      { code: 'uncacheable_status', existing: 'keep', cache: 'miss' },
    ],
    [
      'a 403',
      'issue_view',
      { status: 403 },
      {},
      { code: 'uncacheable_status', existing: 'keep', cache: 'miss' },
    ],
    [
      'a 304 (use applyNotModified)',
      'issue_view',
      { status: 304 },
      {},
      { code: 'uncacheable_status', existing: 'keep', cache: 'miss' },
    ],
    [
      'rate_limit',
      'rate_limit',
      {},
      {},
      { code: 'non_cacheable', existing: 'evict', cache: 'bypass' },
    ],
    [
      'a job log of a run not known complete',
      'job_logs',
      {},
      {},
      { code: 'log_run_active', existing: 'keep', cache: 'bypass' },
    ],
    [
      'a large payload',
      'contents',
      { body: 'x'.repeat(2000), bodyEncoding: 'text' },
      { maxEntryBytes: 1024 },
      { code: 'too_large', existing: 'evict', cache: 'bypass' },
    ],
  ])('refuses %s', (_name, kind, answer, extra, refusal) => {
    expect(write(kind, { ...ok200, ...answer }, extra)).toEqual({ ok: false, error: refusal });
  });

  it('stores a job log of a completed run for seven days', () => {
    const plan = planCacheWrite({
      routeKind: 'job_logs',
      hints: { runCompleted: true },
      answer: {
        status: 200,
        headers: { 'content-type': 'text/plain' },
        body: 'log line\n',
        bodyEncoding: 'text',
      },
      lane: pat,
      now: T0,
    });
    expect(plan.ok && plan.value.expiresAt).toBe(T0 + 7 * 24 * HOUR);
    expect(plan.ok && plan.value.staleUntil).toBe(T0 + 7 * 24 * HOUR);
  });

  it('keeps a ready stats entry and its original lifetime when a forced refresh finds pending', () => {
    const ready = stored('repo_stats_commit_activity');
    const refresh = decideLookup({
      routeKind: 'repo_stats_commit_activity',
      headers: { 'cache-control': 'max-age=0' },
      entry: ready,
      now: T0 + MINUTE,
    });
    expect(refresh).toMatchObject({ kind: 'miss', reason: 'max_age' });
    const plan = planCacheWrite({
      routeKind: 'repo_stats_commit_activity',
      answer: { ...ok200, status: 202, body: {} },
      lane: pat,
      now: T0 + MINUTE,
    });
    expect(plan).toEqual({
      ok: false,
      error: { code: 'pending', existing: 'keep', cache: 'miss' },
    });
    // The kept entry is still served as a hit afterwards, until its original expiry.
    expect(
      decideLookup({ routeKind: 'repo_stats_commit_activity', entry: ready, now: T0 + 9 * MINUTE })
        .kind,
    ).toBe('hit');
    expect(
      decideLookup({ routeKind: 'repo_stats_commit_activity', entry: ready, now: T0 + 10 * MINUTE })
        .kind,
    ).toBe('miss');
  });

  it('reduces a repo_view body and drops the validators of the unreduced bytes', () => {
    const entry = stored('repo_view', { ...ok200, body: repoView });
    expect(entry.body).not.toHaveProperty('permissions');
    expect(entry.body).not.toHaveProperty('temp_clone_token');
    expect(entry.body).toHaveProperty('full_name', 'octocat/Hello-World');
    expect(entry.headers).not.toHaveProperty('etag');
    expect(entry.headers).not.toHaveProperty('last-modified');
    expect(entry.validators?.etag).toBe('W/"e1"');
  });
});

describe('planCacheWrite: the forge’s JSON text', () => {
  const source = '[{"id":1.0}]';

  it('stores the text with the body it describes, counted in the entry size, kept by a 304', () => {
    const entry = stored('issue_list', { ...ok200, bodySource: source });
    expect(entry.bodySource).toBe(source);
    expect(entry.bytes).toBe(stored('issue_list').bytes + source.length);
    expect(applyNotModified(entry, { headers: {}, now: T0 + MINUTE }).bodySource).toBe(source);
    expect(confirmFromItem(entry, [{ id: 1 }], { now: T0 + MINUTE })?.bodySource).toBe(source);
  });

  it('never stores the forge’s text of a reduced repo_view body: it holds token-specific fields', () => {
    const text = JSON.stringify({ ...repoView, permissions: { admin: true } }, null, 1);
    const entry = stored('repo_view', { ...ok200, body: JSON.parse(text), bodySource: text });
    expect(entry).not.toHaveProperty('bodySource');
    expect(JSON.stringify(entry)).not.toContain('permissions');
  });
});

describe('applyNotModified', () => {
  it('confirms the entry now, renews its lifetime and keeps its body and lane', () => {
    const entry = stored('pr_view');
    const refreshed = applyNotModified(entry, {
      headers: { ETag: 'W/"e2"' },
      now: T0 + 5 * MINUTE,
    });
    expect(refreshed).toMatchObject({
      body: entry.body,
      validatedAt: T0 + 5 * MINUTE,
      expiresAt: T0 + 7 * MINUTE,
      validators: { etag: 'W/"e2"', lastModified: 'Tue, 01 Jan 2030 00:00:00 GMT', lane: pat },
    });
    expect(
      decideLookup({ routeKind: 'pr_view', entry: refreshed, now: T0 + 6 * MINUTE }).kind,
    ).toBe('hit');
  });

  it('keeps the old validators when the 304 carries none', () => {
    const entry = stored('pr_view');
    expect(applyNotModified(entry, { headers: {}, now: T0 + MINUTE }).validators).toEqual(
      entry.validators,
    );
  });
});

describe('applyNotModified on a job log', () => {
  it('confirms the log without extending its seven days', () => {
    const plan = planCacheWrite({
      routeKind: 'job_logs',
      hints: { runCompleted: true },
      answer: { status: 200, headers: { etag: '"l"' }, body: 'log', bodyEncoding: 'text' },
      lane: pat,
      now: T0,
    });
    if (!plan.ok) throw new Error(plan.error.code);
    const refreshed = applyNotModified(plan.value, { headers: {}, now: T0 + 3 * HOUR });
    expect(refreshed.validatedAt).toBe(T0 + 3 * HOUR);
    expect(refreshed.expiresAt).toBe(plan.value.expiresAt);
  });
});

describe('confirmEntry', () => {
  it('opens a new zero-contact window without extending a job log past seven days', () => {
    const plan = planCacheWrite({
      routeKind: 'job_logs',
      hints: { runCompleted: true },
      answer: { status: 200, headers: {}, body: 'log', bodyEncoding: 'text' },
      lane: pat,
      now: T0,
    });
    if (!plan.ok) throw new Error(plan.error.code);
    const probeAt = T0 + 2 * HOUR;
    expect(decideLookup({ routeKind: 'job_logs', entry: plan.value, now: probeAt }).kind).toBe(
      'probe',
    );
    const confirmed = confirmEntry(plan.value, probeAt);
    expect(
      decideLookup({ routeKind: 'job_logs', entry: confirmed, now: probeAt + HOUR - 1 }).kind,
    ).toBe('hit');
    expect(
      decideLookup({ routeKind: 'job_logs', entry: confirmed, now: probeAt + HOUR }).kind,
    ).toBe('probe');
    expect(confirmed.expiresAt).toBe(plan.value.expiresAt);
  });
});

describe('confirmFromItem (a collection item confirms a stored single read)', () => {
  const run = { id: 9, status: 'in_progress', repository: { full_name: 'acme/widgets' } };
  const stored = () => {
    const plan = planCacheWrite({
      routeKind: 'run_view',
      answer: { status: 200, headers: { etag: 'W/"r1"' }, body: run, bodyEncoding: 'json' },
      lane: pat,
      now: T0,
    });
    if (!plan.ok) throw new Error(plan.error.code);
    return plan.value;
  };

  it('an equal item confirms the entry at the list time: a new lifetime, validators kept', () => {
    const at = T0 + 50_000;
    const item = { repository: { full_name: 'acme/widgets' }, status: 'in_progress', id: 9 };
    const confirmed = confirmFromItem(stored(), item, { now: at });
    expect(confirmed).toMatchObject({ validatedAt: at, expiresAt: at + MINUTE, body: run });
    expect(confirmed?.validators).toEqual(stored().validators);
    // Fresh where the first answer alone would have expired; max-age counts from the list time.
    const later = { routeKind: 'run_view' as const, now: T0 + 80_000 };
    expect(decideLookup({ ...later, entry: stored() }).kind).toBe('miss');
    expect(decideLookup({ ...later, entry: confirmed }).kind).toBe('hit');
    expect(decideLookup({ ...later, entry: confirmed, maxAgeSeconds: 20 }).kind).toBe('miss');
  });

  it.each([
    ['a changed member', { ...run, status: 'completed' }],
    ['an extra member', { ...run, conclusion: null }],
    ['a missing member', { id: 9, status: 'in_progress' }],
    ['another shape', [run]],
    ['nothing', undefined],
  ])('%s confirms nothing', (_name, item) => {
    expect(confirmFromItem(stored(), item, { now: T0 + 50_000 })).toBeUndefined();
  });

  it('only a JSON 200 entry is confirmed', () => {
    const text = { ...stored(), body: 'x', bodyEncoding: 'text' as const };
    expect(confirmFromItem(text, 'x', { now: T0 + 1 })).toBeUndefined();
    expect(confirmFromItem({ ...stored(), status: 204 }, run, { now: T0 + 1 })).toBeUndefined();
  });

  it('jsonEqual is structural equality of JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        expect(jsonEqual(a, structuredClone(a))).toBe(true);
        expect(jsonEqual(a, b)).toBe(JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b)));
      }),
    );
  });
});

/** A JSON value with every object's members in key order (for a reference comparison). */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}
