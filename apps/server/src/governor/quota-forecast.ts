import { UNKNOWN_RATE_BUDGET, type PoolQuota } from '@relay/protocol';
import type { IdentityStatusReader } from '../routes/pool-identity-status-reader.js';
import type { UsageTally } from './usage-tally.js';

/**
 * The budget a never-seen identity is assumed to have per bucket: SPEC.md's fresh 5,000 for
 * `core` (and any other hourly bucket), GitHub's 30 and 10 a minute for the search buckets.
 */
export const FRESH_BUCKET_BUDGETS: Readonly<Record<string, number>> = {
  search: 30,
  code_search: 10,
};

/** How long a fresh window is assumed to last: an hour, or a minute for the search buckets. */
function freshWindowMs(bucket: string): number {
  return bucket in FRESH_BUCKET_BUDGETS ? 60_000 : 3_600_000;
}

/** One identity's view of one bucket (from the rate state the relay has seen). */
export interface BucketObservation {
  readonly remaining: number;
  readonly limit: number | undefined;
  /** When the window resets, epoch ms. */
  readonly resetAt: number;
}

/** Input of {@link forecastBucket}. */
export interface BucketForecastInput {
  readonly bucket: string;
  /** One entry per active identity of the pool; `undefined` for one never seen in the bucket. */
  readonly observations: readonly (BucketObservation | undefined)[];
  /** This pool's upstream requests of the bucket in the last 60 s. */
  readonly usedLastMinute: number;
  /** The current time, epoch ms. */
  readonly now: number;
}

/**
 * Forecasts one bucket of a pool: sums limits and remaining budgets (a never-seen identity, or
 * a window that has reset, counts as fresh), takes the earliest reset, and computes when
 * `remaining` runs out at the last minute's rate — `exhausts_at` is null when that is not before
 * the reset, or when nothing was used. Pure.
 *
 * @param input - bucket, observations, last minute's use and the time
 */
export function forecastBucket(input: BucketForecastInput): PoolQuota {
  const { bucket, now, usedLastMinute } = input;
  const fresh = FRESH_BUCKET_BUDGETS[bucket] ?? UNKNOWN_RATE_BUDGET;
  let limit = 0;
  let remaining = 0;
  let resetsAt = Number.POSITIVE_INFINITY;
  for (const observation of input.observations) {
    if (observation === undefined || observation.resetAt <= now) {
      const full = observation?.limit ?? fresh;
      limit += full;
      remaining += full;
      resetsAt = Math.min(resetsAt, now + freshWindowMs(bucket));
      continue;
    }
    limit += observation.limit ?? fresh;
    remaining += observation.remaining;
    resetsAt = Math.min(resetsAt, observation.resetAt);
  }
  if (resetsAt === Number.POSITIVE_INFINITY) resetsAt = now + freshWindowMs(bucket);
  let exhaustsAt: number | undefined;
  if (usedLastMinute > 0) {
    const at = now + Math.ceil((remaining / usedLastMinute) * 60_000);
    if (at < resetsAt) exhaustsAt = at;
  }
  return {
    limit,
    remaining,
    used_last_minute: usedLastMinute,
    resets_at: new Date(resetsAt).toISOString(),
    exhausts_at: exhaustsAt === undefined ? null : new Date(exhaustsAt).toISOString(),
  };
}

/** Reads the quota forecast of a pool's identities, by bucket. */
export type PoolQuotaReader = (
  identityIds: readonly string[],
) => Promise<Readonly<Record<string, PoolQuota>>>;

/** Options of {@link createPoolQuotaReader}. */
export interface PoolQuotaReaderOptions {
  /** The identities' rate state (the coordinator's). */
  readonly readStatus: IdentityStatusReader;
  /** The buckets the relay has seen rate state for (`core` is always reported). */
  readonly buckets: ReadonlySet<string>;
  /** Requests sent by identity and bucket in the last minute. */
  readonly usage: UsageTally;
  /** The clock, epoch ms. */
  readonly now: () => number;
}

/**
 * Creates the pool quota reader of GET /v1/pools/:pool/health: `core` and every bucket seen
 * (in rate state or in the last minute's requests), each {@link forecastBucket}.
 *
 * @param options - status reader, buckets, usage tally and clock
 */
export function createPoolQuotaReader(options: PoolQuotaReaderOptions): PoolQuotaReader {
  return async (identityIds) => {
    const statuses = await options.readStatus(identityIds);
    const now = options.now();
    const buckets = new Set<string>(['core', ...options.buckets]);
    for (const bucket of await options.usage.bucketsOf(identityIds)) buckets.add(bucket);
    const quota: Record<string, PoolQuota> = {};
    for (const bucket of [...buckets].sort()) {
      if (!/^[a-z][a-z0-9_]{0,63}$/.test(bucket)) continue;
      const usedLastMinute = await options.usage.countLastMinute(identityIds, bucket);
      const observations = identityIds.map((id) =>
        statuses.get(id)?.rates.find((rate) => rate.bucket === bucket),
      );
      quota[bucket] = forecastBucket({
        bucket,
        observations,
        usedLastMinute,
        now,
      });
    }
    return quota;
  };
}
