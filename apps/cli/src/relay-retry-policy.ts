import {
  RELAY_RETRIES_DEFAULT,
  RELAY_RETRY_DELAYS_MS,
  TRANSIENT_FALLBACK_REASONS,
  err,
  ok,
} from '@relay/protocol';
import type { FallbackReason, Result } from '@relay/protocol';
import type { CliEnv } from './cli-dependencies.js';
import { CliError } from './cli-error.js';
import type { RelayReply } from './relay-http.js';

/** The most retries RELAY_RETRIES may ask for. */
export const RELAY_RETRIES_MAX = 10;

/** How a reply is handled (SPEC.md client rules 5 and 6). */
export type ReplyClass =
  /** Served: print it. */
  | { readonly kind: 'served' }
  /** 424 with a transient reason, or a 503 with a transient code: retry, then run locally. */
  | { readonly kind: 'transient_fallback'; readonly reason: FallbackReason }
  /** 424 with any other reason: run locally now. */
  | { readonly kind: 'fallback'; readonly reason: FallbackReason }
  /** 5xx internal_error, malformed 502/503/504: retry, then fail. */
  | { readonly kind: 'service_error' }
  /** Everything else (denials, auth, validation): fail closed. */
  | { readonly kind: 'failure' };

const TRANSIENT: readonly string[] = TRANSIENT_FALLBACK_REASONS;

/** Whether a fallback reason (or a 503 code) is one of client rule 6's transient ones. */
export function isTransientFallbackReason(reason: string): boolean {
  return TRANSIENT.includes(reason);
}

/** Classifies a relay reply. */
export function classifyReply(reply: RelayReply): ReplyClass {
  switch (reply.kind) {
    case 'ok':
      return { kind: 'served' };
    case 'error':
      if (reply.code === 'fallback_local' && reply.reason !== undefined) {
        return isTransientFallbackReason(reply.reason)
          ? { kind: 'transient_fallback', reason: reply.reason }
          : { kind: 'fallback', reason: reply.reason };
      }
      if (reply.status === 503 && isTransientFallbackReason(reply.code)) {
        return { kind: 'transient_fallback', reason: reply.code as FallbackReason };
      }
      if (reply.code === 'internal_error' && reply.status >= 500) return { kind: 'service_error' };
      return { kind: 'failure' };
    case 'malformed':
      return reply.status === 502 || reply.status === 503 || reply.status === 504
        ? { kind: 'service_error' }
        : { kind: 'failure' };
    case 'unreachable':
    case 'redirect_refused':
      return { kind: 'failure' };
  }
}

/**
 * RELAY_RETRIES: a non-negative integer (0 disables), default 2, at most
 * {@link RELAY_RETRIES_MAX}.
 */
export function parseRetries(env: CliEnv): Result<number, CliError> {
  const raw = env.RELAY_RETRIES?.trim();
  if (raw === undefined || raw === '') return ok(RELAY_RETRIES_DEFAULT);
  if (!/^\d+$/.test(raw) || Number(raw) > RELAY_RETRIES_MAX) {
    return err(
      new CliError('usage_error', {
        message: `RELAY_RETRIES must be an integer from 0 to ${RELAY_RETRIES_MAX}.`,
      }),
    );
  }
  return ok(Number(raw));
}

/** The wait before retry number `attempt` (0-based): 1 s, then 3 s for every later one. */
export function retryDelayMs(attempt: number): number {
  const delays = RELAY_RETRY_DELAYS_MS;
  return delays[Math.min(attempt, delays.length - 1)] ?? 0;
}

/** What {@link sendWithRetries} ends with. */
export type RetryOutcome =
  | { readonly kind: 'served'; readonly reply: Extract<RelayReply, { kind: 'ok' }> }
  | { readonly kind: 'fallback'; readonly reason: FallbackReason; readonly transient: boolean }
  | { readonly kind: 'failure'; readonly reply: Exclude<RelayReply, { kind: 'ok' }> };

/** What {@link sendWithRetries} needs. */
export interface RetryOptions {
  readonly retries: number;
  readonly sleep: (ms: number) => Promise<void>;
}

/**
 * Sends a relay request, retrying transient fallbacks and service errors `retries` times with
 * waits of 1 s then 3 s (SPEC.md client rule 6). Exhausted transient fallbacks end as a
 * fallback (the caller may run the native CLI); exhausted service errors end as a failure.
 */
export async function sendWithRetries(
  send: () => Promise<RelayReply>,
  options: RetryOptions,
): Promise<RetryOutcome> {
  for (let attempt = 0; ; attempt += 1) {
    const reply = await send();
    const verdict = classifyReply(reply);
    const canRetry = attempt < options.retries;
    if (reply.kind === 'ok') return { kind: 'served', reply };
    switch (verdict.kind) {
      case 'served':
      case 'failure':
        return { kind: 'failure', reply };
      case 'fallback':
        return { kind: 'fallback', reason: verdict.reason, transient: false };
      case 'transient_fallback':
        if (!canRetry) return { kind: 'fallback', reason: verdict.reason, transient: true };
        break;
      case 'service_error':
        if (!canRetry) return { kind: 'failure', reply };
        break;
    }
    await options.sleep(retryDelayMs(attempt));
  }
}
