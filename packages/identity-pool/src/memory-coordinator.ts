import type { Cooldown } from './cooldown.js';
import { toCooldownScopeKey } from './cooldown.js';
import type { Coordinator, CooldownRequest, SelectionStateQuery } from './coordinator.js';
import type { Lease, SelectionState } from './identity-selector.js';
import { supersedesRateState, type RateState } from './rate-state.js';

/** Options of {@link createMemoryCoordinator}. */
export interface MemoryCoordinatorOptions {
  /** The clock, epoch milliseconds. The shell passes `Date.now`; tests pass a fake clock. */
  readonly now: () => number;
  /** Ended entries are swept once a map holds more than this many entries. Default 10,000. */
  readonly sweepThreshold?: number;
}

/**
 * The in-process {@link Coordinator}: maps in memory, for one relay process. Ended entries are
 * dropped on read and swept when a map grows past the threshold, so memory stays bounded by the
 * live entries.
 *
 * @example
 * ```ts
 * const coordinator = createMemoryCoordinator({ now: Date.now });
 * ```
 */
export function createMemoryCoordinator(options: MemoryCoordinatorOptions): Coordinator {
  const { now } = options;
  const threshold = options.sweepThreshold ?? 10_000;
  const leases = new Map<string, Lease>();
  const cooldowns = new Map<string, Map<string, Cooldown>>();
  const ratesByBucket = new Map<string, Map<string, RateState>>();
  let cooldownCount = 0;
  let leaseSweepAt = threshold;
  let cooldownSweepAt = threshold;

  function liveCooldowns(identityId: string, at: number): Cooldown[] {
    const byScope = cooldowns.get(identityId);
    if (byScope === undefined) return [];
    const live: Cooldown[] = [];
    for (const [key, cooldown] of byScope) {
      if (cooldown.until > at) {
        live.push(cooldown);
      } else {
        byScope.delete(key);
        cooldownCount -= 1;
      }
    }
    if (byScope.size === 0) cooldowns.delete(identityId);
    return live;
  }

  function sweepCooldowns(at: number): void {
    for (const identityId of [...cooldowns.keys()]) liveCooldowns(identityId, at);
    cooldownSweepAt = Math.max(threshold, cooldownCount * 2);
  }

  function store(identityId: string, cooldown: Omit<Cooldown, 'identityId'>): Cooldown {
    const at = now();
    let byScope = cooldowns.get(identityId);
    if (byScope === undefined) {
      byScope = new Map();
      cooldowns.set(identityId, byScope);
    }
    const key = toCooldownScopeKey(cooldown.scope);
    const current = byScope.get(key);
    const live = current !== undefined && current.until > at ? current : undefined;
    const stored: Cooldown =
      live !== undefined && live.until > cooldown.until ? live : { identityId, ...cooldown };
    if (current === undefined) cooldownCount += 1;
    byScope.set(key, stored);
    if (cooldownCount > cooldownSweepAt) sweepCooldowns(at);
    return stored;
  }

  return {
    readSelectionState(query: SelectionStateQuery): Promise<SelectionState> {
      const at = now();
      const lease = leases.get(query.routeKey);
      const liveLease = lease !== undefined && lease.expiresAt > at ? lease : undefined;
      if (lease !== undefined && liveLease === undefined) leases.delete(query.routeKey);
      const coolingById = new Map<string, readonly Cooldown[]>();
      const rateById = new Map<string, RateState>();
      const bucketRates = ratesByBucket.get(query.bucket);
      for (const identityId of query.identityIds) {
        if (cooldowns.has(identityId)) {
          const live = liveCooldowns(identityId, at);
          if (live.length > 0) coolingById.set(identityId, live);
        }
        const rate = bucketRates?.get(identityId);
        if (rate !== undefined) rateById.set(identityId, rate);
      }
      return Promise.resolve({ lease: liveLease, cooldowns: coolingById, rates: rateById });
    },

    setLease(routeKey: string, identityId: string, ttlMs: number): Promise<Lease> {
      const at = now();
      const lease: Lease = { routeKey, identityId, expiresAt: at + ttlMs };
      leases.set(routeKey, lease);
      if (leases.size > leaseSweepAt) {
        for (const [key, value] of leases) if (value.expiresAt <= at) leases.delete(key);
        leaseSweepAt = Math.max(threshold, leases.size * 2);
      }
      return Promise.resolve(lease);
    },

    addCooldown(identityId: string, request: CooldownRequest): Promise<Cooldown> {
      return Promise.resolve(
        store(identityId, {
          scope: request.scope,
          cause: request.cause,
          until: now() + request.durationMs,
        }),
      );
    },

    recordCredentialFailure(identityId: string, durationMs: number): Promise<Cooldown> {
      return Promise.resolve(
        store(identityId, {
          scope: { kind: 'global' },
          cause: 'credential',
          until: now() + durationMs,
        }),
      );
    },

    recordRateState(identityId: string, state: RateState): Promise<void> {
      let bucketRates = ratesByBucket.get(state.bucket);
      if (bucketRates === undefined) {
        bucketRates = new Map();
        ratesByBucket.set(state.bucket, bucketRates);
      }
      if (supersedesRateState(bucketRates.get(identityId), state))
        bucketRates.set(identityId, state);
      return Promise.resolve();
    },

    listCooldowns(
      identityIds: readonly string[],
    ): Promise<ReadonlyMap<string, readonly Cooldown[]>> {
      const at = now();
      const result = new Map<string, readonly Cooldown[]>();
      for (const identityId of identityIds) {
        const live = liveCooldowns(identityId, at);
        if (live.length > 0) result.set(identityId, live);
      }
      return Promise.resolve(result);
    },
  };
}
