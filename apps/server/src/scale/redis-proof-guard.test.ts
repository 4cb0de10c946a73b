import { ok } from '@relay/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { forgeResponse } from '../pipeline/__fixtures__/forge-responses.js';
import type { ProbeResult, VisibilityGuard } from '../pipeline/visibility-guard.js';
import { startTcpProxy, type TestTcpProxy } from '../storage/__fixtures__/tcp-proxy.js';
import { dropRedisPrefix } from './__fixtures__/redis-test-connection.js';
import { REDIS_AVAILABLE, TEST_REDIS_URL, uniqueRedisPrefix } from './__fixtures__/test-redis.js';
import { openRedisConnection, type RedisConnection } from './redis-connection.js';
import { createSharedVisibilityGuard } from './redis-proof-guard.js';

const PUBLIC = ok(forgeResponse(200, { private: false, visibility: 'public' }));
const PRIVATE = ok(forgeResponse(200, { private: true }));

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

/** Replicas' guards on one prefix, one clock, and the probes each sent. */
async function replicas(count: number, url = TEST_REDIS_URL) {
  const prefix = uniqueRedisPrefix('proof');
  const clock = { now: 1_000_000 };
  const probes: string[] = [];
  let answer: ProbeResult = PUBLIC;
  const guards: VisibilityGuard[] = [];
  for (let i = 0; i < count; i++) {
    const connection = await openRedisConnection(url, { prefix, connectTimeoutMs: 1_000 });
    opened.push({ connection, prefix });
    guards.push(
      createSharedVisibilityGuard({ redis: connection, now: () => clock.now, deadlineMs: 200 }),
    );
  }
  const prove = (replica: number) =>
    guards[replica]!.prove({
      owner: 'Acme',
      repo: 'Widgets',
      anonymous: (path) => {
        probes.push(`${String(replica)} ${path}`);
        return Promise.resolve(answer);
      },
      pooled: () => Promise.resolve(undefined),
    });
  return {
    guards,
    prove,
    probes,
    clock,
    answer: (next: ProbeResult) => {
      answer = next;
    },
  };
}

describe.runIf(REDIS_AVAILABLE)('shared visibility guard', () => {
  it('serves a proof made on replica A to replica B without a probe of its own', async () => {
    const r = await replicas(2);
    expect(await r.prove(0)).toEqual(ok('anonymous'));
    expect(await r.prove(1)).toEqual(ok('cached'));
    expect(r.probes).toEqual(['0 /repos/Acme/Widgets']);
  });

  it('refuses on every replica from the next request once any replica revokes', async () => {
    const r = await replicas(3);
    await r.prove(0);
    expect((await r.prove(1)).ok).toBe(true);
    expect((await r.prove(2)).ok).toBe(true);
    await r.guards[2]!.revoke('acme/WIDGETS');
    for (const replica of [0, 1, 2]) {
      expect(await r.prove(replica)).toEqual({ ok: false, error: { code: 'not_public' } });
    }
    expect(r.probes).toHaveLength(1);
  });

  it('refuses everywhere when a read on one replica reveals the repository private', async () => {
    const r = await replicas(2);
    await r.prove(0);
    await r.prove(1);
    // observeRead resolves once the refusal is stored: A refuses without waiting for anything.
    await r.guards[1]!.observeRead('repo_view', 'acme', 'widgets', PRIVATE.value);
    expect((await r.prove(0)).ok).toBe(false);
    expect((await r.prove(1)).ok).toBe(false);
  });

  it('probes again when the shared proof has expired, whatever a replica remembers', async () => {
    const r = await replicas(2);
    await r.prove(0);
    await r.prove(1);
    r.clock.now += 61_000;
    r.answer(PRIVATE);
    expect((await r.prove(1)).ok).toBe(false);
    expect((await r.prove(0)).ok).toBe(false);
    expect(r.probes).toEqual(['0 /repos/Acme/Widgets', '1 /repos/Acme/Widgets']);
  });

  it('renews on B, by a free 304, an expired proof whose ETag A saw', async () => {
    const r = await replicas(2);
    const etag = '"metadata-1"';
    const withEtag = (response: ReturnType<typeof forgeResponse>) => ({
      ...response,
      headers: { ...response.headers, etag },
    });
    r.answer(ok(withEtag(forgeResponse(200, { private: false, visibility: 'public' }))));
    await r.prove(0);
    r.clock.now += 61_000;
    const sent: string[] = [];
    const renewed = await r.guards[1]!.prove({
      owner: 'Acme',
      repo: 'Widgets',
      anonymous: (path) => {
        sent.push(`anonymous ${path}`);
        return Promise.resolve(PUBLIC);
      },
      pooledRevalidates: () => true,
      pooled: (path, conditional = false) => {
        sent.push(`${conditional ? 'conditional' : 'pooled'} ${path}`);
        return Promise.resolve(ok(withEtag(forgeResponse(304, null))));
      },
    });
    expect(renewed).toEqual(ok('pooled'));
    expect(sent).toEqual(['conditional /repos/Acme/Widgets']);
    // The renewal is shared: A reuses it without a probe.
    expect(await r.prove(0)).toEqual(ok('cached'));
    expect(r.probes).toEqual(['0 /repos/Acme/Widgets']);
  });

  it('trusts no proof while Redis is away, and keeps a refusal it could not share', async () => {
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: 6379 });
    proxies.push(proxy);
    const r = await replicas(1, `redis://127.0.0.1:${String(proxy.port)}`);
    await r.prove(0);
    expect(r.probes).toHaveLength(1);
    proxy.cut();
    // Every prove probes afresh: nothing remembered is trusted.
    expect((await r.prove(0)).ok).toBe(true);
    expect((await r.prove(0)).ok).toBe(true);
    expect(r.probes).toHaveLength(3);
    await r.guards[0]!.revoke('acme/widgets');
    expect((await r.prove(0)).ok).toBe(false);
    expect(r.probes).toHaveLength(3);
    // Back: the refusal kept here reaches Redis at the next read.
    proxy.restore();
    while (!opened[0]!.connection.isReady())
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await r.prove(0)).ok).toBe(false);
    const stored = await opened[0]!.connection.client.get(
      opened[0]!.connection.key('proof', 'acme/widgets'),
    );
    expect(JSON.parse(stored ?? '{}')).toMatchObject({ isPublic: false });
  });
});
