import {
  isFallbackReason,
  isRouteKind,
  UPSTREAM_SOURCES,
  type FallbackReason,
  type RouteKind,
  type UpstreamSource,
} from '@relay/protocol';
import { sql, type Kysely } from 'kysely';
import { nextDayStartIso } from './audit-rollup.js';
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
 * Aggregates one pool's audit rows since `sinceIso` (portable SQL): whole days from the daily
 * rollups, the partial first day and the caller's own client figures from the audit rows through
 * covering indexes. Nothing but the audit fields enters the figures.
 *
 * @param db - the database
 * @param query - pool, window start, caller and optional client filter
 */
export async function queryPoolStats(
  db: Kysely<DatabaseSchema>,
  query: StatsQuery,
): Promise<StatsFigures> {
  const topN = query.topN ?? 20;
  // Whole days come from the daily rollups; the partial first day from the audit rows.
  const edgeIso = nextDayStartIso(query.sinceIso);
  const edgeDay = edgeIso.slice(0, 10);
  const edge = () =>
    db
      .selectFrom('audit')
      .where('audit.pool_id', '=', query.poolId)
      .where('audit.occurred_at', '>=', query.sinceIso)
      .where('audit.occurred_at', '<', edgeIso);

  const rawGroups = await edge()
    .select([
      'route_kind',
      'backend',
      'fallback_reason',
      sql<number | string>`count(*)`.as('requests'),
      sql<
        number | string
      >`sum(case when error_code is not null and error_code <> 'fallback_local' and status >= 500 then 1 else 0 end)`.as(
        'service_errors',
      ),
      sql<number | string>`sum(case when error_code = 'fallback_local' then 1 else 0 end)`.as(
        'local_fallbacks',
      ),
      sql<number | string>`sum(case when cache_result in ('hit', 'stale') then 1 else 0 end)`.as(
        'hits',
      ),
      sql<number | string>`sum(cacheable)`.as('eligible'),
      sql<
        number | string
      >`sum(case when cacheable = 1 and cache_result in ('hit', 'stale') then 1 else 0 end)`.as(
        'eligible_hits',
      ),
      sql<number | string>`sum(coalesced)`.as('coalesced'),
    ])
    .groupBy(['route_kind', 'backend', 'fallback_reason'])
    .execute();
  const rolledGroups = await db
    .selectFrom('audit_daily')
    .where('pool_id', '=', query.poolId)
    .where('day', '>=', edgeDay)
    .select([
      'route_kind',
      'backend',
      'fallback_reason',
      sql<number | string>`sum(requests)`.as('requests'),
      sql<number | string>`sum(service_errors)`.as('service_errors'),
      sql<number | string>`sum(local_fallbacks)`.as('local_fallbacks'),
      sql<number | string>`sum(hits)`.as('hits'),
      sql<number | string>`sum(eligible)`.as('eligible'),
      sql<number | string>`sum(eligible_hits)`.as('eligible_hits'),
      sql<number | string>`sum(coalesced)`.as('coalesced'),
    ])
    .groupBy(['route_kind', 'backend', 'fallback_reason'])
    .execute();
  const groups = [...rawGroups, ...rolledGroups];

  const rawCallers = await edge()
    .select(['audit.caller_id', sql<number | string>`count(*)`.as('requests')])
    .groupBy('audit.caller_id')
    .execute();
  const rolledCallers = await db
    .selectFrom('audit_daily_callers')
    .where('pool_id', '=', query.poolId)
    .where('day', '>=', edgeDay)
    .select(['caller_id', sql<number | string>`sum(requests)`.as('requests')])
    .groupBy('caller_id')
    .execute();
  const perCaller = new Map<string, number>();
  for (const row of [...rawCallers, ...rolledCallers]) {
    perCaller.set(row.caller_id, (perCaller.get(row.caller_id) ?? 0) + count(row.requests));
  }
  const callerCounts = [...perCaller]
    .map(([callerId, requests]) => ({ callerId, requests }))
    .sort((a, b) => b.requests - a.requests || a.callerId.localeCompare(b.callerId))
    .slice(0, topN);
  const logins =
    callerCounts.length === 0
      ? []
      : await db
          .selectFrom('callers')
          .select(['id', 'login'])
          .where(
            'id',
            'in',
            callerCounts.map((row) => row.callerId),
          )
          .execute();
  const loginOf = new Map(logins.map((row) => [row.id, row.login]));

  let mine = db
    .selectFrom('audit')
    .where('audit.pool_id', '=', query.poolId)
    .where('audit.caller_id', '=', query.callerId)
    .where('audit.occurred_at', '>=', query.sinceIso)
    .where('audit.client_id', 'is not', null);
  if (query.clientIds !== undefined) {
    mine =
      query.clientIds.length === 0
        ? mine.where(sql<boolean>`1 = 0`)
        : mine.where('audit.client_id', 'in', query.clientIds);
  }
  const clientKinds = await mine
    .select(['audit.client_id', 'audit.route_kind', sql<number | string>`count(*)`.as('requests')])
    .groupBy(['audit.client_id', 'audit.route_kind'])
    .execute();

  const totals = {
    requests: 0,
    serviceErrors: 0,
    localFallbacks: 0,
    hits: 0,
    eligible: 0,
    eligibleHits: 0,
    coalesced: 0,
  };
  const byKind = new Map<RouteKind, number>();
  const upstream = new Map<
    string,
    { routeKind: RouteKind; source: UpstreamSource; count: number }
  >();
  const reasons: Partial<Record<FallbackReason, number>> = {};
  const sources: readonly string[] = UPSTREAM_SOURCES;
  for (const row of groups) {
    const requests = count(row.requests);
    totals.requests += requests;
    totals.serviceErrors += count(row.service_errors);
    totals.localFallbacks += count(row.local_fallbacks);
    totals.hits += count(row.hits);
    totals.eligible += count(row.eligible);
    totals.eligibleHits += count(row.eligible_hits);
    totals.coalesced += count(row.coalesced);
    if (isRouteKind(row.route_kind)) {
      byKind.set(row.route_kind, (byKind.get(row.route_kind) ?? 0) + requests);
      if (row.backend !== null && sources.includes(row.backend)) {
        const key = `${row.route_kind}\u0000${row.backend}`;
        const entry = upstream.get(key) ?? {
          routeKind: row.route_kind,
          source: row.backend as UpstreamSource,
          count: 0,
        };
        upstream.set(key, { ...entry, count: entry.count + requests });
      }
    }
    if (isFallbackReason(row.fallback_reason)) {
      reasons[row.fallback_reason] = (reasons[row.fallback_reason] ?? 0) + requests;
    }
  }
  const byClient = new Map<string, number>();
  const clientRoutes: { clientId: string; routeKind: RouteKind; requests: number }[] = [];
  for (const row of clientKinds) {
    if (row.client_id === null) continue;
    const requests = count(row.requests);
    byClient.set(row.client_id, (byClient.get(row.client_id) ?? 0) + requests);
    if (isRouteKind(row.route_kind)) {
      clientRoutes.push({ clientId: row.client_id, routeKind: row.route_kind, requests });
    }
  }
  const descending = <T>(rows: T[], by: (row: T) => number, tie: (row: T) => string) =>
    rows.sort((a, b) => by(b) - by(a) || tie(a).localeCompare(tie(b)));

  return {
    requests: totals.requests,
    serviceErrors: totals.serviceErrors,
    localFallbacks: totals.localFallbacks,
    hits: totals.hits,
    eligible: totals.eligible,
    eligibleHits: totals.eligibleHits,
    coalescedMisses: totals.coalesced,
    callerUsage: callerCounts.map((row) => ({
      login: loginOf.get(row.callerId) ?? '(removed)',
      requests: row.requests,
    })),
    clientUsage: descending(
      [...byClient].map(([clientId, requests]) => ({ clientId, requests })),
      (row) => row.requests,
      (row) => row.clientId,
    ),
    clientRoutes: descending(
      clientRoutes,
      (row) => row.requests,
      (row) => row.clientId + row.routeKind,
    ).slice(0, topN * 5),
    topRouteKinds: descending(
      [...byKind].map(([routeKind, requests]) => ({ routeKind, requests })),
      (row) => row.requests,
      (row) => row.routeKind,
    ).slice(0, topN),
    upstream: descending(
      [...upstream.values()],
      (row) => row.count,
      (row) => row.routeKind + row.source,
    ),
    fallbackReasons: reasons,
  };
}
