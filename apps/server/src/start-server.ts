import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import { createTieredCacheStore } from '@relay/cache';
import { createForgeTransport } from '@relay/forge-transport';
import { createMemoryCoordinator, type Coordinator } from '@relay/identity-pool';
import { createAuditRetention } from './audit/audit-retention.js';
import {
  canOffloadAuditWrites,
  createAuditWriteOffload,
  isAuditWriteRetryable,
} from './audit/audit-write-offload.js';
import {
  createAuditWriter,
  type AuditWriter,
  type AuditWriterProblem,
} from './audit/audit-writer.js';
import { withCachedCallerLookups } from './auth/caller-lookup-cache.js';
import { createSqliteCacheStore } from './cache/sqlite-cache-store.js';
import { createWriteBehindCacheStore } from './cache/write-behind-cache-store.js';
import { createApp } from './create-app.js';
import { createServerServices } from './create-server-services.js';
import type { AccessLogEntry } from './http/access-log.js';
import { createRequestScope } from './http/request-scope.js';
import { createIdentityGaugeSources, trackRateBuckets } from './metrics/identity-gauges.js';
import { createRelayMetrics, type RelayMetrics } from './metrics/relay-metrics.js';
import { instrumentIdentityPool, instrumentTransport } from './metrics/upstream-instrumentation.js';
import { limitConnectionsPerPeer, toHttpServerOptions } from './http/http-server-limits.js';
import { createRelayPipelineDeps } from './pipeline/pipeline-wiring.js';
import { createRelayPipeline } from './pipeline/relay-pipeline.js';
import { withCacheOutageFallbacks } from './scale/redis-cache-outage.js';
import { createRedisAnonymousBudget } from './scale/redis-anonymous-budget.js';
import { createRedisCacheStore } from './scale/redis-cache-store.js';
import { createRedisFlights } from './scale/redis-flight.js';
import {
  createReplicaChangeSync,
  readChangeSequence,
  withReplicaChanges,
} from './scale/redis-invalidation.js';
import { createSharedVisibilityGuard } from './scale/redis-proof-guard.js';
import { createRewriteCheckOffload } from './policy/rewrite-check-offload.js';
import { createEngineRewriteCheckFactory } from './policy/rewrite-engine-adapter.js';
import type { SecretReader } from './secret-resolver.js';
import { createRequestId } from './request-id.js';
import { defaultDashboardDir, loadDashboardAssets } from './routes/dashboard-assets.js';
import { createIdentityStatusReader } from './routes/pool-identity-status-reader.js';
import type { PolicyUpdateParser, RewriteCheckFactory } from './server-services.js';
import type { ServerConfig } from './server-config.js';
import { createGovernorEventSink, toSenderLabel } from './governor/governor-events.js';
import { governRelayPipelineDeps } from './governor/governed-pipeline.js';
import {
  createCredentialRegistry,
  governExchange,
  toExchangeKey,
} from './governor/governed-transport.js';
import { createPoolQuotaReader } from './governor/quota-forecast.js';
import { createUpstreamGovernor, type UpstreamGovernor } from './governor/upstream-governor.js';
import { createUsageTally } from './governor/usage-tally.js';
import type { ServerLogger } from './logging/server-logger.js';
import { createAuditStore } from './storage/audit-store.js';
import { isDatabaseUnavailableError } from './storage/database-unavailable.js';
import { openRelayDatabase } from './storage/open-relay-database.js';
import { openRedisConnection } from './scale/redis-connection.js';
import { createRedisCoordinator } from './scale/redis-coordinator.js';
import { createRedisPaceLedger } from './scale/redis-pace-ledger.js';
import { createRedisUsageTally } from './scale/redis-usage-tally.js';
import type { PostgresProblemCode } from './storage/postgres-database.js';
import type { RelayDatabase } from './storage/relay-database.js';
import { MIN_CLI_VERSION } from './version.js';

/** A running relay server. */
export interface RunningServer {
  /** The URL it listens on (`http://host:port`). */
  readonly url: string;
  /** The public base URL of discovery. */
  readonly publicUrl: string;
  readonly database: RelayDatabase;
  /** The audit writer (the relay pipeline enqueues its rows here). */
  readonly audit: AuditWriter;
  /** The pool coordinator (leases, cooldowns, rate state). */
  readonly coordinator: Coordinator;
  /** The metrics served by GET /metrics; undefined when RELAY_METRICS_TOKEN is unset. */
  readonly metrics: RelayMetrics | undefined;
  /**
   * Stops accepting connections, ends idle ones, stops the retention task, flushes the audit
   * queue, closes the forge transport and the database; idempotent.
   */
  close(): Promise<void>;
}

