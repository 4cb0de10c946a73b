import {
  DEFAULT_STATS_WINDOW,
  normalizeClientName,
  parseStatsWindow,
  type PoolStats,
} from '@relay/protocol';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { RelayHttpError } from '../relay-http-error.js';
import type { ServerServices } from '../server-services.js';
import { queryPoolStats } from '../storage/stats-query.js';
import { toIso } from './policy-snapshot.js';

const rate = (part: number, whole: number): number | null =>
  whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000;

/**
 * GET /v1/pools/:pool/stats?window=24h&client=name (a granted caller). `window` takes `30m`,
 * `24h`, `7d` forms (default 24h, capped at 30 days). Pool figures cover every caller of the
 * pool; `client_usage`, `client_routes` and `active_clients` cover the requesting caller's own
 * clients, and `client` narrows the first two to that client (echoed as `client_filter`).
 */
export function createPoolStatsRoute(services: ServerServices): Hono<AppEnv> {
  const route = new Hono<AppEnv>();
  route.get('/v1/pools/:pool/stats', async (c) => {
    const poolId = c.req.param('pool');
    const caller = c.get('caller');
    const window = parseStatsWindow(c.req.query('window') ?? DEFAULT_STATS_WINDOW);
    if (!window.ok) throw new RelayHttpError('invalid_request');
    const clientParam = c.req.query('client');
    let clientFilter: string | undefined;
    if (clientParam !== undefined) {
      const normalized = normalizeClientName(clientParam);
      if (!normalized.ok) throw new RelayHttpError('invalid_request');
      clientFilter = normalized.value;
    }

    const now = services.now();
    const since = toIso(now - window.value.ms);
    const clients = await services.callers.listClients(caller.callerId);
    const names = new Map(clients.map((client) => [client.id, client.name]));
    const filtered =
      clientFilter === undefined
        ? undefined
        : clients
            .filter((client) => client.name.toLowerCase() === clientFilter.toLowerCase())
            .map((client) => client.id);
    const figures = await queryPoolStats(services.db, {
      poolId,
      sinceIso: since,
      callerId: caller.callerId,
      ...(filtered === undefined ? {} : { clientIds: filtered }),
    });
    const nameOf = (clientId: string) => names.get(clientId) ?? '(retired)';

    const body: PoolStats = {
      pool: poolId,
      window: window.value.label,
      since,
      requests: figures.requests,
      service_errors: figures.serviceErrors,
      local_fallbacks: figures.localFallbacks,
      cache_hit_rate: rate(figures.hits, figures.requests),
      eligible_cache_hit_rate: rate(figures.eligibleHits, figures.eligible),
      coalesced_misses: figures.coalescedMisses,
      caller_usage: figures.callerUsage.map((row) => ({ ...row })),
      client_usage: figures.clientUsage.map((row) => ({
        client: nameOf(row.clientId),
        requests: row.requests,
      })),
      client_routes: figures.clientRoutes.map((row) => ({
        client: nameOf(row.clientId),
        route_kind: row.routeKind,
        requests: row.requests,
      })),
      ...(clientFilter === undefined ? {} : { client_filter: clientFilter }),
      active_clients: clients.map((client) => ({
        client: client.name,
        last_used_at: client.lastUsedAtIso ?? client.updatedAtIso,
      })),
      cache_entries: (await services.countCacheEntries?.()) ?? 0,
      top_route_kinds: figures.topRouteKinds.map((row) => ({
        route_kind: row.routeKind,
        requests: row.requests,
      })),
      upstream: figures.upstream.map((row) => ({
        route_kind: row.routeKind,
        source: row.source,
        count: row.count,
      })),
      fallback_reasons: figures.fallbackReasons,
    };
    return c.json(body, 200);
  });
  return route;
}
