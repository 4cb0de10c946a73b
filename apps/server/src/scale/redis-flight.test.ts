import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startTcpProxy, type TestTcpProxy } from '../storage/__fixtures__/tcp-proxy.js';
import { dropRedisPrefix } from './__fixtures__/redis-test-connection.js';
import { REDIS_AVAILABLE, TEST_REDIS_URL, uniqueRedisPrefix } from './__fixtures__/test-redis.js';
import { openRedisConnection, type RedisConnection } from './redis-connection.js';
import { createRedisFlights, type RedisFlightsOptions } from './redis-flight.js';

const opened: { connection: RedisConnection; prefix: string }[] = [];
const proxies: TestTcpProxy[] = [];
afterEach(async () => {
  for (const proxy of proxies.splice(0)) proxy.restore();
  for (const { connection, prefix } of opened.splice(0)) {
    if (connection.isReady()) await dropRedisPrefix(connection, prefix);
    await connection.close();
  }
  for (const proxy of proxies.splice(0)) await proxy.close();
});

/** The Redis key of the lock of flight `key` under `prefix`. */
function lockKeyOf(prefix: string, key: string): string {
  return `${prefix}flight:lock:${createHash('sha256').update(key).digest('base64url')}`;
}

/**
 * `count` replicas' flight groups on one prefix (each its own connection, as processes have),
 * each group's client watched: `waitedOn(i, id)` tells whether replica `i` has looked for the
 * result of flight `id` (a waiter's MGET), so a test waits for that instead of sleeping.
 */
async function replicas(count: number, options: RedisFlightsOptions = {}, url = TEST_REDIS_URL) {
  const prefix = uniqueRedisPrefix('flight');
  const groups = [];
  const looked: string[][] = [];
  for (let i = 0; i < count; i++) {
    const connection = await openRedisConnection(url, { prefix, connectTimeoutMs: 1_000 });
    opened.push({ connection, prefix });
    const keys: string[] = [];
    looked.push(keys);
    const client = new Proxy(connection.client, {
      get(target, property) {
        if (property === 'mGet') {
          return (wanted: string[]) => {
            keys.push(...wanted);
            return target.mGet(wanted);
          };
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function'
          ? (value as (...a: unknown[]) => unknown).bind(target)
          : value;
      },
    });
    groups.push(
      createRedisFlights<{ answer: number; text: string }>(
        {
          client,
          key: (...parts) => connection.key(...parts),
          subscriber: () => connection.subscriber(),
        },
        options,
      ),
    );
  }
  const waitedOn = (replica: number, id: string | null | undefined) =>
    typeof id === 'string' && looked[replica]!.some((key) => key.endsWith(`result:${id}`));
  return { groups, prefix, waitedOn };
}

/** A fetch that counts its calls and answers when `release` is called. */
function gatedFetch() {
  let calls = 0;
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    calls: () => calls,
    release: () => {
      release();
    },
    fetch: async () => {
      calls++;
      await gate;
      return { answer: 42, text: 'caf\u00e9 \u{1f600}' };
    },
  };
}

