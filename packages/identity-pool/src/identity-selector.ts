import { err, ok, type LeaseReason, type Result } from '@relay/protocol';
import { isCooldownApplicable, type Cooldown } from './cooldown.js';
import {
  createEligibilityTest,
  type EligibilityPolicy,
  type IneligibilityCause,
  type SelectionRoute,
} from './identity-eligibility.js';
import type { PoolIdentity } from './pool-identity.js';
import { assumeRateBudget, type RateState } from './rate-state.js';

/** A route-to-identity binding. */
export interface Lease {
  /** The route key. */
  readonly routeKey: string;
  /** The identity the route is bound to. */
  readonly identityId: string;
  /** When the lease ends, epoch milliseconds. */
  readonly expiresAt: number;
}

/** What a coordinator knows that selection for one route needs. */
export interface SelectionState {
  /** The route's live lease, if any. */
  readonly lease: Lease | undefined;
  /** Live cooldowns by identity id (every scope; selection picks those that apply). */
  readonly cooldowns: ReadonlyMap<string, readonly Cooldown[]>;
  /** Rate state by identity id, for the route's bucket. */
  readonly rates: ReadonlyMap<string, RateState>;
}

/** Input of {@link selectIdentity}. */
export interface SelectionInput {
  /** The route to serve. */
  readonly route: SelectionRoute;
  /** The pool policy. */
  readonly policy: EligibilityPolicy;
  /** The pool's active identities. */
  readonly identities: readonly PoolIdentity[];
  /** Leases, cooldowns and rate state. */
  readonly state: SelectionState;
  /** The current time, epoch milliseconds. */
  readonly now: number;
  /** Identities already tried for this request (their credentials failed): never chosen again. */
  readonly exclude?: ReadonlySet<string> | undefined;
  /**
   * Identities at their pace limit now (the relay's upstream governor): busy, so that an
   * identity with headroom is preferred and a lease is kept only while its identity has headroom.
   * A busy identity is still chosen when every usable one is busy (its request then waits).
   */
  readonly busy?: ReadonlySet<string> | undefined;
}

/** A chosen identity. */
export interface Selection {
  /** The identity. */
  readonly identity: PoolIdentity;
  /**
   * `sticky` (the live lease held), `highest_remaining` (best score), or the fallback reason that
   * moved the route off its leased identity: `identities_cooling_down`, `forge_rate_limited` or
   * `forge_identity_depleted`.
   */
  readonly reason: LeaseReason;
  /** The score: assumed remaining budget plus weight. */
  readonly score: number;
  /** A fresh lease must be recorded (every reason but `sticky`). */
  readonly renewLease: boolean;
  /** The identity is at its pace limit (every usable one is): the request waits for headroom. */
  readonly busy: boolean;
}

/**
 * Why selection found no identity.
 *
 * - `no_eligible_identity`: no identity may serve this owner or repository (`cause` says why),
 *   or every eligible one was already tried (`all_tried`).
 * - `identities_cooling_down`: every eligible identity is cooling down (global, route-key or
 *   credential cooldown).
 * - `forge_rate_limited`: every eligible identity is cooling down or spent, and at least one is
 *   held back by a 429 cooldown of the route's bucket.
 * - `identity_pool_depleted`: every eligible identity is cooling down or has spent its budget for
 *   the bucket, and at least one has spent it.
 *
 * `retryAt` is the earliest time an eligible identity becomes usable again.
 */
export type SelectionFailure =
  | { readonly code: 'no_eligible_identity'; readonly cause: IneligibilityCause | 'all_tried' }
  | {
      readonly code: 'identities_cooling_down' | 'forge_rate_limited' | 'identity_pool_depleted';
      readonly retryAt: number;
    };

type Standing =
  | { readonly usable: true; readonly score: number }
  | {
      readonly usable: false;
      readonly block: 'cooling' | 'rate_limited' | 'depleted';
      readonly until: number;
    };

function assess(
  identity: PoolIdentity,
  route: SelectionRoute,
  state: SelectionState,
  now: number,
): Standing {
  let coolingUntil: number | undefined;
  let limitedUntil: number | undefined;
  for (const cooldown of state.cooldowns.get(identity.id) ?? []) {
    if (!isCooldownApplicable(cooldown, route, now)) continue;
    if (cooldown.scope.kind === 'bucket') {
      limitedUntil = Math.max(limitedUntil ?? 0, cooldown.until);
    } else {
      coolingUntil = Math.max(coolingUntil ?? 0, cooldown.until);
    }
  }
  const budget = assumeRateBudget(state.rates.get(identity.id), now);
  if (coolingUntil === undefined && limitedUntil === undefined && !budget.exhausted) {
    return { usable: true, score: budget.remaining + identity.weight };
  }
  const until = Math.max(coolingUntil ?? 0, limitedUntil ?? 0, budget.healsAt ?? 0);
  if (coolingUntil !== undefined) return { usable: false, block: 'cooling', until };
  if (limitedUntil !== undefined) return { usable: false, block: 'rate_limited', until };
  return { usable: false, block: 'depleted', until };
}

