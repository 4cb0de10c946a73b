import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createForgeTransport,
  type ForgeTransport,
  type ForgeTransportOptions,
} from '@relay/forge-transport';
import {
  DEMO,
  createForgeSim,
  createSimClock,
  seedDemoWorld,
  type DemoWorldIds,
  type ForgeSim,
  type ForgeSimOptions,
} from '@relay/forge-sim';
import { createMemoryCacheStore, type CacheStore } from '@relay/cache';
import { createMemoryCoordinator, type Coordinator } from '@relay/identity-pool';
import type { IdentityRegistration, StringRewriteRule } from '@relay/protocol';
import type { Hono } from 'hono';
import type { AppEnv } from '../../src/app-env.js';
import type { AuditRecord } from '../../src/audit/audit-record.js';
import { withCachedCallerLookups } from '../../src/auth/caller-lookup-cache.js';
import { createCallerToken, hashToken } from '../../src/auth/caller-token.js';
import { createApp } from '../../src/create-app.js';
import { createServerServices } from '../../src/create-server-services.js';
import { createCallerStore } from '../../src/storage/caller-store.js';
import {
  createRelayPipelineDeps,
  type RelayPipelineWiring,
} from '../../src/pipeline/pipeline-wiring.js';
import { createRelayPipeline, type RelayPipelineDeps } from '../../src/pipeline/relay-pipeline.js';
import {
  dropRedisPrefix,
  openTestRedis,
} from '../../src/scale/__fixtures__/redis-test-connection.js';
import {
  REDIS_AVAILABLE,
  TEST_REDIS_URL,
  uniqueRedisPrefix,
} from '../../src/scale/__fixtures__/test-redis.js';
import { openRedisConnection } from '../../src/scale/redis-connection.js';
import { createRedisAnonymousBudget } from '../../src/scale/redis-anonymous-budget.js';
import { withCacheOutageFallbacks } from '../../src/scale/redis-cache-outage.js';
import { createRedisCacheStore } from '../../src/scale/redis-cache-store.js';
import { createRedisCoordinator } from '../../src/scale/redis-coordinator.js';
import { createRedisFlights } from '../../src/scale/redis-flight.js';
import {
  createReplicaChangeSync,
  readChangeSequence,
  withReplicaChanges,
} from '../../src/scale/redis-invalidation.js';
import { createSharedVisibilityGuard } from '../../src/scale/redis-proof-guard.js';
import type { ServerServices } from '../../src/server-services.js';
import {
  POSTGRES_AVAILABLE,
  POSTGRES_TEST_DATABASES,
  TEST_POSTGRES_URL,
  createTestSchemaName,
  runOnTestServer,
} from '../../src/storage/__fixtures__/test-databases.js';
import { openSqliteDatabase, type RelayDatabase } from '../../src/storage/sqlite-database.js';

/**
 * The backend the pipeline suite runs against: `embedded` (SQLite in memory, the in-process
 * coordinator and cache: the default) or `postgres-redis` (RELAY_TEST_BACKEND=postgres-redis: a
 * fresh PostgreSQL schema and Redis under a fresh prefix, wired as relay-server wires them with
 * RELAY_REDIS_URL). The root vitest config runs test/pipeline twice, once per backend.
 */
export type TestBackend = 'embedded' | 'postgres-redis';

/** The backend of this run (RELAY_TEST_BACKEND). */
export const TEST_BACKEND: TestBackend =
  process.env.RELAY_TEST_BACKEND === 'postgres-redis' ? 'postgres-redis' : 'embedded';

if (TEST_BACKEND === 'postgres-redis' && !(POSTGRES_AVAILABLE && REDIS_AVAILABLE)) {
  throw new Error('RELAY_TEST_BACKEND=postgres-redis needs PostgreSQL and Redis');
}

/** The pool every harness caller holds a grant on. */
export const POOL = 'team';
/** A pool the caller holds no grant on. */
export const OTHER_POOL = 'other';
/** The admin token of the harness app. */
export const ADMIN_TOKEN = 'admin-token-for-pipeline-tests-0123456789';

