/**
 * @relay/identity-pool: identity selection (leases, scores, eligibility), cooldowns and rate
 * state from health feedback, the Coordinator port with its in-process implementation, and the
 * pat and forge_app credential providers.
 *
 * @example
 * ```ts
 * import { createIdentityPool, createMemoryCoordinator } from '@relay/identity-pool';
 * const pool = createIdentityPool({ coordinator: createMemoryCoordinator({ now: Date.now }),
 *   credentials, now: Date.now });
 * const acquired = await pool.acquire({ route, policy, identities });
 * ```
 */

// Identities and eligibility
export { toPoolIdentity } from './pool-identity.js';
export type { PoolIdentity, PoolIdentityScope, StoredIdentityFields } from './pool-identity.js';
export {
  createEligibilityTest,
  explainIneligibility,
  isIdentityEligible,
} from './identity-eligibility.js';
export type {
  EligibilityPolicy,
  IneligibilityCause,
  SelectionRoute,
} from './identity-eligibility.js';

// Selection
export { selectIdentity } from './identity-selector.js';
export type {
  Lease,
  Selection,
  SelectionFailure,
  SelectionInput,
  SelectionState,
} from './identity-selector.js';

// Rate state and health feedback
export {
  assumeRateBudget,
  parseRateLimitHeaders,
  readResourceBucket,
  supersedesRateState,
} from './rate-state.js';
export type { RateBudget, RateState } from './rate-state.js';
export { MAX_RETRY_AFTER_MS, parseRetryAfter } from './retry-after-parser.js';
export { readHeader } from './header-reader.js';
export type { HeaderSource } from './header-reader.js';
export { isCooldownApplicable, toCooldownScopeKey } from './cooldown.js';
export type { Cooldown, CooldownCause, CooldownScope, CooldownTarget } from './cooldown.js';
export { FRESH_TOKEN_GRACE_MS, decideHealthFeedback } from './health-feedback.js';
export type {
  CooldownDecision,
  FeedbackRule,
  HealthFeedback,
  HealthFeedbackInput,
  UpstreamOutcome,
} from './health-feedback.js';

// Coordinator
export { CoordinatorError } from './coordinator.js';
export type {
  CooldownRequest,
  Coordinator,
  CoordinatorErrorCode,
  SelectionStateQuery,
} from './coordinator.js';
export { createMemoryCoordinator } from './memory-coordinator.js';
export type { MemoryCoordinatorOptions } from './memory-coordinator.js';

// Credentials
export {
  PooledCredential,
  combineCredentialProviders,
  isLocalCredentialError,
  toCredentialErrorCode,
} from './credential.js';
export type {
  CredentialError,
  CredentialErrorCode,
  CredentialProvider,
  SecretResolver,
} from './credential.js';
export { createPatCredentialProvider, readTokenSecret } from './pat-credential-provider.js';
export type { PatCredentialProviderOptions } from './pat-credential-provider.js';
export {
  APP_JWT_BACKDATE_S,
  APP_JWT_LIFETIME_S,
  isForgeAppId,
  signAppJwt,
} from './app-jwt-signer.js';
export type { AppJwtInput } from './app-jwt-signer.js';
export { createForgeAppCredentialProvider } from './forge-app-credential-provider.js';
export type {
  ExchangeFetch,
  ForgeAppCredentialProviderOptions,
} from './forge-app-credential-provider.js';

// The pool
export { createIdentityPool } from './identity-pool.js';
export type {
  AcquireFailure,
  Acquisition,
  CallReport,
  CoordinatorFailure,
  CredentialFailure,
  IdentityPool,
  IdentityPoolOptions,
  IdentityRequest,
} from './identity-pool.js';
