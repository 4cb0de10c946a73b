/**
 * The error catalogue: every code the relay server answers with, its HTTP status and the
 * exit code the `relay` CLI ends with when it reports it. Codes are SPEC.md's and
 * DESIGN.md §3's; `switch (code)` over {@link ErrorCode} narrows.
 */
export const ERROR_CATALOGUE = {
  invalid_request: { status: 400, exitCode: 1, summary: 'The request body is malformed.' },
  invalid_path: { status: 400, exitCode: 1, summary: 'The path breaks the path rules.' },
  invalid_query: { status: 400, exitCode: 1, summary: 'A query key looks secret-bearing.' },
  invalid_string_rewrite_policy: {
    status: 400,
    exitCode: 1,
    summary: 'The string-rewrite policy document is malformed.',
  },
  unauthorized: { status: 401, exitCode: 4, summary: 'Authentication is missing or invalid.' },
  forge_token_invalid: { status: 401, exitCode: 4, summary: 'The forge rejected the forge token.' },
  pool_forbidden: { status: 403, exitCode: 1, summary: 'The caller holds no grant on this pool.' },
  method_denied: { status: 403, exitCode: 1, summary: 'Only GET is relayed.' },
  string_rewrite_denied: {
    status: 403,
    exitCode: 1,
    summary: 'The deployment-wide string protection denied the request.',
  },
  org_membership_required: {
    status: 403,
    exitCode: 4,
    summary: 'The account is not a verified member of the allowed organization.',
  },
  not_found: { status: 404, exitCode: 1, summary: 'No such resource.' },
  method_not_allowed: { status: 405, exitCode: 1, summary: 'Method not allowed on this endpoint.' },
  identity_conflict: {
    status: 409,
    exitCode: 1,
    summary: 'The identity id exists with another pool or kind.',
  },
  string_rewrite_revision_conflict: {
    status: 409,
    exitCode: 1,
    summary: 'The expected revision is not the current one.',
  },
  client_name_ambiguous: {
    status: 409,
    exitCode: 1,
    summary: 'The client name matches more than one historical client.',
  },
  caller_ambiguous: {
    status: 409,
    exitCode: 1,
    summary: 'Several historical callers match this account; an operator must decide.',
  },
  payload_too_large: { status: 413, exitCode: 1, summary: 'The request body is too large.' },
  unsupported_media_type: {
    status: 415,
    exitCode: 1,
    summary: 'The body must be application/json.',
  },
  fallback_local: { status: 424, exitCode: 1, summary: 'The read must run locally.' },
  internal_error: { status: 500, exitCode: 1, summary: 'The relay failed unexpectedly.' },
  forge_redirect_denied: {
    status: 502,
    exitCode: 1,
    summary: 'The forge answered with a redirect the relay does not follow.',
  },
  forge_unreachable: { status: 502, exitCode: 1, summary: 'The forge could not be reached.' },
  pool_policy_unavailable: {
    status: 503,
    exitCode: 1,
    summary: 'The stored pool policy is unusable.',
  },
  string_rewrite_policy_unavailable: {
    status: 503,
    exitCode: 1,
    summary: 'The string-rewrite policy is missing, corrupt or unreadable.',
  },
  identities_cooling_down: {
    status: 503,
    exitCode: 1,
    summary: 'Every candidate identity is cooling down.',
  },
  forge_app_key_format: {
    status: 503,
    exitCode: 1,
    summary: 'The forge app private key is not PKCS#8 PEM.',
  },
  credentials_unavailable: {
    status: 503,
    exitCode: 1,
    summary: 'Every selected pooled credential failed locally.',
  },
  relay_overloaded: { status: 503, exitCode: 1, summary: 'The relay is overloaded.' },
  forge_timeout: { status: 504, exitCode: 1, summary: 'The forge did not answer in time.' },
} as const satisfies Record<string, { status: number; exitCode: number; summary: string }>;

/** A code of the server's error catalogue. */
export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** Every server error code, in catalogue order. */
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as readonly ErrorCode[];

/** Whether `value` is a code of the server's error catalogue. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CATALOGUE, value);
}

/** The HTTP status of an error code. */
export function statusOf(code: ErrorCode): (typeof ERROR_CATALOGUE)[ErrorCode]['status'] {
  return ERROR_CATALOGUE[code].status;
}

