import { describe, expect, it } from 'vitest';
import type { CacheStore } from './cache-store.js';
import { createMemoryCacheStore } from './memory-cache-store.js';
import { createTestEntry, runCacheStoreContract } from './testing/cache-store-contract.js';
import {
  DEFAULT_FRONT_MAX_BYTES,
  createTieredCacheStore,
  estimateFrontBytes,
} from './tiered-cache-store.js';

runCacheStoreContract({
  describe,
  it,
  name: 'tiered (LRU front over memory)',
  createStore: () => createTieredCacheStore({ back: createMemoryCacheStore() }),
});

runCacheStoreContract({
  describe,
  it,
  name: 'tiered with a tiny front',
  createStore: () =>
    createTieredCacheStore({ back: createMemoryCacheStore(), frontMaxBytes: 1500 }),
});

/** A back store that counts its reads. */
function countingBack(): CacheStore & { reads: () => number } {
  const inner = createMemoryCacheStore();
  let reads = 0;
  return {
    ...inner,
    get: (key) => {
      reads++;
      return inner.get(key);
    },
    reads: () => reads,
  };
}

describe('createTieredCacheStore', () => {
  it('serves hot keys from the front without reading the back', async () => {
    const back = countingBack();
    const store = createTieredCacheStore({ back, frontMaxBytes: 2000 });
    await store.put('k', createTestEntry());
    await store.get('k');
    await store.get('k');
    expect(back.reads()).toBe(0);
  });

  it('bounds the front by bytes, evicting the least recently used entry to the back only', async () => {
    const back = countingBack();
    const cost = estimateFrontBytes('a', createTestEntry({ bytes: 100 }));
    const store = createTieredCacheStore({ back, frontMaxBytes: 2 * cost + cost / 2 });
    await store.put('a', createTestEntry({ bytes: 100 }));
    await store.put('b', createTestEntry({ bytes: 100 }));
    await store.get('a');
    await store.put('c', createTestEntry({ bytes: 100 }));
    expect(store.frontSize()).toEqual({ entries: 2, bytes: 2 * cost });
    expect(await store.count()).toBe(3);
    await store.get('a');
    expect(back.reads()).toBe(0);
    expect(await store.get('b')).toBeDefined();
    expect(back.reads()).toBe(1);
  });

  it('promotes a back hit to the front', async () => {
    const back = countingBack();
    await back.put('k', createTestEntry());
    const store = createTieredCacheStore({ back });
    await store.get('k');
    await store.get('k');
    expect(back.reads()).toBe(1);
    expect(store.frontSize().entries).toBe(1);
  });

  it('keeps an entry larger than the front in the back only', async () => {
    const store = createTieredCacheStore({ back: createMemoryCacheStore(), frontMaxBytes: 1500 });
    await store.put('big', createTestEntry({ bytes: 500 }));
    expect(store.frontSize().entries).toBe(0);
    expect((await store.get('big'))?.bytes).toBe(500);
  });

  it('charges the front for the heap cost of an entry, not its serialized bytes', () => {
    const entry = createTestEntry({ bytes: 10_000 });
    expect(estimateFrontBytes('k', entry)).toBeGreaterThanOrEqual(2 * 10_000 + 1024);
    expect(estimateFrontBytes('k'.repeat(100), entry)).toBe(estimateFrontBytes('k', entry) + 198);
  });

  it('stays within its bound however many distinct keys are written', async () => {
    const frontMaxBytes = 64 * 1024;
    const store = createTieredCacheStore({ back: createMemoryCacheStore(), frontMaxBytes });
    for (let i = 0; i < 5_000; i++) {
      await store.put(`/repos/o/r/issues/${String(i)}`, createTestEntry({ bytes: 2_000 }));
    }
    const front = store.frontSize();
    expect(front.bytes).toBeLessThanOrEqual(frontMaxBytes);
    expect(front.entries).toBeGreaterThan(0);
    expect(front.entries).toBeLessThan(frontMaxBytes / (2 * 2_000));
    expect(await store.count()).toBe(5_000);
  });

  it('defaults to a 16 MiB front', () => {
    expect(DEFAULT_FRONT_MAX_BYTES).toBe(16 * 1024 * 1024);
  });

  it('does not let the front run ahead of a failed back write', async () => {
    const back = createMemoryCacheStore();
    const store = createTieredCacheStore({
      back: { ...back, put: () => Promise.reject(new Error('disk full')) },
    });
    await expect(store.put('k', createTestEntry())).rejects.toThrow('disk full');
    expect(await store.get('k')).toBeUndefined();
  });

  it('deletes from both levels', async () => {
    const store = createTieredCacheStore({ back: createMemoryCacheStore() });
    await store.put('k', createTestEntry());
    expect(await store.delete('k')).toBe(true);
    expect(await store.get('k')).toBeUndefined();
    expect(store.frontSize().entries).toBe(0);
  });
});
