import { describe, expect, it } from 'vitest';
import { openRedisConnection, RedisUnavailableError } from './redis-connection.js';

const REDIS_URL = process.env.RELAY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('openRedisConnection', () => {
  it('connects, prefixes keys and round-trips a value', async () => {
    const redis = await openRedisConnection(REDIS_URL, { prefix: `t${process.pid}:` });
    try {
      expect(redis.isReady()).toBe(true);
      const key = redis.key('probe', 'a');
      expect(key).toBe(`t${process.pid}:probe:a`);
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
