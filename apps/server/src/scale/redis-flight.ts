import { createHash, randomBytes } from 'node:crypto';
import { createSingleFlight, type FlightResult, type SingleFlight } from '@relay/cache';
import type { RedisClientType } from '@redis/client';
import type { RedisConnection } from './redis-connection.js';
import { callRedis, defineRedisScript } from './redis-script.js';

/**
 * Takes the flight's lock, or names the flight holding it. KEYS[1] the lock; ARGV: this flight's
 * id, the lock's lifetime (ms). Returns {1, id} (owner) or {0, holder}.
 */
const ACQUIRE = defineRedisScript(`
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return {1, ARGV[1]} end
return {0, redis.call('GET', KEYS[1])}
`);

/**
 * Publishes a flight's result: stores it for the waiters, releases the lock if still held by
 * this flight, and notifies. KEYS[1] the lock, KEYS[2] the result; ARGV: id, payload, the
 * result's lifetime (ms), channel.
 */
const FINISH = defineRedisScript(`
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
redis.call('PUBLISH', ARGV[4], ARGV[1])
return 1
`);

/** The payload of a flight whose fetch threw: its waiters fetch themselves. */
const FAILED = '!';

/** Options of {@link createRedisFlights}. */
export interface RedisFlightsOptions {
  /**
   * How long a flight's lock lives, ms: past it (an owner that died, or a fetch that outlived
   * it) a waiting replica takes the flight over and fetches itself. Default 20,000 (the upstream
   * timeout, 15 s, and the governor's wait).
   */
  readonly lockTtlMs?: number;
  /** How long a result stays readable for the waiters it was published to, ms. Default 10,000. */
  readonly resultTtlMs?: number;
  /**
   * How often a waiter looks at the lock and the result besides the notification (a lost
   * notification, an owner that died), ms. Default 200.
   */
  readonly pollMs?: number;
  /** Bound of one Redis call, ms. Default `REDIS_CALL_DEADLINE_MS` (1,000). */
  readonly deadlineMs?: number;
  /** Reports a Redis failure (the flight then runs in this process alone). */
  readonly onUnavailable?: () => void;
}

/** Thrown inside when Redis did not answer; never leaves {@link createRedisFlights}. */
class FlightUnavailable extends Error {}

/** What a waiter learned: the owner's value, or that it should try again (or fetch itself). */
type WaitOutcome<T> =
  | { readonly kind: 'value'; readonly value: T }
  | { readonly kind: 'retry' }
  | { readonly kind: 'fetch' };

/**
 * Creates a single-flight group that spans every replica on one Redis: identical concurrent
 * misses on different processes cost one upstream request.
 *
 * Within a process, calls for a key join that process's flight (no Redis call). The process's
 * first call takes the key's lock in Redis (`SET NX PX`): the owner fetches, stores the result
 * (JSON, for `resultTtlMs`) under the flight's id, releases the lock and publishes the id; the
 * other replicas' calls wait for the notification (or find the result by polling every `pollMs`)
 * and share the value, `shared: true`, as joiners within a process do. The values are the same
 * as the in-process group shares: whatever `fetch` resolved to (so `T` must survive JSON), for
 * the same key. Differences, all falling back to fetching rather than failing:
 * - a fetch that **throws** is not shared across processes (an error does not serialize): the
 *   waiters take the flight again, and one of them fetches as its new owner;
 * - an owner that dies, or a lock that expires (`lockTtlMs`), hands the flight to a waiter;
 * - while Redis is unavailable every process coalesces only its own calls.
 *
 * A flight owner cannot know whether another process's flight for the key ended just before it
 * took the lock (a result the cache may already hold): `spansProcesses` tells the caller to look
 * again before fetching.
 *
 * @param redis - the connection (command client, keys, a subscriber for notifications)
 * @param options - lifetimes, poll interval, deadline
 */
