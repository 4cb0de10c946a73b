import {
  DEFAULT_STATS_WINDOW,
  ERROR_CODES,
  FALLBACK_REASONS,
  ROUTE_KINDS,
  parseStatsWindow,
  poolIdSchema,
  statsWindowSchema,
  utcTimestampSchema,
} from '@relay/protocol';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../app-env.js';
import { RelayHttpError } from '../relay-http-error.js';
import type { ServerServices } from '../server-services.js';
import { queryPoolDenials } from '../storage/pool-denials-query.js';
import { toIso } from './policy-snapshot.js';

/** The path of the recent denials. */
export const POOL_DENIALS_PATH = '/v1/pools/:pool/denials';

/** The default and the largest number of rows. */
export const DEFAULT_DENIALS_LIMIT = 50;
export const MAX_DENIALS_LIMIT = 200;

/** The query of GET /v1/pools/:pool/denials (unknown parameters are refused). */
export const poolDenialsQuerySchema = z.strictObject({
  window: statsWindowSchema.optional(),
  limit: z
    .string()
    .regex(/^[1-9]\d{0,2}$/)
    .transform(Number)
    .pipe(z.int().min(1).max(MAX_DENIALS_LIMIT))
    .optional(),
});

/** One refused request: its id, time, status and codes; never its route key, path or query. */
export const poolDenialSchema = z.strictObject({
  request_id: z.string(),
  occurred_at: utcTimestampSchema,
  status: z.int().min(400).max(499),
  error_code: z.enum(ERROR_CODES),
  fallback_reason: z.enum(FALLBACK_REASONS).nullable(),
  route_kind: z.enum(ROUTE_KINDS).nullable(),
});

/** The answer of GET /v1/pools/:pool/denials. */
export const poolDenialsSchema = z.strictObject({
  pool: poolIdSchema,
  window: z.string(),
  since: utcTimestampSchema,
  denials: z.array(poolDenialSchema),
});

/** The answer of GET /v1/pools/:pool/denials. */
export type PoolDenials = z.infer<typeof poolDenialsSchema>;

const isOneOf = <T extends string>(values: readonly T[], value: string | null): value is T =>
  value !== null && (values as readonly string[]).includes(value);

/**
 * GET /v1/pools/:pool/denials?window=24h&limit=50 (a granted caller): the pool's most recent
 * refused requests, newest first: 4xx audit rows with an error code (policy denials and 424
 * `fallback_local`). Only the request id, time, status, error code, fallback reason and route
 * kind are given: no caller, route key, path, query value or pattern. `window` as for stats
 * (default 24h); `limit` 1-200 (default 50); anything else is 400 `invalid_request`.
 */
export function createPoolDenialsRoute(services: ServerServices): Hono<AppEnv> {
  const route = new Hono<AppEnv>();
  route.get(POOL_DENIALS_PATH, async (c) => {
    const poolId = c.req.param('pool');
    const query = poolDenialsQuerySchema.safeParse(c.req.query());
    if (!query.success) throw new RelayHttpError('invalid_request');
    const window = parseStatsWindow(query.data.window ?? DEFAULT_STATS_WINDOW);
    if (!window.ok) throw new RelayHttpError('invalid_request');
    const since = toIso(services.now() - window.value.ms);
    const rows = await queryPoolDenials(services.db, {
      poolId,
      sinceIso: since,
      limit: query.data.limit ?? DEFAULT_DENIALS_LIMIT,
    });
    const body: PoolDenials = {
      pool: poolId,
      window: window.value.label,
      since,
      denials: rows.flatMap((row) =>
        isOneOf(ERROR_CODES, row.errorCode)
          ? [
              {
                request_id: row.requestId,
                occurred_at: row.occurredAt,
                status: row.status,
                error_code: row.errorCode,
                fallback_reason: isOneOf(FALLBACK_REASONS, row.fallbackReason)
                  ? row.fallbackReason
                  : null,
                route_kind: isOneOf(ROUTE_KINDS, row.routeKind) ? row.routeKind : null,
              },
            ]
          : [],
      ),
    };
    return c.json(body, 200);
  });
  return route;
}
