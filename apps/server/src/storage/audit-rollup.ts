import type { AuditRecord } from '../audit/audit-record.js';
import type { DatabaseSchema } from './database-schema.js';

/** The day of a time, `YYYY-MM-DD` (UTC). */
export function toDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The start of the next UTC day after `iso` (or `iso` itself when it is a midnight). */
export function nextDayStartIso(iso: string): string {
  const ms = Date.parse(iso);
  const start = Date.parse(`${iso.slice(0, 10)}T00:00:00.000Z`);
  return new Date(start === ms ? ms : start + 86_400_000).toISOString();
}

/** One pool-figure rollup row: the key and the counts of a batch (a row of `audit_daily`). */
export type PoolRollup = DatabaseSchema['audit_daily'];

/** One caller rollup row. */
export interface CallerRollup {
  pool_id: string;
  day: string;
  caller_id: string;
  requests: number;
}

/** Whether a row counts as a service error (a relay 5xx that is not a local fallback). */
export function isServiceError(record: AuditRecord): boolean {
  return record.errorCode !== null && record.errorCode !== 'fallback_local' && record.status >= 500;
}

/** Whether a row was answered from the cache (`hit` or `stale`). */
export function isCacheHit(record: AuditRecord): boolean {
  return record.cacheResult === 'hit' || record.cacheResult === 'stale';
}

/**
 * Sums a batch of audit rows into daily rollup increments (pure).
 *
 * @param records - the batch
 * @returns the increments of the pool figures and of the caller counts
 */
export function rollUp(records: readonly AuditRecord[]): {
  pools: PoolRollup[];
  callers: CallerRollup[];
} {
  const pools = new Map<string, PoolRollup>();
  const callers = new Map<string, CallerRollup>();
  for (const record of records) {
    const day = toDay(record.occurredAt);
    const key = [
      record.poolId,
      day,
      record.routeKind ?? '',
      record.backend ?? '',
      record.fallbackReason ?? '',
    ];
    const id = JSON.stringify(key);
    const row = pools.get(id) ?? {
      pool_id: record.poolId,
      day,
      route_kind: record.routeKind ?? '',
      backend: record.backend ?? '',
      fallback_reason: record.fallbackReason ?? '',
      requests: 0,
      service_errors: 0,
      local_fallbacks: 0,
      hits: 0,
      eligible: 0,
      eligible_hits: 0,
      coalesced: 0,
    };
    row.requests += 1;
    if (isServiceError(record)) row.service_errors += 1;
    if (record.errorCode === 'fallback_local') row.local_fallbacks += 1;
    if (isCacheHit(record)) row.hits += 1;
    if (record.cacheable) row.eligible += 1;
    if (record.cacheable && isCacheHit(record)) row.eligible_hits += 1;
    if (record.coalesced) row.coalesced += 1;
    pools.set(id, row);
    const callerId = JSON.stringify([record.poolId, day, record.callerId]);
    const caller = callers.get(callerId) ?? {
      pool_id: record.poolId,
      day,
      caller_id: record.callerId,
      requests: 0,
    };
    caller.requests += 1;
    callers.set(callerId, caller);
  }
  return { pools: [...pools.values()], callers: [...callers.values()] };
}
