import { createTestEntry, runCacheStoreContract } from '@relay/cache/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { dropRedisPrefix } from './__fixtures__/redis-test-connection.js';
import { REDIS_AVAILABLE, TEST_REDIS_URL, uniqueRedisPrefix } from './__fixtures__/test-redis.js';
import { createRedisCacheStore, type RedisCacheStore } from './redis-cache-store.js';
import { openRedisConnection, type RedisConnection } from './redis-connection.js';

/** The clock of the contract's entries: they are fresh at this time, stale for an hour after. */
const NOW = 1_700_000_000_000;

const opened: { connection: RedisConnection; prefix: string }[] = [];
afterEach(async () => {
  for (const { connection, prefix } of opened.splice(0)) {
    if (connection.isReady()) await dropRedisPrefix(connection, prefix);
    await connection.close();
  }
});

/** A connection under `prefix` (several may share one: replicas); its keys go after the test. */
async function connect(prefix: string): Promise<RedisConnection> {
  const connection = await openRedisConnection(TEST_REDIS_URL, { prefix });
  opened.push({ connection, prefix });
  return connection;
}

/** Two replicas' stores on one prefix, with one clock each may move. */
async function twoReplicas(options: { maxBytes?: number } = {}) {
  const prefix = uniqueRedisPrefix('cache');
  const clock = { now: NOW };
  const make = async (): Promise<RedisCacheStore> =>
    createRedisCacheStore(await connect(prefix), { now: () => clock.now, ...options });
  return { a: await make(), b: await make(), clock, prefix };
}

describe.runIf(REDIS_AVAILABLE)('redis cache store', () => {
  runCacheStoreContract({
    describe,
    it,
    name: 'redis',
    createStore: async () =>
      createRedisCacheStore(await connect(uniqueRedisPrefix('cache')), { now: () => NOW }),
  });

  runCacheStoreContract({
    describe,
    it,
    name: 'redis without a memory front',
    createStore: async () =>
      createRedisCacheStore(await connect(uniqueRedisPrefix('cache')), {
        now: () => NOW,
        frontMaxBytes: 0,
      }),
  });

  it('serves a miss written on replica A as a hit on replica B', async () => {
    const { a, b } = await twoReplicas();
    const entry = createTestEntry({ scope: 'acme/widgets' });
    await a.put('k', entry);
    expect(await b.get('k')).toEqual(entry);
  });

  it('never serves a copy in memory after another replica replaced, deleted or purged it', async () => {
    const { a, b } = await twoReplicas();
    await a.put('k', createTestEntry({ status: 200, scope: 'acme/widgets' }));
    const first = await b.get('k');
    expect(first?.status).toBe(200);
    // The same version: B hands out the same object from its front.
    expect(await b.get('k')).toBe(first);
    expect(b.frontSize().entries).toBe(1);

    await a.put('k', createTestEntry({ status: 204, body: null, scope: 'acme/widgets' }));
    expect((await b.get('k'))?.status).toBe(204);

    await a.delete('k');
    expect(await b.get('k')).toBeUndefined();

    await a.put('k', createTestEntry({ status: 200, scope: 'acme/widgets' }));
    await a.put('other', createTestEntry({ status: 200, scope: 'acme/gadgets' }));
    expect((await b.get('k'))?.status).toBe(200);
    expect(await a.purgeScope('acme/widgets')).toBe(1);
    expect(await b.get('k')).toBeUndefined();
    expect((await b.get('other'))?.scope).toBe('acme/gadgets');
  });

  it('lets Redis expire an entry at the end of its stale window', async () => {
    const { a, prefix } = await twoReplicas();
    const redis = await connect(prefix);
    await a.put('k', createTestEntry({ staleUntil: NOW + 90_000 }));
    const ttl = await redis.client.pTTL(redis.key('cache', 'e:k'));
    expect(ttl).toBeGreaterThan(85_000);
    expect(ttl).toBeLessThanOrEqual(90_000);
    // An entry already past its stale window is not stored, and replaces what was there.
    await a.put('k', createTestEntry({ staleUntil: NOW - 1 }));
    expect(await a.get('k')).toBeUndefined();
    expect(await a.count()).toBe(0);
  });

  it('counts only entries whose stale window is open, on its clock', async () => {
    const { a, b, clock } = await twoReplicas();
    await a.put('short', createTestEntry({ bytes: 10, staleUntil: NOW + 1_000 }));
    await a.put('long', createTestEntry({ bytes: 20, staleUntil: NOW + 100_000 }));
    expect([await b.count(), await b.totalBytes()]).toEqual([2, 30]);
    clock.now = NOW + 1_000;
    expect([await b.count(), await b.totalBytes()]).toEqual([1, 20]);
  });

  it('stays within its byte bound: evicts what expires soonest, refuses what never fits', async () => {
    const { a, b } = await twoReplicas({ maxBytes: 250 });
    await a.put('soon', createTestEntry({ bytes: 100, staleUntil: NOW + 10_000 }));
    await a.put('late', createTestEntry({ bytes: 100, staleUntil: NOW + 50_000 }));
    await b.put('mid', createTestEntry({ bytes: 100, staleUntil: NOW + 20_000 }));
    expect(await a.get('soon')).toBeUndefined();
    expect((await a.get('late'))?.bytes).toBe(100);
    expect((await a.get('mid'))?.bytes).toBe(100);
    expect(await a.totalBytes()).toBe(200);
    await a.put('huge', createTestEntry({ bytes: 251 }));
    expect(await b.get('huge')).toBeUndefined();
    expect(await a.count()).toBe(2);
  });

  it('keeps bodies byte for byte: NUL, CRLF, astral characters, base64 and JSON escapes', async () => {
    const { a, b } = await twoReplicas();
    const bodies = [
      createTestEntry({ body: 'a\u0000b\r\n\u{1f600}\u00e9', bodyEncoding: 'text' }),
      createTestEntry({ body: '/wD+AAEC', bodyEncoding: 'base64' }),
      createTestEntry({ body: { s: '"\\\u2028', n: [1.5, -0, null, true] }, bodyEncoding: 'json' }),
    ];
    for (const [index, entry] of bodies.entries()) await a.put(`k${String(index)}`, entry);
    for (const [index, entry] of bodies.entries()) {
      expect(await b.get(`k${String(index)}`)).toEqual(JSON.parse(JSON.stringify(entry)));
    }
  });
});
