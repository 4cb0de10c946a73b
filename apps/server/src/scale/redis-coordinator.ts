import {
  CoordinatorError,
  type Cooldown,
  type CooldownRequest,
  type Coordinator,
  type Lease,
  type RateState,
  type SelectionState,
  toCooldownScopeKey,
} from '@relay/identity-pool';
import { callRedis, defineRedisScript, type RedisKeyspace } from './redis-script.js';

/** Options of {@link createRedisCoordinator}. */
export interface RedisCoordinatorOptions {
  /** The connection (its prefix, RELAY_REDIS_PREFIX, scopes every key). */
  readonly redis: RedisKeyspace;
  /** The clock, epoch milliseconds. */
  readonly now: () => number;
}

/** Extra lifetime of a Redis key past the end of what it holds (replicas' clocks differ). */
const KEY_SLACK_MS = 60_000;
/** A rate state is kept this long past its window's reset (selection reads its reset time). */
const RATE_KEEP_MS = 3_600_000;

/**
 * Stores a cooldown unless a live one of the same scope ends later; drops ended scopes; keeps
 * the key until its last cooldown ends. KEYS[1] the identity's hash; ARGV: scope key, now,
 * until, the cooldown's JSON, slack. Returns the JSON as stored.
 */
const STORE_COOLDOWN = defineRedisScript(`
local now = tonumber(ARGV[2])
local untilNew = tonumber(ARGV[3])
local current = redis.call('HGET', KEYS[1], ARGV[1])
if current then
  local stored = cjson.decode(current)
  if stored['until'] > now and stored['until'] > untilNew then return current end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[4])
local last = untilNew
local fields = redis.call('HGETALL', KEYS[1])
for i = 1, #fields, 2 do
  local ends = cjson.decode(fields[i + 1])['until']
  if ends <= now then redis.call('HDEL', KEYS[1], fields[i]) elseif ends > last then last = ends end
end
redis.call('PEXPIRE', KEYS[1], math.max(1, last - now) + tonumber(ARGV[5]))
return ARGV[4]
`);

/**
 * Keeps, per identity, the rate state of the latest window and within it the lowest remaining.
 * KEYS[1] the bucket's hash; ARGV: identity, resetAt, remaining, the state's JSON, lifetime.
 */
const RECORD_RATE = defineRedisScript(`
local resetAt = tonumber(ARGV[2])
local current = redis.call('HGET', KEYS[1], ARGV[1])
if current then
  local stored = cjson.decode(current)
  if resetAt ~= stored.resetAt then
    if resetAt < stored.resetAt then return 0 end
  elseif tonumber(ARGV[3]) > stored.remaining then return 0 end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[4])
local lifetime = tonumber(ARGV[5])
if redis.call('PTTL', KEYS[1]) < lifetime then redis.call('PEXPIRE', KEYS[1], lifetime) end
return 1
`);

interface StoredCooldown {
  readonly scope: Cooldown['scope'];
  readonly cause: Cooldown['cause'];
  readonly until: number;
}

/**
 * The {@link Coordinator} of several relay replicas, on Redis: every replica sees the same leases,
 * cooldowns and rate state. Keys (under the connection's prefix): `lease:<route key>` (a string
 * that expires with the lease), `cooldown:<identity>` (a hash of scope → cooldown, expiring with
 * its last cooldown) and `rate:<bucket>` (a hash of identity → rate state, kept an hour past the
 * latest reset). The read-modify-writes (a cooldown is never shortened; the latest window and
 * lowest remaining win) are Lua scripts, atomic against every replica. Time comes from `now`, so
 * ended entries are filtered on read whatever Redis's own expiry says.
 *
 * Every failure (Redis unreachable, or no answer within a second) rejects with
 * {@link CoordinatorError} `unavailable`; nothing is assumed in its place.
 *
 * @param options - the connection and the clock
 */
