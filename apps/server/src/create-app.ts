import { createErrorBody, statusOf } from '@relay/protocol';
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from './app-env.js';
import { createAdminAuthenticator } from './auth/admin-authenticator.js';
import { createCallerAuthenticator } from './auth/caller-authenticator.js';
import { createRequestObserver, type AccessLogEntry } from './http/access-log.js';
import { DEFAULT_BODY_MAX_BYTES, isRequestBodyPending } from './http/json-body-reader.js';
import { createRequestScope, type RequestScope } from './http/request-scope.js';
import { createMetricsRoute } from './metrics/metrics-route.js';
import type { RelayMetrics } from './metrics/relay-metrics.js';
import { createOpenApiRoute } from './openapi/openapi-route.js';
import { RelayHttpError, type RelayHttpErrorCode } from './relay-http-error.js';
import { createRequestId } from './request-id.js';
import { createCallerProvisioningRoute } from './routes/caller-provisioning-route.js';
import type { DashboardAssets } from './routes/dashboard-assets.js';
import { createDashboardRoute } from './routes/dashboard-route.js';
import { createDiscoveryRoute, type DiscoveryOptions } from './routes/discovery-route.js';
import { createIdentityRegistrationRoute } from './routes/identity-registration-route.js';
import { createLoginRoute } from './routes/login-route.js';
import { createPoolDenialsRoute } from './routes/pool-denials-route.js';
import { createPoolHealthRoute } from './routes/pool-health-route.js';
import type { IdentityStatusReader } from './routes/pool-identity-status-reader.js';
import { createPoolIdentityStatusRoute } from './routes/pool-identity-status-route.js';
import { createPoolStatsRoute } from './routes/pool-stats-route.js';
import { createStatsTimeseriesRoute } from './routes/stats-timeseries-route.js';
import {
  createStringRewriteRoute,
  noStore,
  STRING_REWRITE_PATHS,
} from './routes/string-rewrite-route.js';
import type { ServerServices } from './server-services.js';
import type { RelayPipeline, RelayPipelineDeps } from './pipeline/relay-pipeline.js';
import { createRelayRoute } from './pipeline/relay-route.js';
import { isDatabaseUnavailableError } from './storage/database-unavailable.js';
import { isSharedStateUnavailableError } from './scale/shared-state-unavailable.js';

export { RelayHttpError } from './relay-http-error.js';

/** The path of the relay pipeline, which answers overload with its own 424. */
const RELAY_REQUEST_PATH = '/v1/forge/request';

/** Everything the app is built from; no module-level singletons. */
export interface AppDependencies {
  readonly discovery: DiscoveryOptions;
  /**
   * The storage-backed surfaces (login, admin, string rewrites, health, stats). Without them
   * only discovery is served.
   */
  readonly services?: ServerServices;
  /** Makes request ids; defaults to {@link createRequestId}. */
  readonly createRequestId?: () => string;
  /** Reports an unexpected failure (never sent to the client). */
  readonly onUnexpectedError?: (error: unknown, requestId: string) => void;
  /** Receives one structured entry per request (no token, secret, body or query value). */
  readonly onLog?: (entry: AccessLogEntry) => void;
  /** The clock of request durations, milliseconds; default `performance.now`. */
  readonly elapsed?: () => number;
  /** The relay pipeline of POST /v1/forge/request; without it the endpoint is not served. */
  readonly relay?: RelayPipeline;
  /**
   * The relay pipeline's `authenticate`: with it, POST /v1/forge/request authenticates the bearer
   * token before reading the body (an unauthenticated request is answered 401 without its body
   * being read or waited for). Without it the pipeline authenticates after parsing the body.
   */
  readonly authenticateRelayCaller?: RelayPipelineDeps['authenticate'];
  /**
   * The cap on request bodies, bytes (RELAY_MAX_REQUEST_BYTES): every endpoint that reads a
   * body answers 413 `payload_too_large` past it, except the string-rewrite PUT (65,536 by
   * SPEC.md). Default 16 KiB.
   */
  readonly maxRequestBytes?: number;
  /**
   * The request scope every request runs in: the audit sink and the forge transport add to the
   * current request's trace through it (its upstream count, its audit row). Default: a scope of
   * the app's own.
   */
  readonly requestScope?: RequestScope;
  /** The relay's metrics: counted per request, and served by GET /metrics with a token. */
  readonly metrics?: RelayMetrics;
  /**
   * RELAY_METRICS_TOKEN: the bearer token of GET /metrics. Without it (or without `metrics`)
   * /metrics is not served (404 `not_found`, like any unknown path).
   */
  readonly metricsToken?: string | undefined;
  /**
   * The built stats dashboard, served at /dashboard/ (README "Dashboard"). Without it
   * /dashboard/ is not served.
   */
  readonly dashboard?: DashboardAssets | undefined;
  /**
   * The quota and cooldowns of identities (the coordinator's), for GET
   * /v1/pools/:pool/identities. Without it every identity reports none.
   */
  readonly identityStatus?: IdentityStatusReader;
}

