/**
 * Rate-limit data of one forge answer, for identity-pool's rate state and cooldowns. A field is
 * absent when its header was missing, repeated or malformed.
 */
export interface RateLimitInfo {
  /** `x-ratelimit-limit`: requests per window. */
  readonly limit?: number;
  /** `x-ratelimit-remaining`: requests left in the window. */
  readonly remaining?: number;
  /** `x-ratelimit-used`: requests spent in the window. */
  readonly used?: number;
  /** `x-ratelimit-reset`: when the window resets, in Unix epoch seconds. */
  readonly resetEpochSeconds?: number;
  /** `x-ratelimit-resource`: the budget bucket (`core`, `search`, `graphql`, …). */
  readonly resource?: string;
  /** `retry-after`, in seconds from now (an HTTP-date is converted against the clock). */
  readonly retryAfterSeconds?: number;
}

/** Response headers as undici gives them: lowercase names, repeated headers as arrays. */
export type ResponseHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

const NON_NEGATIVE_INTEGER = /^\d{1,16}$/u;
const RESOURCE = /^[a-z][a-z0-9_]{0,63}$/u;

function single(headers: ResponseHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value.trim() : undefined;
}

function toNonNegativeInteger(value: string | undefined): number | undefined {
  if (value === undefined || !NON_NEGATIVE_INTEGER.test(value)) return undefined;
  const parsed = Number(value);
  return Number.isSafeInteger(parsed) ? parsed : undefined;
}

function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const seconds = toNonNegativeInteger(value);
  if (seconds !== undefined) return seconds;
  // An HTTP-date: IMF-fixdate and the obsolete forms Date.parse understands, never a bare number.
  if (!/^[A-Za-z]{3},? /u.test(value)) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/**
 * Parses the rate-limit headers of a forge answer into typed data. Integers must be plain
 * non-negative decimal safe integers; a repeated header is ambiguous and ignored.
 *
 * @param headers - response headers with lowercase names
 * @param nowMs - the current time, to turn a `retry-after` HTTP-date into seconds
 * @returns the fields that were present and well formed
 * @example
 * ```ts
 * const rate = parseRateLimitHeaders(response.rawHeaders, Date.now());
 * if (rate.remaining === 0) coolDownUntil(rate.resetEpochSeconds);
 * ```
 */
export function parseRateLimitHeaders(headers: ResponseHeaders, nowMs: number): RateLimitInfo {
  const limit = toNonNegativeInteger(single(headers, 'x-ratelimit-limit'));
  const remaining = toNonNegativeInteger(single(headers, 'x-ratelimit-remaining'));
  const used = toNonNegativeInteger(single(headers, 'x-ratelimit-used'));
  const resetEpochSeconds = toNonNegativeInteger(single(headers, 'x-ratelimit-reset'));
  const rawResource = single(headers, 'x-ratelimit-resource');
  const resource =
    rawResource !== undefined && RESOURCE.test(rawResource) ? rawResource : undefined;
  const retryAfterSeconds = parseRetryAfter(single(headers, 'retry-after'), nowMs);
  return {
    ...(limit === undefined ? {} : { limit }),
    ...(remaining === undefined ? {} : { remaining }),
    ...(used === undefined ? {} : { used }),
    ...(resetEpochSeconds === undefined ? {} : { resetEpochSeconds }),
    ...(resource === undefined ? {} : { resource }),
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  };
}
