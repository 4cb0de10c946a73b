import type { RelayRequestHeaderName, RouteKind } from '@relay/protocol';
import { parseMaxAge } from './cache-control-parser.js';
import type { CacheEntry, ValidatorLane } from './cache-entry.js';
import { resolveLifetime, type CacheHints } from './lifetime-table.js';

/** Why a read skips the cache entirely (`relay.cache: bypass`). */
export type BypassReason = 'conditional' | 'log' | 'large_payload' | 'non_cacheable';

/** Why a cacheable read goes upstream (`relay.cache: miss`). */
export type MissReason = 'absent' | 'expired' | 'max_age' | 'pending';

/**
 * A conditional refill: the validators of the entry and the lane that obtained them. Send it only
 * from that lane; from any other lane it would not earn a 304.
 */
export interface Revalidation {
  readonly lane: ValidatorLane;
  readonly headers: { readonly 'if-none-match'?: string; readonly 'if-modified-since'?: string };
}

/** The outcome of looking a read up in the shared cache. */
export type LookupDecision =
  | { readonly kind: 'hit'; readonly entry: CacheEntry; readonly ageMs: number }
  | { readonly kind: 'probe'; readonly entry: CacheEntry }
  | {
      readonly kind: 'miss';
      readonly reason: MissReason;
      /** The expired or too-old entry: what a revalidation or an outage may still use. */
      readonly entry?: CacheEntry;
      readonly revalidation?: Revalidation;
    }
  | { readonly kind: 'bypass'; readonly reason: BypassReason };

/** What {@link decideLookup} needs to know about a read. */
export interface LookupInput {
  readonly routeKind: RouteKind;
  readonly hints?: CacheHints;
  /** The request headers after the allowlist reduction. */
  readonly headers?: Readonly<Partial<Record<RelayRequestHeaderName, string>>>;
  /**
   * The request's `max-age` bound in seconds when the caller parsed it already (for example with
   * `@relay/route-classifier`); when given, `headers['cache-control']` is not read.
   */
  readonly maxAgeSeconds?: number;
  /** The stored entry for the read's key, if any. */
  readonly entry: CacheEntry | undefined;
  /** The current time in milliseconds since the epoch, from the injected clock. */
  readonly now: number;
}

/** Whether the request carries a conditional header (`if-none-match`, `if-modified-since`). */
export function isConditionalRequest(
  headers: Readonly<Partial<Record<RelayRequestHeaderName, string>>> | undefined,
): boolean {
  return headers?.['if-none-match'] !== undefined || headers?.['if-modified-since'] !== undefined;
}

/**
 * The age of an entry: time since upstream last confirmed it (a 200, a 304 or a log existence
 * probe). A clock that went backwards counts as age 0.
 */
export function entryAgeMs(entry: CacheEntry, now: number): number {
  return Math.max(0, now - entry.validatedAt);
}

/**
 * Whether `max-age=N` allows serving an entry of this age without validation: the entry must be
 * younger than N seconds, so `max-age=0` never allows it.
 */
export function isWithinMaxAge(ageMs: number, maxAgeSeconds: number | undefined): boolean {
  return maxAgeSeconds === undefined || ageMs < maxAgeSeconds * 1000;
}

/**
 * Builds the conditional refill of an entry from its validators, or undefined when it has none.
 */
export function toRevalidation(entry: CacheEntry): Revalidation | undefined {
  const validators = entry.validators;
  if (validators === undefined) return undefined;
  const headers = {
    ...(validators.etag === undefined ? {} : { 'if-none-match': validators.etag }),
    ...(validators.lastModified === undefined
      ? {}
      : { 'if-modified-since': validators.lastModified }),
  };
  if (Object.keys(headers).length === 0) return undefined;
  return { lane: validators.lane, headers };
}

/**
 * Decides how the shared cache answers a read (SPEC.md "Cache result"), in this order:
 * 1. a conditional request, a non-cacheable kind (such as `rate_limit`) or a known large payload
 *    bypasses the cache;
 * 2. a pending (202) entry is never used;
 * 3. an absent or expired entry is a miss; a job log without a completed run bypasses instead;
 * 4. an entry at least `max-age` seconds old is a miss (the refill writes through);
 * 5. a job log not confirmed for the zero-contact window needs an existence probe;
 * 6. anything else is a hit.
 *
 * The function is pure; `now` comes from the caller's clock.
 *
 * @param input - the read, its stored entry and the time.
 * @returns the decision; a miss carries the old entry and its revalidation when there is one.
 *
 * @example
 * ```ts
 * const decision = decideLookup({ routeKind: 'pr_view', headers, entry: await store.get(key), now: clock() });
 * if (decision.kind === 'hit') return envelopeFrom(decision.entry);
 * ```
 */
export function decideLookup(input: LookupInput): LookupDecision {
  const { routeKind, hints = {}, headers, entry, now } = input;
  const maxAgeSeconds = input.maxAgeSeconds ?? parseMaxAge(headers?.['cache-control']);
  const lifetime = resolveLifetime(routeKind, hints);
  if (isConditionalRequest(headers)) return { kind: 'bypass', reason: 'conditional' };
  if (lifetime.class === 'never') return { kind: 'bypass', reason: 'non_cacheable' };
  if (hints.largePayload === true) return { kind: 'bypass', reason: 'large_payload' };

  const isLog = lifetime.class === 'log';
  const refill = (reason: MissReason, candidate?: CacheEntry): LookupDecision => {
    if (isLog && hints.runCompleted !== true) return { kind: 'bypass', reason: 'log' };
    if (candidate === undefined) return { kind: 'miss', reason };
    const revalidation = toRevalidation(candidate);
    return {
      kind: 'miss',
      reason,
      entry: candidate,
      ...(revalidation === undefined ? {} : { revalidation }),
    };
  };

  if (entry === undefined) return refill('absent');
  if (entry.status === 202) return refill('pending');
  if (now >= entry.expiresAt) return refill('expired', entry);
  const ageMs = entryAgeMs(entry, now);
  if (!isWithinMaxAge(ageMs, maxAgeSeconds)) {
    return refill('max_age', entry);
  }
  if (lifetime.zeroContactMs !== undefined && ageMs >= lifetime.zeroContactMs) {
    return { kind: 'probe', entry };
  }
  return { kind: 'hit', entry, ageMs };
}