const LEASE_FALLBACK = {
  cooling: 'identities_cooling_down',
  rate_limited: 'forge_rate_limited',
  depleted: 'forge_identity_depleted',
} as const;

/**
 * Chooses the identity for a route. Pure: the caller loads the state and records the lease.
 *
 * 1. Only eligible identities are candidates ({@link isIdentityEligible}), less those in
 *    `exclude`.
 * 2. A live lease whose identity is a candidate, not cooling down for the route (global, bucket or
 *    route-key cooldown), not exhausted and not `busy` (at its pace limit) keeps the route: reason
 *    `sticky`. A busy leased identity keeps it too when every usable candidate is busy.
 * 3. Otherwise the usable candidate with the highest score wins, those with headroom (not in
 *    `busy`) before busy ones (score = remaining budget plus weight; an unknown budget is a fresh
 *    5000; a reset window is fresh again; an exhausted one that has not reset is skipped). Ties go
 *    to the higher weight, then to the smaller id. Reason `highest_remaining`, or the fallback
 *    reason that moved the route off the leased identity (`relay_overloaded` when it was only
 *    busy).
 * 4. With no usable candidate: {@link SelectionFailure}.
 *
 * @example
 * ```ts
 * const state = await coordinator.readSelectionState({ routeKey: route.key, bucket: route.bucket,
 *   identityIds: identities.map((i) => i.id) });
 * const selected = selectIdentity({ route, policy, identities, state, now: clock() });
 * ```
 */
export function selectIdentity(input: SelectionInput): Result<Selection, SelectionFailure> {
  const { route, policy, state, now } = input;
  const busy = input.busy;
  const isEligible = createEligibilityTest(route, policy);
  if (typeof isEligible !== 'function') {
    return err({ code: 'no_eligible_identity', cause: isEligible });
  }

  let eligibleCount = 0;
  let best: { identity: PoolIdentity; score: number } | undefined;
  let bestBusy: { identity: PoolIdentity; score: number } | undefined;
  let leased: { identity: PoolIdentity; standing: Standing } | undefined;
  let allCooling = true;
  let anyLimited = false;
  let retryAt = Number.POSITIVE_INFINITY;
  const lease =
    state.lease !== undefined && state.lease.expiresAt > now && state.lease.routeKey === route.key
      ? state.lease
      : undefined;

  for (const identity of input.identities) {
    if (!isEligible(identity)) continue;
    eligibleCount += 1;
    if (input.exclude?.has(identity.id) === true) continue;
    const standing = assess(identity, route, state, now);
    if (lease?.identityId === identity.id) leased = { identity, standing };
    if (standing.usable) {
      if (busy?.has(identity.id) === true) {
        if (bestBusy === undefined || outranks(identity, standing.score, bestBusy)) {
          bestBusy = { identity, score: standing.score };
        }
      } else if (best === undefined || outranks(identity, standing.score, best)) {
        best = { identity, score: standing.score };
      }
      continue;
    }
    if (standing.block !== 'cooling') allCooling = false;
    if (standing.block === 'rate_limited') anyLimited = true;
    retryAt = Math.min(retryAt, standing.until);
  }

  const leasedBusy = leased !== undefined && busy?.has(leased.identity.id) === true;
  if (leased?.standing.usable === true && (!leasedBusy || best === undefined)) {
    return ok({
      identity: leased.identity,
      reason: 'sticky',
      score: leased.standing.score,
      renewLease: false,
      busy: leasedBusy,
    });
  }
  const chosen = best ?? bestBusy;
  if (chosen !== undefined) {
    const reason: LeaseReason =
      leased === undefined
        ? 'highest_remaining'
        : leased.standing.usable
          ? 'relay_overloaded'
          : LEASE_FALLBACK[leased.standing.block];
    return ok({
      identity: chosen.identity,
      reason,
      score: chosen.score,
      renewLease: true,
      busy: best === undefined,
    });
  }
  if (eligibleCount === 0)
    return err({ code: 'no_eligible_identity', cause: 'no_identity_for_route' });
  if (retryAt === Number.POSITIVE_INFINITY)
    return err({ code: 'no_eligible_identity', cause: 'all_tried' });
  const code = allCooling
    ? 'identities_cooling_down'
    : anyLimited
      ? 'forge_rate_limited'
      : 'identity_pool_depleted';
  return err({ code, retryAt });
}

function outranks(
  identity: PoolIdentity,
  score: number,
  best: { identity: PoolIdentity; score: number },
): boolean {
  if (score !== best.score) return score > best.score;
  if (identity.weight !== best.identity.weight) return identity.weight > best.identity.weight;
  return identity.id < best.identity.id;
}
