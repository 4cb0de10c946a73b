import { IDENTITY_KINDS, poolIdSchema, utcTimestampSchema } from '@relay/protocol';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../app-env.js';
import { RelayHttpError } from '../relay-http-error.js';
import type { ServerServices } from '../server-services.js';
import { findPool } from '../storage/pool-store.js';
import type { IdentityStatus, IdentityStatusReader } from './pool-identity-status-reader.js';
import { toIso } from './policy-snapshot.js';

/** The path of the identities' quota and cooldowns. */
export const POOL_IDENTITY_STATUS_PATH = '/v1/pools/:pool/identities';

const COOLDOWN_CAUSES = [
  'unauthorized',
  'retry_after',
  'secondary_limit',
  'rate_limited',
  'failure',
  'credential',
] as const;

/** One identity of the pool as a granted caller sees it: its id, kind, weight, quota, cooldowns. */
export const poolIdentityStatusSchema = z.strictObject({
  id: z.string(),
  kind: z.enum(IDENTITY_KINDS),
  weight: z.int().min(0),
  rate_limits: z.array(
    z.strictObject({
      bucket: z.string(),
      remaining: z.int().min(0),
      limit: z.int().min(0).nullable(),
      reset_at: utcTimestampSchema,
      exhausted: z.boolean(),
    }),
  ),
  cooldowns: z.array(
    z.strictObject({
      scope: z.enum(['global', 'bucket', 'route']),
      bucket: z.string().optional(),
      cause: z.enum(COOLDOWN_CAUSES),
      until: utcTimestampSchema,
    }),
  ),
});

/** The answer of GET /v1/pools/:pool/identities. */
export const poolIdentitiesSchema = z.strictObject({
  pool: poolIdSchema,
  identities: z.array(poolIdentityStatusSchema),
});

/** The answer of GET /v1/pools/:pool/identities. */
export type PoolIdentities = z.infer<typeof poolIdentitiesSchema>;

/**
 * GET /v1/pools/:pool/identities (a granted caller): every identity of the pool with its id,
 * kind and weight, its remaining quota per resource bucket as selection assumes it now (only
 * buckets with an observation) and its live cooldowns (scope kind, bucket, cause, end; never a
 * route cooldown's route key). No login, secret binding, scope or credential is given.
 *
 * @param services - the stores
 * @param readStatus - the coordinator's view of quota and cooldowns; without it every identity
 *   reports none
 */
export function createPoolIdentityStatusRoute(
  services: ServerServices,
  readStatus?: IdentityStatusReader,
): Hono<AppEnv> {
  const route = new Hono<AppEnv>();
  route.get(POOL_IDENTITY_STATUS_PATH, async (c) => {
    const poolId = c.req.param('pool');
    if ((await findPool(services.db, poolId)) === undefined) throw new RelayHttpError('not_found');
    const identities = await services.identities.list(poolId);
    const status: ReadonlyMap<string, IdentityStatus> =
      (await readStatus?.(identities.map((identity) => identity.id))) ?? new Map();
    const body: PoolIdentities = {
      pool: poolId,
      identities: identities.map((identity) => {
        const known = status.get(identity.id);
        return {
          id: identity.id,
          kind: identity.kind,
          weight: identity.weight,
          rate_limits: (known?.rates ?? []).map((rate) => ({
            bucket: rate.bucket,
            remaining: rate.remaining,
            limit: rate.limit ?? null,
            reset_at: toIso(rate.resetAt),
            exhausted: rate.exhausted,
          })),
          cooldowns: (known?.cooldowns ?? []).map((cooldown) => ({
            scope: cooldown.scope,
            ...(cooldown.bucket === undefined ? {} : { bucket: cooldown.bucket }),
            cause: cooldown.cause,
            until: toIso(cooldown.until),
          })),
        };
      }),
    };
    return c.json(body, 200);
  });
  return route;
}
