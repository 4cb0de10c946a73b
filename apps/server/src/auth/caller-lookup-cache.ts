import type { CallerStore, TokenOwner } from '../storage/caller-store.js';
import { EXTERNAL_CHECK_INTERVAL_MS } from '../storage/string-rewrite-store.js';

/** Options of {@link createCachingCallerStore}. */
export interface CallerLookupCacheOptions {
  /** The clock, epoch milliseconds. */
  readonly now: () => number;
  /** How long a looked-up token owner or grant is reused. Default 5 s. */
  readonly ttlMs?: number;
  /** The most entries each of the two caches holds (oldest dropped first). Default 10,000. */
  readonly maxEntries?: number;
  /**
   * A number that changes whenever another connection commits to the database (SQLite's
   * `data_version`: an operator's tool, another process on the same file). When it changes
   * both caches are cleared. Without it, such a change is seen within `ttlMs`.
   */
  readonly externalChangeVersion?: () => number;
  /**
   * How long one reading of {@link externalChangeVersion} stands, milliseconds (as for the
   * string-rewrite policy's change stamp). Default 50.
   */
  readonly externalCheckIntervalMs?: number;
  /**
   * Brings {@link externalChangeVersion} up to date with every commit made before the call (one
   * round trip; see `ReplicaChangeSync`), awaited at every token lookup and at every grant check
   * not vouched for by the same request's token lookup. Without it the version moves when the
   * backend learns of a commit (a PostgreSQL notification arrives a moment after it).
   */
  readonly syncExternalChanges?: () => Promise<void>;
}

const cachingStores = new WeakSet<CallerStore>();

/** Default staleness bound of the caller lookups: {@link createCachingCallerStore}. */
export const CALLER_LOOKUP_TTL_MS = 5_000;

/**
 * What {@link CachingCallerStore.findTokenOwnerChecked} checked its answer against: the caches'
 * generation after it read the external change counter. Opaque; valid for the request that took
 * it only.
 */
export interface LookupReading {
  readonly generation: number;
}

/** A caller store whose lookups are cached, and the means to drop them. */
export interface CachingCallerStore extends CallerStore {
  /**
   * Drops every cached lookup: the next request reads its token owner and grant from the
   * store. Called after every admin write in this process.
   */
  invalidate(): void;
  /**
   * {@link CallerStore.findTokenOwner}, with the reading of the external change counter its
   * answer was checked against, for the grant check of the same request
   * ({@link CachingCallerStore.hasGrantSince}).
   */
  findTokenOwnerChecked(
    tokenSha256: string,
  ): Promise<{ readonly owner: TokenOwner | undefined; readonly reading: LookupReading }>;
  /**
   * {@link CallerStore.hasGrant} in the request whose token lookup took `reading`: the external
   * change counter is not read again unless the caches were cleared since (by an admin write, a
   * login, or another request that saw the counter move), in which case it is read as by
   * `hasGrant`. A cached grant is then used only if the counter had not moved when the
   * request's token was looked up: one counter read per request instead of two.
   */
  hasGrantSince(callerId: string, poolId: string, reading: LookupReading): Promise<boolean>;
}

interface Timed<T> {
  readonly value: T;
  readonly until: number;
}

function boundedSet<T>(map: Map<string, Timed<T>>, key: string, entry: Timed<T>, max: number) {
  map.delete(key);
  map.set(key, entry);
  if (map.size > max) {
    const oldest = map.keys().next().value;
    if (oldest !== undefined) map.delete(oldest);
  }
}

/**
 * Wraps a caller store so that the two reads every authenticated request makes, the owner of a
 * token digest and the grant (caller, pool), are reused for a short time (`ttlMs`, 5 s by
 * default) instead of read from SQLite at every request.
 *
 * Why this is safe: only positive answers are kept (an unknown token or a missing grant is read
 * again at every request, so a new login or grant works at once, and a flood of bad tokens
 * cannot fill the cache); the caller of `findTokenOwner` still checks the digest, the expiry
 * against its clock and the disabled flag at every request; `enroll` (login, provisioning,
 * token rotation) and `invalidate` (every admin write of the app) clear both caches, so such a
 * change takes effect at the next request in this process. A commit by another connection (an
 * operator disabling a caller, deleting a client or a grant with a database tool, or another
 * process on the same SQLite file) is seen through `externalChangeVersion` within
 * `externalCheckIntervalMs` (50 ms); a backend that cannot tell (a scale-out database without
 * such a counter) is seen within `ttlMs`. `touchClient` updates the cached owner's last use so
 * that the 60 s touch interval keeps holding.
 *
 * @param store - the caller store over the database
 * @param options - clock, time to live, bound, external change detector
 */
