import {
  DEFAULT_MAX_RESPONSE_BYTES,
  err,
  filterEnvelopeHeaders,
  ok,
  type BodyEncoding,
  type Result,
  type RouteKind,
} from '@relay/protocol';
import {
  measureEntryBytes,
  type CacheEntry,
  type CachedValidators,
  type ValidatorLane,
} from './cache-entry.js';
import { resolveLifetime, type CacheHints } from './lifetime-table.js';
import { isReducedRouteKind, reduceResponseBody } from './repo-view-reducer.js';

/** Default largest entry the cache stores: the default MAX_RESPONSE_BYTES. */
export const DEFAULT_MAX_ENTRY_BYTES = DEFAULT_MAX_RESPONSE_BYTES;

/** Statuses whose answers are stored. */
export const CACHEABLE_STATUSES: ReadonlySet<number> = new Set([200, 204]);

/** Statuses that prove a stored answer is gone upstream, so the old entry is evicted. */
export const EVICTING_STATUSES: ReadonlySet<number> = new Set([404, 410, 451]);

/** Headers never stored: a replayed rate-limit header would look live; a request id is per request. */
const UNSTORED_HEADER_PATTERN = /^(?:x-ratelimit-|retry-after$|x-github-request-id$)/;

/** An upstream answer to a cacheable read. */
export interface UpstreamAnswer {
  readonly status: number;
  /** Response headers (any case); only the envelope allowlist is kept. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed body (JSON value, text, or base64 text). */
  readonly body: unknown;
  readonly bodyEncoding: BodyEncoding;
  /** The forge's own JSON text of a `json` body, when it is not `JSON.stringify(body)`. */
  readonly bodySource?: string | undefined;
}

/** Why an answer was not stored. */
export type WriteRefusalCode =
  /** The route kind is never cached (for example `rate_limit`). */
  | 'non_cacheable'
  /** A job log whose run is not known to have completed. */
  | 'log_run_active'
  /** A 202 pending statistics answer. */
  | 'pending'
  /** A status other than 200 or 204. */
  | 'uncacheable_status'
  /** The entry would exceed the largest storable size. */
  | 'too_large';

/** A refusal to store, and what to do with the entry already stored under the key. */
export interface WriteRefusal {
  readonly code: WriteRefusalCode;
  /** `keep` the existing entry (it keeps its original lifetime) or `evict` it (gone upstream). */
  readonly existing: 'keep' | 'evict';
  /** The `relay.cache` value of the answer: `bypass` for a large payload, else `miss`. */
  readonly cache: 'miss' | 'bypass';
}

/** What {@link planCacheWrite} needs to know. */
export interface WriteInput {
  readonly routeKind: RouteKind;
  readonly hints?: CacheHints;
  readonly answer: UpstreamAnswer;
  /** The lane that obtained the answer: its validators only earn a 304 from this lane. */
  readonly lane: ValidatorLane;
  readonly now: number;
  /** Largest entry stored, in bytes. Default {@link DEFAULT_MAX_ENTRY_BYTES}. */
  readonly maxEntryBytes?: number;
}

function headerOf(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return value;
  }
  return undefined;
}

/**
 * The headers an entry replays: the envelope allowlist without rate-limit headers (they would be
 * replayed as if live), `retry-after` and the request id. A reduced body drops its validators
 * too, since they describe bytes the cache does not serve.
 */
export function toStoredHeaders(
  routeKind: RouteKind,
  headers: Readonly<Record<string, string>>,
): Record<string, string> {
  const stored: Record<string, string> = {};
  for (const [name, value] of Object.entries(filterEnvelopeHeaders(Object.entries(headers)))) {
    const validator = name === 'etag' || name === 'last-modified';
    if (UNSTORED_HEADER_PATTERN.test(name)) continue;
    if (validator && isReducedRouteKind(routeKind)) continue;
    stored[name] = value;
  }
  return stored;
}

function toValidators(
  headers: Readonly<Record<string, string>>,
  lane: ValidatorLane,
): CachedValidators | undefined {
  const etag = headerOf(headers, 'etag');
  const lastModified = headerOf(headers, 'last-modified');
  if (etag === undefined && lastModified === undefined) return undefined;
  return {
    lane,
    ...(etag === undefined ? {} : { etag }),
    ...(lastModified === undefined ? {} : { lastModified }),
  };
}

/**
 * Plans the write of an upstream answer (after a miss): reduces the body, filters the headers,
 * keeps the validators with the lane that obtained them and sets the lifetime. Refuses 202
 * pending answers (the entry already stored keeps its original lifetime), statuses other than
 * 200/204 (404, 410 and 451 evict the stored entry), non-cacheable kinds, logs of runs not known
 * to be complete, and entries over `maxEntryBytes`.
 *
 * @param input - the answer and what is known about the read.
 * @returns the entry to store, or a refusal that says what to do with the stored entry.
 *
 * @example
 * ```ts
 * const plan = planCacheWrite({ routeKind, hints, answer, lane: { kind: 'anonymous' }, now: clock() });
 * if (plan.ok) await store.put(key, plan.value);
 * else if (plan.error.existing === 'evict') await store.delete(key);
 * ```
 */
