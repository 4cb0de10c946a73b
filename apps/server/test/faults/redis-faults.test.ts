import {
  DEMO,
  createForgeSim,
  createSimClock,
  seedDemoWorld,
  type ForgeSim,
} from '@relay/forge-sim';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadServerConfig, startServer, type RunningServer } from '../../src/index.js';
import { REDIS_AVAILABLE, TEST_REDIS_URL } from '../../src/scale/__fixtures__/test-redis.js';
import { startTcpProxy, type TestTcpProxy } from '../../src/storage/__fixtures__/tcp-proxy.js';
import { POSTGRES_AVAILABLE } from '../../src/storage/__fixtures__/test-databases.js';
import { demoRelayEnv, openScaledBackend, type ServerBackend } from '../pipeline/relay-harness.js';

/**
 * Redis lost mid-load (issue 25 item 4) for the pool's shared state: relay-server reaches Redis
 * through a TCP proxy the test cuts (every connection reset, new ones refused) and restores, so
 * the machine's shared Redis is never stopped.
 */
const ADMIN = 'admin-token-for-redis-faults-0123456789';
const POOL = 'team';

describe.runIf(POSTGRES_AVAILABLE && REDIS_AVAILABLE)(
  'relay-server with Redis when Redis is lost',
  () => {
    let sim: ForgeSim;
    let proxy: TestTcpProxy;
    let server: RunningServer;
    let callerToken: string;
    let backend: ServerBackend | undefined;
    const secrets = new Map<string, string>();

    beforeAll(async () => {
      const clock = createSimClock({ start: Date.parse('2030-01-01T00:00:00Z') });
      sim = await createForgeSim({ clock });
      seedDemoWorld(sim.world);
      secrets.set('alice_pat', sim.tokens.addPat({ login: DEMO.users.alice }).token);
      const target = new URL(TEST_REDIS_URL);
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
      // The relay reaches Redis through the proxy; the keys are dropped through Redis itself.
      backend = openScaledBackend('faults', `redis://127.0.0.1:${String(proxy.port)}`);
      const config = loadServerConfig({
        RELAY_PORT: '0',
        RELAY_HOST: '127.0.0.1',
        ...backend.env,
        RELAY_ADMIN_TOKEN: ADMIN,
        ...demoRelayEnv(sim, POOL),
        RELAY_MAX_CALLER_CONCURRENCY: '0',
        RELAY_MAX_CONNECTIONS_PER_PEER: '0',
      });
      if (!config.ok) throw new Error('invalid test configuration');
      server = await startServer(config.value, {
        now: () => clock.now(),
        readSecret: (name) => Promise.resolve(secrets.get(name)),
        dashboardDir: false,
      });
      const admin = (path: string, body: unknown) =>
        fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      expect(
        (
          await admin(`/v1/admin/pools/${POOL}/identities`, {
            id: 'alice',
            kind: 'pat',
            login: DEMO.users.alice,
            secret_ref: 'alice_pat',
            scopes: [{ owner: DEMO.org }],
          })
        ).status,
      ).toBe(201);
      const caller = await admin('/v1/admin/callers', {
        pool: POOL,
        forge_login: DEMO.users.bob,
        name: 'redis-faults',
      });
      callerToken = ((await caller.json()) as { token: string }).token;
    }, 60_000);

    afterAll(async () => {
      await server.close();
      await proxy.close();
      await sim.close();
      await backend?.close();
    });

    let page = 0;
    const relay = () =>
      fetch(`${server.url}/v1/forge/request`, {
        method: 'POST',
        headers: { authorization: `Bearer ${callerToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          pool: POOL,
          method: 'GET',
          path: `/repos/${DEMO.org}/${DEMO.publicRepo}/issues`,
          query: { per_page: '1', page: String(++page) },
        }),
      });
    const health = () =>
      fetch(`${server.url}/v1/pools/${POOL}/health`, {
        headers: { authorization: `Bearer ${callerToken}` },
      });

    it('answers typed 424/503 relay_overloaded while Redis is away, never a 500, keeps its cooldowns, and recovers without a restart', async () => {
      expect((await relay()).status).toBe(200);
      const cooled = await server.coordinator.addCooldown('alice', {
        scope: { kind: 'route', routeKey: 'some/other:route' },
        durationMs: 3_600_000,
        cause: 'failure',
      });

      const outcomes: { status: number; code: string | undefined; reason: string | undefined }[] =
        [];
      let cut = false;
      let running = true;
      const worker = async (request: () => Promise<Response>) => {
        while (running) {
          const response = await request();
          const body = (await response.json()) as { error?: { code?: string; reason?: string } };
          if (cut)
            outcomes.push({
              status: response.status,
              code: body.error?.code,
              reason: body.error?.reason,
            });
        }
      };
      const load = Promise.all([relay, relay, health, relay].map(worker));
      await new Promise((resolve) => setTimeout(resolve, 200));
      proxy.cut();
      cut = true;
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      running = false;
      await load;

      expect(outcomes.length).toBeGreaterThan(0);
      expect(outcomes.filter((o) => o.status >= 500 && o.status !== 503)).toEqual([]);
      for (const outcome of outcomes.filter((o) => o.status !== 200)) {
        expect(outcome).toMatchObject(
          outcome.status === 424
            ? { code: 'fallback_local', reason: 'relay_overloaded' }
            : { status: 503, code: 'relay_overloaded' },
        );
      }
      // Neither the relay endpoint nor health answered a pooled read as if the pool were fine.
      expect(outcomes.some((o) => o.status === 424)).toBe(true);
      expect(outcomes.some((o) => o.status === 503)).toBe(true);

      proxy.restore();
      // The connection comes back by itself: pooled reads and health answer 200 again.
      await vi.waitFor(
        async () => {
          expect((await relay()).status).toBe(200);
          expect((await health()).status).toBe(200);
        },
        { timeout: 10_000, interval: 200 },
      );
      // Nothing acknowledged was lost: the cooldown recorded before the cut still holds.
      const listed = await server.coordinator.listCooldowns(['alice']);
      expect(listed.get('alice')).toEqual([cooled]);
    }, 60_000);
  },
);
