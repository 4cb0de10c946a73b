import {
  DISCOVERY_PATH,
  FALLBACK_REASONS,
  callerProvisioningRequestSchema,
  callerProvisioningResponseSchema,
  clientNameSchema,
  discoveryDocumentSchema,
  errorBodySchema,
  identityRecordSchema,
  identityRegistrationSchema,
  loginRequestSchema,
  loginResponseSchema,
  poolHealthSchema,
  poolIdSchema,
  poolStatsSchema,
  relayEnvelopeBodySchema,
  relayEnvelopeSchema,
  relayRequestSchema,
  statsWindowSchema,
  stringRewritePolicySchema,
  stringRewritePutResultSchema,
  stringRewritePutSchema,
  type ErrorCode,
  type FallbackReason,
} from '@relay/protocol';
import type { z } from 'zod';
import { METRICS_PATH } from '../metrics/metrics-route.js';
import { RELAY_REQUEST_PATH } from '../pipeline/relay-route.js';
import {
  DEFAULT_DENIALS_LIMIT,
  MAX_DENIALS_LIMIT,
  POOL_DENIALS_PATH,
  poolDenialsQuerySchema,
  poolDenialsSchema,
} from '../routes/pool-denials-route.js';
import {
  POOL_IDENTITY_STATUS_PATH,
  poolIdentitiesSchema,
} from '../routes/pool-identity-status-route.js';
import {
  STATS_TIMESERIES_PATH,
  statsTimeseriesQuerySchema,
  statsTimeseriesSchema,
} from '../routes/stats-timeseries-route.js';

/** The path the OpenAPI document is served at. */
export const OPENAPI_PATH = '/openapi.json';

/**
 * A named schema of the document (`#/components/schemas/<name>`): the `@relay/protocol` zod
 * schema the server validates a request with, or the one its answer is typed by.
 */
export interface OpenApiSchemaSpec {
  /** The zod schema. */
  readonly schema: z.ZodType;
  /** `input` for request bodies (what a client may send), `output` for answers. */
  readonly io: 'input' | 'output';
  readonly description: string;
}

/**
 * Every named schema of the document, keyed by component name. Each is converted with zod's own
 * JSON Schema generator (draft 2020-12, OpenAPI 3.1's dialect), so the document cannot drift from
 * what the server parses and answers.
 */
