import { randomUUID } from 'node:crypto';
import {
  MIN_PACE_FACTOR,
  PACE_RECOVERY_MS,
  PACE_WINDOW_MS,
  PaceLedgerUnavailableError,
  scalePaceLimits,
  type PaceAdmission,
  type PaceLedger,
  type PaceLimits,
  type PaceStanding,
} from '../governor/pace-ledger.js';
import { callRedis, defineRedisScript, type RedisKeyspace } from './redis-script.js';

/** Options of {@link createRedisPaceLedger}. */
export interface RedisPaceLedgerOptions {
  /** The connection (its prefix, RELAY_REDIS_PREFIX, scopes every key). */
  readonly redis: RedisKeyspace;
  /**
   * How long an in-flight slot is held at most: a replica that dies (or loses Redis) before its
   * release cannot hold the slot longer. Default 300,000 (5 minutes); relay-server passes its
   * upstream request timeout plus a margin.
   */
  readonly slotTtlMs?: number;
}

/** Extra lifetime of a Redis key past the end of what it holds (replicas' clocks differ). */
const KEY_SLACK_MS = 60_000;

/**
 * The Lua prelude of every pace script: drops points older than the window and slots past their
 * deadline, and computes the adaptive factor exactly as `toPaceFactor` does (same operations on
 * the same doubles). KEYS: points (sorted set: admission time), slots (sorted set: deadline),
 * penalty (hash: f, at). ARGV[1] is now.
 */
const PRELUDE = `
local now = tonumber(ARGV[1])
local window = ${String(PACE_WINDOW_MS)}
local recovery = ${String(PACE_RECOVERY_MS)}
local function text(number) return string.format('%.17g', number) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', text(now - window))
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
local factor = 1
local penalty = redis.call('HMGET', KEYS[3], 'f', 'at')
if penalty[1] then
  factor = math.min(1, tonumber(penalty[1]) + (math.max(0, now - tonumber(penalty[2])) / recovery) * 0.5)
  if factor >= 1 then redis.call('DEL', KEYS[3]) end
end
local function scaled(limit)
  return math.max(1, math.floor(limit * factor))
end
`;

/** ARGV: now, maxInFlight, pointsPerMinute, point member, slot member, slot deadline. */
const TRY_TAKE = defineRedisScript(`${PRELUDE}
local points = scaled(tonumber(ARGV[3]))
local count = redis.call('ZCARD', KEYS[1])
if count >= points then
  local oldest = redis.call('ZRANGE', KEYS[1], count - points, count - points, 'WITHSCORES')
  return {0, text(tonumber(oldest[2]) + window)}
end
if redis.call('ZCARD', KEYS[2]) >= scaled(tonumber(ARGV[2])) then return {0, ''} end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[6], ARGV[5])
redis.call('PEXPIRE', KEYS[1], window + ${String(KEY_SLACK_MS)})
local last = redis.call('ZRANGE', KEYS[2], -1, -1, 'WITHSCORES')
redis.call('PEXPIRE', KEYS[2], math.max(1, tonumber(last[2]) - now) + ${String(KEY_SLACK_MS)})
return {1, ''}
`);

/** ARGV: now, the slot member ('' for the slot nearest its deadline). */
const RELEASE = defineRedisScript(`${PRELUDE}
if ARGV[2] ~= '' then
  redis.call('ZREM', KEYS[2], ARGV[2])
else
  redis.call('ZPOPMIN', KEYS[2])
end
return 1
`);

/** ARGV: now. Returns the new factor (as text: Lua numbers would be truncated). */
const PENALIZE = defineRedisScript(`${PRELUDE}
local next = math.max(${String(MIN_PACE_FACTOR)}, factor / 2)
redis.call('HSET', KEYS[3], 'f', text(next), 'at', ARGV[1])
redis.call('PEXPIRE', KEYS[3], math.ceil((1 - next) * 2 * recovery) + ${String(KEY_SLACK_MS)})
return text(next)
`);

/** ARGV: now. Returns factor (text), points in the window, slots in flight. */
const INSPECT = defineRedisScript(`${PRELUDE}
return {text(factor), redis.call('ZCARD', KEYS[1]), redis.call('ZCARD', KEYS[2])}
`);

/**
 * The {@link PaceLedger} of several relay replicas, on Redis (issue 27 item 6): each sender's
 * points of the last 60 s (a sorted set of admission times), its requests in flight (a sorted
 * set of slots, each with a deadline) and its adaptive factor (a hash), shared by every replica,
 * so that replicas together keep each identity under the limits. Each operation is one Lua
 * script, atomic against every replica, with the time passed in by the caller.
 *
 * A slot whose replica never releases it (the process died, or Redis was away at the release)
 * ends at its deadline (`slotTtlMs`) instead of being lost for good; every key expires with the
 * last thing it holds. Failures (Redis unreachable, or no answer within a second) reject with
 * {@link PaceLedgerUnavailableError}; the governor refuses the request (nothing is sent).
 *
 * @param options - the connection and the slots' lifetime
 */
export function createRedisPaceLedger(options: RedisPaceLedgerOptions): PaceLedger {
  const { redis } = options;
  const slotTtlMs = options.slotTtlMs ?? 300_000;
  const keysOf = (key: string) => [
    redis.key('pace', key, 'points'),
    redis.key('pace', key, 'slots'),
    redis.key('pace', key, 'penalty'),
  ];
  const call = <T>(work: () => Promise<T>) =>
    callRedis(work, () => new PaceLedgerUnavailableError());

  return {
    tryTake(key, limits, now): Promise<PaceAdmission> {
      return call(async () => {
        const slot = randomUUID();
        const [admitted, retryAt] = (await TRY_TAKE.run(redis, keysOf(key), [
          String(now),
          String(limits.maxInFlight),
          String(limits.pointsPerMinute),
          `${String(now)}:${slot}`,
          slot,
          String(now + slotTtlMs),
        ])) as [number, string];
        if (admitted === 1) return { ok: true, slot };
        return { ok: false, retryAt: retryAt === '' ? undefined : Number(retryAt) };
      });
    },

    release(key, now, slot) {
      return call(async () => {
        await RELEASE.run(redis, keysOf(key), [String(now), slot ?? '']);
      });
    },

    penalize(key, now) {
      return call(async () => Number(await PENALIZE.run(redis, keysOf(key), [String(now)])));
    },

    inspect(key, limits: PaceLimits, now): Promise<PaceStanding> {
      return call(async () => {
        const [factorText, points, inFlight] = (await INSPECT.run(redis, keysOf(key), [
          String(now),
        ])) as [string, number, number];
        const factor = Number(factorText);
        return {
          factor,
          limits: scalePaceLimits(limits, factor),
          pointsInWindow: points,
          inFlight,
        };
      });
    },
  };
}
