import type { CacheEntry } from './cache-entry.js';

/**
 * The port of the shared cache's storage. Implementations: {@link createMemoryCacheStore} (here),
 * {@link createTieredCacheStore} (an LRU front over another store), and the server's SQLite
 * store. Every implementation passes `runCacheStoreContract` from `@relay/cache/testing`.
 *
 * Stores keep entries as data and make no freshness decisions; sizes come from `entry.bytes`.
 */
export interface CacheStore {
  /** The entry stored under `key`, or undefined. */
  get(key: string): Promise<CacheEntry | undefined>;
  /** Stores `entry` under `key`, replacing any entry there. A store may evict other entries
   * (or refuse this one) to stay within its byte bound. */
  put(key: string, entry: CacheEntry): Promise<void>;
  /** Removes the entry under `key`; resolves to whether there was one. */
  delete(key: string): Promise<boolean>;
  /**
   * Removes every entry whose `scope` is `scope` (a repository that turned out private); resolves
   * to how many were removed. Entries written after the call resolves are kept.
   */
  purgeScope(scope: string): Promise<number>;
  /** The number of stored entries. */
  count(): Promise<number>;
  /** The sum of `bytes` over the stored entries. */
  totalBytes(): Promise<number>;
}
