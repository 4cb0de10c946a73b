import { describe, expect, it } from 'vitest';
import { REDIS_AVAILABLE, TEST_REDIS_URL, uniqueRedisPrefix } from './__fixtures__/test-redis.js';
import { openRedisConnection, RedisUnavailableError } from './redis-connection.js';

describe.runIf(REDIS_AVAILABLE)('openRedisConnection', () => {
  it('connects, prefixes keys and round-trips a value', async () => {
    const prefix = uniqueRedisPrefix('conn');
    const redis = await openRedisConnection(TEST_REDIS_URL, { prefix });
    try {
      expect(redis.isReady()).toBe(true);
      const key = redis.key('probe', 'a');
      expect(key).toBe(`${prefix}probe:a`);
      await redis.client.set(key, 'v', { expiration: { type: 'PX', value: 5000 } });
      expect(await redis.client.get(key)).toBe('v');
      await redis.client.del(key);
    } finally {
      await redis.close();
    }
  });

  it('rejects with a typed error that names no URL when Redis cannot be reached', async () => {
    const failure = await openRedisConnection('redis://user:hunter2@127.0.0.1:1', {
      connectTimeoutMs: 500,
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RedisUnavailableError);
    expect((failure as Error).message).not.toContain('hunter2');
  });
});
