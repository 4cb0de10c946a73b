import {
  createSpentMarks,
  judgeAnonymousBudget,
  type AnonymousBudget,
} from '../pipeline/token-free-lanes.js';
import { callRedis, type RedisKeyspace } from './redis-script.js';

/** Options of {@link createRedisAnonymousBudget}. */
export interface RedisAnonymousBudgetOptions {
  /** The connection's keyspace (marks live under `<prefix>anon:spent:`). */
  readonly redis: RedisKeyspace;
  /** The clock, epoch milliseconds (the marks carry their end; Redis's expiry only frees memory). */
  readonly now: () => number;
  /** Bound of one Redis call, ms. Default `REDIS_CALL_DEADLINE_MS` (1,000). */
  readonly deadlineMs?: number;
  /** Reports a Redis call that failed (the budget then answers from this process's marks). */
  readonly onUnavailable?: () => void;
}

/** The anonymous budget several replicas share, and what its tests wait for. */
export interface RedisAnonymousBudget extends AnonymousBudget {
  /** Resolves once every mark observed so far has been written to Redis (or failed to be). */
  settled(): Promise<void>;
}

/** How long a mark outlives its end in Redis, ms (the end decides; the expiry frees memory). */
const MARK_SLACK_MS = 60_000;

/** Thrown inside when Redis did not answer. */
class BudgetStoreUnavailable extends Error {}

/**
 * The anonymous lane's spent marks shared by every replica on Redis: a bucket one replica found
 * spent is skipped by every replica until the mark's end (reset, Retry-After, default 60 s, at
 * most one hour: {@link judgeAnonymousBudget}, the rules of one process), and an answer with
 * budget left seen by any replica clears it for all.
 *
 * `isSpent` reads the bucket's mark from Redis (one round trip, only on the way to an anonymous
 * request: a cache hit never asks). `observe` keeps the mark in this process at once and writes
 * it through (latest answer wins, as in one process); the replica's later reads are sent on the
 * same connection after the write, so they see it.
 *
 * While Redis is away each replica answers from the marks it saw itself (its own observations
 * and the marks it last read): a bucket it knows spent stays skipped, one it does not know spent
 * is tried (the answer then marks it here), so a replica sends no more anonymous requests than a
 * single relay would. It does not fail closed: a skipped anonymous lane would spend pooled quota
 * (or answer `web_only_unavailable`) for a bucket that may well have budget, and on a deployment
 * with the shared pace every upstream request is refused anyway while Redis is away. A mark that
 * could not be written is written again at the next read that reaches Redis.
 *
 * @param options - the connection, clock, deadline and problem sink
 */
export function createRedisAnonymousBudget(
  options: RedisAnonymousBudgetOptions,
): RedisAnonymousBudget {
  const { redis, now } = options;
  const fail = () => new BudgetStoreUnavailable();
  const keyOf = (bucket: string) => redis.key('anon', 'spent', bucket);
  const local = createSpentMarks(now);
  /** Marks (or clears, `undefined`) whose write failed: written again at the next read. */
  const unwritten = new Map<string, number | undefined>();
  const writes = new Set<Promise<void>>();

  async function send(bucket: string, until: number | undefined): Promise<void> {
    const key = keyOf(bucket);
    await callRedis(
      async () => {
        if (until === undefined) await redis.client.del(key);
        else {
          await redis.client.set(key, String(until), {
            expiration: { type: 'PX', value: Math.max(1, until - now()) + MARK_SLACK_MS },
          });
        }
      },
      fail,
      options.deadlineMs,
    );
  }

  async function write(bucket: string, until: number | undefined): Promise<void> {
    try {
      await send(bucket, until);
      unwritten.delete(bucket);
    } catch {
      options.onUnavailable?.();
      unwritten.set(bucket, until);
    }
  }

  async function read(bucket: string): Promise<number | undefined> {
    if (unwritten.has(bucket)) {
      await send(bucket, unwritten.get(bucket));
      unwritten.delete(bucket);
    }
    const stored = await callRedis(() => redis.client.get(keyOf(bucket)), fail, options.deadlineMs);
    const until = stored === null ? Number.NaN : Number(stored);
    return Number.isFinite(until) && now() < until ? until : undefined;
  }

  return {
    async isSpent(bucket) {
      try {
        const until = await read(bucket);
        local.set(bucket, until);
        return until !== undefined;
      } catch {
        options.onUnavailable?.();
        return local.until(bucket) !== undefined;
      }
    },
    observe(bucket, response) {
      const change = judgeAnonymousBudget(bucket, response, now());
      if (change === undefined) return;
      local.set(change.bucket, change.until);
      const pending = write(change.bucket, change.until);
      writes.add(pending);
      void pending.finally(() => writes.delete(pending));
    },
    async settled() {
      await Promise.all(writes);
    },
  };
}