export function createRedisFlights<T>(
  redis: Pick<RedisConnection, 'client' | 'key' | 'subscriber'>,
  options: RedisFlightsOptions = {},
): SingleFlight<T> {
  const lockTtlMs = options.lockTtlMs ?? 20_000;
  const resultTtlMs = options.resultTtlMs ?? 10_000;
  const pollMs = options.pollMs ?? 200;
  const channel = redis.key('flight', 'done');
  const local = createSingleFlight<T>();
  /** Waiters by flight id: each wakes at the notification of its flight. */
  const waiters = new Map<string, Set<() => void>>();
  let remoteShared = 0;
  let subscriber: Promise<RedisClientType | undefined> | undefined;

  const call = <R>(work: () => Promise<R>) =>
    callRedis(work, () => new FlightUnavailable(), options.deadlineMs);

  /** Subscribes once; a failed subscription is tried again at the next flight (polls cover it). */
  function subscribe(): Promise<RedisClientType | undefined> {
    subscriber ??= (async () => {
      try {
        const client = await redis.subscriber();
        await client.subscribe(channel, (id) => {
          for (const wake of waiters.get(id) ?? []) wake();
        });
        return client;
      } catch {
        subscriber = undefined;
        return undefined;
      }
    })();
    return subscriber;
  }

  const lockKey = (key: string) =>
    redis.key('flight', 'lock', createHash('sha256').update(key).digest('base64url'));
  const resultKey = (id: string) => redis.key('flight', 'result', id);

  /** Waits for flight `id` to publish, to lose its lock, or for the wait to end. */
  async function wait(lock: string, id: string): Promise<WaitOutcome<T>> {
    const deadline = Date.now() + lockTtlMs;
    let wake: () => void = () => undefined;
    const listeners = waiters.get(id) ?? new Set<() => void>();
    waiters.set(id, listeners);
    try {
      for (;;) {
        const woken = new Promise<void>((resolve) => {
          wake = resolve;
          listeners.add(wake);
        });
        const [payload, holder] = await call(() => redis.client.mGet([resultKey(id), lock]));
        if (payload !== null && payload !== undefined) {
          // The owner's fetch threw: take the flight again (one waiter becomes its owner).
          if (payload === FAILED) return { kind: 'retry' };
          return { kind: 'value', value: JSON.parse(payload) as T };
        }
        if (holder !== id) return { kind: 'retry' };
        if (Date.now() >= deadline) return { kind: 'fetch' };
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          woken,
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, pollMs);
          }),
        ]);
        clearTimeout(timer);
        listeners.delete(wake);
      }
    } finally {
      listeners.delete(wake);
      if (listeners.size === 0) waiters.delete(id);
    }
  }

  /** Publishes the owner's outcome; a failure to publish leaves the waiters to their polls. */
  async function finish(lock: string, id: string, payload: string): Promise<void> {
    await call(() =>
      FINISH.run(redis, [lock, resultKey(id)], [id, payload, String(resultTtlMs), channel]),
    ).catch(() => {
      options.onUnavailable?.();
    });
  }

  /** One process's flight for `key`: owner, waiter, or (Redis away) alone. */
  async function runAcrossProcesses(
    key: string,
    fetch: () => Promise<T>,
  ): Promise<{ value: T; shared: boolean }> {
    const lock = lockKey(key);
    for (let attempt = 0; attempt < 3; attempt++) {
      let acquired: readonly [number, string | null];
      try {
        await subscribe();
        const id = randomBytes(12).toString('base64url');
        acquired = (await call(() =>
          ACQUIRE.run(redis, [lock], [id, String(lockTtlMs)]),
        )) as readonly [number, string | null];
      } catch {
        options.onUnavailable?.();
        break;
      }
      const [owner, holder] = acquired;
      if (owner === 1 && holder !== null) {
        let value: T;
        try {
          value = await fetch();
        } catch (error) {
          await finish(lock, holder, FAILED);
          throw error;
        }
        await finish(lock, holder, JSON.stringify(value));
        return { value, shared: false };
      }
      if (holder === null) continue;
      let outcome: WaitOutcome<T>;
      try {
        outcome = await wait(lock, holder);
      } catch {
        options.onUnavailable?.();
        break;
      }
      if (outcome.kind === 'value') {
        remoteShared++;
        return { value: outcome.value, shared: true };
      }
      if (outcome.kind === 'fetch') break;
    }
    return { value: await fetch(), shared: false };
  }

  return {
    spansProcesses: true,
    async run(key, fetch): Promise<FlightResult<T>> {
      let remote = false;
      const result = await local.run(key, async () => {
        const across = await runAcrossProcesses(key, fetch);
        remote = across.shared;
        return across.value;
      });
      // Joiners in this process are shared already; the first call is shared when its value
      // came from another process's flight.
      return result.shared ? result : { value: result.value, shared: remote };
    },
    coalescedCount: () => local.coalescedCount() + remoteShared,
    inFlightCount: () => local.inFlightCount(),
  };
}
