import {
  JOB_LOG_CACHE_MS,
  JOB_LOG_ZERO_CONTACT_MS,
  OPEN_PR_CACHE_MS,
  PR_FILES_CACHE_MS,
} from '@relay/protocol';
import type { CachePolicy } from './route-table.js';

/** Why a request skips the shared cache entirely (`relay.cache` = `bypass`). */
export type CacheBypass = 'conditional' | 'large_payload' | 'non_cacheable';

/** What the classifier knows about caching one request; `@relay/cache` decides the rest. */
export interface CacheHint {
  /** The lifetime family of the route. */
  readonly policy: CachePolicy;
  /** The route's responses may ever be written to the shared cache. */
  readonly cacheable: boolean;
  /** This request skips the cache, and why; undefined when it may use it. */
  readonly bypass: CacheBypass | undefined;
  /** Suggested freshness of an entry, in milliseconds (0 when not cacheable). */
  readonly lifetimeMs: number;
  /** For job logs: longest time an entry is served before an existence probe. */
  readonly zeroContactMs: number | undefined;
  /** The request's `cache-control: max-age=N` bound, in seconds. */
  readonly maxAgeSeconds: number | undefined;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * Suggested lifetimes per cache policy, in milliseconds. SPEC.md fixes three of them (open PR
 * two minutes, PR files five minutes, job logs seven days); the others are this package's
 * suggestions: `@relay/cache` owns the final lifetimes.
 */
export const CACHE_LIFETIME_HINTS_MS: Readonly<Record<CachePolicy, number>> = {
  default: MINUTE_MS,
  immutable: 24 * HOUR_MS,
  open_pr: OPEN_PR_CACHE_MS,
  pr_files: PR_FILES_CACHE_MS,
  job_log: JOB_LOG_CACHE_MS,
  repo_stats: 10 * MINUTE_MS,
  static: HOUR_MS,
  search: MINUTE_MS,
  never: 0,
};

/** What {@link createCacheHint} needs to know about a request. */
export interface CacheHintOptions {
  readonly policy: CachePolicy;
  readonly conditional: boolean;
  readonly largePayload: boolean;
  readonly maxAgeSeconds: number | undefined;
}

/**
 * The cache hint of one request. Conditional requests bypass the cache (SPEC.md rule 4);
 * `never` routes (rate limits: per identity) and large payloads other than job logs bypass it
 * too. Job logs are not marked bypass: they are cached once the run completed, which only the
 * cache layer can tell.
 */
export function createCacheHint(options: CacheHintOptions): CacheHint {
  const { policy, conditional, largePayload, maxAgeSeconds } = options;
  const cacheable = policy !== 'never';
  let bypass: CacheBypass | undefined;
  if (!cacheable) bypass = 'non_cacheable';
  else if (conditional) bypass = 'conditional';
  else if (largePayload && policy !== 'job_log') bypass = 'large_payload';
  return {
    policy,
    cacheable,
    bypass,
    lifetimeMs: CACHE_LIFETIME_HINTS_MS[policy],
    zeroContactMs: policy === 'job_log' ? JOB_LOG_ZERO_CONTACT_MS : undefined,
    maxAgeSeconds,
  };
}