export function planCacheWrite(input: WriteInput): Result<CacheEntry, WriteRefusal> {
  const { routeKind, hints = {}, answer, lane, now } = input;
  const lifetime = resolveLifetime(routeKind, hints);
  if (lifetime.class === 'never') {
    return err({ code: 'non_cacheable', existing: 'evict', cache: 'bypass' });
  }
  if (lifetime.class === 'log' && hints.runCompleted !== true) {
    return err({ code: 'log_run_active', existing: 'keep', cache: 'bypass' });
  }
  if (answer.status === 202) return err({ code: 'pending', existing: 'keep', cache: 'miss' });
  if (!CACHEABLE_STATUSES.has(answer.status)) {
    const existing = EVICTING_STATUSES.has(answer.status) ? 'evict' : 'keep';
    return err({ code: 'uncacheable_status', existing, cache: 'miss' });
  }
  const validators = toValidators(answer.headers, lane);
  const body = reduceResponseBody(routeKind, answer.status, answer.body);
  // The forge's text describes the body it came with: a reduced body is another value.
  const bodySource = body === answer.body ? answer.bodySource : undefined;
  const unsized: Omit<CacheEntry, 'bytes'> = {
    routeKind,
    status: answer.status,
    headers: toStoredHeaders(routeKind, answer.headers),
    body,
    bodyEncoding: answer.bodyEncoding,
    ...(bodySource === undefined ? {} : { bodySource }),
    ...(validators === undefined ? {} : { validators }),
    validatedAt: now,
    expiresAt: now + lifetime.freshMs,
    staleUntil: now + lifetime.freshMs + lifetime.staleMs,
  };
  const bytes = measureEntryBytes(unsized);
  if (bytes > (input.maxEntryBytes ?? DEFAULT_MAX_ENTRY_BYTES)) {
    return err({ code: 'too_large', existing: 'evict', cache: 'bypass' });
  }
  return ok({ ...unsized, bytes });
}

/**
 * Applies a 304 Not Modified to a stored entry: the body stays, the entry is confirmed now and
 * gets a new lifetime (a job log is only confirmed: its seven days do not move), and a validator
 * the 304 carries replaces the old one, in the same lane.
 *
 * @param entry - the entry that was revalidated.
 * @param input - the 304 headers, the read's hints and the time.
 * @returns the refreshed entry.
 */
export function applyNotModified(
  entry: CacheEntry,
  input: {
    readonly headers: Readonly<Record<string, string>>;
    readonly hints?: CacheHints;
    readonly now: number;
  },
): CacheEntry {
  const lifetime = resolveLifetime(entry.routeKind, input.hints);
  // A revalidation is only sent from the lane that obtained the validators, so the 304 is theirs.
  const old = entry.validators;
  const validators =
    old === undefined ? undefined : { ...old, ...toValidators(input.headers, old.lane) };
  // A job log keeps its seven days from the first fetch; a 304 only confirms it.
  if (lifetime.class === 'log') return confirmEntry(entry, input.now);
  const { validators: _old, bytes: _bytes, ...rest } = entry;
  const unsized: Omit<CacheEntry, 'bytes'> = {
    ...rest,
    ...(validators === undefined ? {} : { validators }),
    validatedAt: input.now,
    expiresAt: input.now + lifetime.freshMs,
    staleUntil: input.now + lifetime.freshMs + lifetime.staleMs,
  };
  return { ...unsized, bytes: measureEntryBytes(unsized) };
}

/**
 * Records a successful existence probe of a cached job log: the entry counts as confirmed now,
 * which opens a new zero-contact window; its seven-day lifetime does not move.
 *
 * @param entry - the probed entry.
 * @param now - the time of the probe.
 * @returns the confirmed entry.
 */
export function confirmEntry(entry: CacheEntry, now: number): CacheEntry {
  return { ...entry, validatedAt: now };
}

/** Whether two JSON values are equal: same types, same members (any order), same items in order. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => jsonEqual(item, b[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && jsonEqual(left[key], right[key]));
}

/**
 * Confirms a stored single read from a fresh collection answer that carries it as an item (a
 * workflow run list's items are the run views' bodies): when the item equals the stored body
 * exactly, upstream has just served that same content, so the entry counts as confirmed now and
 * gets a new lifetime, as a 304 would give it (validators kept; a job log only confirmed). Only
 * a JSON 200 entry is confirmed; any difference leaves the entry as it is.
 *
 * @param entry - the stored entry of the single read.
 * @param item - the collection's item for the same resource, as the collection answer gave it.
 * @param input - the read's hints and the time of the collection answer.
 * @returns the confirmed entry, or undefined when the item does not confirm it.
 */
export function confirmFromItem(
  entry: CacheEntry,
  item: unknown,
  input: { readonly hints?: CacheHints; readonly now: number },
): CacheEntry | undefined {
  if (entry.status !== 200 || entry.bodyEncoding !== 'json') return undefined;
  if (!jsonEqual(entry.body, item)) return undefined;
  return applyNotModified(entry, { headers: {}, ...input });
}
