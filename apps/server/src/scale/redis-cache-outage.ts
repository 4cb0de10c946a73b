import type { CacheStore } from '@relay/cache';
import { RelayHttpError } from '../relay-http-error.js';

/** Options of {@link withCacheOutageFallbacks}. */
export interface CacheOutageOptions {
  /**
   * Reports a write the shared cache did not take (`cache_write_failed`). Failed reads are not
   * reported one by one: the connection reports Redis's state once per change.
   */
  readonly onWriteDropped: () => void;
}

/**
 * The relay's answers while its shared cache (Redis) is unavailable — SPEC.md's order is cache
 * first, then the forge, so a cache that cannot answer is a cache that has nothing:
 *
 * - `get` answers a miss (the request is served from upstream, or falls back as SPEC.md says;
 *   never an untyped 500); `put` and `delete` are dropped (the cache refills when Redis is back);
 * - `purgeScope` of a repository found private is remembered and tried again before every later
 *   call until Redis takes it; meanwhile this process reads nothing from the cache (the shared
 *   refusal of the visibility guard covers the other replicas);
 * - `count` and `totalBytes` (stats, health, metrics) answer 503 `relay_overloaded`.
 *
 * A dropped write is reported (`cache_write_failed`, as on PostgreSQL); nothing here carries an
 * address or a key.
 *
 * @param store - the shared store (its calls reject while Redis is away)
 * @param options - the sink of dropped writes
 */
export function withCacheOutageFallbacks(
  store: CacheStore,
  options: CacheOutageOptions,
): CacheStore {
  const pendingPurges = new Set<string>();

  /** Tries the purges Redis has not taken yet; false while any is still pending. */
  async function flushPurges(): Promise<boolean> {
    for (const scope of [...pendingPurges]) {
      try {
        await store.purgeScope(scope);
        pendingPurges.delete(scope);
      } catch {
        return false;
      }
    }
    return true;
  }

  /** Runs `work` once every pending purge is done; `fallback` when Redis takes neither. */
  async function tolerate<T>(work: () => Promise<T>, fallback: T, onFail?: () => void) {
    try {
      if (pendingPurges.size > 0 && !(await flushPurges())) throw new Error('purge pending');
      return await work();
    } catch {
      onFail?.();
      return fallback;
    }
  }

  const overloaded = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch {
      throw new RelayHttpError('relay_overloaded');
    }
  };

  return {
    get: (key) => tolerate(() => store.get(key), undefined),
    put: (key, entry) => tolerate(() => store.put(key, entry), undefined, options.onWriteDropped),
    delete: (key) => tolerate(() => store.delete(key), false),
    async purgeScope(scope) {
      try {
        return await store.purgeScope(scope);
      } catch {
        pendingPurges.add(scope);
        return 0;
      }
    },
    count: () => overloaded(() => store.count()),
    totalBytes: () => overloaded(() => store.totalBytes()),
  };
}
