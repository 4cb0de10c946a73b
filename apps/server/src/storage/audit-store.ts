import type { Kysely } from 'kysely';
import type { AuditRecord } from '../audit/audit-record.js';
import { rollUp } from './audit-rollup.js';
import type { DatabaseSchema } from './database-schema.js';

/** Orders rollup keys column by column (code unit order, as both engines' text keys agree). */
function compareKeys(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < a.length; i++) {
    const left = a[i] ?? '';
    const right = b[i] ?? '';
    if (left !== right) return left < right ? -1 : 1;
  }
  return 0;
}

/** Audit row storage. */
export interface AuditStore {
  /**
   * Inserts a batch of rows and adds them to the daily rollups, in one transaction. Request
   * ids are unique: a batch holding a stored request id fails as a whole.
   */
  insertBatch(records: readonly AuditRecord[]): Promise<void>;
  /**
   * Deletes at most `limit` rows that occurred before `cutoffIso`.
   *
   * @returns how many rows were deleted
   */
  deleteOlderThan(cutoffIso: string, limit: number): Promise<number>;
  /** Deletes the daily rollups of days before `day` (`YYYY-MM-DD`). */
  deleteRollupsBefore(day: string): Promise<void>;
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
      const rollup = rollUp(records);
      // Replicas add to the same rollup rows: upserting them in one order (by key) means two
      // batches wait for each other's row locks instead of deadlocking on PostgreSQL.
      const pools = rollup.pools.sort((a, b) =>
        compareKeys(
          [a.pool_id, a.day, a.route_kind, a.backend, a.fallback_reason],
          [b.pool_id, b.day, b.route_kind, b.backend, b.fallback_reason],
        ),
      );
      const callers = rollup.callers.sort((a, b) =>
        compareKeys([a.pool_id, a.day, a.caller_id], [b.pool_id, b.day, b.caller_id]),
      );
      await db.transaction().execute(async (trx) => {
        await trx
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
          .execute();
        await trx
          .insertInto('audit_daily')
          .values(pools)
          .onConflict((oc) =>
            oc
              .columns(['pool_id', 'day', 'route_kind', 'backend', 'fallback_reason'])
              .doUpdateSet((eb) => ({
                requests: eb('audit_daily.requests', '+', eb.ref('excluded.requests')),
                service_errors: eb(
                  'audit_daily.service_errors',
                  '+',
                  eb.ref('excluded.service_errors'),
                ),
                local_fallbacks: eb(
                  'audit_daily.local_fallbacks',
                  '+',
                  eb.ref('excluded.local_fallbacks'),
                ),
                hits: eb('audit_daily.hits', '+', eb.ref('excluded.hits')),
                eligible: eb('audit_daily.eligible', '+', eb.ref('excluded.eligible')),
                eligible_hits: eb(
                  'audit_daily.eligible_hits',
                  '+',
                  eb.ref('excluded.eligible_hits'),
                ),
                coalesced: eb('audit_daily.coalesced', '+', eb.ref('excluded.coalesced')),
              })),
          )
          .execute();
        await trx
          .insertInto('audit_daily_callers')
          .values(callers)
          .onConflict((oc) =>
            oc.columns(['pool_id', 'day', 'caller_id']).doUpdateSet((eb) => ({
              requests: eb('audit_daily_callers.requests', '+', eb.ref('excluded.requests')),
            })),
          )
          .execute();
      });
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

    async deleteRollupsBefore(day) {
      await db.deleteFrom('audit_daily').where('day', '<', day).execute();
      await db.deleteFrom('audit_daily_callers').where('day', '<', day).execute();
    },
  };
}
