import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from './database-schema.js';

/** The bucket widths of a time series, milliseconds by label. */
export const TIMESERIES_BUCKETS = {
  '5m': 300_000,
  '15m': 900_000,
  '1h': 3_600_000,
  '6h': 21_600_000,
  '1d': 86_400_000,
} as const;

/** A bucket width label (`5m`, `15m`, `1h`, `6h`, `1d`). */
export type TimeseriesBucket = keyof typeof TIMESERIES_BUCKETS;

/** The most buckets one series may have (30 days of hours is 720). */
export const MAX_TIMESERIES_BUCKETS = 750;

/** What {@link queryStatsTimeseries} reads. */
export interface TimeseriesQuery {
  readonly poolId: string;
  /** The start of the window, epoch milliseconds. */
  readonly sinceMs: number;
  /** The end of the window (now), epoch milliseconds. */
  readonly untilMs: number;
  /** The bucket width, milliseconds: a whole number of minutes dividing a day. */
  readonly bucketMs: number;
}

/** The figures of one bucket. */
export interface TimeseriesPoint {
  /** The bucket's start, epoch milliseconds (a multiple of the width since the epoch). */
  readonly startMs: number;
  readonly requests: number;
  /** Answered from the shared cache (`hit` or `stale`). */
  readonly hits: number;
  /** Answers that spent no pooled identity's quota (cache, web, anonymous API). */
  readonly free: number;
  /** Requests a pooled identity was charged for (backend `forge_identity`). */
  readonly paid: number;
  readonly localFallbacks: number;
  readonly serviceErrors: number;
}

const count = (value: unknown): number => Number(value ?? 0);

/**
 * Counts one pool's audit rows in `[sinceMs, untilMs]` per time bucket (portable SQL): the rows
 * are grouped by their minute, or their hour for widths of an hour or more (a prefix of the
 * fixed-width ISO text, through the `audit_pool_window` index), then summed into buckets here.
 * Every bucket of the window is returned, empty ones included, oldest first.
 *
 * @param db - the database
 * @param query - pool, window and bucket width
 */
export async function queryStatsTimeseries(
  db: Kysely<DatabaseSchema>,
  query: TimeseriesQuery,
): Promise<TimeseriesPoint[]> {
  const hourly = query.bucketMs % 3_600_000 === 0;
  const prefix = hourly ? 13 : 16;
  const sinceIso = new Date(query.sinceMs).toISOString();
  const rows = await db
    .selectFrom('audit')
    .where('pool_id', '=', query.poolId)
    .where('occurred_at', '>=', sinceIso)
    .select([
      sql<string>`substr(occurred_at, 1, ${sql.lit(prefix)})`.as('slot'),
      sql<number | string>`count(*)`.as('requests'),
      sql<number | string>`sum(case when cache_result in ('hit', 'stale') then 1 else 0 end)`.as(
        'hits',
      ),
      sql<
        number | string
      >`sum(case when error_code is null and (backend is null or backend <> 'forge_identity') then 1 else 0 end)`.as(
        'free',
      ),
      sql<number | string>`sum(case when backend = 'forge_identity' then 1 else 0 end)`.as('paid'),
      sql<number | string>`sum(case when error_code = 'fallback_local' then 1 else 0 end)`.as(
        'local_fallbacks',
      ),
      sql<
        number | string
      >`sum(case when error_code is not null and error_code <> 'fallback_local' and status >= 500 then 1 else 0 end)`.as(
        'service_errors',
      ),
    ])
    .groupBy('slot')
    .execute();

  const first = Math.floor(query.sinceMs / query.bucketMs) * query.bucketMs;
  const last = Math.floor(query.untilMs / query.bucketMs) * query.bucketMs;
  const points = new Map<number, { -readonly [K in keyof TimeseriesPoint]: TimeseriesPoint[K] }>();
  for (let start = first; start <= last; start += query.bucketMs) {
    points.set(start, {
      startMs: start,
      requests: 0,
      hits: 0,
      free: 0,
      paid: 0,
      localFallbacks: 0,
      serviceErrors: 0,
    });
  }
  for (const row of rows) {
    const slotMs = Date.parse(hourly ? `${row.slot}:00:00.000Z` : `${row.slot}:00.000Z`);
    const point = points.get(Math.floor(slotMs / query.bucketMs) * query.bucketMs);
    if (point === undefined) continue;
    point.requests += count(row.requests);
    point.hits += count(row.hits);
    point.free += count(row.free);
    point.paid += count(row.paid);
    point.localFallbacks += count(row.local_fallbacks);
    point.serviceErrors += count(row.service_errors);
  }
  return [...points.values()];
}
