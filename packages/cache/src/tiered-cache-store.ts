import { LRUCache } from 'lru-cache';
import type { CacheEntry } from './cache-entry.js';
import type { CacheStore } from './cache-store.js';

/** Default byte bound of the in-memory LRU front, 64 MiB. */
export const DEFAULT_FRONT_MAX_BYTES = 64 * 1024 * 1024;

/** Options of {@link createTieredCacheStore}. */
export interface TieredCacheStoreOptions {
  /** The persistent store behind the front: the source of truth for `count` and `totalBytes`. */
  readonly back: CacheStore;
  /** Byte bound of the LRU front. Default {@link DEFAULT_FRONT_MAX_BYTES}. */
  readonly frontMaxBytes?: number;
}

/** A two-level {@link CacheStore}, with a view of its front for statistics and tests. */
export interface TieredCacheStore extends CacheStore {
  /** Entries and bytes held by the LRU front. */
  frontSize(): { readonly entries: number; readonly bytes: number };
}

/**
 * Creates a two-level store: an LRU front (lru-cache, bounded by the entries' `bytes`) over a
 * persistent store. Reads try the front, then the back (a back hit is promoted to the front);
 * writes and deletes go through to both, so the back is always complete. An entry larger than
 * the front's bound lives in the back only.
 *
 * @param options - the back store and the front's byte bound.
 * @returns the tiered store.
 *
 * @example
 * ```ts
 * const store = createTieredCacheStore({ back: createMemoryCacheStore(), frontMaxBytes: 32 << 20 });
 * ```
 */
export function createTieredCacheStore(options: TieredCacheStoreOptions): TieredCacheStore {
  const { back } = options;
  const maxSize = options.frontMaxBytes ?? DEFAULT_FRONT_MAX_BYTES;
  const front = new LRUCache<string, CacheEntry>({
    maxSize,
    maxEntrySize: maxSize,
    sizeCalculation: (entry) => Math.max(1, entry.bytes),
  });
  const remember = (key: string, entry: CacheEntry): void => {
    if (Math.max(1, entry.bytes) <= maxSize) front.set(key, entry);
    else front.delete(key);
  };

  return {
    async get(key) {
      const cached = front.get(key);
      if (cached !== undefined) return cached;
      const stored = await back.get(key);
      if (stored !== undefined) remember(key, stored);
      return stored;
    },
    async put(key, entry) {
      // Drop the front copy first, so that a failed back write never leaves the front ahead.
      front.delete(key);
      await back.put(key, entry);
      remember(key, entry);
    },
    async delete(key) {
      front.delete(key);
      return back.delete(key);
    },
    count: () => back.count(),
    totalBytes: () => back.totalBytes(),
    frontSize: () => ({ entries: front.size, bytes: front.calculatedSize }),
  };
}