/** What {@link startServer} needs besides the configuration. */
export interface StartServerOptions {
  /** Reports unexpected failures; defaults to nothing. */
  readonly onUnexpectedError?: (error: unknown, requestId: string) => void;
  /** Receives one structured entry per request. */
  readonly onLog?: (entry: AccessLogEntry) => void;
  /** Reports background problems (audit batches, retention runs, cache writes); never content. */
  readonly onBackgroundProblem?: (
    problem:
      | AuditWriterProblem
      | { code: 'audit_retention_failed' }
      | { code: 'cache_write_failed' }
      | { code: PostgresProblemCode }
      | { code: 'redis_unavailable' },
  ) => void;
  /** Reads secret bindings (provisioning uses an identity of the target pool). */
  readonly readSecret?: SecretReader;
  /** The clock, epoch milliseconds. Default `Date.now`. */
  readonly now?: () => number;
  /** The PUT validator. Default: @relay/rewrite-engine's `parsePolicyUpdate`. */
  readonly parsePolicyUpdate?: PolicyUpdateParser;
  /** The rewrite check factory. Default: @relay/rewrite-engine's `compileRules`. */
  readonly createRewriteCheck?: RewriteCheckFactory;
  /**
   * With metrics on (RELAY_METRICS_TOKEN set), also export prom-client's default process and
   * Node.js metrics (`process_*`, `nodejs_*`). Default true.
   */
  readonly processMetrics?: boolean;
  /**
   * The built stats dashboard served at /dashboard/: a directory holding its `index.html`, or
   * false for none. Default: `dashboard/` beside the bundle (dist/dashboard, which the build
   * copies from apps/dashboard); nothing is served when it holds no `index.html`.
   */
  readonly dashboardDir?: string | false;
  /** The server's logger: the upstream governor logs each pace change on it. Default: none. */
  readonly logger?: Pick<ServerLogger, 'warn' | 'info'>;
}

/**
 * Audit rows per PostgreSQL transaction: 16 parameters a row keeps one insert far below
 * PostgreSQL's 65,535 bind parameters.
 */
const POSTGRES_AUDIT_BATCH_ROWS = 1_000;

/**
 * Opens the database (running the migrations), builds the app and listens on the configured
 * host and port (0 picks an ephemeral port). Starts the audit writer and the hourly audit
 * retention task.
 *
 * @param config - the configuration of DESIGN.md §3
 * @param options - sinks, secrets, clock and policy engine hooks
 */
