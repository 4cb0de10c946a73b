import { z } from 'zod';
import { poolIdSchema } from './common-schemas.js';
import { poolPolicySchema } from './pool-policy.js';
import { revisionSchema } from './string-rewrite-policy.js';

/**
 * GET /v1/pools/:pool/health. `identities_healthy` counts stored active identities, not
 * verified credential readiness. `pool_policy` is the effective policy, or null when the
 * stored policy is unusable. `string_rewrite_revision` is null when the policy is unreadable.
 */
export const poolHealthSchema = z.strictObject({
  pool: poolIdSchema,
  identities_total: z.int().min(0),
  identities_healthy: z.int().min(0),
  identities_cooling_down: z.int().min(0),
  string_rewrite_revision: revisionSchema.nullable(),
  pool_policy: poolPolicySchema.nullable(),
});

/** A pool health body. */
export type PoolHealth = z.infer<typeof poolHealthSchema>;
