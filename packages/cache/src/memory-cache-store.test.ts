import { describe, expect, it } from 'vitest';
import { createMemoryCacheStore } from './memory-cache-store.js';
import { createTestEntry, runCacheStoreContract } from './testing/cache-store-contract.js';

runCacheStoreContract({
  describe,
  it,
  name: 'memory',
  createStore: () => createMemoryCacheStore(),
});

describe('createMemoryCacheStore with a byte bound', () => {
  it('evicts the oldest-written entries to stay within the bound', async () => {
    const store = createMemoryCacheStore({ maxBytes: 300 });
    await store.put('a', createTestEntry({ bytes: 100 }));
    await store.put('b', createTestEntry({ bytes: 100 }));
    await store.put('c', createTestEntry({ bytes: 100 }));
    await store.put('d', createTestEntry({ bytes: 150 }));
    expect(await store.get('a')).toBeUndefined();
    expect(await store.get('b')).toBeUndefined();
    expect(await store.get('c')).toBeDefined();
    expect(await store.totalBytes()).toBe(250);
  });

  it('does not store an entry larger than the bound', async () => {
    const store = createMemoryCacheStore({ maxBytes: 100 });
    await store.put('a', createTestEntry({ bytes: 50 }));
    await store.put('big', createTestEntry({ bytes: 101 }));
    expect(await store.get('big')).toBeUndefined();
    expect(await store.count()).toBe(1);
  });
});
