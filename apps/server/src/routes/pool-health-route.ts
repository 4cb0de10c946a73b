import { parseStoredPoolPolicy, type PoolHealth } from '@relay/protocol';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { RelayHttpError } from '../relay-http-error.js';
import type { ServerServices } from '../server-services.js';
import { findPool } from '../storage/pool-store.js';

/**
 * GET /v1/pools/:pool/health (a granted caller): identity counts (`identities_healthy` counts
 * stored active identities, not verified credential readiness), identities in a global
 * cooldown, the string-rewrite revision (null when unreadable) and the effective pool policy
 * (null when the stored one is unusable), and, when the server keeps one, the quota forecast by
 * rate-limit bucket (`quota`: see `forecastBucket`). Never a secret or binding value.
 */
export function createPoolHealthRoute(services: ServerServices): Hono<AppEnv> {
  const route = new Hono<AppEnv>();
  route.get('/v1/pools/:pool/health', async (c) => {
    const poolId = c.req.param('pool');
    const pool = await findPool(services.db, poolId);
    if (pool === undefined) throw new RelayHttpError('not_found');
    const identities = await services.identities.list(poolId);
    const ids = identities.map((identity) => identity.id);
    const policy = parseStoredPoolPolicy(pool.policyJson, {
      allowedOwners: services.settings.defaultAllowedOwners,
    });
    let revision: number | null;
    try {
      const stored = await services.stringRewrites.read();
      revision = stored.ok ? stored.value.revision : null;
    } catch {
      revision = null;
    }
    const body: PoolHealth = {
      pool: poolId,
      identities_total: identities.length,
      identities_healthy: identities.length,
      identities_cooling_down: (await services.countCoolingDown?.(ids)) ?? 0,
      string_rewrite_revision: revision,
      pool_policy: policy.ok
        ? {
            allowed_owners: [...policy.value.allowed_owners],
            allow_public_repos: policy.value.allow_public_repos,
            allow_search: policy.value.allow_search,
            allow_logs: policy.value.allow_logs,
          }
        : null,
    };
    if (services.readPoolQuota !== undefined) {
      return c.json(
        { ...body, quota: await services.readPoolQuota(ids) } satisfies PoolHealth,
        200,
      );
    }
    return c.json(body, 200);
  });
  return route;
}
