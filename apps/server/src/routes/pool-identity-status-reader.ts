import { assumeRateBudget, type Coordinator, type CooldownCause } from '@relay/identity-pool';

/** The rate budget of one identity in one resource bucket, as selection assumes it now. */
export interface IdentityRateStatus {
  /** The resource bucket (`core`, `search`, …). */
  readonly bucket: string;
  /** Requests assumed left (a window that has reset counts as fresh). */
  readonly remaining: number;
  /** Requests per window, when the forge said. */
  readonly limit: number | undefined;
  /** When the window resets, epoch milliseconds. */
  readonly resetAt: number;
  /** The budget is spent and its window has not reset yet. */
  readonly exhausted: boolean;
}

/** One live cooldown: its scope kind, cause and end (never a route cooldown's route key). */
export interface IdentityCooldownStatus {
  readonly scope: 'global' | 'bucket' | 'route';
  /** The resource bucket of a bucket cooldown. */
  readonly bucket: string | undefined;
  readonly cause: CooldownCause;
  /** When it ends, epoch milliseconds. */
  readonly until: number;
}

/** What is known of one identity's quota and cooldowns. */
export interface IdentityStatus {
  readonly rates: readonly IdentityRateStatus[];
  readonly cooldowns: readonly IdentityCooldownStatus[];
}

/**
 * Reads the quota and live cooldowns of identities (GET /v1/pools/:pool/identities). An
 * identity without an observation or a cooldown may be absent from the answer.
 */
export type IdentityStatusReader = (
  identityIds: readonly string[],
) => Promise<ReadonlyMap<string, IdentityStatus>>;

/** What {@link createIdentityStatusReader} reads. */
export interface IdentityStatusReaderOptions {
  /** The pool coordinator (rate state and cooldowns are its). */
  readonly coordinator: Coordinator;
  /** The resource buckets rate state was recorded for. */
  readonly buckets: ReadonlySet<string>;
  /** The clock, epoch milliseconds. */
  readonly now: () => number;
}

/**
 * The route key the reader reads selection state under. No route key has this form (route keys
 * start with a route kind), so reading it never finds nor disturbs a lease.
 */
const STATUS_ROUTE_KEY = '\u0000identity-status';

/**
 * An {@link IdentityStatusReader} over the relay's coordinator: the budget of every identity
 * and tracked bucket with an observation, and the live cooldowns.
 *
 * @param options - coordinator, buckets and clock
 */
export function createIdentityStatusReader(
  options: IdentityStatusReaderOptions,
): IdentityStatusReader {
  const { coordinator, buckets, now } = options;
  return async (identityIds) => {
    const status = new Map<
      string,
      { rates: IdentityRateStatus[]; cooldowns: IdentityCooldownStatus[] }
    >();
    if (identityIds.length === 0) return status;
    const entry = (id: string) => {
      let found = status.get(id);
      if (found === undefined) {
        found = { rates: [], cooldowns: [] };
        status.set(id, found);
      }
      return found;
    };
    const at = now();
    for (const bucket of [...buckets].sort()) {
      const state = await coordinator.readSelectionState({
        routeKey: STATUS_ROUTE_KEY,
        bucket,
        identityIds,
      });
      for (const [identity, rate] of state.rates) {
        const budget = assumeRateBudget(rate, at);
        entry(identity).rates.push({
          bucket,
          remaining: budget.remaining,
          limit: rate.limit,
          resetAt: rate.resetAt,
          exhausted: budget.exhausted,
        });
      }
    }
    const live = await coordinator.listCooldowns(identityIds);
    for (const [identity, cooldowns] of live) {
      for (const cooldown of cooldowns) {
        if (cooldown.until <= at) continue;
        entry(identity).cooldowns.push({
          scope: cooldown.scope.kind,
          bucket: cooldown.scope.kind === 'bucket' ? cooldown.scope.bucket : undefined,
          cause: cooldown.cause,
          until: cooldown.until,
        });
      }
    }
    return status;
  };
}
