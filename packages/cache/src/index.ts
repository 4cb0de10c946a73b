/**
 * @relay/cache: the shared cache policy of Relay. Cache keys, pure freshness and staleness
 * decisions with an injected clock, the per-route lifetime table, repo-view reduction,
 * validators kept with the lane that obtained them, single-flight coalescing, and a bounded
 * two-level store (an LRU front over a persistent store).
 *
 * @example
 * ```ts
 * import { createCacheKey, decideLookup, planCacheWrite } from '@relay/cache';
 * const key = createCacheKey({ method: 'GET', routeKind, url, accept, apiVersion });
 * const decision = decideLookup({ routeKind, headers, entry: await store.get(key), now: clock() });
 * ```
 */

// Keys and request headers
export { createCacheKey } from './cache-key.js';
export type { CacheKeyInput } from './cache-key.js';
export { parseMaxAge } from './cache-control-parser.js';

// Entries
export { isSameLane, measureEntryBytes, utf8Length } from './cache-entry.js';
export type { CacheEntry, CachedValidators, ValidatorLane } from './cache-entry.js';

// Lifetimes
export {
  CLASS_LIFETIMES,
  LIFETIME_CLASSES,
  ROUTE_LIFETIME_CLASSES,
  SHA_ADDRESSABLE_KINDS,
  resolveLifetime,
} from './lifetime-table.js';
export type { CacheHints, CacheLifetime, LifetimeClass } from './lifetime-table.js';

// Decisions
export {
  decideLookup,
  entryAgeMs,
  isConditionalRequest,
  isWithinMaxAge,
  toRevalidation,
} from './freshness-policy.js';
export type {
  BypassReason,
  LookupDecision,
  LookupInput,
  MissReason,
  Revalidation,
} from './freshness-policy.js';
export { decideStale } from './stale-policy.js';
export type { StaleAnswer, StaleInput, StaleRefusal } from './stale-policy.js';
export {
  CACHEABLE_STATUSES,
  DEFAULT_MAX_ENTRY_BYTES,
  EVICTING_STATUSES,
  applyNotModified,
  confirmEntry,
  confirmFromItem,
  jsonEqual,
  planCacheWrite,
  toStoredHeaders,
} from './write-policy.js';
export type { UpstreamAnswer, WriteInput, WriteRefusal, WriteRefusalCode } from './write-policy.js';

// Reduction
export {
  REPO_VIEW_PUBLIC_FIELDS,
  isReducedRouteKind,
  reduceRepoView,
  reduceResponseBody,
} from './repo-view-reducer.js';

// Coalescing
export { createSingleFlight } from './single-flight.js';
export type { FlightResult, SingleFlight } from './single-flight.js';

// Storage
export type { CacheStore } from './cache-store.js';
export { createMemoryCacheStore } from './memory-cache-store.js';
export type { MemoryCacheStoreOptions } from './memory-cache-store.js';
export {
  DEFAULT_FRONT_MAX_BYTES,
  createTieredCacheStore,
  estimateFrontBytes,
} from './tiered-cache-store.js';
export type { TieredCacheStore, TieredCacheStoreOptions } from './tiered-cache-store.js';
