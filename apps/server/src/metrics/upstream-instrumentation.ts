import type { ForgeRequest, ForgeTransport } from '@relay/forge-transport';
import type { IdentityPool } from '@relay/identity-pool';
import type { RequestScope } from '../http/request-scope.js';
import { toStatusClass, type RelayMetrics, type UpstreamLane } from './relay-metrics.js';

/** Options of {@link instrumentTransport}. */
export interface TransportInstrumentationOptions {
  /** Counts each request on the trace of the request it runs for (the log line's figure). */
  readonly scope: RequestScope;
  /**
   * Records requests, their latency and the token-free lanes' answers. Absent: only the trace
   * count (login and provisioning reads, whose credential is the caller's own or a provisioning
   * identity's, are not lanes of the relay).
   */
  readonly metrics?: RelayMetrics;
  /** A monotonic clock, milliseconds. Default `performance.now`. */
  readonly elapsed?: () => number;
}

/**
 * The lane of an upstream request: the API with or without a pooled credential, or the
 * token-free host.
 *
 * @param request - the transport request
 */
export function toUpstreamLane(
  request: Pick<ForgeRequest, 'host' | 'authorization'>,
): UpstreamLane {
  if (request.host !== 'api') return request.host;
  return request.authorization === undefined ? 'anonymous' : 'identity';
}

/**
 * Wraps the forge transport so that every request is counted on the current request's trace and,
 * with `metrics`, by lane and outcome with its latency. Token-free answers are counted here
 * (anonymous API answers charged to the relay address's quota, public pages free); pooled
 * answers are counted by {@link instrumentIdentityPool}, which knows the identity. Nothing of the
 * request (path, query, headers, credential) is read besides its host and whether it carries a
 * credential.
 *
 * @param transport - the transport to wrap
 * @param options - scope, metrics and clock
 */
export function instrumentTransport<T extends Pick<ForgeTransport, 'request'>>(
  transport: T,
  options: TransportInstrumentationOptions,
): T {
  const { scope, metrics } = options;
  const elapsed = options.elapsed ?? (() => performance.now());
  const request: ForgeTransport['request'] = async (forgeRequest) => {
    const trace = scope.current();
    if (trace !== undefined) trace.upstreamRequests++;
    if (metrics === undefined) return transport.request(forgeRequest);
    const lane = toUpstreamLane(forgeRequest);
    const started = elapsed();
    const result = await transport.request(forgeRequest);
    const seconds = Math.max(0, elapsed() - started) / 1000;
    metrics.recordUpstreamRequest(
      lane,
      result.ok ? toStatusClass(result.value.status) : result.error.code,
      seconds,
    );
    if (result.ok && lane !== 'identity') {
      metrics.recordUpstreamAnswer(lane, '', lane === 'anonymous' ? 'charged' : 'free');
    }
    return result;
  };
  return { ...transport, request };
}

/**
 * Wraps the relay's identity pool so that every reported upstream answer of a pooled identity is
 * counted by identity id and charge: a 304 (a conditional refresh of the identity's own entry)
 * is free, every other answer is charged. Transport errors are not answers.
 *
 * @param pool - the identity pool of the relay pipeline
 * @param metrics - the relay's metrics
 */
export function instrumentIdentityPool(pool: IdentityPool, metrics: RelayMetrics): IdentityPool {
  return {
    select: (request, exclude) => pool.select(request, exclude),
    acquire: (request) => pool.acquire(request),
    report: (report) => {
      if (report.outcome.kind === 'response') {
        metrics.recordUpstreamAnswer(
          'identity',
          report.identity.id,
          report.outcome.status === 304 ? 'free' : 'charged',
        );
      }
      return pool.report(report);
    },
  };
}
