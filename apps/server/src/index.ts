/**
 * relay-server as a library: the app factory, its services and stores, configuration and
 * start-up, for tests and for embedding. The `relay-server` bin is `main.ts`.
 */

// App
export { createApp, RelayHttpError } from './create-app.js';
export type { AppDependencies } from './create-app.js';
export type { AppEnv, AuthenticatedCaller } from './app-env.js';
export type { RelayHttpErrorCode } from './relay-http-error.js';
export { createDiscoveryDocument } from './routes/discovery-route.js';
export type { DiscoveryOptions } from './routes/discovery-route.js';

// Services
export { createServerServices } from './create-server-services.js';
export type { ServerServicesOptions } from './create-server-services.js';
export type {
  ParsedPolicyUpdate,
  PolicyUpdateParser,
  RewriteCheckFactory,
  ServerServices,
  ServerSettings,
} from './server-services.js';
export {
  createEngineRewriteCheck,
  parseEnginePolicyUpdate,
} from './policy/rewrite-engine-adapter.js';
export { createForgeAccountClient } from './forge/forge-account-client.js';
export type {
  ForgeAccount,
  ForgeAccountClient,
  ForgeAccountError,
  ForgeAccountErrorCode,
  MembershipState,
} from './forge/forge-account-client.js';

// Authentication
export { createCallerToken, digestsEqual, hashToken } from './auth/caller-token.js';
export type { RandomBytes } from './auth/caller-token.js';
export { createCallerAuthenticator, readBearerToken } from './auth/caller-authenticator.js';
export type { CallerAuthenticatorOptions } from './auth/caller-authenticator.js';
export { createAdminAuthenticator } from './auth/admin-authenticator.js';
export { createSecretReader } from './secret-resolver.js';
export type { SecretReader, SecretReaderOptions } from './secret-resolver.js';

// HTTP
export { createRequestObserver } from './http/access-log.js';
export type { AccessLogEntry, RequestObserverOptions } from './http/access-log.js';
export { createRequestScope, createRequestTrace } from './http/request-scope.js';
export type { RequestScope, RequestTrace } from './http/request-scope.js';
export { createOverloadGuard } from './http/overload-guard.js';
export type { OverloadGuard, OverloadGuardOptions } from './http/overload-guard.js';
export { DEFAULT_BODY_MAX_BYTES, readJsonBody, readJsonText } from './http/json-body-reader.js';
export { limitConnectionsPerPeer, toHttpServerOptions } from './http/http-server-limits.js';
export type {
  HttpServerLimits,
  PeerConnectionLimit,
  PeerConnectionLimitOptions,
} from './http/http-server-limits.js';

// Metrics and logs
export { createRelayMetrics, toMethodLabel, toStatusClass } from './metrics/relay-metrics.js';
export type {
  IdentityCooldownGauge,
  IdentityRateGauge,
  MetricsGaugeSources,
  RelayMetrics,
  RelayMetricsOptions,
  RelayRequestFacts,
  RelayRequestSource,
  UpstreamCharge,
  UpstreamLane,
} from './metrics/relay-metrics.js';
export { METRICS_PATH, createMetricsRoute } from './metrics/metrics-route.js';
export { toRelayRequestFacts, toRelaySource } from './metrics/relay-request-facts.js';
export {
  instrumentIdentityPool,
  instrumentTransport,
  toUpstreamLane,
} from './metrics/upstream-instrumentation.js';
export type { TransportInstrumentationOptions } from './metrics/upstream-instrumentation.js';

// Audit
export type { AuditCacheResult, AuditRecord } from './audit/audit-record.js';
export { createAuditWriter } from './audit/audit-writer.js';
export type {
  AuditWriter,
  AuditWriterOptions,
  AuditWriterProblem,
  ScheduleOnce,
} from './audit/audit-writer.js';
export { createAuditRetention } from './audit/audit-retention.js';
export type {
  AuditRetention,
  AuditRetentionOptions,
  ScheduleEvery,
} from './audit/audit-retention.js';

