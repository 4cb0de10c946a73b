import { readHeader, type HeaderSource } from './header-reader.js';

/** The longest Retry-After honoured: a cooldown never exceeds one hour. */
export const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

const DELTA_SECONDS = /^\d{1,10}$/;

/**
 * Reads `Retry-After` (delay-seconds, or an HTTP date relative to `now`) as a duration.
 *
 * @param headers - the response headers
 * @param now - the current time, epoch milliseconds
 * @returns the delay in milliseconds, clamped to 0..{@link MAX_RETRY_AFTER_MS}; `undefined` when
 *   the header is absent or malformed
 */
export function parseRetryAfter(headers: HeaderSource, now: number): number | undefined {
  const value = readHeader(headers, 'retry-after');
  if (value === undefined || value === '') return undefined;
  let delayMs: number;
  if (DELTA_SECONDS.test(value)) {
    delayMs = Number(value) * 1000;
  } else {
    const at = Date.parse(value);
    if (Number.isNaN(at) || !/[a-z]/i.test(value)) return undefined;
    delayMs = at - now;
  }
  return Math.min(Math.max(delayMs, 0), MAX_RETRY_AFTER_MS);
}
