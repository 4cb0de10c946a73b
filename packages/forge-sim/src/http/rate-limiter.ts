import type { Principal } from '../auth/credential-registry.js';

/** GitHub's rate-limit resource buckets. */
export type RateResource = 'core' | 'search' | 'code_search' | 'graphql' | 'integration_manifest';

/** Every bucket, in the order `/rate_limit` lists them. */
export const RATE_RESOURCES: readonly RateResource[] = [
  'core',
  'search',
  'code_search',
  'graphql',
  'integration_manifest',
];

/** Limit and window of a bucket for one kind of caller. */
export interface BucketLimit {
  readonly limit: number;
  readonly windowMs: number;
}

/** Limits per caller kind and bucket. */
export type RateLimitTable = Record<
  'anonymous' | 'pat' | 'installation',
  Record<RateResource, BucketLimit>
>;

const HOUR = 3_600_000;
const MINUTE = 60_000;

/** GitHub's published primary limits. */
export const GITHUB_RATE_LIMITS: RateLimitTable = {
  anonymous: {
    core: { limit: 60, windowMs: HOUR },
    search: { limit: 10, windowMs: MINUTE },
    code_search: { limit: 10, windowMs: MINUTE },
    graphql: { limit: 0, windowMs: HOUR },
    integration_manifest: { limit: 5000, windowMs: HOUR },
  },
  pat: {
    core: { limit: 5000, windowMs: HOUR },
    search: { limit: 30, windowMs: MINUTE },
    code_search: { limit: 10, windowMs: MINUTE },
    graphql: { limit: 5000, windowMs: HOUR },
    integration_manifest: { limit: 5000, windowMs: HOUR },
  },
  installation: {
    core: { limit: 5000, windowMs: HOUR },
    search: { limit: 30, windowMs: MINUTE },
    code_search: { limit: 10, windowMs: MINUTE },
    graphql: { limit: 5000, windowMs: HOUR },
    integration_manifest: { limit: 5000, windowMs: HOUR },
  },
};

/** The state of one bucket as the x-ratelimit-* headers show it. */
export interface RateState {
  readonly resource: RateResource;
  readonly limit: number;
  readonly used: number;
  readonly remaining: number;
  /** Epoch seconds when the window resets. */
  readonly reset: number;
}

interface Bucket {
  used: number;
  resetAt: number;
}

/**
 * Primary rate limits like GitHub's: one budget per PAT user, per installation and per
 * anonymous client address, per resource bucket, with a window that starts at first use.
 */
export class RateLimiter {
  readonly #table: RateLimitTable;
  readonly #now: () => number;
  readonly #buckets = new Map<string, Bucket>();

  constructor(now: () => number, table: RateLimitTable = GITHUB_RATE_LIMITS) {
    this.#now = now;
    this.#table = table;
  }

  /** The budget key of a principal: PATs share per user, installation tokens per installation. */
  static keyOf(principal: Principal): string {
    switch (principal.kind) {
      case 'anonymous':
        return `anonymous:${principal.client}`;
      case 'pat':
        return `user:${principal.login.toLowerCase()}`;
      case 'installation':
        return `installation:${principal.installationId}`;
      case 'app':
        return `app:${principal.appId}`;
    }
  }

  #limitOf(principal: Principal, resource: RateResource): BucketLimit {
    const kind = principal.kind === 'app' ? 'installation' : principal.kind;
    return this.#table[kind][resource];
  }

  #bucket(principal: Principal, resource: RateResource): Bucket {
    const key = `${RateLimiter.keyOf(principal)}|${resource}`;
    const now = this.#now();
    let bucket = this.#buckets.get(key);
    if (!bucket || bucket.resetAt <= now) {
      bucket = { used: 0, resetAt: now + this.#limitOf(principal, resource).windowMs };
      this.#buckets.set(key, bucket);
    }
    return bucket;
  }

  /** The current state without charging. */
  peek(principal: Principal, resource: RateResource): RateState {
    const bucket = this.#bucket(principal, resource);
    const { limit } = this.#limitOf(principal, resource);
    return {
      resource,
      limit,
      used: bucket.used,
      remaining: Math.max(0, limit - bucket.used),
      reset: Math.ceil(bucket.resetAt / 1000),
    };
  }

  /** Charges one request and returns the state after it. */
  charge(principal: Principal, resource: RateResource): RateState {
    this.#bucket(principal, resource).used += 1;
    return this.peek(principal, resource);
  }

  /** Sets how much of a bucket is used (tests: `exhaust` = set to the limit). */
  setUsed(principal: Principal, resource: RateResource, used: number): void {
    this.#bucket(principal, resource).used = used;
  }

  /** Forgets every bucket. */
  reset(): void {
    this.#buckets.clear();
  }
}

/** The x-ratelimit-* headers of a state. */
export function rateHeaders(state: RateState): Record<string, string> {
  return {
    'x-ratelimit-limit': String(state.limit),
    'x-ratelimit-remaining': String(state.remaining),
    'x-ratelimit-reset': String(state.reset),
    'x-ratelimit-used': String(state.used),
    'x-ratelimit-resource': state.resource,
  };
}
