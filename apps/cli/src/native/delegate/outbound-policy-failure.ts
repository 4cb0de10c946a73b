import type { PolicyFailureClass } from '@relay/protocol';
import { CliError } from '../../cli-error.js';

/**
 * Why the outbound string-rewrite policy could not be obtained (SPEC.md client rule 15): a
 * class, when the attempt started and how long it ran, and what the relay's answer said about
 * itself (status, Cloudflare ray id). Data only: it never holds a pattern, a replacement, a
 * token or a response body, so that rendering it can leak none of them.
 */
export interface PolicyFailure {
  /** The failure class of SPEC.md client rule 15. */
  readonly class: PolicyFailureClass;
  /** When the attempt started, epoch milliseconds. */
  readonly attemptStartMs: number;
  /** How long the attempt ran before it failed, milliseconds (never negative). */
  readonly elapsedMs: number;
  /** The HTTP status of the policy endpoint's answer, when one arrived. */
  readonly httpStatus?: number;
  /** The answer's `cf-ray` header, when it is a valid ray id ({@link parseCfRay}). */
  readonly cfRay?: string;
  /** A fixed hint for the user, from a closed set (no free text). */
  readonly hint?: PolicyFailureHint;
}

/** Hints a policy failure may carry: each a fixed sentence of {@link POLICY_FAILURE_HINTS}. */
export type PolicyFailureHint = 'not_logged_in' | 'invalid_login';

/** The text of each {@link PolicyFailureHint}. */
export const POLICY_FAILURE_HINTS: Readonly<Record<PolicyFailureHint, string>> = {
  not_logged_in: 'no relay login, run `relay login`',
  invalid_login: 'the saved relay login is unusable, run `relay login`',
};

/**
 * A Cloudflare ray id as SPEC.md client rule 15 allows it: exactly 16 hex digits, optionally a
 * hyphen and three uppercase letters (the data centre). "Hex digits" admits both cases
 * (Cloudflare sends lowercase); the value is printed as received.
 */
const CF_RAY = /^[0-9A-Fa-f]{16}(?:-[A-Z]{3})?$/;

/**
 * The ray id to print from a `cf-ray` header value, or undefined when the header is absent or
 * not exactly a valid ray id (invalid values are dropped, never repaired or truncated).
 *
 * @param value - the raw header value (`Headers.get('cf-ray')`)
 */
export function parseCfRay(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  return CF_RAY.test(value) ? value : undefined;
}

/**
 * The fixed message of a policy failure (the CLI's exit path prefixes `relay: ` and appends
 * ` (string_rewrite_policy_failure)`):
 *
 * `string-rewrite policy unavailable: class <class>, attempt_utc <ISO 8601>, elapsed_ms <n>[,
 * http_status <status>][, cf_ray <ray>][; <hint>]`
 */
export function formatPolicyFailure(failure: PolicyFailure): string {
  const fields = [
    `class ${failure.class}`,
    `attempt_utc ${new Date(failure.attemptStartMs).toISOString()}`,
    `elapsed_ms ${String(Math.max(0, Math.round(failure.elapsedMs)))}`,
  ];
  if (failure.httpStatus !== undefined) fields.push(`http_status ${String(failure.httpStatus)}`);
  if (failure.cfRay !== undefined) fields.push(`cf_ray ${failure.cfRay}`);
  const hint = failure.hint === undefined ? '' : `; ${POLICY_FAILURE_HINTS[failure.hint]}`;
  return `string-rewrite policy unavailable: ${fields.join(', ')}${hint}`;
}

/** The CLI error of a policy failure: code `string_rewrite_policy_failure`, exit 1. */
export function toPolicyFailureError(failure: PolicyFailure): CliError {
  return new CliError('string_rewrite_policy_failure', { message: formatPolicyFailure(failure) });
}
