import type { AuditRecord } from '../audit/audit-record.js';
import type { RequestTrace } from '../http/request-scope.js';
import type { RelayRequestFacts, RelayRequestSource } from './relay-metrics.js';

/**
 * The source of an audited relay request (see {@link RelayRequestSource}): its error or
 * fallback first, then stale, coalesced and cache hits, then the lane that did the upstream work.
 *
 * @param audit - the request's audit row
 */
export function toRelaySource(audit: AuditRecord): RelayRequestSource {
  if (audit.fallbackReason !== null) return 'fallback';
  if (audit.errorCode !== null) return 'error';
  if (audit.cacheResult === 'stale') return 'stale';
  if (audit.coalesced) return 'coalesced';
  if (audit.cacheResult === 'hit' && audit.backend === null) return 'cache_hit';
  if (audit.backend === 'forge_web') return 'web';
  // An authenticated 304 refresh is audited as backend forge_api with its identity.
  if (audit.identityId !== null || audit.backend === 'forge_identity') return 'identity';
  if (audit.backend === 'forge_api') return 'anonymous';
  return 'none';
}

/**
 * The metric facts of one finished relay request: from its audit row when it passed the audit
 * boundary, else from the error it was answered with (parse, authentication, grant and
 * string-protection refusals come before the boundary).
 *
 * @param trace - what the request gathered
 * @param httpStatus - the status of the relay's response
 * @param durationSeconds - time to answer
 */
export function toRelayRequestFacts(
  trace: RequestTrace,
  httpStatus: number,
  durationSeconds: number,
): RelayRequestFacts {
  const { audit } = trace;
  if (audit !== undefined) {
    return {
      routeKind: audit.routeKind ?? 'none',
      status: audit.status,
      source: toRelaySource(audit),
      reason: audit.fallbackReason ?? audit.errorCode ?? '',
      coalesced: audit.coalesced,
      durationSeconds,
    };
  }
  const fallback = trace.errorCode === 'fallback_local';
  return {
    routeKind: 'none',
    status: httpStatus,
    source: trace.errorCode === undefined ? 'none' : fallback ? 'fallback' : 'error',
    reason: (fallback ? trace.reason : trace.errorCode) ?? '',
    coalesced: false,
    durationSeconds,
  };
}