/** Resolves once `done` holds (checked every 10 ms). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe.runIf(REDIS_AVAILABLE)('redis flights', () => {
  it('coalesces identical concurrent calls spread over three replicas into one fetch', async () => {
    const { groups, prefix, waitedOn } = await replicas(3);
    const upstream = gatedFetch();
    const runs = Array.from({ length: 30 }, (_, i) =>
      groups[i % 3]!.run('pool\nkey', upstream.fetch),
    );
    // Every replica's first call has reached Redis before the owner answers: the two that are
    // not the owner wait on its flight.
    await until(() => upstream.calls() === 1);
    const id = await opened[0]!.connection.client.get(lockKeyOf(prefix, 'pool\nkey'));
    await until(() => [0, 1, 2].filter((replica) => waitedOn(replica, id)).length === 2);
    upstream.release();
    const results = await Promise.all(runs);
    expect(upstream.calls()).toBe(1);
    for (const result of results) {
      expect(result.value).toEqual({ answer: 42, text: 'caf\u00e9 \u{1f600}' });
    }
    expect(results.filter((result) => !result.shared)).toHaveLength(1);
    const coalesced = groups.reduce((sum, group) => sum + group.coalescedCount(), 0);
    expect(coalesced).toBe(29);
  });

  it('keeps different keys apart', async () => {
    const { groups } = await replicas(2);
    const a = gatedFetch();
    const b = gatedFetch();
    const runs = [groups[0]!.run('one', a.fetch), groups[1]!.run('two', b.fetch)];
    a.release();
    b.release();
    await Promise.all(runs);
    expect([a.calls(), b.calls()]).toEqual([1, 1]);
  });

  it('does not share a thrown error across replicas: one waiter fetches as the new owner', async () => {
    const { groups, prefix, waitedOn } = await replicas(3);
    const client = opened[0]!.connection.client;
    const lock = lockKeyOf(prefix, 'k');
    let calls = 0;
    let fail: (error: Error) => void = () => undefined;
    const failing = new Promise<never>((_, reject) => {
      fail = reject;
    });
    const owner = groups[0]!.run('k', async () => {
      calls++;
      return failing;
    });
    await until(() => calls === 1);
    const failedId = await client.get(lock);
    // The new owner holds its fetch until the other waiter waits on its flight: an owner whose
    // fetch ends before the other waiter looks again leaves it to take a fresh flight (the race
    // spansProcesses tells the cache to cover), and this test is about the hand-over alone.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let newId: string | null | undefined;
    const own = async () => {
      calls++;
      newId = await client.get(lock);
      await gate;
      return { answer: 7, text: 'own' };
    };
    const waiters = [groups[1]!.run('k', own), groups[2]!.run('k', own)];
    await until(() => waitedOn(1, failedId) && waitedOn(2, failedId));
    fail(new Error('upstream broke'));
    await expect(owner).rejects.toThrow('upstream broke');
    await until(() => newId !== undefined);
    expect(newId).not.toBe(failedId);
    await until(() => waitedOn(1, newId) || waitedOn(2, newId));
    release();
    const results = await Promise.all(waiters);
    expect(results.map((result) => result.value)).toEqual([
      { answer: 7, text: 'own' },
      { answer: 7, text: 'own' },
    ]);
    expect(results.filter((result) => result.shared)).toHaveLength(1);
    expect(calls).toBe(2);
  });

  it('hands the flight to a waiter when the owner dies and its lock expires', async () => {
    const { groups, prefix } = await replicas(1, { lockTtlMs: 300, pollMs: 50 });
    // A replica that took the lock and died: its lock expires, nothing is ever published.
    const connection = opened[0]!.connection;
    const lock = lockKeyOf(prefix, 'k');
    await connection.client.set(lock, 'dead-replica', { expiration: { type: 'PX', value: 300 } });
    const upstream = gatedFetch();
    upstream.release();
    const result = await groups[0]!.run('k', upstream.fetch);
    expect(result).toEqual({ value: { answer: 42, text: 'caf\u00e9 \u{1f600}' }, shared: false });
    expect(upstream.calls()).toBe(1);
  });

  it('coalesces within each process while Redis is away, and across processes once it is back', async () => {
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: 6379 });
    proxies.push(proxy);
    const { groups, prefix, waitedOn } = await replicas(
      2,
      { deadlineMs: 200 },
      `redis://127.0.0.1:${String(proxy.port)}`,
    );
    proxy.cut();
    const away = gatedFetch();
    const runs = [0, 1, 0, 1].map((i) => groups[i]!.run('k', away.fetch));
    away.release();
    const results = await Promise.all(runs);
    expect(away.calls()).toBe(2);
    expect(results.every((result) => result.value.answer === 42)).toBe(true);

    proxy.restore();
    await until(() => opened.every(({ connection }) => connection.isReady()));
    const back = gatedFetch();
    const again = [0, 1, 0, 1].map((i) => groups[i]!.run('k2', back.fetch));
    await until(() => back.calls() === 1);
    const id = await opened[0]!.connection.client.get(lockKeyOf(prefix, 'k2'));
    await until(() => waitedOn(0, id) || waitedOn(1, id));
    back.release();
    await Promise.all(again);
    expect(back.calls()).toBe(1);
  });
});
