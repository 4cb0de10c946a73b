import {
  POOL_POLICY_CACHE_MS,
  err,
  ok,
  parseStoredPoolPolicy,
  type PoolPolicy,
  type PoolPolicyDefaults,
  type Result,
} from '@relay/protocol';

/** Reads a pool's stored policy text, verbatim; undefined when the pool does not exist. */
export type StoredPolicyReader = (poolId: string) => Promise<string | undefined>;

/** Why a pool's policy cannot be used: the pool does not exist, or its policy is corrupt. */
export type PoolPolicyFailure = 'pool_missing' | 'pool_policy_unavailable';

/** The per-process pool policy cache of SPEC.md "Policy cache". */
export interface PoolPolicyCache {
  /**
   * The effective policy of a pool: a valid policy read at most {@link POOL_POLICY_CACHE_MS} ago,
   * else a fresh read. A corrupt stored value is never cached and never replaced by an older
   * valid one (no last-known-good).
   */
  load(poolId: string): Promise<Result<PoolPolicy, PoolPolicyFailure>>;
}

/** Options of {@link createPoolPolicyCache}. */
export interface PoolPolicyCacheOptions {
  readonly read: StoredPolicyReader;
  /** DEFAULT_ALLOWED_OWNERS, for fields a stored policy leaves out. */
  readonly defaults: PoolPolicyDefaults;
  /** The clock, epoch milliseconds. */
  readonly now: () => number;
  /** How long a valid policy is reused. Default {@link POOL_POLICY_CACHE_MS} (30 s). */
  readonly ttlMs?: number;
  /**
   * A stamp that changes whenever a stored policy may have changed (with several replicas: the
   * change sequence every request reads, which a commit to `pools.policy_json` moves); a new
   * stamp drops every cached policy, so an edit holds from the next request instead of within
   * `ttlMs`. Without it (or while it is undefined: the store cannot tell) only `ttlMs` bounds
   * an edit.
   */
  readonly changeStamp?: () => string | number | undefined;
}

/**
 * Creates the pool policy cache: valid policies are reused for 30 s after they were read, so a
 * database edit takes effect within 30 s; failed parses are never cached.
 *
 * @param options - the stored-policy reader, the defaults, the clock and the lifetime
 */
export function createPoolPolicyCache(options: PoolPolicyCacheOptions): PoolPolicyCache {
  const ttlMs = options.ttlMs ?? POOL_POLICY_CACHE_MS;
  const cached = new Map<string, { readonly policy: PoolPolicy; readonly readAt: number }>();
  let stamp = options.changeStamp?.();
  return {
    async load(poolId) {
      if (options.changeStamp !== undefined) {
        const current = options.changeStamp();
        if (current !== stamp) cached.clear();
        stamp = current;
      }
      const now = options.now();
      const hit = cached.get(poolId);
      if (hit !== undefined && now - hit.readAt < ttlMs && now >= hit.readAt) return ok(hit.policy);
      cached.delete(poolId);
      const stored = await options.read(poolId);
      if (stored === undefined) return err('pool_missing');
      const parsed = parseStoredPoolPolicy(stored, options.defaults);
      if (!parsed.ok) return err('pool_policy_unavailable');
      cached.set(poolId, { policy: parsed.value, readAt: now });
      return ok(parsed.value);
    },
  };
}
