import {
  DEMO,
  createForgeSim,
  createSimClock,
  seedDemoWorld,
  type ForgeSim,
} from '@relay/forge-sim';
import { poolHealthSchema } from '@relay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServerConfig, startServer, type RunningServer } from '../../src/index.js';
import { REDIS_AVAILABLE } from '../../src/scale/__fixtures__/test-redis.js';
import { POSTGRES_AVAILABLE } from '../../src/storage/__fixtures__/test-databases.js';
import { demoRelayEnv, openScaledBackend } from '../pipeline/relay-harness.js';

/**
 * Issue 25 item 2 and issue 27 item 6, in one test process: two relay-servers (startServer twice)
 * on one PostgreSQL schema and one Redis prefix, against one forge-sim that enforces secondary
 * limits, share the pool's cooldowns and the governor's pace. The sim clock is frozen, so the
 * governor's window never slides: together the replicas may send exactly the configured points
 * with the one pooled identity.
 */
const ADMIN = 'shared-pool-state-admin-token-0123456789';
const POOL = 'team';
const POINTS = 20;

describe.runIf(POSTGRES_AVAILABLE && REDIS_AVAILABLE)(
  'two replicas share cooldowns and pace through Redis',
  () => {
    let sim: ForgeSim;
    let a: RunningServer;
    let b: RunningServer;
    let callerToken: string;
    const backend = openScaledBackend('pool-state');
    const secrets = new Map<string, string>();

    beforeAll(async () => {
      const clock = createSimClock({ start: Date.parse('2030-01-01T00:00:00Z') });
      // GitHub's limit here is 30 a minute; the relay's pace is 20, shared by both replicas.
      sim = await createForgeSim({
        clock,
        secondaryLimits: { maxConcurrent: 100, pointsPerMinute: 30, retryAfterS: 60 },
      });
      seedDemoWorld(sim.world);
      secrets.set('alice_pat', sim.tokens.addPat({ login: DEMO.users.alice }).token);
      const config = loadServerConfig({
        RELAY_PORT: '0',
        RELAY_HOST: '127.0.0.1',
        ...backend.env,
        RELAY_ADMIN_TOKEN: ADMIN,
        ...demoRelayEnv(sim, POOL),
        RELAY_MAX_CALLER_CONCURRENCY: '0',
        RELAY_MAX_CONNECTIONS_PER_PEER: '0',
        RELAY_GOVERNOR_POINTS_PER_MINUTE: String(POINTS),
        RELAY_GOVERNOR_MAX_WAIT_MS: '100',
      });
      if (!config.ok) throw new Error('invalid test configuration');
      const options = {
        now: () => clock.now(),
        readSecret: (name: string) => Promise.resolve(secrets.get(name)),
        dashboardDir: false as const,
      };
      a = await startServer(config.value, options);
      // Without Redis a second replica would be refused the database (its exclusive lock).
      b = await startServer(config.value, options);
      const admin = (path: string, body: unknown) =>
        fetch(`${a.url}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const identity = await admin(`/v1/admin/pools/${POOL}/identities`, {
        id: 'alice',
        kind: 'pat',
        login: DEMO.users.alice,
        secret_ref: 'alice_pat',
        scopes: [{ owner: DEMO.org }],
      });
      expect(identity.status).toBe(201);
      const caller = await admin('/v1/admin/callers', {
        pool: POOL,
        forge_login: DEMO.users.bob,
        name: 'shared-state-test',
      });
      expect(caller.status).toBe(201);
      callerToken = ((await caller.json()) as { token: string }).token;
    }, 60_000);

    afterAll(async () => {
      await a.close();
      await b.close();
      await sim.close();
      await backend.close();
    });

    const relay = (server: RunningServer, path: string, query: Record<string, string> = {}) =>
      fetch(`${server.url}/v1/forge/request`, {
        method: 'POST',
        headers: { authorization: `Bearer ${callerToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ pool: POOL, method: 'GET', path, query }),
      });

    it('keeps the one identity under the configured points across both replicas; the excess is refused 424 relay_overloaded', async () => {
      // Set-up reads with the identity (the enrollment checks of provisioning) spent points of its
      // window too: the governor paces them like relay reads.
      const before = sim.requests.find({ host: 'api' }).length;
      const spentBefore = sim.requests
        .find({ host: 'api' })
        .filter((r) => r.credential === 'pat-1').length;
      const statuses: number[] = [];
      const reasons = new Set<string>();
      let next = 0;
      const worker = async () => {
        for (;;) {
          const index = next++;
          if (index >= 3 * POINTS) return;
          const response = await relay(
            index % 2 === 0 ? a : b,
            `/repos/${DEMO.org}/${DEMO.publicRepo}/issues`,
            { per_page: '1', page: String(index + 1) },
          );
          statuses.push(response.status);
          const body = (await response.json()) as { error?: { reason?: string } };
          if (response.status === 424) reasons.add(body.error?.reason ?? 'none');
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));

      const fromForge = sim.requests.find({ host: 'api' }).slice(before);
      expect(fromForge.filter((r) => r.fault === 'secondary_limit')).toHaveLength(0);
      const pooled = fromForge.filter((r) => r.credential === 'pat-1');
      // Each replica alone would have sent POINTS: together they sent POINTS, set-up included.
      expect(spentBefore + pooled.length).toBe(POINTS);
      // The rest is served token-free (the anonymous lane has its own pace) or refused.
      const served = statuses.filter((s) => s === 200).length;
      const refused = statuses.filter((s) => s === 424).length;
      expect(served).toBeGreaterThanOrEqual(pooled.length);
      expect(served + refused).toBe(3 * POINTS);
      expect(refused).toBeGreaterThan(0);
      expect([...reasons]).toEqual(['relay_overloaded']);
      // Both replicas report the shared standing of the sender.
      for (const server of [a, b]) {
        const health = await fetch(`${server.url}/v1/pools/${POOL}/health`, {
          headers: { authorization: `Bearer ${callerToken}` },
        });
        const body = poolHealthSchema.parse(await health.json());
        expect(body.quota?.core?.used_last_minute).toBe(POINTS);
        // (The pool's usage counts the set-up reads too: they spent its quota.)
      }
    }, 60_000);

    it('honours on B a cooldown that A recorded', async () => {
      // The burst above spent the identity's pace; the cooldown is read before the pace.
      const cooled = await a.coordinator.addCooldown('alice', {
        scope: { kind: 'global' },
        durationMs: 120_000,
        cause: 'secondary_limit',
      });
      const seen = await b.coordinator.listCooldowns(['alice']);
      expect(seen.get('alice')).toEqual([cooled]);
      const health = await fetch(`${b.url}/v1/pools/${POOL}/health`, {
        headers: { authorization: `Bearer ${callerToken}` },
      });
      expect(poolHealthSchema.parse(await health.json()).identities_cooling_down).toBe(1);
    });
  },
);
