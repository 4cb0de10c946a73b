/**
 * Upstream requests sent in the last 60 s, by sender key and rate-limit bucket: the health
 * forecast's `used_last_minute` (a pool's figure is the sum over its identities). The in-process
 * tally is {@link createUsageTally}; the Redis one (scale/redis-usage-tally.ts) sums every
 * replica's requests, so its reads may return promises.
 */
export interface UsageTally {
  /** Counts one request of `key` in `bucket` now (never fails the request it counts). */
  record(key: string, bucket: string): void;
  /** Requests of `keys` in `bucket` in the last 60 s. */
  countLastMinute(keys: readonly string[], bucket: string): number | Promise<number>;
  /** The buckets any of `keys` sent requests in during the last 60 s. */
  bucketsOf(keys: readonly string[]): ReadonlySet<string> | Promise<ReadonlySet<string>>;
}

const MINUTE_MS = 60_000;

/**
 * Creates an in-process {@link UsageTally}: per key and bucket, a count per second of the last
 * minute (memory stays bounded whatever the rate).
 *
 * @param now - the clock, epoch milliseconds
 */
export function createUsageTally(now: () => number): UsageTally & {
  countLastMinute(keys: readonly string[], bucket: string): number;
  bucketsOf(keys: readonly string[]): ReadonlySet<string>;
} {
  /** key → bucket → second → count. */
  const counts = new Map<string, Map<string, Map<number, number>>>();

  function prune(perSecond: Map<number, number>, at: number): void {
    const oldest = Math.floor((at - MINUTE_MS) / 1000);
    for (const second of perSecond.keys()) if (second <= oldest) perSecond.delete(second);
  }

  return {
    record(key, bucket) {
      const at = now();
      let buckets = counts.get(key);
      if (buckets === undefined) {
        buckets = new Map<string, Map<number, number>>();
        counts.set(key, buckets);
      }
      let perSecond = buckets.get(bucket);
      if (perSecond === undefined) {
        perSecond = new Map<number, number>();
        buckets.set(bucket, perSecond);
      }
      const second = Math.floor(at / 1000);
      perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
      prune(perSecond, at);
    },
    countLastMinute(keys, bucket) {
      const at = now();
      let total = 0;
      for (const key of keys) {
        const perSecond = counts.get(key)?.get(bucket);
        if (perSecond === undefined) continue;
        prune(perSecond, at);
        for (const count of perSecond.values()) total += count;
      }
      return total;
    },
    bucketsOf(keys) {
      const at = now();
      const seen = new Set<string>();
      for (const key of keys) {
        for (const [bucket, perSecond] of counts.get(key) ?? []) {
          prune(perSecond, at);
          if (perSecond.size > 0) seen.add(bucket);
        }
      }
      return seen;
    },
  };
}
