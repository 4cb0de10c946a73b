import type { CacheEntry, CacheStore } from '@relay/cache';

/** One entry to store. */
export interface CacheWrite {
  readonly key: string;
  readonly entry: CacheEntry;
}

/** A persistent cache store that can also write many entries in one transaction. */
export interface BatchingCacheStore extends CacheStore {
  /** Stores every entry (replacing any stored one), all or none, in one transaction. */
  putMany(writes: readonly CacheWrite[]): Promise<void>;
}

/** Runs `drain` soon, after the current I/O callbacks (default `setImmediate`). */
export type ScheduleDrain = (drain: () => void) => void;

/** Options of {@link createWriteBehindCacheStore}. */
export interface WriteBehindOptions {
  /** When queued entries are written. Default: `setImmediate` (after the response is sent). */
  readonly schedule?: ScheduleDrain;
  /** Entries queued at most; a put past it waits for the queue to be written. Default 2,000. */
  readonly maxPending?: number;
  /** Reports a failed batch (its entries stay out of the store); never an entry's content. */
  readonly onError?: (problem: {
    readonly code: 'cache_write_failed';
    readonly rows: number;
  }) => void;
}

/** A {@link CacheStore} that writes behind: puts are queued and written in batches. */
export interface WriteBehindCacheStore extends CacheStore {
  /** Writes everything queued so far. */
  flush(): Promise<void>;
  /** Entries queued or being written. */
  pending(): number;
}

const defaultSchedule: ScheduleDrain = (drain) => {
  setImmediate(drain);
};

/**
 * Wraps a persistent cache store so that `put` does not wait for the database: the entry is
 * queued (and served from the queue by `get` until it is stored), and queued entries are written
 * in one transaction once the current I/O callbacks ran — after the response that produced them
 * was sent. A SQLite commit costs about 150 µs on the deployment's disk, a queued put nothing,
 * and a batch of N entries one commit. `delete`, `count` and `totalBytes` see every earlier put.
 *
 * A failed batch is reported and dropped: the entries are then missing from the persistent
 * store (a later read refetches them), never wrong. Call `flush()` before closing the database.
 *
 * @param back - the persistent store
 * @param options - scheduling, the queue bound and the error sink
 */
export function createWriteBehindCacheStore(
  back: BatchingCacheStore,
  options: WriteBehindOptions = {},
): WriteBehindCacheStore {
  const schedule = options.schedule ?? defaultSchedule;
  const maxPending = Math.max(1, options.maxPending ?? 2000);
  // Queued entries by key, each with the sequence number of its put; entries stay here until
  // their batch ended, so that a read during the write still finds them.
  const queued = new Map<string, { readonly entry: CacheEntry; readonly seq: number }>();
  let nextSeq = 0;
  // Every put numbered below this has been handed to a batch.
  let attemptedThrough = 0;
  let scheduled = false;
  let draining: Promise<void> | undefined;

  async function writeQueued(): Promise<void> {
    for (;;) {
      const batch: { key: string; entry: CacheEntry; seq: number }[] = [];
      for (const [key, item] of queued) {
        if (item.seq >= attemptedThrough) batch.push({ key, ...item });
      }
      if (batch.length === 0) return;
      attemptedThrough = nextSeq;
      try {
        await back.putMany(batch);
      } catch {
        options.onError?.({ code: 'cache_write_failed', rows: batch.length });
      }
      for (const { key, seq } of batch) {
        if (queued.get(key)?.seq === seq) queued.delete(key);
      }
    }
  }

  function drain(): Promise<void> {
    scheduled = false;
    if (draining === undefined) {
      // Cleared in a later microtask, never before it was set (even for an empty queue).
      const run: Promise<void> = writeQueued().finally(() => {
        if (draining === run) draining = undefined;
      });
      draining = run;
    }
    return draining;
  }

  async function flush(): Promise<void> {
    while (queued.size > 0 || draining !== undefined) await (draining ?? drain());
  }

  return {
    async get(key) {
      return queued.get(key)?.entry ?? back.get(key);
    },
    async put(key, entry) {
      if (queued.size >= maxPending) await flush();
      queued.set(key, { entry, seq: nextSeq++ });
      if (!scheduled) {
        scheduled = true;
        schedule(() => void drain());
      }
    },
    async delete(key) {
      const wasQueued = queued.delete(key);
      // A batch being written holds the database first: the delete runs after it.
      const deleted = await back.delete(key);
      return wasQueued || deleted;
    },
    async purgeScope(scope) {
      let dropped = 0;
      for (const [key, item] of queued) {
        if (item.entry.scope === scope) {
          queued.delete(key);
          // An entry handed to a batch is counted by the back store's purge below.
          if (item.seq >= attemptedThrough) dropped++;
        }
      }
      // A batch being written may hold entries of the scope: the purge runs after it.
      if (draining !== undefined) await draining;
      return dropped + (await back.purgeScope(scope));
    },
    async count() {
      await flush();
      return back.count();
    },
    async totalBytes() {
      await flush();
      return back.totalBytes();
    },
    flush,
    pending: () => queued.size,
  };
}