export async function startServer(
  config: ServerConfig,
  options: StartServerOptions = {},
): Promise<RunningServer> {
  const now = options.now ?? Date.now;
  // Metrics are collected only when they can be scraped (RELAY_METRICS_TOKEN set). Their gauges
  // read the stores below at scrape time; problems are counted as they are reported.
  let metrics: RelayMetrics | undefined;
  // The upstream governor, once built below (its gauges are read at scrape time).
  const governed: { governor?: UpstreamGovernor } = {};
  const reportProblem: NonNullable<StartServerOptions['onBackgroundProblem']> = (problem) => {
    metrics?.recordBackgroundProblem(problem.code);
    options.onBackgroundProblem?.(problem);
  };
  // Each request runs in a scope of its own: its audit row and its upstream requests are added
  // to its trace, for its log line and its metrics.
  const requestScope = createRequestScope();
  // Redis (RELAY_REDIS_URL, with PostgreSQL only): the shared state of several replicas — the
  // pool's coordinator, the governor's pace and the quota tallies (README, "Scaling out"). Opened
  // first: a Redis that cannot be reached fails the start with RedisUnavailableError (no URL).
  const redis =
    config.redisUrl === undefined
      ? undefined
      : await openRedisConnection(config.redisUrl, {
          ...(config.redisPrefix === undefined ? {} : { prefix: config.redisPrefix }),
          onProblem: reportProblem,
        });
  // SQLite (RELAY_DATABASE, the default) or PostgreSQL (a postgres:// RELAY_DATABASE_URL). On
  // PostgreSQL without Redis the relay holds the database exclusively: its leases, cooldowns and
  // quota live in this process's memory, so a second replica would break the pool's rules. With
  // Redis they are shared, and replicas share the database.
  const database = await openRelayDatabase(
    config.postgresUrl === undefined
      ? { dialect: 'sqlite', path: config.database }
      : { dialect: 'postgres', url: config.postgresUrl },
    {
      now: () => new Date(now()),
      exclusive: redis === undefined,
      onProblem: reportProblem,
      ...(config.postgresSchema === undefined ? {} : { schema: config.postgresSchema }),
    },
  ).catch(async (error: unknown) => {
    await redis?.close();
    throw error;
  });
  const transport = createForgeTransport({
    hosts: {
      apiUrl: config.forgeApiUrl,
      webUrl: config.forgeWebUrl,
      rawUrl: config.forgeRawUrl,
      logHosts: config.forgeLogHosts,
    },
    maxResponseBytes: config.maxResponseBytes,
    timeoutMs: config.requestTimeoutMs,
    now,
  });
  const auditStore = createAuditStore(database.db);
  // With RELAY_AUDIT_WRITER=worker, on a SQLite file, audit batches are written by a worker
  // thread over a connection of its own (audit-write-offload.ts): their statements and commits
  // leave the event loop, for a second V8 isolate's memory (about 20 MB; off by default so that
  // the relay stays within BENCHMARKS.md's memory goal). A `:memory:` database cannot be shared
  // with a worker and keeps writing them in this thread. A clean shutdown writes every queued
  // row; a crash loses the rows not yet committed (README, "Audit").
  const auditOffload =
    config.auditWriter === 'worker' &&
    database.dialect === 'sqlite' &&
    canOffloadAuditWrites(config.database)
      ? createAuditWriteOffload({ path: config.database })
      : undefined;
  const audit = createAuditWriter({
    store: auditOffload ?? auditStore,
    // 100 rows a SQLite batch bound the stall of a batch written in this thread (`:memory:`) and
    // the rows a worker that ends mid-batch leaves to a retry; PostgreSQL's batch is a network
    // round trip whose cost barely grows with its rows, and 100 rows a commit fell behind a
    // sustained cache-hit load (the backlog reached the overload guard's 10,000 and hits were
    // answered relay_overloaded: bench/scale-cost.bench.ts).
    ...(database.dialect === 'postgres' ? { batchSize: POSTGRES_AUDIT_BATCH_ROWS } : {}),
    onError: reportProblem,
    // A batch PostgreSQL was away for is kept and retried, not dropped (README, "Scaling out"), as
    // is one whose worker ended before it answered (a batch it had committed is then refused).
    isRetryable: (cause) => isDatabaseUnavailableError(cause) || isAuditWriteRetryable(cause),
  });
  const retention = createAuditRetention({
    store: auditStore,
    now,
    onError: () => {
      reportProblem({ code: 'audit_retention_failed' });
    },
  });
  const stopRetention = retention.start();
  retention.runOnce().catch(() => {
    reportProblem({ code: 'audit_retention_failed' });
  });
  const rateBuckets = new Set<string>(['core']);
  // With Redis, every replica shares the pool's leases, cooldowns and rate state.
  const coordinator = trackRateBuckets(
    redis === undefined ? createMemoryCoordinator({ now }) : createRedisCoordinator({ redis, now }),
    rateBuckets,
  );
  // Cache writes leave the response path: queued, then committed in batches (one SQLite commit
  // costs more than a whole cache hit).
  const cacheStore = createWriteBehindCacheStore(createSqliteCacheStore(database.db), {
    onError: () => {
      reportProblem({ code: 'cache_write_failed' });
    },
  });
  // With Redis the replicas share one cache (README "Scaling out"): entries in Redis behind a
  // memory front validated at every read; while Redis is away reads miss and writes are dropped.
  const sharedCache = redis === undefined ? undefined : createRedisCacheStore(redis, { now });
  const tieredCache = sharedCache ?? createTieredCacheStore({ back: cacheStore });
  const cacheCounts = sharedCache ?? cacheStore;
  if (config.metricsToken !== undefined) {
    const listIdentityIds = async () =>
      (await database.db.selectFrom('identities').select('id').execute()).map((row) => row.id);
    metrics = createRelayMetrics({
      defaultMetrics: options.processMetrics ?? true,
      sources: {
        ...createIdentityGaugeSources({ coordinator, listIdentityIds, buckets: rateBuckets, now }),
        cacheSize: async () => ({
          entries: await cacheCounts.count(),
          bytes: await cacheCounts.totalBytes(),
        }),
        cacheFrontSize: () => tieredCache.frontSize(),
        auditBacklog: () => audit.backlog(),
        governorSenders: async () =>
          (await (governed.governor?.senders() ?? Promise.resolve([]))).map(
            ({ key, standing }) => ({
              sender: toSenderLabel(key),
              points: standing.pointsInWindow,
              inFlight: standing.inFlight,
              factor: standing.factor,
            }),
          ),
      },
    });
  }
  const readSecret = options.readSecret;

  // Expensive string-rewrite checks run on a worker thread, each within a deadline.
  const rewriteCheckOffload = createRewriteCheckOffload({
    deadlineMs: config.rewriteCheckDeadlineMs,
  });
  // Several replicas: each request reads the change sequence once, so that an admin change made
  // on any replica (or by an operator) holds from the next request (README "Scaling out").
  const replicaChanges =
    redis === undefined || database.dialect !== 'postgres'
      ? undefined
      : createReplicaChangeSync(readChangeSequence(database.db));
  const changesDatabase =
    replicaChanges === undefined ? database : withReplicaChanges(database, replicaChanges);
  // The upstream governor (README "Staying under GitHub's limits"): every upstream request —
  // the pipeline's, login's and provisioning's — waits for its sender's pace; health forecasts
  // the pool's quota from its tally.
  // With Redis, health's used_last_minute sums every replica's requests.
  const usage =
    redis === undefined
      ? createUsageTally(now)
      : createRedisUsageTally({
          redis,
          now,
          onLost: () => {
            reportProblem({ code: 'redis_unavailable' });
          },
        });
  const governor = createUpstreamGovernor({
    limits: {
      maxInFlight: config.governor.maxInFlight,
      pointsPerMinute: config.governor.pointsPerMinute,
    },
    maxWaitMs: config.governor.maxWaitMs,
    // With Redis, the replicas share each sender's window and in-flight count; a slot a replica
    // never gives back (it died) ends after the longest an upstream request can take.
    ...(redis === undefined
      ? {}
      : {
          ledger: createRedisPaceLedger({ redis, slotTtlMs: config.requestTimeoutMs + 30_000 }),
        }),
    now,
    onEvent: createGovernorEventSink({
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      ...(metrics === undefined ? {} : { metrics }),
    }),
  });
  governed.governor = governor;
  // One credential registry for both governed transports: a pooled identity's provisioning reads
  // spend from the same window as its relay reads.
  const governing = {
    governor,
    registry: createCredentialRegistry(),
    callerOf: () => requestScope.current()?.callerId,
    usage,
  };
  const storageServices = createServerServices(changesDatabase, {
    settings: {
      adminToken: config.adminToken,
      membershipTtlS: config.membershipTtlS,
      defaultLoginPool: config.defaultLoginPool,
      allowedForgeOrg: config.allowedForgeOrg,
      defaultAllowedOwners: config.defaultAllowedOwners,
    },
    // Login and provisioning reads count on their request's log line (not as relay lanes).
    transport: instrumentTransport(transport, { scope: requestScope }),
    governor: governing,
    now,
    overload: { auditBacklog: () => audit.backlog() },
    ...(options.parsePolicyUpdate === undefined
      ? {}
      : { parsePolicyUpdate: options.parsePolicyUpdate }),
    createRewriteCheck:
      options.createRewriteCheck ?? createEngineRewriteCheckFactory(rewriteCheckOffload),
    countCacheEntries: () => cacheCounts.count(),
    countCoolingDown: async (ids) => {
      const cooldowns = await coordinator.listCooldowns(ids);
      const at = now();
      let cooling = 0;
      for (const list of cooldowns.values()) {
        if (list.some((c) => c.scope.kind === 'global' && c.until > at)) cooling++;
      }
      return cooling;
    },
    // Provisioning selects the pool's identities over the relay's coordinator (shared cooldowns).
    ...(readSecret === undefined
      ? {}
      : { poolIdentities: { coordinator, resolveSecret: readSecret } }),
  });
  // Caller lookups (token owner, grant) are reused for up to 5 s, dropped at every admin write
  // and at every commit by another connection: see caller-lookup-cache.ts.
  const services = {
    ...withCachedCallerLookups(
      storageServices,
      now,
      () => changesDatabase.externalChangeVersion(),
      replicaChanges === undefined ? undefined : () => replicaChanges.sync(),
    ),
    readPoolQuota: createPoolQuotaReader({
      readStatus: createIdentityStatusReader({ coordinator, buckets: rateBuckets, now }),
      buckets: rateBuckets,
      usage,
      now,
    }),
  };

  const relayDeps = createRelayPipelineDeps({
    rewriteCheckOffload,
    services,
    transport: instrumentTransport(transport, {
      scope: requestScope,
      ...(metrics === undefined ? {} : { metrics }),
    }),
    coordinator,
    cache:
      sharedCache === undefined
        ? tieredCache
        : withCacheOutageFallbacks(sharedCache, {
            onWriteDropped: () => {
              reportProblem({ code: 'cache_write_failed' });
            },
          }),
    ...(redis === undefined
      ? {}
      : {
          createFlights: () =>
            createRedisFlights(redis, { lockTtlMs: config.requestTimeoutMs + 5_000 }),
          guard: createSharedVisibilityGuard({
            redis,
            now,
            publicTtlMs: config.visibilityProofTtlS * 1000,
          }),
          // A bucket any replica found spent is skipped by every replica until its reset.
          anonymousBudget: createRedisAnonymousBudget({ redis, now }),
        }),
    audit: (record) => {
      const trace = requestScope.current();
      if (trace !== undefined) trace.audit = record;
      audit.enqueue(record);
    },
    readSecret,
    forgeAppId: config.forgeAppId,
    forgeApiUrl: config.forgeApiUrl,
    maxResponseBytes: config.maxResponseBytes,
    requestTimeoutMs: config.requestTimeoutMs,
    visibilityProofTtlMs: config.visibilityProofTtlS * 1000,
    paceExchange: (send) =>
      governExchange(
        governor,
        toExchangeKey(config.forgeAppId),
        requestScope.current()?.callerId ?? '',
        send,
      ),
  });
  const relay = createRelayPipeline({
    ...governRelayPipelineDeps(
      metrics === undefined
        ? relayDeps
        : { ...relayDeps, identityPool: instrumentIdentityPool(relayDeps.identityPool, metrics) },
      governing,
    ),
    maxCallerConcurrency: config.maxCallerConcurrency,
  });

  let publicUrl = config.publicUrl ?? '';
  const app = createApp({
    discovery: {
      publicUrl: () => publicUrl,
      defaultPool: config.defaultLoginPool,
      allowedOrg: config.allowedForgeOrg,
      minCliVersion: MIN_CLI_VERSION,
    },
    services,
    relay,
    // Callers are authenticated before their body is read.
    authenticateRelayCaller: relayDeps.authenticate,
    maxRequestBytes: config.maxRequestBytes,
    ...(options.onUnexpectedError === undefined
      ? {}
      : { onUnexpectedError: options.onUnexpectedError }),
    ...(options.onLog === undefined ? {} : { onLog: options.onLog }),
    requestScope,
    ...(metrics === undefined ? {} : { metrics, metricsToken: config.metricsToken }),
    dashboard:
      options.dashboardDir === false
        ? undefined
        : loadDashboardAssets(options.dashboardDir ?? defaultDashboardDir()),
    identityStatus: createIdentityStatusReader({ coordinator, buckets: rateBuckets, now }),
  });
  const shutdownBackground = async () => {
    stopRetention();
    await audit.close();
    await auditOffload?.close();
    await cacheStore.flush();
    await transport.close();
    await rewriteCheckOffload.close();
    await database.close();
    await redis?.close();
  };
  // Deadlines on headers, whole requests and idle connections, and a bound on the connections
  // of one address: a client trickling its request cannot hold connections (README, "Limits and
  // timeouts").
  const server = createAdaptorServer({
    fetch: app.fetch,
    serverOptions: toHttpServerOptions(config),
  }) as Server;
  limitConnectionsPerPeer(server, {
    maxPerPeer: config.maxConnectionsPerPeer,
    createRequestId,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await shutdownBackground();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  if (publicUrl === '') publicUrl = url;

  let closing: Promise<void> | undefined;
  return {
    url,
    publicUrl,
    database,
    audit,
    coordinator,
    metrics,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => {
            resolve();
          });
          server.closeIdleConnections();
        });
        await shutdownBackground();
      })();
      return closing;
    },
  };
}
