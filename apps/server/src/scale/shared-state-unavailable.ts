import { CoordinatorError } from '@relay/identity-pool';
import { PaceLedgerUnavailableError } from '../governor/pace-ledger.js';
import { RedisCacheUnavailableError } from './redis-cache-store.js';

/**
 * Whether `error` says that the replicas' shared state (Redis: the pool coordinator, the
 * governor's pace ledger or the shared cache) cannot be reached now. Like an unreachable database, it is answered
 * 503 `relay_overloaded` (the client retries), never an untyped 500; the relay endpoint's own
 * paths answer 424 `fallback_local` with that reason (SPEC.md failure 8). A coordinator of an
 * older version (`method_unsupported`) is not this: it stays an internal error (Versioning 5).
 *
 * @param error - anything thrown while serving a request
 */
export function isSharedStateUnavailableError(error: unknown): boolean {
  return (
    (error instanceof CoordinatorError && error.code === 'unavailable') ||
    error instanceof PaceLedgerUnavailableError ||
    // The shared cache's own calls (the entry count of /stats) reject with it while Redis is
    // away; the relay pipeline reads the cache through `withCacheOutageFallbacks` instead.
    error instanceof RedisCacheUnavailableError ||
    error instanceof SharedStateUnavailableError
  );
}

/** Thrown by the other Redis stores of the shared state (the usage tally) when Redis is away. */
export class SharedStateUnavailableError extends Error {
  readonly code = 'shared_state_unavailable';
  constructor() {
    super('shared state unavailable');
    this.name = 'SharedStateUnavailableError';
  }
}
