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