export const OPENAPI_SCHEMAS = {
  DiscoveryDocument: {
    schema: discoveryDocumentSchema,
    io: 'output',
    description: `The discovery document served at ${DISCOVERY_PATH}.`,
  },
  LoginRequest: {
    schema: loginRequestSchema,
    io: 'input',
    description:
      'A forge token to exchange for a caller token. `client` is normalized (trailing `.local` removed, 1-80 characters); `pool`, when given, must already be granted.',
  },
  LoginResponse: {
    schema: loginResponseSchema,
    io: 'output',
    description: 'The caller token (shown once) and what it belongs to.',
  },
  CallerProvisioningRequest: {
    schema: callerProvisioningRequestSchema,
    io: 'input',
    description: 'The pool to grant, the forge account and the client name of the new token.',
  },
  CallerProvisioningResponse: {
    schema: callerProvisioningResponseSchema,
    io: 'output',
    description: 'The one-time caller token and the caller it belongs to.',
  },
  IdentityRegistration: {
    schema: identityRegistrationSchema,
    io: 'input',
    description:
      'A pooled identity. `installation_id` is required and positive for `forge_app`, absent or null for `pat`; the `[bot]` login suffix and the wildcard owner `*` are for `forge_app` and `pat` respectively. `secret_ref` names a secret binding; the secret itself is never sent.',
  },
  IdentityRecord: {
    schema: identityRecordSchema,
    io: 'output',
    description: 'A stored identity: it names its secret binding and never holds a secret value.',
  },
  StringRewritePolicy: {
    schema: stringRewritePolicySchema,
    io: 'output',
    description: 'The deployment-wide string-rewrite policy.',
  },
  StringRewritePut: {
    schema: stringRewritePutSchema,
    io: 'input',
    description:
      'Exactly schema_version, expected_revision and rules. Patterns are the RE2 subset of SPEC.md; duplicate keys, duplicate patterns, patterns matching empty input and the byte limits are refused with 400 `invalid_string_rewrite_policy`.',
  },
  StringRewritePutResult: {
    schema: stringRewritePutResultSchema,
    io: 'output',
    description: 'The new revision and the rule count (never the rules).',
  },
  PoolHealth: {
    schema: poolHealthSchema,
    io: 'output',
    description:
      '`identities_healthy` counts stored active identities, not verified credential readiness; `string_rewrite_revision` is null when the policy is unreadable, `pool_policy` null when the stored pool policy is unusable.',
  },
  PoolStats: {
    schema: poolStatsSchema,
    io: 'output',
    description:
      'Pool figures over the window; `client_usage`, `client_routes` and `active_clients` cover the requesting caller’s own clients. Rates are null when nothing was eligible.',
  },
  StatsTimeseries: {
    schema: statsTimeseriesSchema,
    io: 'output',
    description:
      'The pool’s requests per time bucket, oldest first, empty buckets included: cache hits and hit rate (null when empty), free answers (no pooled identity charged) and paid ones (a pooled identity charged), local fallbacks and service errors.',
  },
  PoolIdentities: {
    schema: poolIdentitiesSchema,
    io: 'output',
    description:
      'Every identity of the pool: id, kind, weight, remaining quota per resource bucket with an observation, live cooldowns (scope kind, cause, end). No login, secret binding, scope or route key.',
  },
  PoolDenials: {
    schema: poolDenialsSchema,
    io: 'output',
    description:
      'The pool’s most recent refused requests (4xx with an error code), newest first: request id, time, status, codes and route kind only.',
  },
  RelayRequest: {
    schema: relayRequestSchema,
    io: 'input',
    description:
      'A read to relay. Only GET is enabled (else 403 `method_denied`); path rules give 400 `invalid_path`, secret-bearing query keys 400 `invalid_query`; headers are reduced to the allowlist. Legacy `route_hint.owner|repo|kind`, `cache_key` and `idempotency_key` are accepted and discarded.',
  },
  RelayEnvelopeFields: {
    schema: relayEnvelopeSchema,
    io: 'output',
    description:
      'The fields of the relay envelope. `identity` is null when no pooled identity served; `stale_ok` is true exactly when `cache` is `stale`, and then `stale_reason` and `cache_expires_at` are present.',
  },
  RelayEnvelopeBody: {
    schema: relayEnvelopeBodySchema,
    io: 'output',
    description: 'How `body` matches `body_encoding`.',
  },
  ErrorBody: {
    schema: errorBodySchema,
    io: 'output',
    description:
      'Every relay-produced error. `reason` is present exactly when `code` is `fallback_local` (HTTP 424); `request_id` equals the `x-relay-request-id` header. Messages are generic: never a token, secret binding name, pattern or matched text.',
  },
} as const satisfies Record<string, OpenApiSchemaSpec>;

/**
 * Named schemas made of others: every part must hold (`allOf`). The relay envelope is its fields
 * and the match of `body` to `body_encoding`.
 */
export const OPENAPI_COMPOSITE_SCHEMAS = {
  RelayEnvelope: {
    allOf: ['RelayEnvelopeFields', 'RelayEnvelopeBody'],
    description:
      'The relay response envelope: the upstream (or cached) status, allowlisted headers and body, the pooled identity that served it, and how the relay served it.',
  },
} as const satisfies Record<
  string,
  { readonly allOf: readonly (keyof typeof OPENAPI_SCHEMAS)[]; readonly description: string }
>;

