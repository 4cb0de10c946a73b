import { createHash } from 'node:crypto';
import type { RedisConnection } from './redis-connection.js';

/** The part of a {@link RedisConnection} the shared-state stores use: the client and its keys. */
export type RedisKeyspace = Pick<RedisConnection, 'client' | 'key'>;

/**
 * A keyspace whose keys all start with `parts` under the connection's prefix: each store (and
 * each test) keeps its keys apart.
 *
 * @param redis - the connection
 * @param parts - the sub-prefix
 */
export function subKeyspace(redis: RedisKeyspace, ...parts: readonly string[]): RedisKeyspace {
  return { client: redis.client, key: (...rest) => redis.key(...parts, ...rest) };
}

/** The longest one Redis call may take before it counts as Redis being unavailable. */
export const REDIS_CALL_DEADLINE_MS = 1_000;

/**
 * Runs `work` against Redis: a rejection, or no answer within `deadlineMs` (a partitioned Redis
 * answers nothing), becomes the error `fail` builds. The cause is not attached: a client error
 * may quote the connection's address.
 *
 * @param work - the Redis calls
 * @param fail - builds the typed error of the caller (e.g. `CoordinatorError('unavailable')`)
 * @param deadlineMs - the deadline, default {@link REDIS_CALL_DEADLINE_MS}
 */
export async function callRedis<T>(
  work: () => Promise<T>,
  fail: () => Error,
  deadlineMs = REDIS_CALL_DEADLINE_MS,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(fail());
    }, deadlineMs);
    timer.unref();
  });
  try {
    return await Promise.race([work(), deadline]);
  } catch {
    throw fail();
  } finally {
    clearTimeout(timer);
  }
}

/** A Lua script run with EVALSHA, loaded by EVAL whenever Redis does not know it (NOSCRIPT). */
export interface RedisScript {
  run(redis: RedisKeyspace, keys: readonly string[], args: readonly string[]): Promise<unknown>;
}

/**
 * Defines a Lua script. Redis runs each script atomically: no other command interleaves, so a
 * read-modify-write in one script is safe against every replica.
 *
 * @param source - the Lua source
 */
export function defineRedisScript(source: string): RedisScript {
  const sha = createHash('sha1').update(source).digest('hex');
  return {
    async run(redis, keys, args) {
      const options = { keys: [...keys], arguments: [...args] };
      try {
        return await redis.client.evalSha(sha, options);
      } catch (error) {
        if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
        return redis.client.eval(source, options);
      }
    },
  };
}
