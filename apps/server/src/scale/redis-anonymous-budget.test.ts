import { afterEach, describe, expect, it } from 'vitest';
import { forgeResponse } from '../pipeline/__fixtures__/forge-responses.js';
import { startTcpProxy, type TestTcpProxy } from '../storage/__fixtures__/tcp-proxy.js';
import { dropRedisPrefix } from './__fixtures__/redis-test-connection.js';
import { REDIS_AVAILABLE, TEST_REDIS_URL, uniqueRedisPrefix } from './__fixtures__/test-redis.js';
import { createRedisAnonymousBudget } from './redis-anonymous-budget.js';
import { openRedisConnection, type RedisConnection } from './redis-connection.js';

const T0 = Date.parse('2030-03-01T09:00:00Z');
const SPENT = forgeResponse(403, null, {
  remaining: 0,
  resetEpochSeconds: (T0 + 600_000) / 1000,
  resource: 'core',
});
const LEFT = forgeResponse(200, {}, { remaining: 40, resource: 'core' });

const opened: { connection: RedisConnection; prefix: string }[] = [];
const proxies: TestTcpProxy[] = [];
afterEach(async () => {
  for (const proxy of proxies) proxy.restore();
  for (const { connection, prefix } of opened.splice(0)) {
    if (connection.isReady()) await dropRedisPrefix(connection, prefix);
    await connection.close();
  }
  for (const proxy of proxies.splice(0)) await proxy.close();
});

/** Replica A behind a TCP proxy the test cuts, replica B straight to Redis, one prefix. */
async function replicasBehindProxy() {
  const { hostname, port } = new URL(TEST_REDIS_URL);
  const proxy = await startTcpProxy({ host: hostname, port: Number(port || 6379) });
  proxies.push(proxy);
  const prefix = uniqueRedisPrefix('anon');
  const clock = { now: T0 };
  const open = async (url: string) => {
    const connection = await openRedisConnection(url, { prefix, connectTimeoutMs: 1_000 });
    opened.push({ connection, prefix });
    return connection;
  };
  const viaProxy = await open(`redis://127.0.0.1:${String(proxy.port)}`);
  const direct = await open(TEST_REDIS_URL);
  let unavailable = 0;
  const budget = (connection: RedisConnection) =>
    createRedisAnonymousBudget({
      redis: connection,
      now: () => clock.now,
      deadlineMs: 200,
      onUnavailable: () => {
        unavailable++;
      },
    });
  return {
    proxy,
    clock,
    viaProxy,
    a: budget(viaProxy),
    b: budget(direct),
    unavailable: () => unavailable,
  };
}

async function untilReady(connection: RedisConnection): Promise<void> {
  while (!connection.isReady()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe.runIf(REDIS_AVAILABLE)('anonymous budget shared on Redis', () => {
  it('a clear seen by one replica ends the mark another replica read', async () => {
    const r = await replicasBehindProxy();
    r.a.observe('core', SPENT);
    await r.a.settled();
    expect(await r.b.isSpent('core')).toBe(true);
    r.b.observe('core', LEFT);
    await r.b.settled();
    expect(await r.a.isSpent('core')).toBe(false);
    expect(await r.b.isSpent('core')).toBe(false);
  });

  it('the mark carries its end: Redis keeping the key longer does not extend it', async () => {
    const r = await replicasBehindProxy();
    r.a.observe('core', SPENT);
    await r.a.settled();
    r.clock.now += 600_000;
    expect(await r.b.isSpent('core')).toBe(false);
    expect(await r.a.isSpent('core')).toBe(false);
  });

  it('while Redis is away: a bucket this replica knows spent stays skipped, an unknown one is tried', async () => {
    const r = await replicasBehindProxy();
    r.b.observe('core', SPENT);
    await r.b.settled();
    // A read the mark while Redis answered; it keeps it through the outage.
    expect(await r.a.isSpent('core')).toBe(true);
    r.proxy.cut();
    expect(await r.a.isSpent('core')).toBe(true);
    expect(await r.a.isSpent('search')).toBe(false);
    expect(r.unavailable()).toBeGreaterThan(0);
    // The answer of the one try marks the bucket here: no second anonymous request.
    r.a.observe('search', forgeResponse(429, null, { resource: 'search' }));
    await r.a.settled();
    expect(await r.a.isSpent('search')).toBe(true);
    // The mark ends when it says, Redis or not.
    r.clock.now += 600_000;
    expect(await r.a.isSpent('core')).toBe(false);
  });

  it("a partitioned Redis answers from this replica's marks instead of holding the read", async () => {
    const r = await replicasBehindProxy();
    r.a.observe('core', SPENT);
    await r.a.settled();
    r.proxy.freeze();
    // Without the call's deadline this read would wait for an answer that never comes.
    expect(await r.a.isSpent('core')).toBe(true);
    expect(await r.a.isSpent('search')).toBe(false);
  });

  it('a mark observed while Redis was away is shared at the next read once it is back', async () => {
    const r = await replicasBehindProxy();
    r.proxy.cut();
    r.a.observe('core', SPENT);
    await r.a.settled();
    expect(await r.b.isSpent('core')).toBe(false);
    r.proxy.restore();
    await untilReady(r.viaProxy);
    expect(await r.a.isSpent('core')).toBe(true);
    expect(await r.b.isSpent('core')).toBe(true);
  });
});
