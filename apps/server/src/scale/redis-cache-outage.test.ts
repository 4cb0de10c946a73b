import { createMemoryCacheStore, type CacheStore } from '@relay/cache';
import { createTestEntry } from '@relay/cache/testing';
import { describe, expect, it } from 'vitest';
import { RelayHttpError } from '../relay-http-error.js';
import { withCacheOutageFallbacks } from './redis-cache-outage.js';

/** A memory store whose every call rejects while `down` is set (Redis away). */
function flakyStore() {
  const inner = createMemoryCacheStore();
  const state = { down: false };
  const guard =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      state.down ? Promise.reject(new Error('redis unavailable')) : call(...args);
  const store: CacheStore = {
    get: guard((key: string) => inner.get(key)),
    put: guard((key: string, entry) => inner.put(key, entry)),
    delete: guard((key: string) => inner.delete(key)),
    purgeScope: guard((scope: string) => inner.purgeScope(scope)),
    count: guard(() => inner.count()),
    totalBytes: guard(() => inner.totalBytes()),
  };
  return { store, inner, state };
}

describe('withCacheOutageFallbacks', () => {
  it('answers a miss, drops and reports writes, and refuses counts with a typed 503 while the store is away', async () => {
    const { store, state } = flakyStore();
    let dropped = 0;
    const cache = withCacheOutageFallbacks(store, { onWriteDropped: () => (dropped += 1) });
    await cache.put('k', createTestEntry());
    state.down = true;
    expect(await cache.get('k')).toBeUndefined();
    await cache.put('other', createTestEntry());
    expect(dropped).toBe(1);
    expect(await cache.delete('k')).toBe(false);
    await expect(cache.count()).rejects.toEqual(new RelayHttpError('relay_overloaded'));
    await expect(cache.totalBytes()).rejects.toBeInstanceOf(RelayHttpError);
    state.down = false;
    expect((await cache.get('k'))?.status).toBe(200);
    expect(await cache.count()).toBe(1);
  });

  it('keeps a purge the store missed and reads nothing until the store has taken it', async () => {
    const { store, inner, state } = flakyStore();
    const cache = withCacheOutageFallbacks(store, { onWriteDropped: () => undefined });
    await cache.put('private', createTestEntry({ scope: 'acme/secret' }));
    await cache.put('public', createTestEntry({ scope: 'acme/widgets' }));
    state.down = true;
    expect(await cache.purgeScope('acme/secret')).toBe(0);
    state.down = false;
    // The first read after the store is back runs the pending purge first.
    expect(await cache.get('private')).toBeUndefined();
    expect(await inner.get('private')).toBeUndefined();
    expect((await cache.get('public'))?.scope).toBe('acme/widgets');
  });
});
