import { describe, expect, it } from 'vitest';
import { createPoolPolicyCache } from './pool-policy-cache.js';

function setUp(initial: Record<string, string>) {
  const stored = new Map(Object.entries(initial));
  let now = 0;
  let reads = 0;
  const cache = createPoolPolicyCache({
    read: (pool) => {
      reads++;
      return Promise.resolve(stored.get(pool));
    },
    defaults: { allowedOwners: ['Acme'] },
    now: () => now,
  });
  return {
    cache,
    stored,
    advance: (ms: number) => (now += ms),
    reads: () => reads,
  };
}

describe('pool policy cache (SPEC.md "Policy cache")', () => {
  it.each([
    [
      '{}',
      { allowed_owners: ['acme'], allow_public_repos: true, allow_search: false, allow_logs: true },
    ],
    [
      '{"allowed_owners":[]}',
      { allowed_owners: [], allow_public_repos: true, allow_search: false, allow_logs: true },
    ],
    [
      '{"allow_search":true,"allowed_owners":["Octo"]}',
      { allowed_owners: ['octo'], allow_public_repos: true, allow_search: true, allow_logs: true },
    ],
  ])('%s → defaults for missing fields, owners lowercased', async (json, policy) => {
    const { cache } = setUp({ team: json });
    expect(await cache.load('team')).toEqual({ ok: true, value: policy });
  });

  it.each(['{', '[]', 'null', '{"allow_logs":1}', '{"allowed_owners":"acme"}'])(
    '%s → pool_policy_unavailable',
    async (json) => {
      const { cache } = setUp({ team: json });
      expect(await cache.load('team')).toEqual({ ok: false, error: 'pool_policy_unavailable' });
    },
  );

  it('a missing pool → pool_missing', async () => {
    const { cache } = setUp({});
    expect(await cache.load('nope')).toEqual({ ok: false, error: 'pool_missing' });
  });

  it('reuses a valid policy for 30 s after it was read, then reads again', async () => {
    const h = setUp({ team: '{"allow_search":false}' });
    await h.cache.load('team');
    h.stored.set('team', '{"allow_search":true}');
    h.advance(29_999);
    expect((await h.cache.load('team')).ok && (await h.cache.load('team'))).toMatchObject({
      value: { allow_search: false },
    });
    h.advance(1);
    expect(await h.cache.load('team')).toMatchObject({ value: { allow_search: true } });
  });

  it('never caches a failed parse and has no last-known-good', async () => {
    const h = setUp({ team: '{"allow_search":true}' });
    await h.cache.load('team');
    h.stored.set('team', '{');
    h.advance(30_000);
    expect((await h.cache.load('team')).ok).toBe(false);
    const readsAfterFailure = h.reads();
    expect((await h.cache.load('team')).ok).toBe(false);
    expect(h.reads()).toBe(readsAfterFailure + 1);
    h.stored.set('team', '{}');
    expect((await h.cache.load('team')).ok).toBe(true);
  });

  it('drops every cached policy when the change stamp moves (an edit on another replica)', async () => {
    const stored = new Map([['team', '{"allow_search":false}']]);
    const change = { stamp: 1 };
    let reads = 0;
    const cache = createPoolPolicyCache({
      read: (pool) => {
        reads++;
        return Promise.resolve(stored.get(pool));
      },
      defaults: { allowedOwners: [] },
      now: () => 0,
      changeStamp: () => change.stamp,
    });
    expect(await cache.load('team')).toMatchObject({ ok: true, value: { allow_search: false } });
    await cache.load('team');
    expect(reads).toBe(1);
    stored.set('team', '{"allow_search":true}');
    change.stamp++;
    expect(await cache.load('team')).toMatchObject({ ok: true, value: { allow_search: true } });
    expect(reads).toBe(2);
  });
});
