import { CoordinatorError } from '@relay/identity-pool';
import { createFakeClock, runCoordinatorContract } from '@relay/identity-pool/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpProxy } from '../storage/__fixtures__/tcp-proxy.js';
import { openTestRedis } from './__fixtures__/redis-test-connection.js';
import { REDIS_AVAILABLE, TEST_REDIS_URL } from './__fixtures__/test-redis.js';
import { createRedisCoordinator } from './redis-coordinator.js';
import type { RedisConnection } from './redis-connection.js';
import { subKeyspace } from './redis-script.js';

describe.runIf(REDIS_AVAILABLE)('createRedisCoordinator', () => {
  let redis: RedisConnection;
  let serial = 0;
  beforeAll(async () => {
    redis = await openTestRedis();
  });
  afterAll(async () => {
    await redis.close();
  });

  // Every contract test gets keys of its own (a fresh, empty coordinator).
  runCoordinatorContract({ describe, it }, 'redis', (clock) => ({
    coordinator: createRedisCoordinator({
      redis: subKeyspace(redis, `c${(serial += 1)}`),
      now: clock,
    }),
  }));

  it('shares leases and cooldowns between two coordinators on one Redis (two replicas)', async () => {
    const clock = createFakeClock();
    const keys = subKeyspace(redis, 'shared');
    const a = createRedisCoordinator({ redis: keys, now: clock });
    const b = createRedisCoordinator({ redis: keys, now: clock });
    await a.setLease('route', 'id1', 10_000);
    await a.addCooldown('id2', { scope: { kind: 'global' }, durationMs: 5_000, cause: 'failure' });
    const seen = await b.readSelectionState({
      routeKey: 'route',
      bucket: 'core',
      identityIds: ['id1', 'id2'],
    });
    expect(seen.lease?.identityId).toBe('id1');
    expect(seen.cooldowns.get('id2')?.[0]?.until).toBe(clock() + 5_000);
    // B cannot shorten what A stored.
    const shorter = await b.addCooldown('id2', {
      scope: { kind: 'global' },
      durationMs: 1_000,
      cause: 'retry_after',
    });
    expect(shorter.until).toBe(clock() + 5_000);
  });

  it('gives every key a Redis expiry, so nothing outlives what it holds', async () => {
    const clock = () => Date.now();
    const keys = subKeyspace(redis, 'ttl');
    const coordinator = createRedisCoordinator({ redis: keys, now: clock });
    await coordinator.setLease('route', 'a', 10_000);
    await coordinator.addCooldown('a', {
      scope: { kind: 'global' },
      durationMs: 2_000,
      cause: 'failure',
    });
    await coordinator.recordRateState('a', {
      bucket: 'core',
      limit: 5000,
      remaining: 10,
      resetAt: Date.now() + 60_000,
      observedAt: Date.now(),
    });
    for (const key of [
      keys.key('lease', 'route'),
      keys.key('cooldown', 'a'),
      keys.key('rate', 'core'),
    ]) {
      const ttl = await redis.client.pTTL(key);
      expect(ttl, key).toBeGreaterThan(0);
    }
  });

  it('rejects with CoordinatorError unavailable while Redis is unreachable, and works again after', async () => {
    const target = new URL(TEST_REDIS_URL);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const viaProxy = await openTestRedis(`redis://127.0.0.1:${String(proxy.port)}`);
    try {
      const clock = createFakeClock();
      const coordinator = createRedisCoordinator({ redis: viaProxy, now: clock });
      await coordinator.addCooldown('a', {
        scope: { kind: 'global' },
        durationMs: 60_000,
        cause: 'failure',
      });
      proxy.cut();
      const failure = await coordinator.listCooldowns(['a']).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(CoordinatorError);
      expect((failure as CoordinatorError).code).toBe('unavailable');
      proxy.restore();
      await expect.poll(() => viaProxy.isReady(), { timeout: 5_000 }).toBe(true);
      // Nothing was lost: the cooldown recorded before the cut is still there.
      const listed = await coordinator.listCooldowns(['a']);
      expect(listed.get('a')?.[0]?.until).toBe(clock() + 60_000);
    } finally {
      await viaProxy.close();
      await proxy.close();
    }
  });

  it('answers unavailable within its deadline when Redis stops answering (a partition)', async () => {
    const target = new URL(TEST_REDIS_URL);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const viaProxy = await openTestRedis(`redis://127.0.0.1:${String(proxy.port)}`);
    try {
      const coordinator = createRedisCoordinator({ redis: viaProxy, now: createFakeClock() });
      proxy.freeze();
      const failure = await coordinator.listCooldowns(['a']).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(CoordinatorError);
    } finally {
      proxy.restore();
      await viaProxy.close();
      await proxy.close();
    }
  });
});