function errorResponse(c: Context<AppEnv>, code: RelayHttpErrorCode, message?: string) {
  const requestId = c.get('requestId');
  const trace = c.get('trace');
  if (trace !== undefined) trace.errorCode = code;
  const headers: Record<string, string> = { 'x-relay-request-id': requestId };
  if (code === 'unauthorized') headers['www-authenticate'] = 'Bearer';
  // Refused before its body arrived (authentication, size, overload): close the connection after
  // the answer instead of waiting for the rest of a body nobody will read.
  if (isRequestBodyPending(c)) headers.connection = 'close';
  const status = statusOf(code) as ContentfulStatusCode;
  return c.json(
    createErrorBody(code, { requestId, ...(message === undefined ? {} : { message }) }),
    status,
    headers,
  );
}

/**
 * Builds the relay's Hono app. Every response carries `x-relay-request-id`; errors use the
 * DESIGN.md §3 body, mapped once in `onError` from the protocol catalogue.
 *
 * @param deps - discovery settings, the services of the storage-backed surfaces, request ids,
 *   the unexpected-error sink and the access log
 * @example
 * ```ts
 * const app = createApp({ discovery, services: createServerServices(database, options) });
 * const response = await app.request('/v1/pools/default/health', { headers: { authorization } });
 * ```
 */
export function createApp(deps: AppDependencies): Hono<AppEnv> {
  const makeId = deps.createRequestId ?? createRequestId;
  const maxRequestBytes = deps.maxRequestBytes ?? DEFAULT_BODY_MAX_BYTES;
  const app = new Hono<AppEnv>();

  app.use(async (c, next) => {
    const requestId = makeId();
    c.set('requestId', requestId);
    c.set('maxRequestBytes', maxRequestBytes);
    // Set before the handler, so every response built through the context carries it without
    // rebuilding its headers; checked after, for a response built some other way.
    c.header('x-relay-request-id', requestId);
    await next();
    if (c.res.headers.get('x-relay-request-id') !== requestId) {
      c.res.headers.set('x-relay-request-id', requestId);
    }
  });
  if (deps.onLog !== undefined || deps.metrics !== undefined) {
    app.use(
      createRequestObserver({
        scope: deps.requestScope ?? createRequestScope(),
        now: deps.elapsed ?? (() => performance.now()),
        log: deps.onLog,
        metrics: deps.metrics,
      }),
    );
  }

  app.route('/', createDiscoveryRoute(deps.discovery));
  app.route('/', createOpenApiRoute());
  if (deps.metrics !== undefined && deps.metricsToken !== undefined) {
    app.route('/', createMetricsRoute(deps.metrics, deps.metricsToken));
  }
  if (deps.dashboard !== undefined) app.route('/', createDashboardRoute(deps.dashboard));

  const services = deps.services;
  if (services !== undefined) {
    // Outside the overload guard, so that its 503 carries `no-store` too.
    for (const path of STRING_REWRITE_PATHS) app.use(path, noStore);
    app.use('/v1/*', async (c, next) => {
      if (c.req.path === RELAY_REQUEST_PATH) await next();
      else await services.overload.run(next);
    });
    app.use('/v1/admin/*', createAdminAuthenticator(services.settings.adminToken));
    const invalidateCallerLookups = services.invalidateCallerLookups;
    if (invalidateCallerLookups !== undefined) {
      // An admin write (whatever it changed) takes effect for callers at their next request.
      app.use('/v1/admin/*', async (c, next) => {
        try {
          await next();
        } finally {
          if (c.req.method !== 'GET' && c.req.method !== 'HEAD') invalidateCallerLookups();
        }
      });
    }
    app.use(
      '/v1/pools/:pool/*',
      createCallerAuthenticator({ callers: services.callers, now: services.now }),
    );
    app.route('/', createLoginRoute(services));
    app.route('/', createCallerProvisioningRoute(services));
    app.route('/', createIdentityRegistrationRoute(services));
    app.route('/', createStringRewriteRoute(services));
    app.route('/', createPoolHealthRoute(services));
    app.route('/', createPoolStatsRoute(services));
    app.route('/', createStatsTimeseriesRoute(services));
    app.route('/', createPoolIdentityStatusRoute(services, deps.identityStatus));
    app.route('/', createPoolDenialsRoute(services));
  }

  if (deps.relay !== undefined) {
    app.route(
      '/',
      createRelayRoute(
        deps.relay,
        deps.authenticateRelayCaller === undefined
          ? {}
          : { authenticate: deps.authenticateRelayCaller },
      ),
    );
  }

  app.notFound((c) => errorResponse(c, 'not_found'));

  app.onError((error, c) => {
    if (error instanceof RelayHttpError) return errorResponse(c, error.code, error.publicMessage);
    // The database server is unreachable or refusing work (PostgreSQL down, restarting, out of
    // connections): a typed 503 the client retries, not an internal error; the pool reconnects
    // by itself when the server is back.
    if (isDatabaseUnavailableError(error)) return errorResponse(c, 'relay_overloaded');
    // So is the replicas' shared state on Redis (coordinator, pace ledger): README "Scaling out".
    if (isSharedStateUnavailableError(error)) return errorResponse(c, 'relay_overloaded');
    deps.onUnexpectedError?.(error, c.get('requestId'));
    return errorResponse(c, 'internal_error');
  });

  return app;
}
