import type { ErrorCode, FallbackReason } from '@relay/protocol';

/**
 * How the transport fails, as a closed union: `switch (error.code)` narrows.
 *
 * - `string_rewrite_denied`: the canonical URL or a header matched the request's frozen
 *   rewrite snapshot (or the check failed); nothing was sent. A denial: never retried, never
 *   turned into stale data or a local fallback.
 * - `forge_redirect_denied`: the forge redirected where the relay does not follow.
 * - `forge_response_too_large`: the upstream body passed the byte cap; the read was stopped.
 * - `forge_timeout`: the forge did not answer (headers and body) within the deadline.
 * - `forge_unreachable`: the connection failed (refused, reset, DNS, TLS, closed mid-body).
 * - `invalid_path`: the path cannot form a canonical URL on the target host.
 * - `invalid_header`: a header value holds bytes that HTTP does not allow.
 * - `aborted`: the caller's signal aborted the request.
 */
export const TRANSPORT_ERROR_CODES = [
  'string_rewrite_denied',
  'forge_redirect_denied',
  'forge_response_too_large',
  'forge_timeout',
  'forge_unreachable',
  'invalid_path',
  'invalid_header',
  'aborted',
] as const;

/** A code of a {@link ForgeTransportError}. */
export type ForgeTransportErrorCode = (typeof TRANSPORT_ERROR_CODES)[number];

/**
 * A transport failure as data. The message is generic: it never holds a URL, a header value, a
 * credential or a pattern. Structured details are optional fields.
 */
export interface ForgeTransportError {
  /** What went wrong. */
  readonly code: ForgeTransportErrorCode;
  /** A generic, human-readable summary. */
  readonly message: string;
  /** The upstream status of a denied redirect. */
  readonly status?: number;
  /** The byte cap that was passed (`forge_response_too_large`). */
  readonly limitBytes?: number;
  /** The deadline that expired (`forge_timeout`). */
  readonly timeoutMs?: number;
  /** Whether the failure happened while following a redirect. */
  readonly duringRedirect?: boolean;
}

/** How the relay answers a transport failure: the catalogue code, or a 424 with its reason. */
export interface TransportErrorMapping {
  /** The code of the relay's error body. */
  readonly errorCode: ErrorCode;
  /** The 424 `fallback_local` reason, when `errorCode` is `fallback_local`. */
  readonly reason?: FallbackReason;
  /**
   * Whether the failure is transient: the pipeline may serve bounded stale data for it. False
   * for denials, which are final.
   */
  readonly transient: boolean;
}

/**
 * The relay's answer to each transport failure, lined up with the protocol catalogue:
 * `forge_response_too_large` is a 424 fallback reason, the rest are catalogue codes.
 */
export const TRANSPORT_ERROR_MAPPINGS = {
  string_rewrite_denied: { errorCode: 'string_rewrite_denied', transient: false },
  forge_redirect_denied: { errorCode: 'forge_redirect_denied', transient: false },
  forge_response_too_large: {
    errorCode: 'fallback_local',
    reason: 'forge_response_too_large',
    transient: false,
  },
  forge_timeout: { errorCode: 'forge_timeout', transient: true },
  forge_unreachable: { errorCode: 'forge_unreachable', transient: true },
  invalid_path: { errorCode: 'invalid_path', transient: false },
  invalid_header: { errorCode: 'invalid_request', transient: false },
  aborted: { errorCode: 'internal_error', transient: false },
} as const satisfies Record<ForgeTransportErrorCode, TransportErrorMapping>;

const MESSAGES: Record<ForgeTransportErrorCode, string> = {
  string_rewrite_denied: 'The outgoing request was denied by the string-rewrite policy.',
  forge_redirect_denied: 'The forge answered with a redirect the relay does not follow.',
  forge_response_too_large: 'The forge response is larger than the response size cap.',
  forge_timeout: 'The forge did not answer in time.',
  forge_unreachable: 'The forge could not be reached.',
  invalid_path: 'The path cannot form an upstream URL.',
  invalid_header: 'A request header value is not valid HTTP.',
  aborted: 'The request was aborted.',
};

/**
 * Builds a {@link ForgeTransportError} with the generic message of its code.
 *
 * @param code - the failure
 * @param details - optional structured details
 * @returns the error
 */
export function createTransportError(
  code: ForgeTransportErrorCode,
  details: Omit<ForgeTransportError, 'code' | 'message'> = {},
): ForgeTransportError {
  return { code, message: MESSAGES[code], ...details };
}
