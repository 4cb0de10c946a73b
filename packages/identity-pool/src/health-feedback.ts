import { COOLDOWN_MS } from '@relay/protocol';
import type { CooldownCause, CooldownScope } from './cooldown.js';
import { readHeader, type HeaderSource } from './header-reader.js';
import { readResourceBucket } from './rate-state.js';
import { parseRetryAfter } from './retry-after-parser.js';

/**
 * How long after minting an installation token a 401 is taken for the forge's replication delay
 * rather than a bad credential: 10 s.
 */
export const FRESH_TOKEN_GRACE_MS = 10_000;

/** What came back from one upstream call made with a pooled identity. */
export type UpstreamOutcome =
  | {
      /** The forge answered. */
      readonly kind: 'response';
      /** The HTTP status. */
      readonly status: number;
      /** The response headers. */
      readonly headers: HeaderSource;
    }
  | {
      /** No answer: timeout, connection reset, DNS failure. A failure class of its own. */
      readonly kind: 'transport_error';
    };

/**
 * Which rule of the cooldown table applied to an outcome.
 *
 * - `success`: 1xx-3xx; nothing to cool.
 * - `answer`: a 4xx that answers the request (400, 404, 409, 410, 422, …): not a failure of the
 *   identity; nothing to cool.
 * - `fresh_token_unauthorized`: a 401 within {@link FRESH_TOKEN_GRACE_MS} of minting the
 *   installation token (replication delay); nothing to cool.
 * - `unauthorized`: a 401; global cooldown (Retry-After, else 120 s).
 * - `retry_after`: another error with Retry-After; global cooldown for that long.
 * - `secondary_limit`: a 403 with budget remaining (or none stated); global 120 s.
 * - `quota_exhausted`: a 403 whose `x-ratelimit-remaining` is 0; no cooldown, since the rate
 *   state keeps the identity out of that bucket until its reset time.
 * - `rate_limited`: a 429; that resource bucket, 120 s.
 * - `failure`: any other failure class (5xx, transport errors); that route key, 120 s.
 */
export type FeedbackRule =
  | 'success'
  | 'answer'
  | 'fresh_token_unauthorized'
  | 'unauthorized'
  | 'retry_after'
  | 'secondary_limit'
  | 'quota_exhausted'
  | 'rate_limited'
  | 'failure';

/** A cooldown to record, as decided from an outcome. */
export interface CooldownDecision {
  /** Where it applies. */
  readonly scope: CooldownScope;
  /** How long, in milliseconds. */
  readonly durationMs: number;
  /** Why. */
  readonly cause: CooldownCause;
}

/** What to do about one outcome. */
export interface HealthFeedback {
  /** The rule that applied. */
  readonly rule: FeedbackRule;
  /** The cooldown to record, if any. */
  readonly cooldown: CooldownDecision | undefined;
  /** The credential must be dropped from any cache (a 401 outside the fresh-token grace). */
  readonly invalidateCredential: boolean;
  /**
   * The 424 reason this outcome stands for when the read cannot be retried elsewhere:
   * `forge_identity_depleted` (the identity's quota is spent) or `forge_rate_limited` (the forge
   * throttled it).
   */
  readonly fallbackReason: 'forge_identity_depleted' | 'forge_rate_limited' | undefined;
}

/** Input of {@link decideHealthFeedback}. */
export interface HealthFeedbackInput {
  /** What came back. */
  readonly outcome: UpstreamOutcome;
  /** The route key of the call (for route-key cooldowns). */
  readonly routeKey: string;
  /** The route's resource bucket (for 429s without `x-ratelimit-resource`). */
  readonly bucket: string;
  /** The current time, epoch milliseconds. */
  readonly now: number;
  /** When the credential used was minted (installation tokens), epoch milliseconds. */
  readonly credentialMintedAt?: number | undefined;
  /** The default cooldown. Default {@link COOLDOWN_MS} (120 s). */
  readonly cooldownMs?: number;
}