/** What a relay call answered. */
export interface RelayAnswer {
  readonly status: number;
  readonly headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies are inspected freely
  readonly json: any;
  readonly text: string;
}

/** A relay app wired to the simulated forge, with a caller and helpers. */
export interface RelayHarness {
  readonly sim: ForgeSim;
  readonly ids: DemoWorldIds;
  readonly app: Hono<AppEnv>;
  readonly services: ServerServices;
  readonly database: RelayDatabase;
  readonly coordinator: Coordinator;
  readonly audits: AuditRecord[];
  /** Secret bindings by name. */
  readonly secrets: Map<string, string>;
  /** The caller token of alice (grant on {@link POOL}). */
  readonly callerToken: string;
  /** Everything the relay logged or reported (errors included), as text. */
  readonly logLines: string[];
  /** POST /v1/forge/request with the caller token (or another). */
  relay(body: Record<string, unknown>, token?: string | null): Promise<RelayAnswer>;
  /** Registers a PAT identity of a simulated user in {@link POOL}; returns its token. */
  addPatIdentity(
    id: string,
    login: string,
    scopes: IdentityRegistration['scopes'],
    weight?: number,
  ): Promise<string>;
  /** Writes a pool's stored policy text verbatim. */
  setPolicy(poolId: string, policyJson: string): Promise<void>;
  /** Replaces the string-rewrite rules. */
  setRewriteRules(rules: readonly StringRewriteRule[]): Promise<void>;
  /** Advances the shared clock of the relay and the simulator. */
  advance(ms: number): void;
  close(): Promise<void>;
}

/** Options of {@link startRelayHarness}. */
export interface RelayHarnessOptions {
  readonly maxResponseBytes?: number;
  /** Replaces ports of the pipeline (fault injection). */
  readonly override?: (deps: RelayPipelineDeps) => RelayPipelineDeps;
  readonly isOverloaded?: () => boolean;
  /** RELAY_FORGE_APP_ID. */
  readonly forgeAppId?: number;
  /** RELAY_MAX_CALLER_CONCURRENCY (default: unbounded). */
  readonly maxCallerConcurrency?: number;
  /**
   * Forge transport options: `timeoutMs` (REQUEST_TIMEOUT_MS, the token exchange's deadline too)
   * and `scheduleTimeout` (the transport's timer of that deadline). Defaults: the transport's
   * (15 s, real timers).
   */
  readonly transport?: Pick<ForgeTransportOptions, 'timeoutMs' | 'scheduleTimeout'>;
  /**
   * forge-sim options: `random` (draws of probabilistic faults), `delay` (waits of latency and
   * drip faults), `rateLimits`. Defaults: forge-sim's.
   */
  readonly sim?: Pick<ForgeSimOptions, 'random' | 'delay' | 'rateLimits'>;
  /** Runs each installation token exchange (the upstream governor's pacing). Default: at once. */
  readonly paceExchange?: RelayPipelineWiring['paceExchange'];
}

/** The storage variables of one relay-server on {@link TEST_BACKEND}. */
export interface ServerBackend {
  /** RELAY_DATABASE, or RELAY_DATABASE_URL/_SCHEMA and RELAY_REDIS_URL/_PREFIX. */
  readonly env: Readonly<Record<string, string>>;
  /** Drops what the server stored (after the server closed). */
  close(): Promise<void>;
}

/**
 * Storage for a real relay-server (`startServer`) on {@link TEST_BACKEND}: a SQLite file in a
 * fresh directory, or a fresh PostgreSQL schema and Redis prefix (relay-server then wires every
 * shared-state piece, the governor's pace ledger included).
 */
export function openServerBackend(): ServerBackend {
  if (TEST_BACKEND === 'embedded') {
    const dir = mkdtempSync(join(tmpdir(), 'relay-pipeline-'));
    return {
      env: { RELAY_DATABASE: join(dir, 'relay.db') },
      close: () => {
        rmSync(dir, { recursive: true, force: true });
        return Promise.resolve();
      },
    };
  }
  return openScaledBackend('pipeline');
}

