import type { ErrorCode, FallbackReason, RouteKind, UpstreamSource } from '@relay/protocol';

/** How a request was answered from the shared cache (`relay.cache`), when it reached it. */
export type AuditCacheResult = 'hit' | 'stale' | 'miss' | 'bypass';

/**
 * One audit row: one validated request from an authenticated caller to an existing pool
 * (SPEC.md "Audit record"). No URL, query value, body or credential has a field here.
 *
 * The "bounded backend classification" is `backend` (who did upstream work: `forge_web`,
 * anonymous `forge_api` including 304 validations, `forge_identity`; absent for a cache-only
 * answer), `cacheResult`, `cacheable` and `coalesced` (a miss served by another request's
 * upstream call). `clientId` is the caller's client that sent the request.
 */
export interface AuditRecord {
  readonly requestId: string;
  /** When the request was received, epoch milliseconds. */
  readonly occurredAt: number;
  readonly poolId: string;
  readonly callerId: string;
  readonly clientId: string | null;
  /** The route key (route kind and its owner/repo parameters), never a URL or query. */
  readonly routeKey: string | null;
  readonly routeKind: RouteKind | null;
  readonly identityId: string | null;
  /** The envelope's upstream status, or the relay error's HTTP status. */
  readonly status: number;
  readonly errorCode: ErrorCode | null;
  /** The reason of a 424 `fallback_local`. */
  readonly fallbackReason: FallbackReason | null;
  readonly backend: UpstreamSource | null;
  readonly cacheResult: AuditCacheResult | null;
  readonly cacheable: boolean;
  readonly coalesced: boolean;
  readonly durationMs: number;
}
