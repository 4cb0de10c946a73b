import {
  createIdentityPool,
  createPatCredentialProvider,
  toPoolIdentity,
  type Coordinator,
  type EligibilityPolicy,
  type SecretResolver,
  type SelectionRoute,
} from '@relay/identity-pool';
import type { IdentityStore } from '../storage/identity-store.js';
import { governIdentityPool } from '../governor/governed-pipeline.js';
import type { CredentialRegistry } from '../governor/governed-transport.js';
import type { UpstreamGovernor } from '../governor/upstream-governor.js';
import type { PoolIdentityLane } from './pooled-identity-read.js';

/** Options of {@link createPoolIdentityLanes}. */
export interface PoolIdentityLanesOptions {
  /** The identities of each pool. */
  readonly identities: Pick<IdentityStore, 'list'>;
  /**
   * Leases, cooldowns and rate state: the relay's coordinator, so that an identity that failed
   * here cools down for relay requests too, and one cooling down there is skipped here.
   */
  readonly coordinator: Coordinator;
  /** Reads the secret bindings of PAT identities. */
  readonly resolveSecret: SecretResolver;
  /** The clock, epoch milliseconds. */
  readonly now: () => number;
  /**
   * The relay's upstream governor and the credential registry of its governed transports: an
   * identity at its pace counts as busy in selection, and each credential handed out is
   * registered under its identity, so that its reads are paced in that identity's window.
   */
  readonly governor?: {
    readonly governor: UpstreamGovernor;
    readonly registry: CredentialRegistry;
  };
}

/**
 * The routes of provisioning name no owner, so every identity of the pool is eligible and no
 * policy field is read: this policy only fills the selection's input.
 */
const OWNERLESS_POLICY: EligibilityPolicy = { allowed_owners: [], allow_public_repos: true };

/**
 * Creates the identity lanes of provisioning's forge reads: for a pool, its PAT identities (a
 * `forge_app` installation token cannot be assumed to see an organization's members) and an
 * identity pool over the relay's coordinator, with the same selection (weight, remaining
 * budget, leases, headroom under the upstream governor), credential failover and cooldowns as
 * relay requests.
 *
 * @param options - the identity store, the coordinator, the secrets, the clock and the governor
 * @returns the lane of a pool
 */
export function createPoolIdentityLanes(
  options: PoolIdentityLanesOptions,
): (poolId: string) => Promise<PoolIdentityLane> {
  const ungoverned = createIdentityPool({
    coordinator: options.coordinator,
    credentials: createPatCredentialProvider({ resolveSecret: options.resolveSecret }),
    now: options.now,
  });
  const governed = options.governor;
  const identityPool =
    governed === undefined
      ? ungoverned
      : governIdentityPool(ungoverned, governed.governor, governed.registry);
  return async (poolId) => {
    const stored = await options.identities.list(poolId);
    return {
      identityPool,
      identities: stored.filter((identity) => identity.kind === 'pat').map(toPoolIdentity),
      policy: OWNERLESS_POLICY,
    };
  };
}

/**
 * The selection route of GET /users/{login}.
 *
 * @param login - the account's login
 */
export function toUserViewRoute(login: string): SelectionRoute {
  return {
    kind: 'user_view',
    key: `user_view:${login.toLowerCase()}`,
    bucket: 'core',
    publicVerified: true,
  };
}

/**
 * The selection route of GET /orgs/{org}/members/{login} (the member check; the relay's route
 * kinds name only its public form).
 *
 * @param org - the organization
 * @param login - the account's login
 */
export function toOrgMemberRoute(org: string, login: string): SelectionRoute {
  return {
    kind: 'org_public_member_view',
    key: `org_member:${org.toLowerCase()}/${login.toLowerCase()}`,
    bucket: 'core',
    publicVerified: true,
  };
}
