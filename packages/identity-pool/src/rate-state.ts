import { COOLDOWN_MS, UNKNOWN_RATE_BUDGET } from '@relay/protocol';
import { readHeader, type HeaderSource } from './header-reader.js';

/**
 * What the forge last said about one identity's budget in one resource bucket (`core`,
 * `search`, `graphql`, …), from the `x-ratelimit-*` headers of a response.
 */
export interface RateState {
  /** The resource bucket (`x-ratelimit-resource`, else the route's bucket). */
  readonly bucket: string;
  /** Requests allowed per window (`x-ratelimit-limit`), when the forge said. */
  readonly limit: number | undefined;
  /** Requests left in the window (`x-ratelimit-remaining`). */
  readonly remaining: number;
  /** When the window resets, epoch milliseconds (`x-ratelimit-reset`, which is in seconds). */
  readonly resetAt: number;
  /** When the headers were observed, epoch milliseconds. */
  readonly observedAt: number;
}

/** The budget selection assumes for one identity and bucket at a given time. */
export interface RateBudget {
  /** Requests assumed left: the observed value, or a fresh budget when unknown or reset. */
  readonly remaining: number;
  /** The budget is spent and its window has not reset yet: the identity is skipped. */
  readonly exhausted: boolean;
  /** When an exhausted budget heals (its reset time), epoch milliseconds. */
  readonly healsAt: number | undefined;
}

const BUCKET_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;
const UNSIGNED_PATTERN = /^\d{1,15}$/;

function parseUnsigned(value: string | undefined): number | undefined {
  return value !== undefined && UNSIGNED_PATTERN.test(value) ? Number(value) : undefined;
}

/**
 * The resource bucket a response speaks for: `x-ratelimit-resource` when it is a well-formed
 * name, else the route's bucket.
 *
 * @param headers - the response headers
 * @param routeBucket - the resource bucket of the route that was called
 */
export function readResourceBucket(headers: HeaderSource, routeBucket: string): string {
  const resource = readHeader(headers, 'x-ratelimit-resource')?.toLowerCase();
  return resource !== undefined && BUCKET_PATTERN.test(resource) ? resource : routeBucket;
}

/**
 * Reads the rate state from a response's `x-ratelimit-*` headers.
 *
 * A missing or malformed `x-ratelimit-remaining` gives `undefined` (nothing to record). A missing
 * or malformed reset time is taken as one cooldown (120 s) after the observation, so that an
 * exhausted budget still heals by itself. A malformed resource name falls back to the route's
 * bucket.
 *
 * @param headers - the response headers
 * @param routeBucket - the resource bucket of the route that was called
 * @param now - the observation time, epoch milliseconds
 * @returns the rate state, or `undefined` when the response carries no usable budget
 */
export function parseRateLimitHeaders(
  headers: HeaderSource,
  routeBucket: string,
  now: number,
): RateState | undefined {
  const remaining = parseUnsigned(readHeader(headers, 'x-ratelimit-remaining'));
  if (remaining === undefined) return undefined;
  const resetSeconds = parseUnsigned(readHeader(headers, 'x-ratelimit-reset'));
  return {
    bucket: readResourceBucket(headers, routeBucket),
    limit: parseUnsigned(readHeader(headers, 'x-ratelimit-limit')),
    remaining,
    resetAt: resetSeconds === undefined ? now + COOLDOWN_MS : resetSeconds * 1000,
    observedAt: now,
  };
}

/**
 * The budget selection assumes: unknown budgets are a fresh {@link UNKNOWN_RATE_BUDGET} (5000);
 * a window that has reset is fresh again (its limit, else 5000), so exhaustion heals by itself at
 * the reset time; a spent window that has not reset is exhausted.
 *
 * @param state - the last observed rate state, if any
 * @param now - the current time, epoch milliseconds
 */
export function assumeRateBudget(state: RateState | undefined, now: number): RateBudget {
  if (state === undefined) {
    return { remaining: UNKNOWN_RATE_BUDGET, exhausted: false, healsAt: undefined };
  }
  if (now >= state.resetAt) {
    return { remaining: state.limit ?? UNKNOWN_RATE_BUDGET, exhausted: false, healsAt: undefined };
  }
  return {
    remaining: state.remaining,
    exhausted: state.remaining === 0,
    healsAt: state.remaining === 0 ? state.resetAt : undefined,
  };
}

/**
 * Which of two observations of the same identity and bucket a coordinator keeps: the one of the
 * later window; within one window, the lower remaining count (responses can arrive out of order,
 * and the budget only falls within a window).
 *
 * @returns `true` when `incoming` should replace `current`
 */
export function supersedesRateState(current: RateState | undefined, incoming: RateState): boolean {
  if (current === undefined) return true;
  if (incoming.resetAt !== current.resetAt) return incoming.resetAt > current.resetAt;
  return incoming.remaining <= current.remaining;
}
