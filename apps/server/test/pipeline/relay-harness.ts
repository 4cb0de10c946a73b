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
import { createMemoryCacheStore } from '@relay/cache';
import { createMemoryCoordinator, type Coordinator } from '@relay/identity-pool';
import type { IdentityRegistration, StringRewriteRule } from '@relay/protocol';
import type { Hono } from 'hono';
import type { AppEnv } from '../../src/app-env.js';
import type { AuditRecord } from '../../src/audit/audit-record.js';
import { createCallerToken, hashToken } from '../../src/auth/caller-token.js';
import { createApp } from '../../src/create-app.js';
import { createServerServices } from '../../src/create-server-services.js';
import {
  createRelayPipelineDeps,
  type RelayPipelineWiring,
} from '../../src/pipeline/pipeline-wiring.js';
import { createRelayPipeline, type RelayPipelineDeps } from '../../src/pipeline/relay-pipeline.js';
import type { ServerServices } from '../../src/server-services.js';
import { openSqliteDatabase, type RelayDatabase } from '../../src/storage/sqlite-database.js';

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

/**
 * Starts forge-sim with the demo world and builds the relay app over an in-memory database
 * against it, with the relay pipeline mounted. Callers and identities are seeded directly in the
 * stores; the clock is the simulator's (frozen unless advanced).
 */
export async function startRelayHarness(options: RelayHarnessOptions = {}): Promise<RelayHarness> {
  const clock = createSimClock({ start: Date.parse('2030-01-01T00:00:00Z') });
  const sim = await createForgeSim({ ...options.sim, clock });
  const ids = seedDemoWorld(sim.world);
  const now = () => clock.now();
  const database = await openSqliteDatabase(':memory:', { now: () => new Date(now()) });
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
  const services = createServerServices(database, {
    settings: {
      adminToken: ADMIN_TOKEN,
      membershipTtlS: 86_400,
      defaultLoginPool: POOL,
      allowedForgeOrg: DEMO.org,
      defaultAllowedOwners: [DEMO.org],
    },
    transport,
    now,
  });
  const coordinator = createMemoryCoordinator({ now });
  const audits: AuditRecord[] = [];
  const secrets = new Map<string, string>();
  const logLines: string[] = [];
  let deps = createRelayPipelineDeps({
    services,
    transport,
    coordinator,
    cache: createMemoryCacheStore(),
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
      await database.close();
    },
  };
}
