import { createMemoryCacheStore, type CacheEntry } from '@relay/cache';
import { describe, expect, it } from 'vitest';
import {
  createWriteBehindCacheStore,
  type BatchingCacheStore,
  type CacheWrite,
} from './write-behind-cache-store.js';

function entry(n: number): CacheEntry {
  return {
    routeKind: 'issue_view',
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: { number: n },
    bodyEncoding: 'json',
    validatedAt: 0,
    expiresAt: 60_000,
    staleUntil: 120_000,
    bytes: 100,
  };
}

/** A memory store with batches, recording them; `fail` makes the next batch throw. */
function recordingBack() {
  const memory = createMemoryCacheStore();
  const batches: string[][] = [];
  const state = { fail: false, hold: undefined as Promise<void> | undefined };
  const back: BatchingCacheStore = {
    ...memory,
    get: (key) => memory.get(key),
    put: (key, value) => memory.put(key, value),
    delete: (key) => memory.delete(key),
    count: () => memory.count(),
    totalBytes: () => memory.totalBytes(),
    async putMany(writes: readonly CacheWrite[]) {
      batches.push(writes.map((w) => w.key));
      if (state.hold !== undefined) await state.hold;
      if (state.fail) {
        state.fail = false;
        throw new Error('disk full');
      }
      for (const { key, entry: value } of writes) await memory.put(key, value);
    },
  };
  return { back, memory, batches, state };
}

/** A scheduler that never runs the drain (only flush, count and the bound write). */
const never = (drain: () => void): void => {
  expect(typeof drain).toBe('function');
};

/** A manual scheduler: drains run when `run()` is called. */
function manualSchedule() {
  const queue: (() => void)[] = [];
  return {
    schedule: (drain: () => void) => {
      queue.push(drain);
    },
    run: () => {
      for (const drain of queue.splice(0)) drain();
    },
  };
}

describe('write-behind cache store', () => {
  it('answers a put at once, serves it from the queue, and stores it after the drain', async () => {
    const { back, memory, batches } = recordingBack();
    const timer = manualSchedule();
    const store = createWriteBehindCacheStore(back, { schedule: timer.schedule });
    await store.put('a', entry(1));
    expect(await memory.get('a')).toBeUndefined();
    expect(await store.get('a')).toEqual(entry(1));
    expect(store.pending()).toBe(1);
    timer.run();
    await store.flush();
    expect(await memory.get('a')).toEqual(entry(1));
    expect(store.pending()).toBe(0);
    expect(batches).toEqual([['a']]);
  });

  it('writes the puts of one turn as one batch, the newest entry of a key winning', async () => {
    const { back, memory, batches } = recordingBack();
    const timer = manualSchedule();
    const store = createWriteBehindCacheStore(back, { schedule: timer.schedule });
    await store.put('a', entry(1));
    await store.put('b', entry(2));
    await store.put('a', entry(3));
    timer.run();
    await store.flush();
    expect(batches).toEqual([['a', 'b']]);
    expect(await memory.get('a')).toEqual(entry(3));
  });

  it('writes a put made during a batch in the next batch, and serves it meanwhile', async () => {
    const { back, memory, batches, state } = recordingBack();
    const timer = manualSchedule();
    const store = createWriteBehindCacheStore(back, { schedule: timer.schedule });
    let release: (() => void) | undefined;
    state.hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    await store.put('a', entry(1));
    timer.run();
    await store.put('a', entry(2));
    expect(await store.get('a')).toEqual(entry(2));
    state.hold = undefined;
    release?.();
    await store.flush();
    expect(batches).toEqual([['a'], ['a']]);
    expect(await memory.get('a')).toEqual(entry(2));
  });

  it('never writes an entry deleted while queued', async () => {
    const { back, memory, batches } = recordingBack();
    const timer = manualSchedule();
    const store = createWriteBehindCacheStore(back, { schedule: timer.schedule });
    await store.put('a', entry(1));
    expect(await store.delete('a')).toBe(true);
    expect(await store.get('a')).toBeUndefined();
    timer.run();
    await store.flush();
    expect(await memory.get('a')).toBeUndefined();
    expect(batches).toEqual([]);
    expect(await store.delete('a')).toBe(false);
  });

  it('purges a scope from the queue, from a batch being written and from the back', async () => {
    const { back, memory, state } = recordingBack();
    const timer = manualSchedule();
    const store = createWriteBehindCacheStore(back, { schedule: timer.schedule });
    const scoped = (n: number) => ({ ...entry(n), scope: 'acme/secret' });
    await memory.put('stored', scoped(1));
    let release: (() => void) | undefined;
    state.hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    await store.put('writing', scoped(2));
    await store.put('other', entry(3));
    timer.run();
    await store.put('queued', scoped(4));
    const purge = store.purgeScope('acme/secret');
    state.hold = undefined;
    release?.();
    expect(await purge).toBe(3);
    await store.flush();
    for (const key of ['stored', 'writing', 'queued']) {
      expect(await store.get(key)).toBeUndefined();
      expect(await memory.get(key)).toBeUndefined();
    }
    expect(await store.get('other')).toEqual(entry(3));
  });

  it('counts queued entries (count and totalBytes flush first)', async () => {
    const { back } = recordingBack();
    const store = createWriteBehindCacheStore(back, { schedule: never });
    await store.put('a', entry(1));
    await store.put('b', entry(2));
    expect(await store.count()).toBe(2);
    expect(await store.totalBytes()).toBe(200);
  });

  it('reports a failed batch without its content, drops it and keeps working', async () => {
    const { back, memory, state } = recordingBack();
    const timer = manualSchedule();
    const problems: unknown[] = [];
    const store = createWriteBehindCacheStore(back, {
      schedule: timer.schedule,
      onError: (problem) => problems.push(problem),
    });
    state.fail = true;
    await store.put('a', entry(1));
    timer.run();
    await store.flush();
    expect(problems).toEqual([{ code: 'cache_write_failed', rows: 1 }]);
    expect(await store.get('a')).toBeUndefined();
    await store.put('b', entry(2));
    timer.run();
    await store.flush();
    expect(await memory.get('b')).toEqual(entry(2));
  });

  it('bounds the queue: a put past maxPending waits until the queue is written', async () => {
    const { back, memory, batches } = recordingBack();
    const store = createWriteBehindCacheStore(back, { schedule: never, maxPending: 2 });
    await store.put('a', entry(1));
    await store.put('b', entry(2));
    expect(batches).toEqual([]);
    await store.put('c', entry(3));
    expect(batches).toEqual([['a', 'b']]);
    expect(await memory.count()).toBe(2);
    expect(store.pending()).toBe(1);
  });
});