export function createCachingCallerStore(
  store: CallerStore,
  options: CallerLookupCacheOptions,
): CachingCallerStore {
  const ttlMs = options.ttlMs ?? CALLER_LOOKUP_TTL_MS;
  const maxEntries = options.maxEntries ?? 10_000;
  const checkIntervalMs = options.externalCheckIntervalMs ?? EXTERNAL_CHECK_INTERVAL_MS;
  const owners = new Map<string, Timed<TokenOwner>>();
  const grants = new Map<string, Timed<true>>();
  const grantKey = (callerId: string, poolId: string) => `${callerId}\n${poolId}`;
  // Counts the clears: a reading of an older generation no longer vouches for the caches.
  let generation = 0;
  const clear = () => {
    generation += 1;
    owners.clear();
    grants.clear();
  };
  let external: { readonly version: number; readonly readAt: number } | undefined;
  /** Clears both caches once another connection has committed since the last reading. */
  const dropIfChangedElsewhere = (at: number) => {
    const read = options.externalChangeVersion;
    if (read === undefined) return;
    if (external !== undefined && at - external.readAt < checkIntervalMs && at >= external.readAt) {
      return;
    }
    const version = read();
    if (external !== undefined && external.version !== version) clear();
    external = { version, readAt: at };
  };
  async function findOwner(tokenSha256: string) {
    await options.syncExternalChanges?.();
    const at = options.now();
    dropIfChangedElsewhere(at);
    const reading: LookupReading = { generation };
    const cached = owners.get(tokenSha256);
    if (cached !== undefined && cached.until > at) return { owner: cached.value, reading };
    const owner = await store.findTokenOwner(tokenSha256);
    if (owner === undefined) owners.delete(tokenSha256);
    else boundedSet(owners, tokenSha256, { value: owner, until: at + ttlMs }, maxEntries);
    // A clear during the read (an admin write) leaves this reading behind: the grant is checked
    // against the counter again.
    return { owner, reading };
  }

  async function grantAt(callerId: string, poolId: string, at: number): Promise<boolean> {
    const key = grantKey(callerId, poolId);
    const cached = grants.get(key);
    if (cached !== undefined && cached.until > at) return true;
    const granted = await store.hasGrant(callerId, poolId);
    if (granted) boundedSet(grants, key, { value: true, until: at + ttlMs }, maxEntries);
    else grants.delete(key);
    return granted;
  }

  const cachingStore: CachingCallerStore = {
    invalidate: clear,

    async enroll(input) {
      try {
        return await store.enroll(input);
      } finally {
        clear();
      }
    },

    async findTokenOwner(tokenSha256) {
      return (await findOwner(tokenSha256)).owner;
    },

    findTokenOwnerChecked: findOwner,

    async hasGrant(callerId, poolId) {
      await options.syncExternalChanges?.();
      const at = options.now();
      dropIfChangedElsewhere(at);
      return grantAt(callerId, poolId, at);
    },

    async hasGrantSince(callerId, poolId, reading) {
      if (reading.generation !== generation) await options.syncExternalChanges?.();
      const at = options.now();
      if (reading.generation !== generation) dropIfChangedElsewhere(at);
      return grantAt(callerId, poolId, at);
    },

    async touchClient(clientId, nowIso) {
      await store.touchClient(clientId, nowIso);
      for (const [digest, entry] of owners) {
        if (entry.value.clientId === clientId) {
          owners.set(digest, {
            value: { ...entry.value, lastUsedAtIso: nowIso },
            until: entry.until,
          });
        }
      }
    },

    listClients(callerId) {
      return store.listClients(callerId);
    },
  };
  cachingStores.add(cachingStore);
  return cachingStore;
}

/**
 * Whether a caller store is a {@link CachingCallerStore} (whose grant checks can reuse the
 * request's token lookup reading).
 *
 * @param store - a caller store
 */
export function isCachingCallerStore(store: CallerStore): store is CachingCallerStore {
  return cachingStores.has(store);
}

/**
 * The same services with their caller store wrapped by {@link createCachingCallerStore}
 * (every surface that authenticates callers, and `enroll`, then share one cache), and
 * `invalidateCallerLookups` set to drop it (the app calls it after every admin write).
 *
 * @param services - services holding a caller store
 * @param now - the clock, epoch milliseconds
 * @param externalChangeVersion - the database's external change counter (see
 *   {@link CallerLookupCacheOptions.externalChangeVersion})
 * @param syncExternalChanges - brings that counter up to date at each lookup (several replicas;
 *   see {@link CallerLookupCacheOptions.syncExternalChanges})
 */
export function withCachedCallerLookups<S extends { readonly callers: CallerStore }>(
  services: S,
  now: () => number,
  externalChangeVersion?: () => number,
  syncExternalChanges?: () => Promise<void>,
): S & { readonly invalidateCallerLookups: () => void } {
  const callers = createCachingCallerStore(services.callers, {
    now,
    // The counter is read at every token lookup (and at every grant check not vouched for by
    // the same request's token lookup, `hasGrantSince`): a caller disabled (or a grant or
    // client removed) by another connection is refused at its next request. One
    // `PRAGMA data_version` read costs about 4-10 µs (it takes the WAL read lock), so a relay
    // request reads it once, not twice.
    ...(externalChangeVersion === undefined
      ? {}
      : { externalChangeVersion, externalCheckIntervalMs: 0 }),
    ...(syncExternalChanges === undefined ? {} : { syncExternalChanges }),
  });
  return {
    ...services,
    callers,
    invalidateCallerLookups: () => {
      callers.invalidate();
    },
  };
}
