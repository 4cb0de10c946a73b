import {
  isFallbackReason,
  isRouteKind,
  UPSTREAM_SOURCES,
  type FallbackReason,
  type RouteKind,
  type UpstreamSource,
} from '@relay/protocol';
import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from './database-schema.js';

/** What {@link queryPoolStats} aggregates. */
export interface StatsQuery {
  readonly poolId: string;
  /** The start of the window, ISO 8601 UTC. */
  readonly sinceIso: string;
  /** The requesting caller (client figures are about its own clients). */
  readonly callerId: string;
  /** Restricts client figures to these client ids, when filtering. */
  readonly clientIds?: readonly string[];
  /** Rows of the ranked lists. Default 20. */
  readonly topN?: number;
}

/** The aggregates of one pool's audit rows in a window. */
export interface StatsFigures {
  readonly requests: number;
  readonly serviceErrors: number;
  readonly localFallbacks: number;
  readonly hits: number;
  readonly eligible: number;
  readonly eligibleHits: number;
  readonly coalescedMisses: number;
  readonly callerUsage: readonly { login: string; requests: number }[];
  readonly clientUsage: readonly { clientId: string; requests: number }[];
  readonly clientRoutes: readonly { clientId: string; routeKind: RouteKind; requests: number }[];
  readonly topRouteKinds: readonly { routeKind: RouteKind; requests: number }[];
  readonly upstream: readonly { routeKind: RouteKind; source: UpstreamSource; count: number }[];
  readonly fallbackReasons: Partial<Record<FallbackReason, number>>;
}

const count = (value: unknown): number => Number(value ?? 0);

/**
 * Aggregates one pool's audit rows since `sinceIso` (portable SQL; every query is bounded by
 * the `(pool_id, occurred_at)` index). Nothing but the audit fields enters the figures.
 *
 * @param db - the database
 * @param query - pool, window start, caller and optional client filter
 */
export async function queryPoolStats(
  db: Kysely<DatabaseSchema>,
  query: StatsQuery,
): Promise<StatsFigures> {
  const topN = query.topN ?? 20;
  const window = () =>
    db
      .selectFrom('audit')
      .where('audit.pool_id', '=', query.poolId)
      .where('audit.occurred_at', '>=', query.sinceIso);

  const totals = await window()
    .select([
      sql<number>`count(*)`.as('requests'),
      sql<number>`sum(case when error_code is not null and error_code <> 'fallback_local' and status >= 500 then 1 else 0 end)`.as(
        'service_errors',
      ),
      sql<number>`sum(case when error_code = 'fallback_local' then 1 else 0 end)`.as(
        'local_fallbacks',
      ),
      sql<number>`sum(case when cache_result in ('hit', 'stale') then 1 else 0 end)`.as('hits'),
      sql<number>`sum(cacheable)`.as('eligible'),
      sql<number>`sum(case when cacheable = 1 and cache_result in ('hit', 'stale') then 1 else 0 end)`.as(
        'eligible_hits',
      ),
      sql<number>`sum(coalesced)`.as('coalesced'),
    ])
    .executeTakeFirstOrThrow();

  const callerUsage = await window()
    .innerJoin('callers', 'callers.id', 'audit.caller_id')
    .select(['callers.login', sql<number>`count(*)`.as('requests')])
    .groupBy(['audit.caller_id', 'callers.login'])
    .orderBy('requests', 'desc')
    .orderBy('callers.login')
    .limit(topN)
    .execute();

  const mine = () => {
    let base = window().where('audit.caller_id', '=', query.callerId);
    if (query.clientIds !== undefined) {
      base =
        query.clientIds.length === 0
          ? base.where(sql<boolean>`1 = 0`)
          : base.where('audit.client_id', 'in', query.clientIds);
    }
    return base.where('audit.client_id', 'is not', null);
  };
  const clientUsage = await mine()
    .select(['audit.client_id', sql<number>`count(*)`.as('requests')])
    .groupBy('audit.client_id')
    .orderBy('requests', 'desc')
    .execute();
  const clientRoutes = await mine()
    .where('audit.route_kind', 'is not', null)
    .select(['audit.client_id', 'audit.route_kind', sql<number>`count(*)`.as('requests')])
    .groupBy(['audit.client_id', 'audit.route_kind'])
    .orderBy('requests', 'desc')
    .limit(topN * 5)
    .execute();

  const topRouteKinds = await window()
    .where('audit.route_kind', 'is not', null)
    .select(['audit.route_kind', sql<number>`count(*)`.as('requests')])
    .groupBy('audit.route_kind')
    .orderBy('requests', 'desc')
    .orderBy('audit.route_kind')
    .limit(topN)
    .execute();

  const upstream = await window()
    .where('audit.route_kind', 'is not', null)
    .where('audit.backend', 'is not', null)
    .select(['audit.route_kind', 'audit.backend', sql<number>`count(*)`.as('count')])
    .groupBy(['audit.route_kind', 'audit.backend'])
    .orderBy('count', 'desc')
    .execute();

  const fallbackReasons = await window()
    .where('audit.fallback_reason', 'is not', null)
    .select(['audit.fallback_reason', sql<number>`count(*)`.as('count')])
    .groupBy('audit.fallback_reason')
    .execute();

  const sources: readonly string[] = UPSTREAM_SOURCES;
  return {
    requests: count(totals.requests),
    serviceErrors: count(totals.service_errors),
    localFallbacks: count(totals.local_fallbacks),
    hits: count(totals.hits),
    eligible: count(totals.eligible),
    eligibleHits: count(totals.eligible_hits),
    coalescedMisses: count(totals.coalesced),
    callerUsage: callerUsage.map((row) => ({ login: row.login, requests: count(row.requests) })),
    clientUsage: clientUsage.flatMap((row) =>
      row.client_id === null ? [] : [{ clientId: row.client_id, requests: count(row.requests) }],
    ),
    clientRoutes: clientRoutes.flatMap((row) =>
      row.client_id !== null && isRouteKind(row.route_kind)
        ? [{ clientId: row.client_id, routeKind: row.route_kind, requests: count(row.requests) }]
        : [],
    ),
    topRouteKinds: topRouteKinds.flatMap((row) =>
      isRouteKind(row.route_kind)
        ? [{ routeKind: row.route_kind, requests: count(row.requests) }]
        : [],
    ),
    upstream: upstream.flatMap((row) =>
      isRouteKind(row.route_kind) && row.backend !== null && sources.includes(row.backend)
        ? [
            {
              routeKind: row.route_kind,
              source: row.backend as UpstreamSource,
              count: count(row.count),
            },
          ]
        : [],
    ),
    fallbackReasons: Object.fromEntries(
      fallbackReasons.flatMap((row) =>
        isFallbackReason(row.fallback_reason)
          ? [[row.fallback_reason, count(row.count)] as const]
          : [],
      ),
    ),
  };
}
