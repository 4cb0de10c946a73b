import {
  DEMO,
  createForgeSim,
  createSimClock,
  seedDemoWorld,
  type ForgeSim,
} from '@relay/forge-sim';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCallerToken, hashToken } from '../../src/auth/caller-token.js';
import { loadServerConfig, startServer, type RunningServer } from '../../src/index.js';
import type { OpenApiDocument } from '../../src/openapi/openapi-document.js';
import {
  createTestSchemaName,
  POSTGRES_AVAILABLE,
  runOnTestServer,
  TEST_POSTGRES_URL,
} from '../../src/storage/__fixtures__/test-databases.js';
import { startTcpProxy, type TestTcpProxy } from '../../src/storage/__fixtures__/tcp-proxy.js';
import { createCallerStore } from '../../src/storage/caller-store.js';
import { createResponseChecker } from '../openapi-response-checker.js';
import { demoRelayEnv } from '../pipeline/relay-harness.js';

/**
 * PostgreSQL lost mid-load (issue 25 item 4): relay-server reaches PostgreSQL through a TCP
 * proxy the test cuts (every open connection reset, new ones refused) and restores, so the
 * machine's shared PostgreSQL is never stopped.
 */
const ADMIN = 'admin-token-for-postgres-faults-0123456';

describe.runIf(POSTGRES_AVAILABLE)('relay-server on PostgreSQL when PostgreSQL is lost', () => {
  let sim: ForgeSim;
  let proxy: TestTcpProxy;
  let server: RunningServer;
  let callerToken: string;
  let env: Record<string, string>;
  const schema = createTestSchemaName();

  beforeAll(async () => {
    const clock = createSimClock({ start: Date.parse('2030-01-01T00:00:00Z') });
    sim = await createForgeSim({ clock });
    seedDemoWorld(sim.world);
    const target = new URL(TEST_POSTGRES_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(TEST_POSTGRES_URL);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    env = {
      RELAY_PORT: '0',
      RELAY_DATABASE_URL: viaProxy.href,
      RELAY_DATABASE_SCHEMA: schema,
      RELAY_ADMIN_TOKEN: ADMIN,
      ...demoRelayEnv(sim, 'team'),
    };
    const config = loadServerConfig(env);
    if (!config.ok) throw new Error('invalid test configuration');
    server = await startServer(config.value, { now: () => clock.now() });
    expect(server.database.dialect).toBe('postgres');
    callerToken = createCallerToken();
    const callers = createCallerStore(server.database.db, {
      createId: (p) => `${p}_pg`,
      writeLock: server.database.writeLock,
    });
    const enrolled = await callers.enroll({
      forgeUserId: 1,
      login: DEMO.users.alice,
      grantPool: 'team',
      newPoolPolicyJson: JSON.stringify({ allowed_owners: [DEMO.org] }),
      clientName: 'laptop',
      tokenSha256: hashToken(callerToken),
      nowIso: new Date(clock.now()).toISOString(),
      expiresAtIso: new Date(clock.now() + 86_400_000).toISOString(),
    });
    if (!enrolled.ok) throw new Error('enrollment failed');
  }, 30_000);

  afterAll(async () => {
    await server.close();
    await proxy.close();
    await sim.close();
    await runOnTestServer(`drop schema if exists ${schema} cascade`);
  });

  const relay = () =>
    fetch(`${server.url}/v1/forge/request`, {
      method: 'POST',
      headers: { authorization: `Bearer ${callerToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        pool: 'team',
        method: 'GET',
        path: `/repos/${DEMO.org}/${DEMO.publicRepo}/issues`,
      }),
    });
  const adminPolicy = () =>
    fetch(`${server.url}/v1/admin/string-rewrites`, {
      headers: { authorization: `Bearer ${ADMIN}` },
    });
  const health = () =>
    fetch(`${server.url}/v1/pools/team/health`, {
      headers: { authorization: `Bearer ${callerToken}` },
    });

  it('a second relay-server on the same database without a shared coordinator refuses to start', async () => {
    const config = loadServerConfig(env);
    if (!config.ok) throw new Error('invalid test configuration');
    await expect(startServer(config.value)).rejects.toMatchObject({
      code: 'database_unavailable',
      message: expect.stringContaining('RELAY_REDIS_URL') as unknown,
    });
  });

  it('answers typed 503s while PostgreSQL is unreachable, never a 500, and recovers without a restart', async () => {
    expect((await relay()).status).toBe(200);
    expect((await adminPolicy()).status).toBe(200);

    // Every typed answer must also be the one the OpenAPI document promises for its operation.
    const checker = createResponseChecker(
      (await (await fetch(`${server.url}/openapi.json`)).json()) as OpenApiDocument,
    );
    const operations = new Map<() => Promise<Response>, { method: string; path: string }>([
      [relay, { method: 'post', path: '/v1/forge/request' }],
      [adminPolicy, { method: 'get', path: '/v1/admin/string-rewrites' }],
      [health, { method: 'get', path: '/v1/pools/{pool}/health' }],
    ]);
    const undocumented = new Set<string>();
    const outcomes: { phase: 'cut' | 'after'; status: number; code: string | undefined }[] = [];
    let phase: 'before' | 'cut' | 'after' = 'before';
    let running = true;
    let relayed = 0;
    const worker = async (request: () => Promise<Response>) => {
      while (running) {
        const response = await request();
        if (request === relay && response.status === 200) relayed++;
        const text = await response.text();
        const body = JSON.parse(text) as { error?: { code?: string } };
        if (phase !== 'before')
          outcomes.push({ phase, status: response.status, code: body.error?.code });
        const operation = operations.get(request);
        if (phase === 'cut' && operation !== undefined && response.status !== 200) {
          const problems = checker.check({
            ...operation,
            status: response.status,
            headers: response.headers,
            text,
          });
          for (const problem of problems)
            undocumented.add(`${problem}: ${String(body.error?.code)}`);
        }
      }
    };
    const load = Promise.all([relay, relay, adminPolicy, health, relay, health].map(worker));
    await new Promise((resolve) => setTimeout(resolve, 200));
    proxy.cut();
    phase = 'cut';
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    proxy.restore();
    phase = 'after';
    // The pool reconnects on its own: every surface answers 200 again within seconds.
    await vi.waitFor(
      async () => {
        const answer = await relay();
        if (answer.status === 200) relayed++;
        expect(answer.status).toBe(200);
        expect((await adminPolicy()).status).toBe(200);
        expect((await health()).status).toBe(200);
      },
      { timeout: 15_000, interval: 200 },
    );
    running = false;
    await load;
    // Nothing answered is lost from the audit: batches PostgreSQL was away for were kept and
    // written once it was back (only relay requests that passed authentication are audited, and
    // while PostgreSQL was away none did).
    await server.audit.flush();
    const audited = await server.database.db
      .selectFrom('audit')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(audited.n)).toBe(relayed + 1);

    const failures = outcomes.filter((o) => o.status !== 200);
    // The cut bit: requests failed while PostgreSQL was away...
    expect(failures.filter((o) => o.phase === 'cut').length).toBeGreaterThan(0);
    // ...each with a typed 503 (the database is unavailable; the policy could not be read).
    expect(failures.filter((o) => o.status !== 503)).toEqual([]);
    const codes = new Set(failures.map((o) => o.code));
    for (const code of codes) {
      expect(['relay_overloaded', 'string_rewrite_policy_unavailable']).toContain(code);
    }
    // The relay endpoint's 503 relay_overloaded (authentication needs the database) included.
    expect([...undocumented]).toEqual([]);
  }, 60_000);

  it('honours a change committed by another connection (an operator, another process) from the next request after its notification', async () => {
    expect((await relay()).status).toBe(200);
    const rules = JSON.stringify([{ pattern: DEMO.publicRepo, replacement: 'x' }]);
    await runOnTestServer(
      `update ${schema}.string_rewrite_policy set rules_json = '${rules}', revision = revision + 1`,
    );
    await vi.waitFor(async () => {
      const denied = await relay();
      expect(denied.status).toBe(403);
      expect(((await denied.json()) as { error: { code: string } }).error.code).toBe(
        'string_rewrite_denied',
      );
    });
    await runOnTestServer(
      `update ${schema}.string_rewrite_policy set rules_json = '[]', revision = revision + 1`,
    );
    await vi.waitFor(async () => {
      expect((await relay()).status).toBe(200);
    });
    await runOnTestServer(`update ${schema}.callers set disabled = 1`);
    await vi.waitFor(async () => {
      expect((await relay()).status).toBe(401);
    });
    await runOnTestServer(`update ${schema}.callers set disabled = 0`);
  });
});

describe.runIf(POSTGRES_AVAILABLE)('relay-server on an unreachable PostgreSQL', () => {
  it('does not start, and says where without the password', async () => {
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: 1 });
    proxy.cut();
    const config = loadServerConfig({
      RELAY_PORT: '0',
      RELAY_DATABASE_URL: `postgres://relay:hunter22@127.0.0.1:${String(proxy.port)}/relay`,
    });
    if (!config.ok) throw new Error('invalid test configuration');
    const failure: unknown = await startServer(config.value).catch((error: unknown) => error);
    await proxy.close();
    expect(failure).toMatchObject({ code: 'database_unavailable' });
    const message = failure instanceof Error ? failure.message : '';
    expect(message).toContain(`postgres://relay:***@127.0.0.1:${String(proxy.port)}/relay`);
    expect(message).not.toContain('hunter22');
  });
});