/** The name of a component schema. */
export type OpenApiSchemaName =
  keyof typeof OPENAPI_SCHEMAS | keyof typeof OPENAPI_COMPOSITE_SCHEMAS;

/** How an operation authenticates. */
export type OperationSecurity = 'none' | 'caller' | 'admin' | 'metrics';

/** A path or query parameter. */
export interface ParameterSpec {
  readonly name: string;
  readonly in: 'path' | 'query';
  readonly schema: z.ZodType;
  readonly description: string;
}

/** A success answer of an operation. */
export interface SuccessSpec {
  readonly status: 200 | 201;
  readonly description: string;
  /** A component schema (JSON), or a media type and its schema for other bodies. */
  readonly body:
    | { readonly schemaName: OpenApiSchemaName }
    | { readonly mediaType: string; readonly schema: Record<string, unknown> };
}

/** One operation of the relay's HTTP API. */
export interface OperationSpec {
  readonly method: 'get' | 'post' | 'put';
  /** The Hono route pattern (`/v1/pools/:pool/health`). */
  readonly path: string;
  readonly operationId: string;
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  readonly security: OperationSecurity;
  readonly parameters?: readonly ParameterSpec[];
  /** The JSON request body (`Content-Type: application/json`). */
  readonly requestBody?: OpenApiSchemaName;
  readonly responses: readonly SuccessSpec[];
  /** The error codes it may answer with, each under its catalogue status. */
  readonly errors: readonly ErrorCode[];
  /**
   * Which answers carry `Cache-Control: no-store`: every one (errors included), or only the
   * successes.
   */
  readonly noStore?: 'every-answer' | 'success-only';
}

const POOL_PARAMETER: ParameterSpec = {
  name: 'pool',
  in: 'path',
  schema: poolIdSchema,
  description: 'The pool id.',
};

/** Errors of an endpoint that reads a JSON body. */
const BODY_ERRORS = [
  'invalid_request',
  'payload_too_large',
  'unsupported_media_type',
] as const satisfies readonly ErrorCode[];

/** Errors of every `/v1/*` endpoint other than the relay endpoint (the overload guard). */
const SURFACE_ERRORS = [
  'relay_overloaded',
  'internal_error',
] as const satisfies readonly ErrorCode[];

/** Errors of the login and provisioning exchanges with the forge. */
const FORGE_ACCOUNT_ERRORS = [
  'string_rewrite_denied',
  'string_rewrite_policy_unavailable',
  'forge_unreachable',
  'forge_timeout',
  'client_name_ambiguous',
  'caller_ambiguous',
] as const satisfies readonly ErrorCode[];

/**
 * The fallback reasons POST /v1/forge/request answers 424 `fallback_local` with: all of them.
 */
export const RELAY_FALLBACK_REASONS: readonly FallbackReason[] = FALLBACK_REASONS;

/**
 * Every operation of the relay's HTTP API (SPEC.md "Endpoints", DESIGN.md §3, and the server's
 * own GET /metrics and GET /openapi.json), with the error codes each may answer.
 */
