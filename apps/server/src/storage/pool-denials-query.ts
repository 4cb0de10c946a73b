import type { Kysely } from 'kysely';
import type { DatabaseSchema } from './database-schema.js';

/** What {@link queryPoolDenials} reads. */
export interface DenialsQuery {
  readonly poolId: string;
  /** The start of the window, ISO 8601 UTC. */
  readonly sinceIso: string;
  /** The most rows, newest first. */
  readonly limit: number;
}

/** One refused request: codes and times only (an audit row's fields, no route key). */
export interface DenialRow {
  readonly requestId: string;
  readonly occurredAt: string;
  readonly status: number;
  readonly errorCode: string;
  readonly fallbackReason: string | null;
  readonly routeKind: string | null;
}

/**
 * The pool's most recent refused requests: audit rows with an error code and a 4xx status (a
 * policy denial or a 424 `fallback_local`; service errors are not denials), newest first. The
 * route key (owner and repository) is not read.
 *
 * @param db - the database
 * @param query - pool, window start and row limit
 */
export async function queryPoolDenials(
  db: Kysely<DatabaseSchema>,
  query: DenialsQuery,
): Promise<DenialRow[]> {
  const rows = await db
    .selectFrom('audit')
    .where('pool_id', '=', query.poolId)
    .where('occurred_at', '>=', query.sinceIso)
    .where('error_code', 'is not', null)
    .where('status', '>=', 400)
    .where('status', '<', 500)
    .select(['request_id', 'occurred_at', 'status', 'error_code', 'fallback_reason', 'route_kind'])
    .orderBy('occurred_at', 'desc')
    .orderBy('request_id', 'desc')
    .limit(query.limit)
    .execute();
  return rows.map((row) => ({
    requestId: row.request_id,
    occurredAt: row.occurred_at,
    status: row.status,
    errorCode: row.error_code ?? '',
    fallbackReason: row.fallback_reason,
    routeKind: row.route_kind,
  }));
}