export function createRedisCoordinator(options: RedisCoordinatorOptions): Coordinator {
  const { redis, now } = options;
  const call = <T>(work: () => Promise<T>) =>
    callRedis(work, () => new CoordinatorError('unavailable'));
  const leaseKey = (routeKey: string) => redis.key('lease', routeKey);
  const cooldownKey = (identityId: string) => redis.key('cooldown', identityId);
  const rateKey = (bucket: string) => redis.key('rate', bucket);

  function liveCooldowns(
    identityId: string,
    fields: Record<string, string>,
    at: number,
  ): Cooldown[] {
    const live: Cooldown[] = [];
    for (const value of Object.values(fields)) {
      const stored = JSON.parse(value) as StoredCooldown;
      if (stored.until > at) live.push({ identityId, ...stored });
    }
    return live;
  }

  async function readCooldowns(
    identityIds: readonly string[],
    at: number,
  ): Promise<Map<string, readonly Cooldown[]>> {
    const hashes = await Promise.all(
      identityIds.map((identityId) => redis.client.hGetAll(cooldownKey(identityId))),
    );
    const result = new Map<string, readonly Cooldown[]>();
    identityIds.forEach((identityId, index) => {
      const live = liveCooldowns(identityId, hashes[index] ?? {}, at);
      if (live.length > 0) result.set(identityId, live);
    });
    return result;
  }

  async function store(identityId: string, cooldown: StoredCooldown, at: number) {
    const json = JSON.stringify(cooldown);
    const stored = await STORE_COOLDOWN.run(
      redis,
      [cooldownKey(identityId)],
      [
        toCooldownScopeKey(cooldown.scope),
        String(at),
        String(cooldown.until),
        json,
        String(KEY_SLACK_MS),
      ],
    );
    return { identityId, ...(JSON.parse(String(stored)) as StoredCooldown) };
  }

  return {
    readSelectionState(query) {
      return call(async (): Promise<SelectionState> => {
        const at = now();
        const [leaseJson, cooldowns, rates] = await Promise.all([
          redis.client.get(leaseKey(query.routeKey)),
          readCooldowns(query.identityIds, at),
          query.identityIds.length === 0
            ? Promise.resolve([])
            : redis.client.hmGet(rateKey(query.bucket), [...query.identityIds]),
        ]);
        const stored = leaseJson === null ? undefined : (JSON.parse(leaseJson) as Lease);
        const rateById = new Map<string, RateState>();
        query.identityIds.forEach((identityId, index) => {
          const json = rates[index];
          if (typeof json === 'string') rateById.set(identityId, JSON.parse(json) as RateState);
        });
        return {
          lease: stored !== undefined && stored.expiresAt > at ? stored : undefined,
          cooldowns,
          rates: rateById,
        };
      });
    },

    setLease(routeKey, identityId, ttlMs) {
      return call(async () => {
        const lease: Lease = { routeKey, identityId, expiresAt: now() + ttlMs };
        await redis.client.set(leaseKey(routeKey), JSON.stringify(lease), {
          expiration: { type: 'PX', value: Math.max(1, ttlMs) + KEY_SLACK_MS },
        });
        return lease;
      });
    },

    addCooldown(identityId, request: CooldownRequest) {
      return call(() => {
        const at = now();
        return store(
          identityId,
          { scope: request.scope, cause: request.cause, until: at + request.durationMs },
          at,
        );
      });
    },

    recordCredentialFailure(identityId, durationMs) {
      return call(() => {
        const at = now();
        return store(
          identityId,
          { scope: { kind: 'global' }, cause: 'credential', until: at + durationMs },
          at,
        );
      });
    },

    recordRateState(identityId, state) {
      return call(async () => {
        const lifetime = Math.max(0, state.resetAt - now()) + RATE_KEEP_MS;
        await RECORD_RATE.run(
          redis,
          [rateKey(state.bucket)],
          [
            identityId,
            String(state.resetAt),
            String(state.remaining),
            JSON.stringify(state),
            String(lifetime),
          ],
        );
      });
    },

    listCooldowns(identityIds) {
      return call(() => readCooldowns(identityIds, now()));
    },
  };
}