export const OPENAPI_OPERATIONS: readonly OperationSpec[] = [
  {
    method: 'get',
    path: DISCOVERY_PATH,
    operationId: 'getDiscoveryDocument',
    tag: 'discovery',
    summary: 'The discovery document',
    description: 'No authentication. The client reads `api_base` and `default_pool` from it.',
    security: 'none',
    responses: [
      {
        status: 200,
        description: 'The discovery document.',
        body: { schemaName: 'DiscoveryDocument' },
      },
    ],
    errors: ['internal_error'],
  },
  {
    method: 'get',
    path: OPENAPI_PATH,
    operationId: 'getOpenApiDocument',
    tag: 'discovery',
    summary: 'This OpenAPI document',
    description:
      'No authentication. The OpenAPI 3.1 document of the relay’s HTTP API, generated from the zod schemas the server validates with; it holds no deployment-specific value.',
    security: 'none',
    responses: [
      {
        status: 200,
        description: 'The OpenAPI 3.1 document.',
        body: {
          mediaType: 'application/json',
          schema: {
            type: 'object',
            properties: { openapi: { type: 'string', pattern: '^3\\.1\\.\\d+$' } },
            required: ['openapi', 'info', 'paths'],
          },
        },
      },
    ],
    errors: ['internal_error'],
  },
  {
    method: 'get',
    path: METRICS_PATH,
    operationId: 'getMetrics',
    tag: 'operations',
    summary: 'Prometheus metrics',
    description:
      'The Prometheus text exposition of the relay’s metrics, for the bearer token RELAY_METRICS_TOKEN. Served only when RELAY_METRICS_TOKEN is set; otherwise the path answers 404 `not_found` like any unknown path.',
    security: 'metrics',
    responses: [
      {
        status: 200,
        description: 'The metrics, Prometheus text format.',
        body: { mediaType: 'text/plain', schema: { type: 'string' } },
      },
    ],
    errors: ['unauthorized', 'not_found', 'internal_error'],
    noStore: 'success-only',
  },
  {
    method: 'post',
    path: '/v1/login/forge-cli',
    operationId: 'loginWithForgeToken',
    tag: 'callers',
    summary: 'Exchange a forge token for a caller token',
    description:
      'Verifies the forge token (GET /user) and the account’s active membership of ALLOWED_FORGE_ORG, binds the caller by immutable forge user id, enrolls it into DEFAULT_LOGIN_POOL, and rotates only the named client’s token (at most 16 clients per caller). The forge token is neither stored nor logged.',
    security: 'none',
    requestBody: 'LoginRequest',
    responses: [
      { status: 200, description: 'The caller token.', body: { schemaName: 'LoginResponse' } },
    ],
    errors: [
      ...BODY_ERRORS,
      'forge_token_invalid',
      'org_membership_required',
      'pool_forbidden',
      ...FORGE_ACCOUNT_ERRORS,
      ...SURFACE_ERRORS,
    ],
  },
  {
    method: 'post',
    path: '/v1/admin/callers',
    operationId: 'provisionCaller',
    tag: 'admin',
    summary: 'Provision a caller and issue a one-time caller token',
    description:
      'Resolves the forge account’s immutable id, verifies its organization membership, adds only the requested pool grant and rotates the named client. Never promotes roles; a disabled caller stays disabled.',
    security: 'admin',
    requestBody: 'CallerProvisioningRequest',
    responses: [
      {
        status: 201,
        description: 'The one-time caller token.',
        body: { schemaName: 'CallerProvisioningResponse' },
      },
    ],
    errors: [
      ...BODY_ERRORS,
      'unauthorized',
      'org_membership_required',
      'not_found',
      ...FORGE_ACCOUNT_ERRORS,
      ...SURFACE_ERRORS,
    ],
  },
  {
    method: 'post',
    path: '/v1/admin/pools/:pool/identities',
    operationId: 'registerIdentity',
    tag: 'admin',
    summary: 'Create or update a pooled identity',
    description:
      'Creates the identity (201) or updates it (200); the pool is created when first referenced. Secret bindings are not resolved here.',
    security: 'admin',
    parameters: [POOL_PARAMETER],
    requestBody: 'IdentityRegistration',
    responses: [
      { status: 201, description: 'Created.', body: { schemaName: 'IdentityRecord' } },
      { status: 200, description: 'Updated.', body: { schemaName: 'IdentityRecord' } },
    ],
    errors: [...BODY_ERRORS, 'unauthorized', 'identity_conflict', ...SURFACE_ERRORS],
  },
  {
    method: 'get',
    path: '/v1/admin/string-rewrites',
    operationId: 'getStringRewritePolicy',
    tag: 'admin',
    summary: 'The string-rewrite policy (admin)',
    description: 'Read from the primary store every time.',
    security: 'admin',
    responses: [
      { status: 200, description: 'The policy.', body: { schemaName: 'StringRewritePolicy' } },
    ],
    errors: ['unauthorized', 'string_rewrite_policy_unavailable', ...SURFACE_ERRORS],
    noStore: 'every-answer',
  },
  {
    method: 'put',
    path: '/v1/admin/string-rewrites',
    operationId: 'putStringRewritePolicy',
    tag: 'admin',
    summary: 'Replace the string-rewrite rules',
    description:
      'Replaces the rules atomically when `expected_revision` is the current revision; the revision increments on every success, unchanged rules included. `rules: []` clears the policy. Bodies up to 65,536 bytes.',
    security: 'admin',
    requestBody: 'StringRewritePut',
    responses: [
      {
        status: 200,
        description: 'The new revision.',
        body: { schemaName: 'StringRewritePutResult' },
      },
    ],
    errors: [
      'invalid_string_rewrite_policy',
      'payload_too_large',
      'unsupported_media_type',
      'unauthorized',
      'string_rewrite_revision_conflict',
      'string_rewrite_policy_unavailable',
      ...SURFACE_ERRORS,
    ],
    noStore: 'every-answer',
  },
  {
    method: 'get',
    path: '/v1/pools/:pool/string-rewrites',
    operationId: 'getPoolStringRewritePolicy',
    tag: 'pools',
    summary: 'The string-rewrite policy (granted caller)',
    description: 'Every caller with a grant on the pool can read all rules.',
    security: 'caller',
    parameters: [POOL_PARAMETER],
    responses: [
      { status: 200, description: 'The policy.', body: { schemaName: 'StringRewritePolicy' } },
    ],
    errors: [
      'unauthorized',
      'pool_forbidden',
      'string_rewrite_policy_unavailable',
      ...SURFACE_ERRORS,
    ],
    noStore: 'every-answer',
  },
  {
    method: 'get',
    path: '/v1/pools/:pool/health',
    operationId: 'getPoolHealth',
    tag: 'pools',
    summary: 'Pool health',
    description: 'Identity counts, the string-rewrite revision and the effective pool policy.',
    security: 'caller',
    parameters: [POOL_PARAMETER],
    responses: [{ status: 200, description: 'Pool health.', body: { schemaName: 'PoolHealth' } }],
    errors: ['unauthorized', 'pool_forbidden', 'not_found', ...SURFACE_ERRORS],
  },
  {
    method: 'get',
    path: '/v1/pools/:pool/stats',
    operationId: 'getPoolStats',
    tag: 'pools',
    summary: 'Pool statistics',
    description: 'Usage, cache and upstream figures of the pool over a window (at most 30 days).',
    security: 'caller',
    parameters: [
      POOL_PARAMETER,
      {
        name: 'window',
        in: 'query',
        schema: statsWindowSchema,
        description: 'The window: `30m`, `24h`, `7d` forms; default `24h`; capped at 30 days.',
      },
      {
        name: 'client',
        in: 'query',
        schema: clientNameSchema,
        description:
          'Narrows `client_usage` and `client_routes` to one of the caller’s clients (normalized, 1-80 characters); echoed as `client_filter`.',
      },
    ],
    responses: [
      { status: 200, description: 'Pool statistics.', body: { schemaName: 'PoolStats' } },
    ],
    errors: ['invalid_request', 'unauthorized', 'pool_forbidden', ...SURFACE_ERRORS],
  },
  {
    method: 'get',
    path: STATS_TIMESERIES_PATH,
    operationId: 'getPoolStatsTimeseries',
    tag: 'pools',
    summary: 'Pool statistics over time',
    description:
      'Requests, cache hits, free and paid answers, local fallbacks and service errors per time bucket, from the audit rows (at most 750 buckets).',
    security: 'caller',
    parameters: [
      POOL_PARAMETER,
      {
        name: 'window',
        in: 'query',
        schema: statsTimeseriesQuerySchema.shape.window.unwrap(),
        description: 'The window: `30m`, `24h`, `7d` forms; default `24h`; capped at 30 days.',
      },
      {
        name: 'bucket',
        in: 'query',
        schema: statsTimeseriesQuerySchema.shape.bucket.unwrap(),
        description: 'The bucket width; default `1h`.',
      },
    ],
    responses: [
      {
        status: 200,
        description: 'The time series.',
        body: { schemaName: 'StatsTimeseries' },
      },
    ],
    errors: ['invalid_request', 'unauthorized', 'pool_forbidden', ...SURFACE_ERRORS],
  },
  {
    method: 'get',
    path: POOL_IDENTITY_STATUS_PATH,
    operationId: 'getPoolIdentities',
    tag: 'pools',
    summary: 'Identities’ quota and cooldowns',
    description:
      'Every identity of the pool with its remaining quota per resource bucket and its live cooldowns; no login, secret binding or scope.',
    security: 'caller',
    parameters: [POOL_PARAMETER],
    responses: [
      { status: 200, description: 'The identities.', body: { schemaName: 'PoolIdentities' } },
    ],
    errors: ['unauthorized', 'pool_forbidden', 'not_found', ...SURFACE_ERRORS],
  },
  {
    method: 'get',
    path: POOL_DENIALS_PATH,
    operationId: 'getPoolDenials',
    tag: 'pools',
    summary: 'Recent denials',
    description:
      'The pool’s most recent refused requests (policy denials and 424 `fallback_local`), newest first, without their content: no caller, route key, path, query value or pattern.',
    security: 'caller',
    parameters: [
      POOL_PARAMETER,
      {
        name: 'window',
        in: 'query',
        schema: poolDenialsQuerySchema.shape.window.unwrap(),
        description: 'The window: `30m`, `24h`, `7d` forms; default `24h`; capped at 30 days.',
      },
      {
        name: 'limit',
        in: 'query',
        schema: poolDenialsQuerySchema.shape.limit.unwrap(),
        description: `The most rows, 1-${String(MAX_DENIALS_LIMIT)}; default ${String(DEFAULT_DENIALS_LIMIT)}.`,
      },
    ],
    responses: [{ status: 200, description: 'The denials.', body: { schemaName: 'PoolDenials' } }],
    errors: ['invalid_request', 'unauthorized', 'pool_forbidden', ...SURFACE_ERRORS],
  },
  {
    method: 'post',
    path: RELAY_REQUEST_PATH,
    operationId: 'relayForgeRequest',
    tag: 'relay',
    summary: 'Relay a read-only forge request',
    description:
      'Authentication and the deployment-wide string protection run first, then the pool policy, route classification, the public-visibility guard, the shared cache, token-free reads and a pooled identity. An envelope is HTTP 200 whatever the upstream status (inside the envelope). A read the relay cannot or must not serve answers 424 `fallback_local` with a reason, for the client to run it with the native CLI.',
    security: 'caller',
    requestBody: 'RelayRequest',
    responses: [
      {
        status: 200,
        description: 'The relay envelope.',
        body: { schemaName: 'RelayEnvelope' },
      },
    ],
    errors: [
      ...BODY_ERRORS,
      'invalid_path',
      'invalid_query',
      'unauthorized',
      'pool_forbidden',
      'method_denied',
      'string_rewrite_denied',
      'fallback_local',
      'internal_error',
      'forge_redirect_denied',
      'forge_unreachable',
      'pool_policy_unavailable',
      'string_rewrite_policy_unavailable',
      'identities_cooling_down',
      'forge_app_key_format',
      'credentials_unavailable',
      'forge_timeout',
      // Not the overload guard (the relay endpoint answers that 424 fallback_local): the
      // database cannot be reached, and authentication needs it (README "When PostgreSQL is
      // lost").
      'relay_overloaded',
    ],
    noStore: 'every-answer',
  },
];