/**
 * The closed list of reasons a 424 `fallback_local` carries: the read must run with the
 * native CLI and the user's own credentials.
 */
export const FALLBACK_REASONS = [
  'route_denied',
  'local_credentials_required',
  'logs_denied',
  'search_denied',
  'relay_overloaded',
  'forge_response_too_large',
  'web_only_unavailable',
  'repo_not_public',
  'identity_pool_depleted',
  'forge_identity_depleted',
  'forge_rate_limited',
  'identities_cooling_down',
] as const;

/** A reason of a 424 `fallback_local`. */
export type FallbackReason = (typeof FALLBACK_REASONS)[number];

/** Whether `value` is a fallback reason. */
export function isFallbackReason(value: unknown): value is FallbackReason {
  return typeof value === 'string' && (FALLBACK_REASONS as readonly string[]).includes(value);
}

/**
 * Fallback reasons that are transient: the client retries them (RELAY_RETRIES times) before it
 * delegates to the native CLI (SPEC.md client rule 6).
 */
export const TRANSIENT_FALLBACK_REASONS = [
  'identities_cooling_down',
  'identity_pool_depleted',
  'forge_identity_depleted',
  'forge_rate_limited',
  'relay_overloaded',
] as const satisfies readonly FallbackReason[];

/** Why a stale entry was served (`relay.stale_reason`). */
export const STALE_REASONS = [
  'identity_pool_depleted',
  'forge_identity_depleted',
  'forge_rate_limited',
  'identities_cooling_down',
  'credentials_unavailable',
  'web_only_unavailable',
] as const;

/** A `relay.stale_reason` value. */
export type StaleReason = (typeof STALE_REASONS)[number];

/**
 * Errors the client itself raises, with the exit code the `relay` CLI ends with.
 */
export const CLIENT_ERROR_CATALOGUE = {
  client_name_ambiguous: {
    exitCode: 1,
    summary: 'The client name matches more than one historical client.',
  },
  unsupported_pr_detail_export: {
    exitCode: 1,
    summary: 'pr view with commits, comments or reviews needs the native CLI.',
  },
  unsupported_run_export: { exitCode: 1, summary: 'This run export needs the native CLI.' },
  native_token_missing: {
    exitCode: 4,
    summary: 'No forge token: set GH_TOKEN or GITHUB_TOKEN, or run `gh auth login`.',
  },
  insecure_url: {
    exitCode: 1,
    summary: 'The URL must use https (http only for loopback hosts).',
  },
  redirect_refused: {
    exitCode: 1,
    summary: 'The server redirected to another origin or scheme; the request was refused.',
  },
  not_logged_in: { exitCode: 4, summary: 'No saved login: run `relay login`.' },
  invalid_config: { exitCode: 1, summary: 'The saved login or the local rules file is invalid.' },
  relay_unreachable: { exitCode: 1, summary: 'The relay server could not be reached.' },
  relay_protocol_error: { exitCode: 1, summary: 'The relay server answered something unexpected.' },
  native_cli_missing: { exitCode: 1, summary: 'The native CLI could not be found.' },
  string_rewrite_blocked: {
    exitCode: 1,
    summary: 'The string-rewrite policy blocked the content.',
  },
  string_rewrite_policy_failure: {
    exitCode: 1,
    summary: 'The string-rewrite policy could not be obtained or merged.',
  },
  usage_error: { exitCode: 2, summary: 'The command line is invalid.' },
} as const satisfies Record<string, { exitCode: number; summary: string }>;

/** A code of the client-side error catalogue. */
export type ClientErrorCode = keyof typeof CLIENT_ERROR_CATALOGUE;

/** Failure classes of the client's policy-failure stderr line (SPEC.md client rule 15). */
export const POLICY_FAILURE_CLASSES = [
  'setup',
  'request',
  'transport',
  'timeout',
  'canceled',
  'http_status',
  'response_read',
  'response_size',
  'server_validation',
  'local_read',
  'local_validation',
  'merge',
] as const;

/** A class of the client's policy-failure line. */
export type PolicyFailureClass = (typeof POLICY_FAILURE_CLASSES)[number];
