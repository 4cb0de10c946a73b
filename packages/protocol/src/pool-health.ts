import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { getPoolIdSchema } from './common-schemas.js';
import { getPoolPolicySchema } from './pool-policy.js';
import { getRevisionSchema } from './string-rewrite-policy.js';

/** Returns {@link poolQuotaSchema}, built on the first call (the same instance after). */
export const getPoolQuotaSchema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({
    limit: z.int().min(0),
    remaining: z.int().min(0),
    used_last_minute: z.int().min(0),
    resets_at: z.iso.datetime(),
    exhausts_at: z.iso.datetime().nullable(),
  }),
);

/**
 * The forecast of one rate-limit bucket of a pool (`core`, `search`, `code_search`, …), summed
 * over the pool's active identities from the rate state the relay has seen (an identity never
 * seen counts as a fresh budget: 5,000 for `core`).
 *
 * - `limit`, `remaining`: the sums of the identities' limits and remaining budgets;
 * - `used_last_minute`: this pool's upstream requests of the bucket in the last 60 s;
 * - `resets_at`: the earliest reset among the identities (ISO 8601 UTC);
 * - `exhausts_at`: when `remaining` runs out at `used_last_minute` a minute, or null when it lasts
 *   until `resets_at` (or nothing is being used).
 * Built at import; a bundle that reads only {@link getPoolQuotaSchema} builds it on first use.
 */
export const poolQuotaSchema = /* @__PURE__ */ getPoolQuotaSchema();

/** One bucket's forecast in a pool health body. */
export type PoolQuota = z.infer<typeof poolQuotaSchema>;

/** Returns {@link poolHealthSchema}, built on the first call (the same instance after). */
export const getPoolHealthSchema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({
    pool: getPoolIdSchema(),
    identities_total: z.int().min(0),
    identities_healthy: z.int().min(0),
    identities_cooling_down: z.int().min(0),
    string_rewrite_revision: getRevisionSchema().nullable(),
    pool_policy: getPoolPolicySchema().nullable(),
    /** The quota forecast by bucket (`core` at least), when the relay keeps one. */
    quota: z.record(z.string().regex(/^[a-z][a-z0-9_]{0,63}$/), getPoolQuotaSchema()).optional(),
  }),
);

/**
 * GET /v1/pools/:pool/health. `identities_healthy` counts stored active identities, not
 * verified credential readiness. `pool_policy` is the effective policy, or null when the
 * stored policy is unusable. `string_rewrite_revision` is null when the policy is unreadable.
 * Built at import; a bundle that reads only {@link getPoolHealthSchema} builds it on first use.
 */
export const poolHealthSchema = /* @__PURE__ */ getPoolHealthSchema();

/** A pool health body. */
export type PoolHealth = z.infer<typeof poolHealthSchema>;
