import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createTestSchemaName,
  POSTGRES_AVAILABLE,
  runOnTestServer,
  TEST_POSTGRES_URL,
} from './__fixtures__/test-databases.js';
import { startTcpProxy, type TestTcpProxy } from './__fixtures__/tcp-proxy.js';
import { isDatabaseUnavailableError } from './database-unavailable.js';
import { openPostgresDatabase } from './postgres-database.js';
import type { RelayDatabase } from './relay-database.js';

/** A PostgreSQL that stops answering without closing anything (a network partition). */
describe.runIf(POSTGRES_AVAILABLE)('PostgreSQL store across a network partition', () => {
  const schema = createTestSchemaName();
  let proxy: TestTcpProxy;
  let database: RelayDatabase;
  beforeAll(async () => {
    const target = new URL(TEST_POSTGRES_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(TEST_POSTGRES_URL);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    database = await openPostgresDatabase(viaProxy.href, {
      schema,
      maxConnections: 2,
      queryTimeoutMs: 400,
      connectionTimeoutMs: 400,
      listenerCheckMs: 200,
      listenerRetryMs: 100,
    });
  });
  afterAll(async () => {
    await database.close();
    await proxy.close();
    await runOnTestServer(`drop schema if exists ${schema} cascade`);
  });

  const readPolicy = () =>
    database.db.selectFrom('string_rewrite_policy').select('revision').executeTakeFirstOrThrow();

  it('fails statements as unavailable within the query timeout, reads through while the listener is silent, and recovers', async () => {
    await readPolicy();
    expect(database.externalChangeVersion()).toBe(database.externalChangeVersion());

    proxy.freeze();
    const started = performance.now();
    const failure: unknown = await readPolicy().catch((error: unknown) => error);
    expect(isDatabaseUnavailableError(failure)).toBe(true);
    expect(performance.now() - started).toBeLessThan(3_000);
    // The silent listener is given up: every reading is a change, so caches read through.
    await vi.waitFor(() => {
      expect(database.externalChangeVersion()).not.toBe(database.externalChangeVersion());
    });

    proxy.restore();
    await vi.waitFor(
      async () => {
        expect(Number((await readPolicy()).revision)).toBe(1);
        expect(database.externalChangeVersion()).toBe(database.externalChangeVersion());
      },
      { timeout: 10_000, interval: 100 },
    );
  }, 30_000);
});
