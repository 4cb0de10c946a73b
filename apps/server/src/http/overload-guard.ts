import { RelayHttpError } from '../relay-http-error.js';

/** Options of {@link createOverloadGuard}. */
export interface OverloadGuardOptions {
  /** Requests on database-backed surfaces in progress at most. Default 256. */
  readonly maxInFlight?: number;
  /** Rows waiting in the audit writer (the database write queue). */
  readonly auditBacklog?: () => number;
  /** Audit backlog past which the database counts as backed up. Default 10,000. */
  readonly maxAuditBacklog?: number;
}

/** The backpressure of the database-backed surfaces. */
export interface OverloadGuard {
  /**
   * Runs the work of one request, counted as in flight.
   *
   * @throws RelayHttpError `relay_overloaded` (503) at once while the database queue is backed up
   */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Whether new work is refused now. */
  isOverloaded(): boolean;
  /** Requests in progress. */
  inFlight(): number;
}

/**
 * Creates the backpressure of the non-relay surfaces: when requests waiting on the database,
 * or audit rows waiting to be written, pass their bounds, new requests answer 503
 * `relay_overloaded` at once instead of queueing.
 *
 * @param options - the bounds and the audit backlog probe
 */
export function createOverloadGuard(options: OverloadGuardOptions = {}): OverloadGuard {
  const maxInFlight = options.maxInFlight ?? 256;
  const maxAuditBacklog = options.maxAuditBacklog ?? 10_000;
  let inFlight = 0;
  const isOverloaded = () =>
    inFlight >= maxInFlight || (options.auditBacklog?.() ?? 0) >= maxAuditBacklog;
  return {
    isOverloaded,
    inFlight: () => inFlight,
    async run(work) {
      if (isOverloaded()) throw new RelayHttpError('relay_overloaded');
      inFlight++;
      try {
        return await work();
      } finally {
        inFlight--;
      }
    },
  };
}
