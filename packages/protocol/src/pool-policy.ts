import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { err, ok, type Result } from './result.js';

/** The effective policy of a pool (SPEC.md "Pool and pool policy"). */
export interface PoolPolicy {
  /** Owners with scoped identity routing, lowercased. */
  readonly allowed_owners: readonly string[];
  /** Public repositories of other owners are allowed once proven public. */
  readonly allow_public_repos: boolean;
  /** Search routes are allowed. */
  readonly allow_search: boolean;
  /** Log routes are allowed. */
  readonly allow_logs: boolean;
}

/** What {@link createDefaultPoolPolicy} starts from. */
export interface PoolPolicyDefaults {
  /** DEFAULT_ALLOWED_OWNERS of the deployment. */
  readonly allowedOwners: readonly string[];
}

/** The policy of a pool that has no stored fields. */
export function createDefaultPoolPolicy(defaults: PoolPolicyDefaults): PoolPolicy {
  return {
    allowed_owners: defaults.allowedOwners.map((owner) => owner.toLowerCase()),
    allow_public_repos: true,
    allow_search: false,
    allow_logs: true,
  };
}

/** Returns {@link storedPoolPolicySchema}, built on the first call (the same instance after). */
export const getStoredPoolPolicySchema = /* @__PURE__ */ lazySchema(() =>
  z.looseObject({
    allowed_owners: z.array(z.string().min(1)).optional(),
    allow_public_repos: z.boolean().optional(),
    allow_search: z.boolean().optional(),
    allow_logs: z.boolean().optional(),
  }),
);

/**
 * A stored pool policy: an object whose present fields have the right types; missing fields
 * keep their defaults and unknown fields are ignored.
 * Built at import; a bundle that reads only {@link getStoredPoolPolicySchema} builds it on first use.
 */
export const storedPoolPolicySchema = /* @__PURE__ */ getStoredPoolPolicySchema();

/** Why a stored policy is unusable; never carries the stored value. */
export interface PoolPolicyError {
  readonly code: 'pool_policy_unavailable';
  readonly cause: 'invalid_json' | 'not_an_object' | 'invalid_field';
}

/**
 * Parses a stored pool policy (the JSON text, or an already parsed value) over the defaults.
 * The root must be an object; present fields of the wrong type, invalid JSON or a non-object
 * root make the policy unusable (503 pool_policy_unavailable).
 */
export function parseStoredPoolPolicy(
  stored: unknown,
  defaults: PoolPolicyDefaults,
): Result<PoolPolicy, PoolPolicyError> {
  let value: unknown = stored;
  if (typeof stored === 'string') {
    try {
      value = JSON.parse(stored);
    } catch {
      return err({ code: 'pool_policy_unavailable', cause: 'invalid_json' });
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return err({ code: 'pool_policy_unavailable', cause: 'not_an_object' });
  }
  const parsed = getStoredPoolPolicySchema().safeParse(value);
  if (!parsed.success) return err({ code: 'pool_policy_unavailable', cause: 'invalid_field' });
  const base = createDefaultPoolPolicy(defaults);
  return ok({
    allowed_owners:
      parsed.data.allowed_owners?.map((owner) => owner.toLowerCase()) ?? base.allowed_owners,
    allow_public_repos: parsed.data.allow_public_repos ?? base.allow_public_repos,
    allow_search: parsed.data.allow_search ?? base.allow_search,
    allow_logs: parsed.data.allow_logs ?? base.allow_logs,
  });
}

/** Returns {@link poolPolicySchema}, built on the first call (the same instance after). */
export const getPoolPolicySchema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({
    allowed_owners: z.array(z.string()),
    allow_public_repos: z.boolean(),
    allow_search: z.boolean(),
    allow_logs: z.boolean(),
  }),
);

/**
 * The wire shape of an effective pool policy.
 * Built at import; a bundle that reads only {@link getPoolPolicySchema} builds it on first use.
 */
export const poolPolicySchema = /* @__PURE__ */ getPoolPolicySchema();

/**
 * Parses DEFAULT_ALLOWED_OWNERS: a comma-separated list (blank entries ignored), lowercased.
 */
export function parseAllowedOwnersList(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((owner) => owner.trim().toLowerCase())
    .filter((owner) => owner.length > 0);
}
