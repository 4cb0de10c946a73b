import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaceLedgerUnavailableError } from '../governor/pace-ledger.js';
import { createUpstreamGovernor } from '../governor/upstream-governor.js';
import { startTcpProxy } from '../storage/__fixtures__/tcp-proxy.js';
import { openTestRedis } from './__fixtures__/redis-test-connection.js';
import { REDIS_AVAILABLE, TEST_REDIS_URL } from './__fixtures__/test-redis.js';
import type { RedisConnection } from './redis-connection.js';
import { createRedisPaceLedger } from './redis-pace-ledger.js';
import { subKeyspace } from './redis-script.js';

// The shared semantics (window, in flight, factor, three replicas) are pace-ledger.test.ts's,
// run against both ledgers; these are the Redis ledger's own.
const T0 = 1_700_000_000_000;
const LIMITS = { maxInFlight: 2, pointsPerMinute: 100 };

describe.runIf(REDIS_AVAILABLE)('createRedisPaceLedger', () => {
  let redis: RedisConnection;
  beforeAll(async () => {
    redis = await openTestRedis();
  });
  afterAll(async () => {
    await redis.close();
  });

  it('ends a slot its replica never released at the slot deadline (a replica that died)', async () => {
    const keys = subKeyspace(redis, 'dead');
    const dying = createRedisPaceLedger({ redis: keys, slotTtlMs: 30_000 });
    const survivor = createRedisPaceLedger({ redis: keys, slotTtlMs: 30_000 });
    expect((await dying.tryTake('id', LIMITS, T0)).ok).toBe(true);
    expect((await dying.tryTake('id', LIMITS, T0)).ok).toBe(true);
    // The dying replica never releases: its slots hold until their deadline, then free.
    expect(await survivor.tryTake('id', LIMITS, T0 + 29_999)).toEqual({
      ok: false,
      retryAt: undefined,
    });
    expect((await survivor.tryTake('id', LIMITS, T0 + 30_000)).ok).toBe(true);
  });

  it('releases the very slot it took, not another replica’s', async () => {
    const keys = subKeyspace(redis, 'own');
    const a = createRedisPaceLedger({ redis: keys, slotTtlMs: 10_000 });
    const b = createRedisPaceLedger({ redis: keys, slotTtlMs: 60_000 });
    const early = await a.tryTake('id', LIMITS, T0);
    const late = await b.tryTake('id', LIMITS, T0);
    if (!early.ok || !late.ok) throw new Error('not admitted');
    await b.release('id', T0 + 1, late.slot);
    // A's slot is still held (until its deadline), B's is free again.
    expect((await a.inspect('id', LIMITS, T0 + 2)).inFlight).toBe(1);
    expect((await a.inspect('id', LIMITS, T0 + 10_000)).inFlight).toBe(0);
  });

  it('gives every key a Redis expiry', async () => {
    const keys = subKeyspace(redis, 'ttl');
    const ledger = createRedisPaceLedger({ redis: keys });
    await ledger.tryTake('id', LIMITS, Date.now());
    await ledger.penalize('id', Date.now());
    for (const part of ['points', 'slots', 'penalty']) {
      expect(await redis.client.pTTL(keys.key('pace', 'id', part)), part).toBeGreaterThan(0);
    }
  });

  it('fails typed while Redis is unreachable; the governor then refuses (nothing sent unpaced) and recovers', async () => {
    const target = new URL(TEST_REDIS_URL);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const viaProxy = await openTestRedis(`redis://127.0.0.1:${String(proxy.port)}`);
    try {
      const ledger = createRedisPaceLedger({ redis: viaProxy });
      const events: string[] = [];
      const governor = createUpstreamGovernor({
        ledger,
        now: Date.now,
        maxWaitMs: 500,
        onEvent: (event) => events.push(event.kind === 'refused' ? event.cause : event.kind),
      });
      const first = await governor.admit('id', 'caller');
      expect(first.ok).toBe(true);
      proxy.cut();
      await expect(ledger.tryTake('id', LIMITS, Date.now())).rejects.toBeInstanceOf(
        PaceLedgerUnavailableError,
      );
      // The release of the permit taken before the cut fails quietly: its slot has a deadline.
      if (first.ok) first.value.release();
      const refused = await governor.admit('id', 'caller');
      expect(refused).toEqual({
        ok: false,
        error: { code: 'relay_overloaded', cause: 'unavailable' },
      });
      expect(events).toContain('unavailable');
      // A secondary-limit answer while Redis is away does not throw.
      await governor.observe('id', {
        status: 429,
        remaining: 10,
        limit: 5000,
        resource: 'core',
        retryAfter: false,
      });
      proxy.restore();
      await expect.poll(() => viaProxy.isReady(), { timeout: 5_000 }).toBe(true);
      const again = await governor.admit('id', 'caller');
      expect(again.ok).toBe(true);
      if (again.ok) again.value.release();
    } finally {
      await viaProxy.close();
      await proxy.close();
    }
  });
});
