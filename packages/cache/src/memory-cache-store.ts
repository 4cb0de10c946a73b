import type { CacheEntry } from './cache-entry.js';
import type { CacheStore } from './cache-store.js';

/** Options of {@link createMemoryCacheStore}. */
export interface MemoryCacheStoreOptions {
  /** Byte bound: the oldest-written entries are evicted beyond it. Default: unbounded. */
  readonly maxBytes?: number;
}

/**
 * Creates an in-memory {@link CacheStore}: the persistent tier for tests, the demo and
 * single-process deployments without a database. With `maxBytes`, the oldest-written entries are
 * evicted first and an entry larger than the bound is not stored.
 *
 * @param options - the optional byte bound.
 * @returns an empty store.
 */
export function createMemoryCacheStore(options: MemoryCacheStoreOptions = {}): CacheStore {
  const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  const entries = new Map<string, CacheEntry>();
  let totalBytes = 0;

  const remove = (key: string): boolean => {
    const old = entries.get(key);
    if (old === undefined) return false;
    entries.delete(key);
    totalBytes -= old.bytes;
    return true;
  };

  return {
    get: (key) => Promise.resolve(entries.get(key)),
    put(key, entry) {
      remove(key);
      if (entry.bytes <= maxBytes) {
        for (const oldest of entries.keys()) {
          if (totalBytes + entry.bytes <= maxBytes) break;
          remove(oldest);
        }
        entries.set(key, entry);
        totalBytes += entry.bytes;
      }
      return Promise.resolve();
    },
    delete: (key) => Promise.resolve(remove(key)),
    purgeScope(scope) {
      let removed = 0;
      for (const [key, entry] of entries) {
        if (entry.scope === scope && remove(key)) removed++;
      }
      return Promise.resolve(removed);
    },
    count: () => Promise.resolve(entries.size),
    totalBytes: () => Promise.resolve(totalBytes),
  };
}
