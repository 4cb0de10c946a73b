import {
  DEFAULT_STATS_WINDOW,
  poolIdSchema,
  statsWindowSchema,
  parseStatsWindow,
  utcTimestampSchema,
} from '@relay/protocol';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../app-env.js';
import { RelayHttpError } from '../relay-http-error.js';
import type { ServerServices } from '../server-services.js';
import {
  MAX_TIMESERIES_BUCKETS,
  TIMESERIES_BUCKETS,
  queryStatsTimeseries,
  type TimeseriesBucket,
} from '../storage/stats-timeseries-query.js';
import { toIso } from './policy-snapshot.js';

/** The path of the time series. */
export const STATS_TIMESERIES_PATH = '/v1/pools/:pool/stats/timeseries';

/** The default bucket width. */
export const DEFAULT_TIMESERIES_BUCKET: TimeseriesBucket = '1h';

/** The query of GET /v1/pools/:pool/stats/timeseries (unknown parameters are refused). */
export const statsTimeseriesQuerySchema = z.strictObject({
  window: statsWindowSchema.optional(),
  bucket: z
    .enum(Object.keys(TIMESERIES_BUCKETS) as [TimeseriesBucket, ...TimeseriesBucket[]])
    .optional(),
});

const countSchema = z.int().min(0);

/** One bucket of the series. */
export const timeseriesPointSchema = z.strictObject({
  start: utcTimestampSchema,
  requests: countSchema,
  hits: countSchema,
  hit_rate: z.number().min(0).max(1).nullable(),
  free: countSchema,
  paid: countSchema,
  local_fallbacks: countSchema,
  service_errors: countSchema,
});

/** The answer of GET /v1/pools/:pool/stats/timeseries. */
export const statsTimeseriesSchema = z.strictObject({
  pool: poolIdSchema,
  window: z.string(),
  bucket: z.string(),
  since: utcTimestampSchema,
  buckets: z.array(timeseriesPointSchema),
});

/** The answer of GET /v1/pools/:pool/stats/timeseries. */
export type StatsTimeseries = z.infer<typeof statsTimeseriesSchema>;

const rate = (part: number, whole: number): number | null =>
  whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000;

/**
 * GET /v1/pools/:pool/stats/timeseries?window=24h&bucket=1h (a granted caller): the pool's
 * requests per time bucket from the audit rows: cache hits and hit rate, free answers (no pooled
 * identity charged: cache, web, anonymous API) against paid ones (a pooled identity charged),
 * local fallbacks and service errors. `window` as for stats (default 24h, capped at 30 days);
 * `bucket` one of 5m, 15m, 1h, 6h, 1d (default 1h), at most 750 buckets per window; anything
 * else is 400 `invalid_request`.
 */
export function createStatsTimeseriesRoute(services: ServerServices): Hono<AppEnv> {
  const route = new Hono<AppEnv>();
  route.get(STATS_TIMESERIES_PATH, async (c) => {
    const poolId = c.req.param('pool');
    const query = statsTimeseriesQuerySchema.safeParse(c.req.query());
    if (!query.success) throw new RelayHttpError('invalid_request');
    const window = parseStatsWindow(query.data.window ?? DEFAULT_STATS_WINDOW);
    if (!window.ok) throw new RelayHttpError('invalid_request');
    const bucket = query.data.bucket ?? DEFAULT_TIMESERIES_BUCKET;
    const bucketMs = TIMESERIES_BUCKETS[bucket];
    if (window.value.ms / bucketMs > MAX_TIMESERIES_BUCKETS) {
      throw new RelayHttpError('invalid_request');
    }
    const now = services.now();
    const sinceMs = now - window.value.ms;
    const points = await queryStatsTimeseries(services.db, {
      poolId,
      sinceMs,
      untilMs: now,
      bucketMs,
    });
    const body: StatsTimeseries = {
      pool: poolId,
      window: window.value.label,
      bucket,
      since: toIso(sinceMs),
      buckets: points.map((point) => ({
        start: toIso(point.startMs),
        requests: point.requests,
        hits: point.hits,
        hit_rate: rate(point.hits, point.requests),
        free: point.free,
        paid: point.paid,
        local_fallbacks: point.localFallbacks,
        service_errors: point.serviceErrors,
      })),
    };
    return c.json(body, 200);
  });
  return route;
}
