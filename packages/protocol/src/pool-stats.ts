import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { FALLBACK_REASONS } from './error-catalogue.js';
import { getPoolIdSchema, getUtcTimestampSchema } from './common-schemas.js';
import { STATS_WINDOW_MAX_MS } from './limits.js';
import { err, ok, type Result } from './result.js';
import { ROUTE_KINDS } from './route-kinds.js';

const WINDOW_UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A stats window as written: a positive integer of at most 7 digits and a unit `m`, `h` or `d`. */
const STATS_WINDOW_PATTERN = /^([1-9]\d{0,6})([mhd])$/;

/** Returns {@link statsWindowSchema}, built on the first call (the same instance after). */
export const getStatsWindowSchema = /* @__PURE__ */ lazySchema(() =>
  z
    .string()
    .regex(STATS_WINDOW_PATTERN, { error: 'stats window: a positive integer and m, h or d' }),
);

/**
 * The `window` query parameter of GET /v1/pools/:pool/stats (`30m`, `24h`, `7d`), as
 * {@link parseStatsWindow} reads it (surrounding blanks aside); past 30 days it is capped.
 * Built at import; a bundle that reads only {@link getStatsWindowSchema} builds it on first use.
 */
export const statsWindowSchema = /* @__PURE__ */ getStatsWindowSchema();

/** The default stats window. */
export const DEFAULT_STATS_WINDOW = '24h';

/** A parsed stats window. */
export interface StatsWindow {
  /** The window as written, normalized (`30m`, `24h`, `7d`). */
  readonly label: string;
  /** Its length in milliseconds, at most 30 days. */
  readonly ms: number;
}

/**
 * Parses a stats window: a positive integer and a unit of `m`, `h` or `d` (`30m`, `24h`, `7d`).
 * A window past 30 days is capped at 30 days.
 */
export function parseStatsWindow(value: string): Result<StatsWindow, { code: 'invalid_window' }> {
  const match = STATS_WINDOW_PATTERN.exec(value.trim());
  if (match === null) return err({ code: 'invalid_window' });
  const amount = Number(match[1]);
  const unit = match[2] as keyof typeof WINDOW_UNIT_MS;
  const ms = amount * WINDOW_UNIT_MS[unit];
  if (ms > STATS_WINDOW_MAX_MS) return ok({ label: '30d', ms: STATS_WINDOW_MAX_MS });
  return ok({ label: `${amount}${unit}`, ms });
}

/** Sources of upstream work in stats. */
export const UPSTREAM_SOURCES = ['forge_web', 'forge_api', 'forge_identity'] as const;
/** A source of upstream work. */
export type UpstreamSource = (typeof UPSTREAM_SOURCES)[number];

const getCountSchema = /* @__PURE__ */ lazySchema(() => z.int().min(0));
const getRateSchema = /* @__PURE__ */ lazySchema(() => z.number().min(0).max(1).nullable());

/** Returns {@link poolStatsSchema}, built on the first call (the same instance after). */
export const getPoolStatsSchema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({
    pool: getPoolIdSchema(),
    window: z.string(),
    since: getUtcTimestampSchema(),
    requests: getCountSchema(),
    service_errors: getCountSchema(),
    local_fallbacks: getCountSchema(),
    cache_hit_rate: getRateSchema(),
    eligible_cache_hit_rate: getRateSchema(),
    coalesced_misses: getCountSchema(),
    caller_usage: z.array(z.strictObject({ login: z.string(), requests: getCountSchema() })),
    client_usage: z.array(z.strictObject({ client: z.string(), requests: getCountSchema() })),
    client_routes: z.array(
      z.strictObject({
        client: z.string(),
        route_kind: z.enum(ROUTE_KINDS),
        requests: getCountSchema(),
      }),
    ),
    client_filter: z.string().optional(),
    active_clients: z.array(
      z.strictObject({ client: z.string(), last_used_at: getUtcTimestampSchema() }),
    ),
    cache_entries: getCountSchema(),
    top_route_kinds: z.array(
      z.strictObject({ route_kind: z.enum(ROUTE_KINDS), requests: getCountSchema() }),
    ),
    upstream: z.array(
      z.strictObject({
        route_kind: z.enum(ROUTE_KINDS),
        source: z.enum(UPSTREAM_SOURCES),
        count: getCountSchema(),
      }),
    ),
    fallback_reasons: z.partialRecord(z.enum(FALLBACK_REASONS), getCountSchema()),
  }),
);

/**
 * GET /v1/pools/:pool/stats (DESIGN.md §3). Rates are null when nothing was eligible.
 * Built at import; a bundle that reads only {@link getPoolStatsSchema} builds it on first use.
 */
export const poolStatsSchema = /* @__PURE__ */ getPoolStatsSchema();

/** A pool stats body. */
export type PoolStats = z.infer<typeof poolStatsSchema>;
