// The simulator
export {
  createForgeSim,
  type ForgeSim,
  type ForgeSimApps,
  type ForgeSimOptions,
  type ForgeSimRateLimits,
  type ForgeSimTokens,
  type RateSubject,
} from './forge-sim.js';

// The world
export {
  ForgeWorld,
  WorldSeedError,
  type JobSeed,
  type ReactionTarget,
} from './world/forge-world.js';
export { DEMO, seedDemoWorld, type DemoWorldIds } from './world/demo-world.js';
export {
  createSimClock,
  toHttpDate,
  toIsoSeconds,
  type SimClock,
  type SimClockOptions,
} from './world/sim-clock.js';
export type * from './world/world-records.js';

// Credentials
export {
  INSTALLATION_TOKEN_TTL_MS,
  type AppRecord,
  type InstallationRecord,
  type PatRecord,
  type Principal,
} from './auth/credential-registry.js';

// Rate limits, faults, request log
export {
  GITHUB_RATE_LIMITS,
  RATE_RESOURCES,
  type BucketLimit,
  type RateLimitTable,
  type RateResource,
  type RateState,
} from './http/rate-limiter.js';
export {
  FaultInjector,
  createSeededRandom,
  type ActiveFault,
  type FaultAction,
  type FaultInjectorOptions,
  type FaultMatch,
  type FaultSpec,
} from './http/fault-injector.js';
export {
  RequestLog,
  type LoggedRequest,
  type RequestFilter,
  type SimHost,
} from './http/request-log.js';
export { DEFAULT_PER_PAGE, MAX_PER_PAGE } from './http/pagination.js';
export {
  GITHUB_SECONDARY_LIMITS,
  SecondaryLimiter,
  type SecondaryLimits,
} from './http/secondary-limiter.js';
export { LOG_URL_TTL_MS } from './hosts/log-signer.js';
export type { SimUrls } from './render/sim-urls.js';