/**
 * A fresh PostgreSQL schema and Redis key prefix for real relay-servers (one or several replicas
 * sharing them), whatever {@link TEST_BACKEND} says; `close` drops the schema and the keys.
 *
 * @param label - part of the key prefix (which test made the keys)
 * @param redisUrl - the Redis the servers use (a test's proxy in front of the test Redis);
 *   the keys are dropped through the test Redis itself
 */
export function openScaledBackend(
  label: string,
  redisUrl = TEST_REDIS_URL,
): ServerBackend & { readonly schema: string } {
  const schema = createTestSchemaName();
  const prefix = uniqueRedisPrefix(label);
  return {
    schema,
    env: {
      RELAY_DATABASE_URL: TEST_POSTGRES_URL,
      RELAY_DATABASE_SCHEMA: schema,
      RELAY_REDIS_URL: redisUrl,
      RELAY_REDIS_PREFIX: prefix,
    },
    async close() {
      await runOnTestServer(`drop schema if exists ${schema} cascade`);
      const redis = await openRedisConnection(TEST_REDIS_URL, { prefix });
      try {
        await dropRedisPrefix(redis, prefix);
      } finally {
        await redis.close();
      }
    },
  };
}

/**
 * The variables that point a relay-server at forge-sim's four hosts with the demo world's org as
 * its allowed org and default owner, and `pool` as its login pool.
 *
 * @param sim - the simulator
 * @param pool - DEFAULT_LOGIN_POOL
 */
export function demoRelayEnv(
  sim: Pick<ForgeSim, 'urls'>,
  pool: string,
): Readonly<Record<string, string>> {
  return {
    RELAY_FORGE_API_URL: sim.urls.api,
    RELAY_FORGE_WEB_URL: sim.urls.web,
    RELAY_FORGE_RAW_URL: sim.urls.raw,
    RELAY_FORGE_LOG_HOSTS: new URL(sim.urls.log).hostname,
    ALLOWED_FORGE_ORG: DEMO.org,
    DEFAULT_ALLOWED_OWNERS: DEMO.org,
    DEFAULT_LOGIN_POOL: pool,
  };
}

/**
 * Enrolls DEMO's alice as a caller of `pool` (a new pool allowing DEMO's org; client `laptop`)
 * straight in the relay's database, as login would (under its write lock, which replicas on
 * PostgreSQL share), and gives her caller token (valid a day).
 *
 * @param database - the relay-server's database
 * @param nowMs - the enrollment time, epoch milliseconds
 * @param pool - the pool granted (default {@link POOL})
 */
export async function enrollAlice(
  database: Pick<RelayDatabase, 'db' | 'writeLock'>,
  nowMs: number,
  pool: string = POOL,
): Promise<string> {
  const token = createCallerToken();
  const callers = createCallerStore(database.db, {
    createId: (p) => `${p}_test`,
    writeLock: database.writeLock,
  });
  const enrolled = await callers.enroll({
    forgeUserId: 1,
    login: DEMO.users.alice,
    grantPool: pool,
    newPoolPolicyJson: JSON.stringify({ allowed_owners: [DEMO.org] }),
    clientName: 'laptop',
    tokenSha256: hashToken(token),
    nowIso: new Date(nowMs).toISOString(),
    expiresAtIso: new Date(nowMs + 86_400_000).toISOString(),
  });
  if (!enrolled.ok) throw new Error('enrollment failed');
  return token;
}

/**
 * Registers the pooled PAT identity `alice` (secret `alice_pat`, scope: the demo org) in `pool`
 * through a running relay-server's admin API; throws unless it answers 201.
 *
 * @param serverUrl - the relay-server's URL
 * @param adminToken - its RELAY_ADMIN_TOKEN
 * @param pool - the pool
 */
export async function registerAliceIdentity(
  serverUrl: string,
  adminToken: string,
  pool: string,
): Promise<void> {
  const registered = await fetch(`${serverUrl}/v1/admin/pools/${pool}/identities`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      id: 'alice',
      kind: 'pat',
      login: DEMO.users.alice,
      secret_ref: 'alice_pat',
      scopes: [{ owner: DEMO.org }],
    }),
  });
  if (registered.status !== 201) throw new Error(`registration: ${String(registered.status)}`);
}

