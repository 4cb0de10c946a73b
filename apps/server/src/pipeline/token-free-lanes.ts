import type { ForgeResponse } from '@relay/forge-transport';

/**
 * Whether an anonymous API answer says the anonymous quota is spent or throttled: a 429, or a
 * 403 with `x-ratelimit-remaining: 0` or a `Retry-After` (a 403 alone never establishes
 * exhaustion: it may be a permission answer).
 *
 * @param response - the anonymous answer
 */
export function isAnonymousQuotaExhausted(response: ForgeResponse): boolean {
  if (response.status === 429) return true;
  if (response.status !== 403) return false;
  return response.rateLimit.remaining === 0 || response.rateLimit.retryAfterSeconds !== undefined;
}

/**
 * What the pipeline does with an anonymous API answer on a token-free lane:
 * - `serve`: the answer is the read's answer (any status, a real 404 included);
 * - `exhausted`: the anonymous quota is spent or throttled;
 * - `unavailable`: the public backend failed (5xx) or needs authentication (401).
 *
 * @param response - the anonymous answer
 */
export function judgeAnonymousAnswer(
  response: ForgeResponse,
): 'serve' | 'exhausted' | 'unavailable' {
  if (isAnonymousQuotaExhausted(response)) return 'exhausted';
  if (response.status === 401 || response.status >= 500) return 'unavailable';
  return 'serve';
}

/**
 * Whether a public web, raw or patch answer can replace the API read: only a 200 does (a 404 on
 * the web host may be a login wall; the API lane then answers).
 *
 * @param response - the web, raw or patch answer
 */
export function isUsableAlternate(response: ForgeResponse): boolean {
  return response.status === 200;
}

/**
 * What the relay remembers of the anonymous address's rate limit, per resource bucket, so that
 * a spent anonymous lane is not asked again (and refused again) on every miss until it resets.
 * Not a security decision: a skipped anonymous lane falls through exactly as a refused one would
 * (to a pooled identity, or to stale data / `web_only_unavailable` on anonymous-only routes).
 *
 * One process keeps it in memory ({@link createAnonymousBudget}); several replicas share it on
 * Redis (`createRedisAnonymousBudget`), hence the asynchronous `isSpent`.
 */
export interface AnonymousBudget {
  /** Whether the anonymous lane of `bucket` is known spent now. */
  isSpent(bucket: string): Promise<boolean>;
  /** Records the rate headers of an anonymous API answer for a read of `bucket`. */
  observe(bucket: string, response: ForgeResponse): void;
}

/** When a spent answer gives neither a reset time nor a Retry-After: try again after 60 s. */
export const ANONYMOUS_SPENT_DEFAULT_MS = 60_000;
/** The longest a spent anonymous bucket is skipped (GitHub's window is one hour). */
export const ANONYMOUS_SPENT_MAX_MS = 3_600_000;

/**
 * What an anonymous API answer for a read of `bucket` changes in the anonymous budget: the
 * bucket it speaks for (`x-ratelimit-resource`, else the read's) and either the time until which
 * it is spent or `until: undefined` (budget left: the mark is cleared); nothing for an answer
 * without rate headers that is not a refusal.
 *
 * A spent answer (a 429, a 403 with `x-ratelimit-remaining: 0` or `Retry-After`, or any answer
 * whose `remaining` is 0) marks its bucket spent until `x-ratelimit-reset` when `remaining` is 0
 * (else `Retry-After`, else {@link ANONYMOUS_SPENT_DEFAULT_MS}), at most
 * {@link ANONYMOUS_SPENT_MAX_MS} ahead.
 *
 * @param bucket - the read's bucket
 * @param response - the anonymous answer
 * @param at - now, epoch milliseconds
 */
export function judgeAnonymousBudget(
  bucket: string,
  response: ForgeResponse,
  at: number,
): { readonly bucket: string; readonly until: number | undefined } | undefined {
  const { rateLimit } = response;
  const key = rateLimit.resource ?? bucket;
  const spent = isAnonymousQuotaExhausted(response) || rateLimit.remaining === 0;
  if (!spent)
    return rateLimit.remaining === undefined ? undefined : { bucket: key, until: undefined };
  // A spent window lasts until its reset; a throttle (Retry-After) only as long as it says.
  const resetAt =
    rateLimit.remaining === 0 && rateLimit.resetEpochSeconds !== undefined
      ? rateLimit.resetEpochSeconds * 1000
      : undefined;
  const until =
    resetAt !== undefined && resetAt > at
      ? resetAt
      : rateLimit.retryAfterSeconds !== undefined
        ? at + rateLimit.retryAfterSeconds * 1000
        : at + ANONYMOUS_SPENT_DEFAULT_MS;
  return { bucket: key, until: Math.min(until, at + ANONYMOUS_SPENT_MAX_MS) };
}

/** Spent marks held in this process: each bucket's end, forgotten once it passed. */
export interface SpentMarks {
  /** The end of `bucket`'s unexpired mark, if any. */
  until(bucket: string): number | undefined;
  /** Marks `bucket` spent until `until`, or clears it (`undefined`). */
  set(bucket: string, until: number | undefined): void;
}

/**
 * Creates an in-memory {@link SpentMarks}.
 *
 * @param now - the injected clock, epoch milliseconds
 */
export function createSpentMarks(now: () => number): SpentMarks {
  const spentUntil = new Map<string, number>();
  return {
    until(bucket) {
      const until = spentUntil.get(bucket);
      if (until === undefined) return undefined;
      if (now() < until) return until;
      spentUntil.delete(bucket);
      return undefined;
    },
    set(bucket, until) {
      if (until === undefined) spentUntil.delete(bucket);
      else spentUntil.set(bucket, until);
    },
  };
}

/**
 * Creates the anonymous rate-limit memory of one process: the rules of
 * {@link judgeAnonymousBudget}; an answer with budget left clears the mark.
 *
 * @param now - the injected clock, epoch milliseconds
 */
export function createAnonymousBudget(now: () => number): AnonymousBudget {
  const marks = createSpentMarks(now);
  return {
    isSpent: (bucket) => Promise.resolve(marks.until(bucket) !== undefined),
    observe(bucket, response) {
      const change = judgeAnonymousBudget(bucket, response, now());
      if (change !== undefined) marks.set(change.bucket, change.until);
    },
  };
}
