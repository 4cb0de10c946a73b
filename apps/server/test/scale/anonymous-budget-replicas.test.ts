import {
  DEMO,
  createForgeSim,
  createSimClock,
  seedDemoWorld,
  type ForgeSim,
  type SimClock,
} from '@relay/forge-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServerConfig, startServer, type RunningServer } from '../../src/index.js';
import { ANONYMOUS_SPENT_MAX_MS } from '../../src/pipeline/token-free-lanes.js';
import {
  REDIS_AVAILABLE,
  TEST_REDIS_URL,
  uniqueRedisPrefix,
} from '../../src/scale/__fixtures__/test-redis.js';
import {
  POSTGRES_AVAILABLE,
  TEST_POSTGRES_URL,
  createTestSchemaName,
  runOnTestServer,
} from '../../src/storage/__fixtures__/test-databases.js';

/**
 * Issue 25 item 2, the anonymous lane's spent state: two relay-servers on one PostgreSQL schema
 * and one Redis prefix against one forge-sim whose anonymous quota is spent. Once replica A has
 * been refused, neither replica sends the anonymous lane another request until the window
 * resets; then both ask again.
 */
const ADMIN = 'anonymous-budget-admin-token-0123456789';
const POOL = 'team';
const REPO = `/repos/${DEMO.org}/${DEMO.publicRepo}`;

describe.runIf(POSTGRES_AVAILABLE && REDIS_AVAILABLE)(
  'two replicas share the anonymous lane’s spent state through Redis',
  () => {
    let sim: ForgeSim;
    let clock: SimClock;
    let a: RunningServer;
    let b: RunningServer;
    let callerToken: string;
    const schema = createTestSchemaName();
    const secrets = new Map<string, string>();

    beforeAll(async () => {
      clock = createSimClock({ start: Date.parse('2030-01-01T00:00:00Z') });
      sim = await createForgeSim({ clock });
      seedDemoWorld(sim.world);
      secrets.set('alice_pat', sim.tokens.addPat({ login: DEMO.users.alice }).token);
      const config = loadServerConfig({
        RELAY_PORT: '0',
        RELAY_HOST: '127.0.0.1',
        RELAY_DATABASE_URL: TEST_POSTGRES_URL,
        RELAY_DATABASE_SCHEMA: schema,
        RELAY_REDIS_URL: TEST_REDIS_URL,
        RELAY_REDIS_PREFIX: uniqueRedisPrefix('anon-budget'),
        RELAY_ADMIN_TOKEN: ADMIN,
        RELAY_FORGE_API_URL: sim.urls.api,
        RELAY_FORGE_WEB_URL: sim.urls.web,
        RELAY_FORGE_RAW_URL: sim.urls.raw,
        RELAY_FORGE_LOG_HOSTS: new URL(sim.urls.log).hostname,
        ALLOWED_FORGE_ORG: DEMO.org,
        DEFAULT_ALLOWED_OWNERS: DEMO.org,
        DEFAULT_LOGIN_POOL: POOL,
      });
      if (!config.ok) throw new Error('invalid test configuration');
      const options = {
        now: () => clock.now(),
        readSecret: (name: string) => Promise.resolve(secrets.get(name)),
        dashboardDir: false as const,
      };
      a = await startServer(config.value, options);
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
        name: 'anonymous-budget-test',
      });
      expect(caller.status).toBe(201);
      callerToken = ((await caller.json()) as { token: string }).token;
    }, 60_000);

    afterAll(async () => {
      await a.close();
      await b.close();
      await sim.close();
      await runOnTestServer(`drop schema if exists ${schema} cascade`);
    });

    const relay = async (server: RunningServer, path: string) => {
      const response = await fetch(`${server.url}/v1/forge/request`, {
        method: 'POST',
        headers: { authorization: `Bearer ${callerToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ pool: POOL, method: 'GET', path }),
      });
      return {
        status: response.status,
        json: (await response.json()) as {
          error?: { reason?: string };
          identity?: { id: string } | null;
          relay?: { backend?: string };
        },
      };
    };
    const anonymousRequests = () =>
      sim.requests.find({ host: 'api' }).filter((r) => r.credential === 'anonymous').length;

    it('a bucket A found spent is skipped by A and B until its reset, then asked again', async () => {
      sim.rateLimits.exhaust({ anonymous: '127.0.0.1' });
      const before = anonymousRequests();

      // A: the visibility probe is refused (spent): A records it; the release read, anonymous
      // only, is not sent and answers 424 web_only_unavailable.
      const first = await relay(a, `${REPO}/releases`);
      expect(first.status).toBe(424);
      expect(first.json.error?.reason).toBe('web_only_unavailable');
      expect(anonymousRequests() - before).toBe(1);

      // B has sent nothing anonymously yet: it knows the bucket spent from Redis.
      const onB = await relay(b, `${REPO}/releases/latest`);
      expect(onB.status).toBe(424);
      expect(onB.json.error?.reason).toBe('web_only_unavailable');
      // An anonymous-first read on B goes straight to the pooled identity.
      const pooled = await relay(b, `${REPO}/issues`);
      expect(pooled.status).toBe(200);
      expect(pooled.json.identity).toMatchObject({ id: 'alice' });
      const again = await relay(a, `${REPO}/tags`);
      expect(again.status).toBe(200);
      expect(anonymousRequests() - before).toBe(1);

      // The window resets (the mark is bounded to an hour): both replicas ask again, and the
      // answer with budget left clears the mark for both.
      clock.advance(ANONYMOUS_SPENT_MAX_MS + 1_000);
      const reset = await relay(b, `${REPO}/releases`);
      expect(reset.status).toBe(200);
      expect(reset.json.relay?.backend).toBe('forge_public');
      const afterReset = anonymousRequests();
      expect(afterReset - before).toBeGreaterThan(1);
      const onA = await relay(a, `${REPO}/releases/latest`);
      expect(onA.status).toBe(200);
      expect(anonymousRequests()).toBeGreaterThan(afterReset);
    });
  },
);