/** The stores of one harness and the shared-state ports of its backend. */
interface HarnessBackend {
  readonly database: RelayDatabase;
  readonly coordinator: Coordinator;
  readonly cache: CacheStore;
  /** The ports relay-server sets only with Redis (flights, guard, anonymous budget). */
  readonly wiring: Pick<RelayPipelineWiring, 'createFlights' | 'guard' | 'anonymousBudget'>;
  /** Wraps the services as relay-server does on this backend. */
  readonly services: (services: ServerServices) => ServerServices;
  close(): Promise<void>;
}

/**
 * Opens the backend of {@link TEST_BACKEND} on the harness's clock. `postgres-redis` wires what
 * `startServer` wires with RELAY_REDIS_URL on PostgreSQL: the Redis coordinator, the Redis cache
 * behind its outage fallbacks, flights across processes, the shared visibility guard, the shared
 * anonymous budget and the replica change sync (read at every caller lookup).
 */
async function openBackend(
  now: () => number,
  onProblem: (code: string) => void,
): Promise<HarnessBackend> {
  if (TEST_BACKEND === 'embedded') {
    const database = await openSqliteDatabase(':memory:', { now: () => new Date(now()) });
    return {
      database,
      coordinator: createMemoryCoordinator({ now }),
      cache: createMemoryCacheStore(),
      wiring: {},
      services: (services) => services,
      close: () => database.close(),
    };
  }
  const database = await POSTGRES_TEST_DATABASES.open({ now: () => new Date(now()) });
  const redis = await openTestRedis().catch(async (error: unknown) => {
    await database.close();
    throw error;
  });
  const changes = createReplicaChangeSync(readChangeSequence(database.db));
  const changesDatabase = withReplicaChanges(database, changes);
  return {
    database: changesDatabase,
    coordinator: createRedisCoordinator({ redis, now }),
    cache: withCacheOutageFallbacks(createRedisCacheStore(redis, { now }), {
      onWriteDropped: () => {
        onProblem('cache_write_failed');
      },
    }),
    wiring: {
      createFlights: () => createRedisFlights(redis),
      guard: createSharedVisibilityGuard({ redis, now }),
      anonymousBudget: createRedisAnonymousBudget({ redis, now }),
    },
    services: (services) =>
      withCachedCallerLookups(
        services,
        now,
        () => changesDatabase.externalChangeVersion(),
        () => changes.sync(),
      ),
    async close() {
      await database.close();
      await redis.close();
    },
  };
}

/**
 * Starts forge-sim with the demo world and builds the relay app against it over the backend of
 * {@link TEST_BACKEND} (default: an in-memory database), with the relay pipeline mounted. Callers
 * and identities are seeded directly in the stores; the clock is the simulator's (frozen unless
 * advanced).
 */
