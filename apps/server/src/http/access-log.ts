import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { AppEnv, AuthenticatedCaller } from '../app-env.js';
import type { RelayMetrics, RelayRequestSource } from '../metrics/relay-metrics.js';
import { toRelayRequestFacts } from '../metrics/relay-request-facts.js';
import { createRequestTrace, type RequestScope } from './request-scope.js';

/** The route pattern of POST /v1/forge/request. */
const RELAY_ROUTE = '/v1/forge/request';

/**
 * One structured log line per request. It names the route pattern (`/v1/pools/:pool/stats`),
 * never the path's values, the query, a header or a body. The relay endpoint's line adds what
 * its audit row knows (pool, route kind, source, identity id); ids are the relay's own (request,
 * caller, identity), codes come from the catalogue.
 */
export interface AccessLogEntry {
  readonly level: 'info' | 'warn' | 'error';
  readonly msg: 'request';
  readonly request_id: string;
  readonly method: string;
  readonly route: string;
  /** The relay's HTTP status. */
  readonly status: number;
  readonly duration_ms: number;
  /** Upstream requests sent for this request (forge reads of the relay, login, provisioning). */
  readonly upstream_requests: number;
  /** The authenticated caller's id (caller surfaces and the relay endpoint). */
  readonly caller_id?: string;
  /** The pool of a relay request that passed the audit boundary (a validated, granted pool). */
  readonly pool?: string;
  /** The relay request's route kind, when classified. */
  readonly route_kind?: string;
  /** How the relay request was answered (the `source` label of `relay_requests_total`). */
  readonly source?: RelayRequestSource;
  /** The envelope's upstream status, when the relay answered with an envelope. */
  readonly upstream_status?: number;
  /** The pooled identity that served (or was to serve) the relay request. */
  readonly identity_id?: string;
  /** The catalogue code of an error answer. */
  readonly error_code?: string;
  /** The reason of a 424 `fallback_local`. */
  readonly reason?: string;
}

/** Options of {@link createRequestObserver}. */
export interface RequestObserverOptions {
  /** The request scope each request runs in (the audit sink and the transport write to it). */
  readonly scope: RequestScope;
  /** The clock of durations, milliseconds (a monotonic one in production). */
  readonly now: () => number;
  /** The log sink: one entry per request. */
  readonly log?: ((entry: AccessLogEntry) => void) | undefined;
  /** The metrics: one HTTP request, and for the relay endpoint one relay request. */
  readonly metrics?: RelayMetrics | undefined;
}

function matchedRoute(c: Parameters<MiddlewareHandler<AppEnv>>[0]): string {
  let route: string;
  try {
    route = routePath(c, -1);
  } catch {
    route = '*';
  }
  return route === '/*' || route === '*' ? '(unmatched)' : route;
}

/**
 * Middleware that runs each request in its own {@link RequestTrace} (set as the `trace`
 * variable and as the scope's current trace), then writes its {@link AccessLogEntry} and records
 * its metrics. Only counters and histograms are touched here.
 *
 * @param options - scope, clock, log sink and metrics
 */
export function createRequestObserver(options: RequestObserverOptions): MiddlewareHandler<AppEnv> {
  const { scope, now, log, metrics } = options;
  return async (c, next) => {
    const started = now();
    const trace = createRequestTrace();
    c.set('trace', trace);
    await scope.run(trace, next);
    const status = c.res.status;
    const durationMs = Math.max(0, now() - started);
    const route = matchedRoute(c);
    const relay = route === RELAY_ROUTE;
    const facts = relay ? toRelayRequestFacts(trace, status, durationMs / 1000) : undefined;
    if (metrics !== undefined) {
      metrics.recordHttpRequest(c.req.method, route, status);
      if (facts !== undefined) metrics.recordRelayRequest(facts);
    }
    if (log === undefined) return;
    const { audit } = trace;
    const callerId =
      audit?.callerId ??
      trace.callerId ??
      (c.get('caller') as AuthenticatedCaller | undefined)?.callerId;
    const errorCode = audit?.errorCode ?? trace.errorCode;
    const reason = audit?.fallbackReason ?? trace.reason;
    log({
      level: status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info',
      msg: 'request',
      request_id: c.get('requestId'),
      method: c.req.method,
      route,
      status,
      duration_ms: Math.round(durationMs * 1000) / 1000,
      upstream_requests: trace.upstreamRequests,
      ...(callerId === undefined ? {} : { caller_id: callerId }),
      ...(audit === undefined ? {} : { pool: audit.poolId }),
      ...(audit?.routeKind == null ? {} : { route_kind: audit.routeKind }),
      ...(facts === undefined ? {} : { source: facts.source }),
      // An audited request without an error code was answered with an envelope.
      ...(audit?.errorCode === null ? { upstream_status: audit.status } : {}),
      ...(audit?.identityId == null ? {} : { identity_id: audit.identityId }),
      ...(errorCode == null ? {} : { error_code: errorCode }),
      ...(reason == null ? {} : { reason }),
    });
  };
}
