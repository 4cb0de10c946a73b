import { assumeRateBudget, type Coordinator } from '@relay/identity-pool';
import type {
  IdentityCooldownGauge,
  IdentityRateGauge,
  MetricsGaugeSources,
} from './relay-metrics.js';

/**
 * The route key the gauges read selection state under. No route key has this form (route keys
 * start with a route kind), so reading it never finds nor disturbs a lease.
 */
const GAUGE_ROUTE_KEY = '\u0000metrics';

/** The most resource buckets whose rate state the gauges report (the forge names them). */
export const MAX_TRACKED_BUCKETS = 16;

/**
 * Wraps a coordinator so that the names of the resource buckets it records rate state for are
 * added to `buckets` (at most {@link MAX_TRACKED_BUCKETS}; they are well-formed names, checked
 * by the identity pool). Every call is passed through unchanged.
 *
 * @param coordinator - the pool coordinator
 * @param buckets - the set to add bucket names to
 */
export function trackRateBuckets(coordinator: Coordinator, buckets: Set<string>): Coordinator {
  return {
    readSelectionState: (query) => coordinator.readSelectionState(query),
    setLease: (routeKey, identityId, ttlMs) => coordinator.setLease(routeKey, identityId, ttlMs),
    addCooldown: (identityId, request) => coordinator.addCooldown(identityId, request),
    recordCredentialFailure: (identityId, durationMs) =>
      coordinator.recordCredentialFailure(identityId, durationMs),
    recordRateState: (identityId, state) => {
      if (buckets.size < MAX_TRACKED_BUCKETS) buckets.add(state.bucket);
      return coordinator.recordRateState(identityId, state);
    },
    listCooldowns: (identityIds) => coordinator.listCooldowns(identityIds),
  };
}

/** What {@link createIdentityGaugeSources} reads. */
export interface IdentityGaugeSourceOptions {
  /** The coordinator (rate state and cooldowns are its, not a copy). */
  readonly coordinator: Coordinator;
  /** The ids of every registered identity. */
  readonly listIdentityIds: () => Promise<readonly string[]>;
  /** The resource buckets to report ({@link trackRateBuckets} fills it). */
  readonly buckets: ReadonlySet<string>;
  /** The clock, epoch milliseconds. */
  readonly now: () => number;
}

/**
 * The identity gauges' sources, read from the coordinator at scrape time: registered identities,
 * the rate budget of each identity and bucket with an observation (as selection assumes it now:
 * a window that has reset counts as fresh), and live cooldowns by scope kind and cause (never the
 * route key of a route cooldown).
 *
 * @param options - coordinator, identity list, buckets and clock
 */
export function createIdentityGaugeSources(
  options: IdentityGaugeSourceOptions,
): Required<Pick<MetricsGaugeSources, 'countIdentities' | 'rateBudgets' | 'cooldowns'>> {
  const { coordinator, listIdentityIds, buckets, now } = options;
  return {
    countIdentities: async () => (await listIdentityIds()).length,
    rateBudgets: async () => {
      const identityIds = await listIdentityIds();
      const budgets: IdentityRateGauge[] = [];
      if (identityIds.length === 0) return budgets;
      for (const bucket of buckets) {
        const state = await coordinator.readSelectionState({
          routeKey: GAUGE_ROUTE_KEY,
          bucket,
          identityIds,
        });
        const at = now();
        for (const [identity, rate] of state.rates) {
          budgets.push({
            identity,
            bucket,
            remaining: assumeRateBudget(rate, at).remaining,
            limit: rate.limit,
            resetAtSeconds: Math.floor(rate.resetAt / 1000),
          });
        }
      }
      return budgets;
    },
    cooldowns: async () => {
      const identityIds = await listIdentityIds();
      if (identityIds.length === 0) return [];
      const live = await coordinator.listCooldowns(identityIds);
      const counts = new Map<string, IdentityCooldownGauge>();
      for (const [identity, cooldowns] of live) {
        for (const cooldown of cooldowns) {
          const key = `${identity}\n${cooldown.scope.kind}\n${cooldown.cause}`;
          const current = counts.get(key);
          counts.set(key, {
            identity,
            scope: cooldown.scope.kind,
            cause: cooldown.cause,
            count: (current?.count ?? 0) + 1,
          });
        }
      }
      return [...counts.values()];
    },
  };
}
