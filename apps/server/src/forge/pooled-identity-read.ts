import type {
  AcquireFailure,
  EligibilityPolicy,
  IdentityPool,
  PoolIdentity,
  SelectionRoute,
} from '@relay/identity-pool';
import type { ObservedForgeCall } from './forge-account-client.js';

/** The identities of one pool, and the identity pool that selects among them. */
export interface PoolIdentityLane {
  /** Selection, credentials, leases and cooldowns: the identity pool relay requests use. */
  readonly identityPool: Pick<IdentityPool, 'acquire' | 'report'>;
  /** The pool's identities that may serve these reads. */
  readonly identities: readonly PoolIdentity[];
  /** The pool policy eligibility reads. */
  readonly policy: EligibilityPolicy;
}

/**
 * The outcome of {@link readWithPoolIdentity}:
 * - `served`: an identity's call got an answer that says something of the read (`result` may
 *   still be a failure, such as a timeout, which no other identity is tried for);
 * - `unavailable`: no identity could serve (none registered or eligible, every one cooling down,
 *   refused with 401, throttled, or without a usable credential); `cause` is the last reason;
 *   `relay_overloaded` when the upstream governor refused the selected identity's read (selection
 *   already prefers identities with headroom, so the others are at their pace too).
 */
export type PooledReadOutcome<T> =
  | {
      readonly kind: 'served';
      readonly result: ObservedForgeCall<T>['result'];
      readonly identityId: string;
    }
  | {
      readonly kind: 'unavailable';
      readonly cause: AcquireFailure['code'] | 'all_refused' | 'relay_overloaded';
    };

/**
 * Sends one forge read with a pooled identity, as the relay's pooled lane does: acquire an
 * identity (selection, lease, credential; a credential that cannot be resolved cools down and
 * the next identity is tried), send, report the outcome (rate state, cooldowns); on a 401, or an
 * answer the health feedback marks as throttled, the next identity is tried. The identity that
 * failed is cooling down afterwards (the identity pool's cooldown table). A read the upstream
 * governor refused ends the rounds (`relay_overloaded`) and cools nothing down: it was the relay's
 * own pacing, not the forge's answer.
 *
 * @param lane - the pool's identities and the identity pool
 * @param route - the selection route of the read (its key names leases and route cooldowns)
 * @param send - the read, with the `Authorization` value of the acquired credential
 * @returns the answer of the first identity that served, or `unavailable`
 * @example
 * ```ts
 * const read = await readWithPoolIdentity(lane, route, (authorization) =>
 *   forgeAccounts.isOrgMember(org, login, rewriteCheck, authorization));
 * if (read.kind === 'unavailable') {
 *   // the anonymous public-members check
 * }
 * ```
 */
export async function readWithPoolIdentity<T>(
  lane: PoolIdentityLane,
  route: SelectionRoute,
  send: (authorization: string) => Promise<ObservedForgeCall<T>>,
): Promise<PooledReadOutcome<T>> {
  const request = { route, policy: lane.policy, identities: lane.identities };
  // One round per identity at most: each failed round cools its identity down.
  for (let roundsLeft = lane.identities.length; roundsLeft > 0; roundsLeft--) {
    const acquired = await lane.identityPool.acquire(request);
    if (!acquired.ok) return { kind: 'unavailable', cause: acquired.error.code };
    const { identity, credential } = acquired.value;
    const call = await send(credential.toAuthorizationHeader());
    if (!call.result.ok && call.result.error.code === 'relay_overloaded') {
      return { kind: 'unavailable', cause: 'relay_overloaded' };
    }
    if (call.outcome !== undefined) {
      const feedback = await lane.identityPool.report({
        identity,
        route,
        credential,
        outcome: call.outcome,
      });
      if (feedback.ok && feedback.value.fallbackReason !== undefined) continue;
    }
    if (call.outcome?.kind === 'response' && call.outcome.status === 401) continue;
    return { kind: 'served', result: call.result, identityId: identity.id };
  }
  return { kind: 'unavailable', cause: 'all_refused' };
}
