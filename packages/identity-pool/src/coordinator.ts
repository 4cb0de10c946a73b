import type { Cooldown, CooldownCause, CooldownScope } from './cooldown.js';
import type { Lease, SelectionState } from './identity-selector.js';
import type { RateState } from './rate-state.js';

/** What {@link Coordinator.readSelectionState} loads for one selection. */
export interface SelectionStateQuery {
  /** The route key whose lease is read. */
  readonly routeKey: string;
  /** The resource bucket whose rate state is read. */
  readonly bucket: string;
  /** The identities whose cooldowns and rate state are read. */
  readonly identityIds: readonly string[];
}

/** A cooldown to record. */
export interface CooldownRequest {
  /** Where it applies. */
  readonly scope: CooldownScope;
  /** How long from now, in milliseconds. */
  readonly durationMs: number;
  /** Why. */
  readonly cause: CooldownCause;
}

/**
 * Shared selection state of a pool: leases, cooldowns and rate budgets. The in-process
 * implementation is {@link createMemoryCoordinator}; a networked one (Redis, for several relay
 * processes) implements the same interface and must pass the same contract suite
 * (`src/coordinator.contract.ts`). Every method is async; a coordinator keeps its own clock.
 *
 * Behaviour every implementation guarantees:
 * - Reads return only live entries: an ended lease or cooldown is absent.
 * - {@link Coordinator.setLease} replaces the route's lease (last writer wins).
 * - {@link Coordinator.addCooldown} and {@link Coordinator.recordCredentialFailure} never shorten
 *   a cooldown of the same identity and scope: the end is the later of the stored and the new one.
 * - There is no method to clear a cooldown: a repaired secret binding does not end a credential
 *   cooldown at once.
 * - {@link Coordinator.recordRateState} keeps, per identity and bucket, the observation of the
 *   latest window and, within a window, the lowest remaining count.
 * - A coordinator never contacts the forge and never receives a secret or a rewrite policy.
 *
 * Mixed-version deployments (SPEC.md Versioning 5): a newer relay talking to an older coordinator
 * that lacks {@link Coordinator.recordCredentialFailure} (the method is absent, or the remote
 * answers that it is unknown with {@link CoordinatorError} code `method_unsupported`) treats that
 * as an infrastructure failure: it returns `coordinator_unavailable` for the request, tries no
 * other identity, fabricates no acknowledgment and clears nothing. This lasts as long as the
 * version overlap; it is not bounded by the 120 s cooldown.
 */
export interface Coordinator {
  /** Loads the route's live lease, and the live cooldowns and bucket rate state of identities. */
  readSelectionState(query: SelectionStateQuery): Promise<SelectionState>;
  /** Binds a route key to an identity for `ttlMs`; returns the recorded lease. */
  setLease(routeKey: string, identityId: string, ttlMs: number): Promise<Lease>;
  /** Records (or extends) a cooldown; returns the cooldown as stored. */
  addCooldown(identityId: string, request: CooldownRequest): Promise<Cooldown>;
  /**
   * Records a local credential failure (missing or invalid secret binding): a shared global
   * cooldown of `durationMs` that every new observation can extend; returns it as stored.
   */
  recordCredentialFailure(identityId: string, durationMs: number): Promise<Cooldown>;
  /** Records the rate state observed after a call. */
  recordRateState(identityId: string, state: RateState): Promise<void>;
  /** Live cooldowns of identities (for health reports). */
  listCooldowns(identityIds: readonly string[]): Promise<ReadonlyMap<string, readonly Cooldown[]>>;
}

/**
 * Codes of {@link CoordinatorError}.
 *
 * - `unavailable`: the coordinator cannot be reached or refused the work (backed-up queue).
 * - `method_unsupported`: the coordinator is of an older version that lacks the method.
 */
export type CoordinatorErrorCode = 'unavailable' | 'method_unsupported';

/** Thrown by networked coordinators for infrastructure failures. Carries no secret. */
export class CoordinatorError extends Error {
  /** What failed. */
  readonly code: CoordinatorErrorCode;

  /**
   * @param code - what failed
   * @param options - the underlying cause, if any
   */
  constructor(code: CoordinatorErrorCode, options?: { cause?: unknown }) {
    super(`coordinator ${code}`, options);
    this.name = 'CoordinatorError';
    this.code = code;
  }
}
