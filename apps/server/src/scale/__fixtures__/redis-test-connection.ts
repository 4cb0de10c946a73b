import { openRedisConnection, type RedisConnection } from '../redis-connection.js';
import { TEST_REDIS_URL, uniqueRedisPrefix } from './test-redis.js';

/** Deletes every key under `prefix` (a test's leftovers). */
export async function dropRedisPrefix(redis: RedisConnection, prefix: string): Promise<void> {
  for await (const keys of redis.client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
    if (keys.length > 0) await redis.client.del(keys);
  }
}

/**
 * Opens a connection under a fresh key prefix; `close` drops its keys (when Redis answers) and
 * closes it.
 *
 * @param url - the Redis URL (a TCP proxy's, in fault tests)
 */
export async function openTestRedis(
  url = TEST_REDIS_URL,
): Promise<RedisConnection & { readonly prefix: string }> {
  const prefix = uniqueRedisPrefix('shared-state');
  const redis = await openRedisConnection(url, { prefix, connectTimeoutMs: 1_000 });
  return {
    ...redis,
    prefix,
    async close() {
      if (redis.isReady()) await dropRedisPrefix(redis, prefix).catch(() => undefined);
      await redis.close();
    },
  };
}
