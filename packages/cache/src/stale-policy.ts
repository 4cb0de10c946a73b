import {
  err,
  ok,
  type RelayRequestHeaderName,
  type Result,
  type StaleReason,
} from '@relay/protocol';
import { parseMaxAge } from './cache-control-parser.js';
import type { CacheEntry } from './cache-entry.js';
import { entryAgeMs, isWithinMaxAge } from './freshness-policy.js';

/** Why an entry may not be served stale. */
export type StaleRefusal =
  /** There is no entry for the read. */
  | 'no_entry'
  /** The entry is a pending (202) statistics answer. */
  | 'pending_entry'
  /** The request's max-age bound forbids it (max-age=0 always does). */
  | 'age_bound'
  /** The entry has not expired; it was refused for another reason (max-age, a log probe). */
  | 'not_expired'
  /** The bounded stale window after expiry has passed. */
  | 'stale_window_elapsed';

/** An expired entry served during an outage, with the envelope fields SPEC.md requires. */
export interface StaleAnswer {
  readonly entry: CacheEntry;
  readonly cache: 'stale';
  readonly stale_ok: true;
  readonly stale_reason: StaleReason;
  /** When the entry expired, as an ISO 8601 UTC timestamp. */
  readonly cache_expires_at: string;
}

/** What {@link decideStale} needs to know. */
export interface StaleInput {
  /** The entry the lookup returned with its miss, if any. */
  readonly entry: CacheEntry | undefined;
  /** Why upstream could not answer: every eligible identity depleted, cooling down, missing or
   * rate-limited, or a token-free-only route lost its public backend. */
  readonly reason: StaleReason;
  /** The request headers after the allowlist reduction (for `cache-control: max-age`). */
  readonly headers?: Readonly<Partial<Record<RelayRequestHeaderName, string>>>;
  /** The request's `max-age` bound in seconds, already parsed; when given, the header is not read. */
  readonly maxAgeSeconds?: number;
  /** The current time in milliseconds since the epoch. */
  readonly now: number;
}

/**
 * Decides whether an expired entry may be served when upstream cannot answer (SPEC.md "Cache
 * result", the stale row): only an expired, non-pending entry inside its bounded stale window,
 * and only when no max-age bound forbids it.
 *
 * @param input - the entry, the outage reason, the request headers and the time.
 * @returns the stale answer, or the refusal code.
 *
 * @example
 * ```ts
 * const stale = decideStale({ entry: decision.entry, reason: 'identity_pool_depleted', headers, now });
 * if (stale.ok) return envelopeFrom(stale.value.entry, stale.value);
 * ```
 */
export function decideStale(input: StaleInput): Result<StaleAnswer, StaleRefusal> {
  const { entry, reason, headers, now } = input;
  if (entry === undefined) return err('no_entry');
  if (entry.status === 202) return err('pending_entry');
  const maxAgeSeconds = input.maxAgeSeconds ?? parseMaxAge(headers?.['cache-control']);
  if (!isWithinMaxAge(entryAgeMs(entry, now), maxAgeSeconds)) {
    return err('age_bound');
  }
  if (now < entry.expiresAt) return err('not_expired');
  if (now >= entry.staleUntil) return err('stale_window_elapsed');
  return ok({
    entry,
    cache: 'stale',
    stale_ok: true,
    stale_reason: reason,
    cache_expires_at: new Date(entry.expiresAt).toISOString(),
  });
}