export async function startRelayHarness(options: RelayHarnessOptions = {}): Promise<RelayHarness> {
  const clock = createSimClock({ start: Date.parse('2030-01-01T00:00:00Z') });
  const sim = await createForgeSim({ ...options.sim, clock });
  const ids = seedDemoWorld(sim.world);
  const now = () => clock.now();
  const logLines: string[] = [];
  const backend = await openBackend(now, (code) => logLines.push(code));
  const { database, coordinator } = backend;
  const transport: ForgeTransport = createForgeTransport({
    hosts: {
      apiUrl: sim.urls.api,
      webUrl: sim.urls.web,
      rawUrl: sim.urls.raw,
      logHosts: [new URL(sim.urls.log).hostname],
    },
    ...(options.maxResponseBytes === undefined
      ? {}
      : { maxResponseBytes: options.maxResponseBytes }),
    ...options.transport,
    now,
  });
  const services = backend.services(
    createServerServices(database, {
      settings: {
        adminToken: ADMIN_TOKEN,
        membershipTtlS: 86_400,
        defaultLoginPool: POOL,
        allowedForgeOrg: DEMO.org,
        defaultAllowedOwners: [DEMO.org],
      },
      transport,
      now,
    }),
  );
  const audits: AuditRecord[] = [];
  const secrets = new Map<string, string>();
  let deps = createRelayPipelineDeps({
    services,
    transport,
    coordinator,
    cache: backend.cache,
    ...backend.wiring,
    audit: (record) => {
      audits.push(record);
      logLines.push(JSON.stringify(record));
    },
    readSecret: (name) => Promise.resolve(secrets.get(name)),
    forgeApiUrl: sim.urls.api,
    forgeAppId: options.forgeAppId,
    ...(options.paceExchange === undefined ? {} : { paceExchange: options.paceExchange }),
    ...(options.transport?.timeoutMs === undefined
      ? {}
      : { requestTimeoutMs: options.transport.timeoutMs }),
    ...(options.maxResponseBytes === undefined
      ? {}
      : { maxResponseBytes: options.maxResponseBytes }),
  });
  if (options.isOverloaded !== undefined) deps = { ...deps, isOverloaded: options.isOverloaded };
  if (options.maxCallerConcurrency !== undefined) {
    deps = { ...deps, maxCallerConcurrency: options.maxCallerConcurrency };
  }
  if (options.override !== undefined) deps = options.override(deps);
  const app = createApp({
    discovery: {
      publicUrl: () => 'http://relay.test',
      defaultPool: POOL,
      allowedOrg: DEMO.org,
      minCliVersion: '0.1.0',
    },
    services,
    relay: createRelayPipeline(deps),
    authenticateRelayCaller: deps.authenticate,
    onLog: (entry) => logLines.push(JSON.stringify(entry)),
    onUnexpectedError: (error) => logLines.push(String(error)),
  });

  const callerToken = createCallerToken();
  const policyJson = JSON.stringify({ allowed_owners: [DEMO.org] });
  const nowIso = new Date(now()).toISOString();
  const enrolled = await services.callers.enroll({
    forgeUserId: 1,
    login: DEMO.users.alice,
    grantPool: POOL,
    newPoolPolicyJson: policyJson,
    clientName: 'laptop',
    tokenSha256: hashToken(callerToken),
    nowIso,
    expiresAtIso: new Date(now() + 10 * 365 * 86_400_000).toISOString(),
  });
  if (!enrolled.ok) throw new Error(`enrollment failed: ${enrolled.error.code}`);
  await database.db
    .insertInto('pools')
    .values({ id: OTHER_POOL, policy_json: '{}', created_at: nowIso })
    .execute();

  return {
    sim,
    ids,
    app,
    services,
    database,
    coordinator,
    audits,
    secrets,
    callerToken,
    logLines,
    async relay(body, token) {
      const response = await app.request('/v1/forge/request', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token === null ? {} : { authorization: `Bearer ${token ?? callerToken}` }),
        },
        body: JSON.stringify({ pool: POOL, method: 'GET', ...body }),
      });
      const text = await response.text();
      logLines.push(text);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, json, text };
    },
    async addPatIdentity(id, login, scopes, weight = 100) {
      const { token } = sim.tokens.addPat({ login });
      secrets.set(`secret_${id}`, token);
      await services.identities.upsert(
        POOL,
        {
          id,
          kind: 'pat',
          login,
          secret_ref: `secret_${id}`,
          installation_id: null,
          scopes,
          weight,
        },
        new Date(now()).toISOString(),
        policyJson,
      );
      return token;
    },
    async setPolicy(poolId, json) {
      await database.db
        .updateTable('pools')
        .set({ policy_json: json })
        .where('id', '=', poolId)
        .execute();
    },
    async setRewriteRules(rules) {
      const current = await services.stringRewrites.read();
      if (!current.ok) throw new Error('no rewrite policy');
      await services.stringRewrites.replace(
        current.value.revision,
        rules,
        new Date(now()).toISOString(),
      );
    },
    advance(ms) {
      clock.advance(ms);
    },
    async close() {
      await transport.close();
      await sim.close();
      await backend.close();
    },
  };
}
