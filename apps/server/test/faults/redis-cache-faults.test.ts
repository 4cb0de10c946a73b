import { DEMO } from '@relay/forge-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_AVAILABLE } from '../../src/scale/__fixtures__/test-redis.js';
import { startTcpProxy, type TestTcpProxy } from '../../src/storage/__fixtures__/tcp-proxy.js';
import { POSTGRES_AVAILABLE } from '../../src/storage/__fixtures__/test-databases.js';
import { REPLICA_POOL, startReplicaSet, type ReplicaSet } from '../scale/redis-cache-fixture.js';

/**
 * Redis lost under the shared cache, the flights and the proofs (issue 25 item 4): two replicas
 * reach Redis through a TCP proxy the test cuts and restores (the machine's Redis is never
 * stopped). While it is away a relay request is served from upstream as a miss or answered 424
 * relay_overloaded (the shared pace and coordinator are Redis's too), never an untyped 500 and
 * never a cached entry whose proof nobody could check; when it is back the replicas share their
 * cache again without a restart.
 */
describe.runIf(POSTGRES_AVAILABLE && REDIS_AVAILABLE)('the shared cache when Redis is lost', () => {
  let proxy: TestTcpProxy;
  let set: ReplicaSet;
  const path = (rest: string) => `/repos/${DEMO.org}/${DEMO.publicRepo}${rest}`;

  beforeAll(async () => {
    proxy = await startTcpProxy({ host: '127.0.0.1', port: 6379 });
    set = await startReplicaSet(2, `redis://127.0.0.1:${String(proxy.port)}`);
  }, 60_000);
  afterAll(async () => {
    proxy.restore();
    await set.close();
    await proxy.close();
  });

  it('answers typed while Redis is away, and shares the cache again once it is back', async () => {
    expect((await set.relay(0, path('/issues'))).json.relay?.cache).toBe('miss');
    expect((await set.relay(1, path('/issues'))).json.relay?.cache).toBe('hit');

    proxy.cut();
    const during = [];
    for (let i = 0; i < 12; i++) {
      during.push(await set.relay(i % 2, path(i % 3 === 0 ? '/labels' : '/issues')));
    }
    for (const answer of during) {
      expect([200, 424]).toContain(answer.status);
      if (answer.status === 424) expect(answer.json.error?.reason).toBe('relay_overloaded');
      // No entry is read while Redis is away: nothing could vouch for it.
      if (answer.status === 200) expect(answer.json.relay?.cache).not.toBe('hit');
    }
    // Stats counts the shared cache's entries: while Redis is away it is refused typed, 503
    // relay_overloaded (README "When Redis is lost"), not 500 internal_error.
    for (const replica of set.replicas) {
      const response = await fetch(`${replica.url}/v1/pools/${REPLICA_POOL}/stats`, {
        headers: { authorization: `Bearer ${set.callerToken}` },
      });
      const body = (await response.json()) as { error?: { code?: string } };
      expect({ status: response.status, code: body.error?.code }).toEqual({
        status: 503,
        code: 'relay_overloaded',
      });
    }

    proxy.restore();
    const back = path('/branches');
    let first = await set.relay(0, back);
    for (let tries = 0; first.status !== 200 && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      first = await set.relay(0, back);
    }
    expect(first.status).toBe(200);
    const onB = await set.relay(1, back);
    expect(onB.json.relay?.cache).toBe('hit');
    expect(set.sim.requests.count({ host: 'api', path: back })).toBe(1);
  });
});
