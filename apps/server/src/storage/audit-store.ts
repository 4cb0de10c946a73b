import type { Kysely } from 'kysely';
import type { AuditRecord } from '../audit/audit-record.js';
import type { DatabaseSchema } from './database-schema.js';

/** Audit row storage. */
export interface AuditStore {
  /** Inserts a batch of rows in one statement. */
  insertBatch(records: readonly AuditRecord[]): Promise<void>;
  /**
   * Deletes at most `limit` rows that occurred before `cutoffIso`.
   *
   * @returns how many rows were deleted
   */
  deleteOlderThan(cutoffIso: string, limit: number): Promise<number>;
}

/**
 * Creates the audit store over Kysely (portable SQL).
 *
 * @param db - the database
 */
export function createAuditStore(db: Kysely<DatabaseSchema>): AuditStore {
  return {
    async insertBatch(records) {
      if (records.length === 0) return;
      await db
        .insertInto('audit')
        .values(
          records.map((record) => ({
            request_id: record.requestId,
            occurred_at: new Date(record.occurredAt).toISOString(),
            pool_id: record.poolId,
            caller_id: record.callerId,
            client_id: record.clientId,
            route_key: record.routeKey,
            route_kind: record.routeKind,
            identity_id: record.identityId,
            status: record.status,
            error_code: record.errorCode,
            fallback_reason: record.fallbackReason,
            backend: record.backend,
            cache_result: record.cacheResult,
            cacheable: record.cacheable ? 1 : 0,
            coalesced: record.coalesced ? 1 : 0,
            duration_ms: Math.max(0, Math.round(record.durationMs)),
          })),
        )
        .onConflict((oc) => oc.column('request_id').doNothing())
        .execute();
    },

    async deleteOlderThan(cutoffIso, limit) {
      const result = await db
        .deleteFrom('audit')
        .where(
          'request_id',
          'in',
          db
            .selectFrom('audit')
            .select('request_id')
            .where('occurred_at', '<', cutoffIso)
            .limit(limit),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
