import { randomBytes } from 'node:crypto';
import {
  estimateFrontBytes,
  DEFAULT_FRONT_MAX_BYTES,
  type CacheEntry,
  type CacheStore,
} from '@relay/cache';
import { callRedis, defineRedisScript, type RedisKeyspace } from './redis-script.js';

/** A Redis reply as the scripts below return it. */
type RedisReply = string | number | null | readonly RedisReply[];

/** A cache call Redis did not answer (unreachable, or past the deadline). Names no address. */
export class RedisCacheUnavailableError extends Error {
  readonly code = 'cache_unavailable';
  constructor() {
    super('shared cache unavailable');
    this.name = 'RedisCacheUnavailableError';
  }
}

/**
 * Key layout under `<prefix>cache:` (one Redis primary; the scripts build their keys from it):
 * - `e:<key>`   hash of one entry: `v` its JSON, `g` its version, `b` its bytes, `s` its scope;
 *               expires at the end of the entry's stale window (`staleUntil`);
 * - `x`         sorted set of every key by the end of its stale window (the accounting index);
 * - `sz`        hash key → bytes, so that an entry Redis expired is still subtracted;
 * - `t`         the byte total of the live entries;
 * - `s:<scope>` set of the keys written with that scope (a repository), for `purgeScope`.
 */
const LUA_PRELUDE = `
local p = ARGV[1]
local idx, sz, tot = p .. 'x', p .. 'sz', p .. 't'
local function forget(k)
  local b = redis.call('HGET', sz, k)
  if b then
    redis.call('HDEL', sz, k)
    redis.call('DECRBY', tot, b)
  end
  redis.call('ZREM', idx, k)
end
local function drop(k)
  forget(k)
  redis.call('DEL', p .. 'e:' .. k)
end
local function trim(now, limit)
  local expired = redis.call('ZRANGEBYSCORE', idx, '-inf', now, 'LIMIT', 0, limit)
  for _, k in ipairs(expired) do drop(k) end
end
`;

/** ARGV: prefix, key, json, version, bytes, scope, staleUntil, ttlMs, now, maxBytes. */
const PUT = `${LUA_PRELUDE}
local key, json, version, bytes, scope = ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5]), ARGV[6]
local untilMs, ttl, now, max = ARGV[7], tonumber(ARGV[8]), ARGV[9], tonumber(ARGV[10])
trim(now, 100)
drop(key)
if ttl <= 0 or (max > 0 and bytes > max) then return 0 end
while max > 0 and tonumber(redis.call('GET', tot) or '0') + bytes > max do
  local victim = redis.call('ZRANGE', idx, 0, 0)[1]
  if not victim then break end
  drop(victim)
end
local ek = p .. 'e:' .. key
redis.call('HSET', ek, 'v', json, 'g', version, 'b', bytes, 's', scope)
redis.call('PEXPIRE', ek, ttl)
redis.call('ZADD', idx, untilMs, key)
redis.call('HSET', sz, key, bytes)
redis.call('INCRBY', tot, bytes)
if scope ~= '' then
  local sk = p .. 's:' .. scope
  redis.call('SADD', sk, key)
  if redis.call('PTTL', sk) < ttl then redis.call('PEXPIRE', sk, ttl) end
end
return 1
`;

/**
 * ARGV: prefix, key, the version the caller holds ('' for none). Returns nil (no entry), 1 (the
 * caller's version is current) or {version, json}.
 */
const GET = `
local ek = ARGV[1] .. 'e:' .. ARGV[2]
local found = redis.call('HMGET', ek, 'g', 'v')
if not found[1] then return false end
if found[1] == ARGV[3] then return 1 end
return found
`;

/** ARGV: prefix, key. Returns 1 when there was an entry. */
const DELETE = `${LUA_PRELUDE}
local key = ARGV[2]
local existed = redis.call('EXISTS', p .. 'e:' .. key)
drop(key)
return existed
`;

/** ARGV: prefix, scope. Removes the entries still written with that scope; returns how many. */
const PURGE = `${LUA_PRELUDE}
local scope = ARGV[2]
local sk = p .. 's:' .. scope
local removed = 0
for _, k in ipairs(redis.call('SMEMBERS', sk)) do
  if redis.call('HGET', p .. 'e:' .. k, 's') == scope then
    drop(k)
    removed = removed + 1
  end
end
redis.call('DEL', sk)
return removed
`;

/** ARGV: prefix, now. Trims what expired; returns {count, totalBytes}. */
const STATS = `${LUA_PRELUDE}
trim(ARGV[2], 10000)
return {redis.call('ZCARD', idx), tonumber(redis.call('GET', tot) or '0')}
`;

/** Options of {@link createRedisCacheStore}. */
export interface RedisCacheStoreOptions {
  /** The clock of the entries' times, epoch milliseconds (the pipeline's clock). */
  readonly now: () => number;
  /**
   * Bound of the stored entries' `bytes`, summed: a put past it evicts the entries whose stale
   * window ends soonest; an entry larger than the bound is refused. 0: no bound of its own (then
   * Redis's `maxmemory` policy bounds it). Default 256 MiB.
   */
  readonly maxBytes?: number;
  /**
   * Bound of the validated memory front, estimated heap bytes (`estimateFrontBytes`); 0: none.
   * Default `DEFAULT_FRONT_MAX_BYTES` (16 MiB).
   */
  readonly frontMaxBytes?: number;
  /** Bound of one Redis call, ms. Default `REDIS_CALL_DEADLINE_MS` (1,000). */
  readonly deadlineMs?: number;
}

