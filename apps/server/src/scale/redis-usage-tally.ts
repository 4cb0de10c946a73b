import type { UsageTally } from '../governor/usage-tally.js';
import { callRedis, defineRedisScript, type RedisKeyspace } from './redis-script.js';
import { SharedStateUnavailableError } from './shared-state-unavailable.js';

/** Options of {@link createRedisUsageTally}. */
export interface RedisUsageTallyOptions {
  /** The connection (its prefix, RELAY_REDIS_PREFIX, scopes every key). */
  readonly redis: RedisKeyspace;
  /** The clock, epoch milliseconds. */
  readonly now: () => number;
  /** Told when a count could not be written (Redis away): the request is not held for it. */
  readonly onLost?: () => void;
}

const MINUTE_MS = 60_000;
/** Keys live two minutes past their last count. */
const KEEP_MS = 2 * MINUTE_MS;

/**
 * Counts one request: KEYS[1] the sender's counts of the bucket (hash: second → count), KEYS[2]
 * the sender's buckets (hash: bucket → last second); ARGV: second, bucket, oldest second kept.
 */
const RECORD = defineRedisScript(`
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('HSET', KEYS[2], ARGV[2], ARGV[1])
for _, second in ipairs(redis.call('HKEYS', KEYS[1])) do
  if tonumber(second) <= tonumber(ARGV[3]) then redis.call('HDEL', KEYS[1], second) end
end
redis.call('PEXPIRE', KEYS[1], ${String(KEEP_MS)})
redis.call('PEXPIRE', KEYS[2], ${String(KEEP_MS)})
return 1
`);

/**
 * The {@link UsageTally} of several replicas, on Redis: per sender and bucket, a count per second
 * of the last minute, so that health's `used_last_minute` on any replica sums every replica's
 * requests. A count is written in the background (the request never waits for it, and a count
 * Redis missed is lost: health's figure is a forecast's input, not a limit — the limits are the
 * pace ledger's); a read while Redis is away fails with {@link SharedStateUnavailableError}
 * (health answers 503 `relay_overloaded`).
 *
 * @param options - the connection, the clock and the lost-count sink
 */
export function createRedisUsageTally(options: RedisUsageTallyOptions): UsageTally {
  const { redis, now } = options;
  const countsKey = (key: string, bucket: string) => redis.key('usage', key, 'bucket', bucket);
  const bucketsKey = (key: string) => redis.key('usage', key, 'buckets');
  const oldestSecond = () => Math.floor((now() - MINUTE_MS) / 1000);
  const call = <T>(work: () => Promise<T>) =>
    callRedis(work, () => new SharedStateUnavailableError());

  return {
    record(key, bucket) {
      const at = now();
      call(() =>
        RECORD.run(
          redis,
          [countsKey(key, bucket), bucketsKey(key)],
          [String(Math.floor(at / 1000)), bucket, String(Math.floor((at - MINUTE_MS) / 1000))],
        ),
      ).catch(() => options.onLost?.());
    },

    countLastMinute(keys, bucket) {
      return call(async () => {
        const oldest = oldestSecond();
        const hashes = await Promise.all(
          keys.map((key) => redis.client.hGetAll(countsKey(key, bucket))),
        );
        let total = 0;
        for (const perSecond of hashes) {
          for (const [second, count] of Object.entries(perSecond)) {
            if (Number(second) > oldest) total += Number(count);
          }
        }
        return total;
      });
    },

    bucketsOf(keys) {
      return call(async () => {
        const oldest = oldestSecond();
        const hashes = await Promise.all(keys.map((key) => redis.client.hGetAll(bucketsKey(key))));
        const seen = new Set<string>();
        for (const lastSecond of hashes) {
          for (const [bucket, second] of Object.entries(lastSecond)) {
            if (Number(second) > oldest) seen.add(bucket);
          }
        }
        return seen;
      });
    },
  };
}
