import { LRUCache } from 'lru-cache';
import type { CacheEntry } from './cache-entry.js';
import type { CacheStore } from './cache-store.js';

/**
 * Default bound of the in-memory LRU front, 16 MiB of estimated JavaScript heap (see
 * {@link estimateFrontBytes}): about 3,000 issue-sized entries. Misses of the front are served by
 * the back store (an indexed SQLite read), so a larger front buys little and costs a multiple of
 * its size in resident memory, because V8 sizes its heap from the live heap.
 */
export const DEFAULT_FRONT_MAX_BYTES = 16 * 1024 * 1024;

/** Heap bytes charged per front slot besides the body: entry object, headers, key, LRU node. */
const FRONT_SLOT_OVERHEAD_BYTES = 1024;
/** Heap bytes per stored (UTF-8) byte of a parsed entry, measured on GitHub issue bodies (~1.8). */
const FRONT_HEAP_BYTES_PER_BYTE = 2;

/**
 * Estimates what an entry costs in the JavaScript heap while the front holds it. `entry.bytes`
 * counts UTF-8 bytes of the serialized body; the parsed body costs about twice that in V8
 * (object shapes, 8-byte pointers, boxed numbers, one- or two-byte strings), and the entry object,
 * its headers, the key (UTF-16 at worst) and the LRU node add a fixed overhead.
 *
 * @param key - the cache key.
 * @param entry - the entry.
 * @returns the estimated heap bytes.
 */
export function estimateFrontBytes(key: string, entry: CacheEntry): number {
  return FRONT_SLOT_OVERHEAD_BYTES + 2 * key.length + FRONT_HEAP_BYTES_PER_BYTE * entry.bytes;
}

/** Options of {@link createTieredCacheStore}. */
export interface TieredCacheStoreOptions {
  /** The persistent store behind the front: the source of truth for `count` and `totalBytes`. */
  readonly back: CacheStore;
  /** Bound of the LRU front, in estimated heap bytes ({@link estimateFrontBytes}). Default
   * {@link DEFAULT_FRONT_MAX_BYTES}. */
  readonly frontMaxBytes?: number;
}

/** A two-level {@link CacheStore}, with a view of its front for statistics and tests. */
export interface TieredCacheStore extends CacheStore {
  /** Entries and estimated heap bytes ({@link estimateFrontBytes}) held by the LRU front. */
  frontSize(): { readonly entries: number; readonly bytes: number };
}

/**
 * Creates a two-level store: an LRU front (lru-cache, bounded by the entries' estimated heap
 * cost, not by their serialized `bytes`) over a persistent store. Reads try the front, then the back (a back hit is promoted to the front);
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
    sizeCalculation: (entry, key) => estimateFrontBytes(key, entry),
  });
  const remember = (key: string, entry: CacheEntry): void => {
    if (estimateFrontBytes(key, entry) <= maxSize) front.set(key, entry);
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
    async purgeScope(scope) {
      for (const [key, entry] of front.entries()) {
        if (entry.scope === scope) front.delete(key);
      }
      return back.purgeScope(scope);
    },
    count: () => back.count(),
    totalBytes: () => back.totalBytes(),
    frontSize: () => ({ entries: front.size, bytes: front.calculatedSize }),
  };
}