const NOTHING = { cooldown: undefined, invalidateCredential: false, fallbackReason: undefined };

function isFailureStatus(status: number): boolean {
  return status === 401 || status === 403 || status === 408 || status === 429 || status >= 500;
}

/**
 * Applies SPEC.md's identity cooldown table to one upstream outcome. Pure.
 *
 * | outcome | cooldown |
 * |---|---|
 * | 401 | global: Retry-After, else 120 s (none within 10 s of minting an installation token) |
 * | any error with Retry-After | global, for that long |
 * | 403 with budget remaining | global, 120 s |
 * | 429 | that resource bucket, 120 s |
 * | other failure classes (408, 5xx, transport) | that route key, 120 s |
 *
 * A 403 alone never establishes quota exhaustion: only `x-ratelimit-remaining: 0` does.
 *
 * @example
 * ```ts
 * const feedback = decideHealthFeedback({ outcome: { kind: 'response', status: 429, headers },
 *   routeKey: 'repo_view:octo/hello', bucket: 'core', now: clock() });
 * if (feedback.cooldown) await coordinator.addCooldown(identity.id, feedback.cooldown);
 * ```
 */
export function decideHealthFeedback(input: HealthFeedbackInput): HealthFeedback {
  const { outcome, now } = input;
  const cooldownMs = input.cooldownMs ?? COOLDOWN_MS;
  if (outcome.kind === 'transport_error') {
    return {
      ...NOTHING,
      rule: 'failure',
      cooldown: {
        scope: { kind: 'route', routeKey: input.routeKey },
        durationMs: cooldownMs,
        cause: 'failure',
      },
    };
  }
  const { status, headers } = outcome;
  if (!isFailureStatus(status)) return { ...NOTHING, rule: status < 400 ? 'success' : 'answer' };
  const retryAfterMs = parseRetryAfter(headers, now);
  const global: CooldownScope = { kind: 'global' };

  if (status === 401) {
    const minted = input.credentialMintedAt;
    if (minted !== undefined && now - minted < FRESH_TOKEN_GRACE_MS) {
      return { ...NOTHING, rule: 'fresh_token_unauthorized' };
    }
    return {
      ...NOTHING,
      rule: 'unauthorized',
      cooldown: { scope: global, durationMs: retryAfterMs ?? cooldownMs, cause: 'unauthorized' },
      invalidateCredential: true,
    };
  }
  const quotaSpent = readHeader(headers, 'x-ratelimit-remaining') === '0';
  const throttled = status === 403 || status === 429;
  const fallbackReason = throttled
    ? quotaSpent
      ? ('forge_identity_depleted' as const)
      : ('forge_rate_limited' as const)
    : undefined;
  if (retryAfterMs !== undefined) {
    return {
      ...NOTHING,
      rule: 'retry_after',
      cooldown: { scope: global, durationMs: retryAfterMs, cause: 'retry_after' },
      fallbackReason,
    };
  }
  if (status === 403) {
    if (quotaSpent) return { ...NOTHING, rule: 'quota_exhausted', fallbackReason };
    return {
      ...NOTHING,
      rule: 'secondary_limit',
      cooldown: { scope: global, durationMs: cooldownMs, cause: 'secondary_limit' },
      fallbackReason,
    };
  }
  if (status === 429) {
    const bucket = readResourceBucket(headers, input.bucket);
    return {
      ...NOTHING,
      rule: 'rate_limited',
      cooldown: {
        scope: { kind: 'bucket', bucket },
        durationMs: cooldownMs,
        cause: 'rate_limited',
      },
      fallbackReason,
    };
  }
  return {
    ...NOTHING,
    rule: 'failure',
    cooldown: {
      scope: { kind: 'route', routeKey: input.routeKey },
      durationMs: cooldownMs,
      cause: 'failure',
    },
  };
}
