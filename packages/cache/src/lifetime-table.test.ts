import {
  JOB_LOG_CACHE_MS,
  JOB_LOG_ZERO_CONTACT_MS,
  OPEN_PR_CACHE_MS,
  PR_FILES_CACHE_MS,
  ROUTE_KINDS,
  type RouteKind,
} from '@relay/protocol';
import { describe, expect, it } from 'vitest';
import {
  CLASS_LIFETIMES,
  LIFETIME_CLASSES,
  ROUTE_LIFETIME_CLASSES,
  resolveLifetime,
  type CacheHints,
  type LifetimeClass,
} from './lifetime-table.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const HEAD = 'd'.repeat(40);

describe('the lifetime table', () => {
  it.each(ROUTE_KINDS)('gives %s a lifetime class', (kind) => {
    expect(LIFETIME_CLASSES).toContain(ROUTE_LIFETIME_CLASSES[kind]);
  });

  it('has no entry for a kind SPEC.md does not list', () => {
    expect(Object.keys(ROUTE_LIFETIME_CLASSES).sort()).toEqual([...ROUTE_KINDS].sort());
  });

  it.each(LIFETIME_CLASSES)('bounds the stale window of %s', (lifetimeClass) => {
    const lifetime = CLASS_LIFETIMES[lifetimeClass];
    expect(lifetime.class).toBe(lifetimeClass);
    expect(lifetime.staleMs).toBeGreaterThanOrEqual(0);
    expect(lifetime.staleMs).toBeLessThanOrEqual(7 * DAY);
  });

  it.each<[string, RouteKind, CacheHints, LifetimeClass, number, number]>([
    ['an open PR read', 'pr_view', {}, 'open_pr', OPEN_PR_CACHE_MS, 2 * MINUTE],
    [
      'PR files for a known head',
      'pr_files',
      { prHeadSha: HEAD },
      'pr_files',
      PR_FILES_CACHE_MS,
      5 * MINUTE,
    ],
    ['PR files for an unknown head', 'pr_files', {}, 'mutable', MINUTE, MINUTE],
    ['job logs', 'job_logs', { runCompleted: true }, 'log', JOB_LOG_CACHE_MS, 7 * DAY],
    ['rate_limit', 'rate_limit', {}, 'never', 0, 0],
    ['a blob by SHA', 'git_blob', {}, 'immutable', DAY, DAY],
    ['a commit by SHA', 'commit_view', {}, 'immutable', DAY, DAY],
    ['a commit by ref name', 'commit_view_ref', {}, 'mutable', MINUTE, MINUTE],
    ['contents at a SHA', 'contents', { immutable: true }, 'immutable', DAY, DAY],
    ['contents at a branch', 'contents', {}, 'mutable', MINUTE, MINUTE],
    [
      'statuses of a SHA (a mutable collection)',
      'commit_statuses',
      { immutable: true },
      'mutable',
      MINUTE,
      MINUTE,
    ],
    ['global metadata', 'license_list', {}, 'reference', 60 * MINUTE, 60 * MINUTE],
    ['ready statistics', 'repo_stats_participation', {}, 'stats', 10 * MINUTE, 10 * MINUTE],
    ['a release list', 'release_list', {}, 'mutable', MINUTE, MINUTE],
  ])('%s', (_name, kind, hints, lifetimeClass, freshMs, specified) => {
    const lifetime = resolveLifetime(kind, hints);
    expect(lifetime.class).toBe(lifetimeClass);
    expect(lifetime.freshMs).toBe(freshMs);
    expect(lifetime.freshMs).toBe(specified);
  });

  it('gives job logs a one-hour zero-contact window and no stale window', () => {
    expect(resolveLifetime('job_logs')).toMatchObject({
      zeroContactMs: JOB_LOG_ZERO_CONTACT_MS,
      staleMs: 0,
    });
    expect(JOB_LOG_ZERO_CONTACT_MS).toBe(60 * MINUTE);
  });
});