// Storage
export { DatabaseOpenError, openSqliteDatabase } from './storage/sqlite-database.js';
export type { OpenDatabaseOptions, RelayDatabase } from './storage/sqlite-database.js';
export { openPostgresDatabase } from './storage/postgres-database.js';
export type { OpenPostgresOptions, PostgresProblemCode } from './storage/postgres-database.js';
export { openRelayDatabase } from './storage/open-relay-database.js';
export { describeDatabaseLocation, parseDatabaseUrl } from './storage/database-location.js';
export type { DatabaseLocation, DatabaseLocationError } from './storage/database-location.js';
export type { DatabaseDialect } from './storage/relay-database.js';
export { NO_WRITE_LOCK, POSTGRES_WRITE_LOCK } from './storage/write-lock.js';
export type { WriteLock, WriteLockName } from './storage/write-lock.js';
export { isDatabaseUnavailableError } from './storage/database-unavailable.js';
export type { DatabaseSchema } from './storage/database-schema.js';
export { createMigrationProvider, createMigrations } from './storage/migrations.js';
export type { MigrationOptions } from './storage/migrations.js';
export { ensurePool, findPool } from './storage/pool-store.js';
export type { DatabaseHandle, StoredPool } from './storage/pool-store.js';
export { createCallerStore } from './storage/caller-store.js';
export type {
  CallerClient,
  CallerStore,
  CallerStoreOptions,
  Enrollment,
  EnrollmentError,
  EnrollmentErrorCode,
  EnrollmentInput,
  TokenOwner,
} from './storage/caller-store.js';
export { createIdentityStore } from './storage/identity-store.js';
export type { IdentityConflict, IdentityStore, IdentityUpsert } from './storage/identity-store.js';
export { createStringRewriteStore } from './storage/string-rewrite-store.js';
export type {
  PolicyUnavailable,
  RevisionConflict,
  StringRewriteStore,
} from './storage/string-rewrite-store.js';
export { createAuditStore } from './storage/audit-store.js';
export type { AuditStore } from './storage/audit-store.js';
export { queryPoolStats } from './storage/stats-query.js';
export type { StatsFigures, StatsQuery } from './storage/stats-query.js';
export { createSqliteCacheStore } from './cache/sqlite-cache-store.js';

// The relay pipeline (POST /v1/forge/request)
export { createRelayPipeline, statusOfFailure } from './pipeline/relay-pipeline.js';
export type {
  PipelineCaller,
  RelayPipeline,
  RelayPipelineDeps,
  RelayPipelineInput,
  RelayPipelineOutcome,
} from './pipeline/relay-pipeline.js';
export { RELAY_REQUEST_PATH, createRelayRoute } from './pipeline/relay-route.js';
export type { RelayRouteOptions } from './pipeline/relay-route.js';
export { createRelayPipelineDeps } from './pipeline/pipeline-wiring.js';
export type { RelayPipelineWiring } from './pipeline/pipeline-wiring.js';
export { failWith, fallBackLocal } from './pipeline/pipeline-failure.js';
export type {
  PipelineError,
  PipelineFailure,
  PipelineFallback,
} from './pipeline/pipeline-failure.js';
export { createPoolPolicyCache } from './pipeline/pool-policy-cache.js';
export type { PoolPolicyCache, PoolPolicyCacheOptions } from './pipeline/pool-policy-cache.js';
export { createVisibilityGuard } from './pipeline/visibility-guard.js';
export type { VisibilityGuard, VisibilityGuardOptions } from './pipeline/visibility-guard.js';
export { createRewriteSnapshotLoader, passesStructuralCheck } from './pipeline/rewrite-snapshot.js';
export type { RewriteSnapshot, RewriteSnapshotLoader } from './pipeline/rewrite-snapshot.js';
export { buildEnvelope } from './pipeline/envelope-builder.js';
export type { EnvelopeAnswer, EnvelopeFacts } from './pipeline/envelope-builder.js';

// Configuration and start-up
export { formatConfigError, loadServerConfig } from './server-config.js';
export type { ConfigError, ServerConfig } from './server-config.js';
export { startServer } from './start-server.js';
export type { RunningServer, StartServerOptions } from './start-server.js';
export { MIN_CLI_VERSION, SERVER_VERSION } from './version.js';
