import type { AuditRecord } from '../audit-record.js';

/**
 * The `i`-th audit row of the audit tests: a cache hit on `repo_view:octo/hello` in pool
 * `default`, request id `req-<i>`, at 2030-01-01 plus `i` milliseconds.
 *
 * @param i - the row's number
 */
export function auditRecord(i: number): AuditRecord {
  return {
    requestId: `req-${String(i)}`,
    occurredAt: Date.UTC(2030, 0, 1) + i,
    poolId: 'default',
    callerId: 'cal_1',
    clientId: 'cli_1',
    routeKey: 'repo_view:octo/hello',
    routeKind: 'repo_view',
    identityId: null,
    status: 200,
    errorCode: null,
    fallbackReason: null,
    backend: null,
    cacheResult: 'hit',
    cacheable: true,
    coalesced: false,
    durationMs: 1.4,
  };
}