/** Default {@link RedisCacheStoreOptions.maxBytes}: 256 MiB. */
export const DEFAULT_REDIS_CACHE_MAX_BYTES = 256 * 1024 * 1024;

/** The Redis cache store, with a view of its memory front for statistics and tests. */
export interface RedisCacheStore extends CacheStore {
  /** Entries and estimated heap bytes held by the validated memory front. */
  frontSize(): { readonly entries: number; readonly bytes: number };
}

interface FrontSlot {
  readonly entry: CacheEntry;
  readonly version: string;
  readonly size: number;
}

/**
 * Creates the shared cache store on Redis: every replica reads and writes the same entries.
 *
 * - An entry lives until the end of its stale window (`staleUntil`, against `now`), then Redis
 *   expires it; `count` and `totalBytes` follow through an index trimmed as entries expire.
 * - `purgeScope` removes, in one atomic script, every entry still written with that scope: a
 *   repository found private on any replica is gone for every replica at once.
 * - The memory front is **validated**, not trusted: every read asks Redis for the entry's current
 *   version (one round trip, the same as a plain read) and uses the copy in memory only when the
 *   version is unchanged, so a replica never serves an entry another replica replaced, deleted
 *   or purged. What the front saves is the transfer and parse of the body, and it hands out the
 *   same immutable object on each hit (the envelope serializer reuses its JSON by identity).
 * - Every call rejects with {@link RedisCacheUnavailableError} while Redis is away or past the
 *   deadline; the pipeline decides what that means.
 *
 * @param redis - the connection's keyspace (its prefix namespaces the keys)
 * @param options - clock, bounds, deadline
 */
export function createRedisCacheStore(
  redis: RedisKeyspace,
  options: RedisCacheStoreOptions,
): RedisCacheStore {
  const prefix = redis.key('cache', '');
  const fail = () => new RedisCacheUnavailableError();
  const script = (source: string) => {
    const defined = defineRedisScript(source);
    return {
      run: (args: readonly string[]) =>
        callRedis(
          async () => (await defined.run(redis, [], args)) as RedisReply,
          fail,
          options.deadlineMs,
        ),
    };
  };
  const putScript = script(PUT);
  const getScript = script(GET);
  const deleteScript = script(DELETE);
  const purgeScript = script(PURGE);
  const statsScript = script(STATS);
  const maxBytes = options.maxBytes ?? DEFAULT_REDIS_CACHE_MAX_BYTES;
  const frontMax = options.frontMaxBytes ?? DEFAULT_FRONT_MAX_BYTES;
  // Insertion order is recency: a hit moves its slot to the end; the first slot is the oldest.
  const front = new Map<string, FrontSlot>();
  let frontBytes = 0;
  const unfront = (key: string) => {
    const slot = front.get(key);
    if (slot === undefined) return;
    front.delete(key);
    frontBytes -= slot.size;
  };
  const remember = (key: string, entry: CacheEntry, version: string) => {
    unfront(key);
    const size = estimateFrontBytes(key, entry);
    if (size > frontMax) return;
    front.set(key, { entry, version, size });
    frontBytes += size;
    for (const [oldest] of front) {
      if (frontBytes <= frontMax) break;
      unfront(oldest);
    }
  };
  const stats = async () => {
    const reply = (await statsScript.run([prefix, String(options.now())])) as readonly number[];
    return { count: Number(reply[0]), bytes: Number(reply[1]) };
  };

  return {
    async get(key) {
      const known = front.get(key);
      const reply: RedisReply = await getScript.run([prefix, key, known?.version ?? '']);
      if (reply === null) {
        unfront(key);
        return undefined;
      }
      if (reply === 1 && known !== undefined) {
        front.delete(key);
        front.set(key, known);
        return known.entry;
      }
      const [version, json] = reply as readonly string[];
      if (version === undefined || json === undefined) return undefined;
      let entry: CacheEntry;
      try {
        entry = JSON.parse(json) as CacheEntry;
      } catch {
        return undefined;
      }
      remember(key, entry, version);
      return entry;
    },

    async put(key, entry) {
      // Drop the front copy first, so that a failed write never leaves the front ahead.
      unfront(key);
      const now = options.now();
      const version = randomBytes(9).toString('base64');
      const stored = await putScript.run([
        prefix,
        key,
        JSON.stringify(entry),
        version,
        String(entry.bytes),
        entry.scope ?? '',
        String(entry.staleUntil),
        String(Math.ceil(entry.staleUntil - now)),
        String(now),
        String(maxBytes),
      ]);
      if (stored === 1) remember(key, entry, version);
    },

    async delete(key) {
      unfront(key);
      return (await deleteScript.run([prefix, key])) === 1;
    },

    async purgeScope(scope) {
      for (const [key, slot] of front) {
        if (slot.entry.scope === scope) unfront(key);
      }
      return Number(await purgeScript.run([prefix, scope]));
    },

    count: async () => (await stats()).count,
    totalBytes: async () => (await stats()).bytes,
    frontSize: () => ({ entries: front.size, bytes: frontBytes }),
  };
}
