/**
 * @relay/protocol: the wire vocabulary of Relay. Zod schemas and inferred types of every wire
 * object, the error catalogue as data, and the limits as named constants. Every schema
 * `xSchema` also has a getter `getXSchema()` that builds it on its first call and returns the same
 * instance: a short-lived process (the CLI) that reads schemas only through their getters builds
 * only the ones it parses, since the constants are marked pure and a bundle drops those it never
 * reads.
 *
 * @example
 * ```ts
 * import { relayRequestSchema, createErrorBody } from '@relay/protocol';
 * const parsed = relayRequestSchema.safeParse(body);
 * if (!parsed.success) return c.json(createErrorBody('invalid_request', { requestId }), 400);
 * ```
 */

// Results
export { err, ok } from './result.js';
export type { Result } from './result.js';

// Limits
export * from './limits.js';

// Route kinds
export { ROUTE_KINDS, isRouteKind } from './route-kinds.js';
export type { RouteKind } from './route-kinds.js';

// Errors
export {
  CLIENT_ERROR_CATALOGUE,
  ERROR_CATALOGUE,
  ERROR_CODES,
  FALLBACK_REASONS,
  POLICY_FAILURE_CLASSES,
  STALE_REASONS,
  TRANSIENT_FALLBACK_REASONS,
  isErrorCode,
  isFallbackReason,
  statusOf,
} from './error-catalogue.js';
export type {
  ClientErrorCode,
  ErrorCode,
  FallbackReason,
  PolicyFailureClass,
  StaleReason,
} from './error-catalogue.js';
export { createErrorBody, errorBodySchema, getErrorBodySchema } from './error-body.js';
export type { ErrorBody, ErrorBodyOptions } from './error-body.js';

// Percent-encoding forms (the canonical wire form and the decoded form)
export {
  canonicalizePercentEncoding,
  decodePercentEncoding,
  percentEncodingForms,
} from './percent-encoding.js';

// Shared field schemas
export {
  commitShaSchema,
  forgeLoginSchema,
  getCommitShaSchema,
  getForgeLoginSchema,
  getHttpUrlSchema,
  getPoolIdSchema,
  getRepoNameSchema,
  getSecretRefSchema,
  getSemverSchema,
  getUtcTimestampSchema,
  httpUrlSchema,
  poolIdSchema,
  repoNameSchema,
  secretRefSchema,
  semverSchema,
  utcTimestampSchema,
} from './common-schemas.js';

// Relay request and envelope
export {
  FORGE_API_VERSION_HEADER_ALIAS,
  PR_STATES,
  RELAY_PATH_MAX_LENGTH,
  RELAY_REQUEST_HEADER_ALLOWLIST,
  getRelayRequestSchema,
  reduceRequestHeaders,
  relayRequestSchema,
} from './relay-request.js';
export type { RelayRequest, RelayRequestHeaderName, RelayRequestInput } from './relay-request.js';
export {
  BODY_ENCODINGS,
  CACHE_RESULTS,
  ENVELOPE_BACKENDS,
  ENVELOPE_HEADER_ALLOWLIST,
  IDENTITY_KINDS,
  LEASE_REASONS,
  NEVER_FORWARDED_HEADERS,
  filterEnvelopeHeaders,
  getRelayEnvelopeBodySchema,
  getRelayEnvelopeSchema,
  relayEnvelopeBodySchema,
  relayEnvelopeSchema,
} from './relay-envelope.js';
export type {
  BodyEncoding,
  CacheResult,
  EnvelopeBackend,
  IdentityKind,
  LeaseReason,
  RelayEnvelope,
} from './relay-envelope.js';

// Pools and identities
export {
  createDefaultPoolPolicy,
  getPoolPolicySchema,
  getStoredPoolPolicySchema,
  parseAllowedOwnersList,
  parseStoredPoolPolicy,
  poolPolicySchema,
  storedPoolPolicySchema,
} from './pool-policy.js';
export type { PoolPolicy, PoolPolicyDefaults, PoolPolicyError } from './pool-policy.js';
export {
  BOT_LOGIN_SUFFIX,
  getIdentityIdSchema,
  getIdentityLoginSchema,
  getIdentityRecordSchema,
  getIdentityRegistrationSchema,
  getIdentityScopeSchema,
  identityIdSchema,
  identityLoginSchema,
  identityRecordSchema,
  identityRegistrationSchema,
  identityScopeSchema,
} from './identity.js';
export type {
  IdentityRecord,
  IdentityRegistration,
  IdentityRegistrationInput,
  IdentityScope,
} from './identity.js';

// String-rewrite policy
export {
  getRevisionSchema,
  getStringRewriteImportSchema,
  getStringRewritePolicySchema,
  getStringRewritePutResultSchema,
  getStringRewritePutSchema,
  getStringRewriteRuleSchema,
  revisionSchema,
  stringRewriteImportSchema,
  stringRewritePolicySchema,
  stringRewritePutResultSchema,
  stringRewritePutSchema,
  stringRewriteRuleSchema,
} from './string-rewrite-policy.js';
export type {
  StringRewriteImport,
  StringRewritePolicy,
  StringRewritePut,
  StringRewritePutResult,
  StringRewriteRule,
} from './string-rewrite-policy.js';

// Discovery, login and provisioning
export {
  DISCOVERY_PATH,
  discoveryDocumentSchema,
  getDiscoveryDocumentSchema,
} from './discovery-document.js';
export type { DiscoveryDocument } from './discovery-document.js';
export {
  callerProvisioningRequestSchema,
  callerProvisioningResponseSchema,
  callerTokenSchema,
  clientNameSchema,
  defaultClientName,
  getCallerProvisioningRequestSchema,
  getCallerProvisioningResponseSchema,
  getCallerTokenSchema,
  getClientNameSchema,
  getLoginRequestSchema,
  getLoginResponseSchema,
  loginRequestSchema,
  loginResponseSchema,
  normalizeClientName,
} from './caller.js';
export type {
  CallerProvisioningRequest,
  CallerProvisioningResponse,
  LoginRequest,
  LoginResponse,
} from './caller.js';

// Health and stats
export {
  getPoolHealthSchema,
  getPoolQuotaSchema,
  poolHealthSchema,
  poolQuotaSchema,
} from './pool-health.js';
export type { PoolHealth, PoolQuota } from './pool-health.js';
export {
  DEFAULT_STATS_WINDOW,
  UPSTREAM_SOURCES,
  getPoolStatsSchema,
  getStatsWindowSchema,
  parseStatsWindow,
  poolStatsSchema,
  statsWindowSchema,
} from './pool-stats.js';
export type { PoolStats, StatsWindow, UpstreamSource } from './pool-stats.js';
