import type { PoolPolicy, RouteKind } from '@relay/protocol';
import type { PoolIdentity } from './pool-identity.js';

/** The route an identity is selected for. */
export interface SelectionRoute {
  /** The route kind. */
  readonly kind: RouteKind;
  /** The route key: leases and route-key cooldowns are keyed by it. */
  readonly key: string;
  /** The forge resource bucket the route spends (`core`, `search`, …). */
  readonly bucket: string;
  /** The owner the route reads, if any (`rate_limit`, `emoji_list`, … have none). */
  readonly owner?: string | undefined;
  /** The repository the route reads, if any. */
  readonly repo?: string | undefined;
  /**
   * The public-visibility guard proved the repository public. Repository routes without this
   * proof get no pooled identity: the shared relay is public-only.
   */
  readonly publicVerified: boolean;
}

/** The part of the pool policy eligibility reads. */
export type EligibilityPolicy = Pick<PoolPolicy, 'allowed_owners' | 'allow_public_repos'>;

/**
 * Why no identity of the pool may serve a route.
 *
 * - `repo_not_verified_public`: a repository route without the public guard's proof.
 * - `owner_not_allowed`: the owner is outside `allowed_owners` and `allow_public_repos` is off.
 * - `no_identity_for_route`: no identity's scopes cover the route.
 */
export type IneligibilityCause =
  'repo_not_verified_public' | 'owner_not_allowed' | 'no_identity_for_route';

function isBroadPat(identity: PoolIdentity): boolean {
  return identity.kind === 'pat' && identity.scopes.some((scope) => scope.owner === '*');
}

function coversOwnerRoute(
  identity: PoolIdentity,
  owner: string,
  repo: string | undefined,
): boolean {
  return identity.scopes.some((scope) => {
    if (scope.owner === '*' || scope.owner.toLowerCase() !== owner) return false;
    if (scope.repo === undefined || repo === undefined) return true;
    return scope.repo.toLowerCase() === repo;
  });
}

/**
 * Whether an identity may serve a route under a pool policy. Pure.
 *
 * | route | eligible identities |
 * |---|---|
 * | no owner (`rate_limit`, `emoji_list`, …) | every active identity of the pool |
 * | repository route not proven public | none (private access never) |
 * | owner in `allowed_owners` | owner scopes and owner/repo scopes of that owner (PATs and app installations alike), and broad `'*'` PATs |
 * | other owner, `allow_public_repos` on | broad `'*'` PATs only |
 * | other owner, `allow_public_repos` off | none |
 *
 * An owner-only route (no repository) of an allowed owner is covered by any scope on that owner.
 *
 * @param identity - the identity
 * @param route - the route
 * @param policy - the pool policy
 */
export function isIdentityEligible(
  identity: PoolIdentity,
  route: SelectionRoute,
  policy: EligibilityPolicy,
): boolean {
  const test = createEligibilityTest(route, policy);
  return typeof test === 'function' && test(identity);
}

/**
 * Why a route admits no pooled identity whatever the pool holds, or `undefined` when identities
 * with the right scopes may serve it.
 *
 * @param route - the route
 * @param policy - the pool policy
 */
export function explainIneligibility(
  route: SelectionRoute,
  policy: EligibilityPolicy,
): Exclude<IneligibilityCause, 'no_identity_for_route'> | undefined {
  const test = createEligibilityTest(route, policy);
  return typeof test === 'function' ? undefined : test;
}

/**
 * Prepares the eligibility rules of {@link isIdentityEligible} for one route, so that checking
 * many identities does the route's work once.
 *
 * @param route - the route
 * @param policy - the pool policy
 * @returns a test for identities, or why the route admits no pooled identity at all
 */
export function createEligibilityTest(
  route: SelectionRoute,
  policy: EligibilityPolicy,
): ((identity: PoolIdentity) => boolean) | Exclude<IneligibilityCause, 'no_identity_for_route'> {
  if (route.owner === undefined) return () => true;
  if (route.repo !== undefined && !route.publicVerified) return 'repo_not_verified_public';
  const owner = route.owner.toLowerCase();
  const repo = route.repo?.toLowerCase();
  const allowed = policy.allowed_owners.includes(owner);
  if (!allowed && !policy.allow_public_repos) return 'owner_not_allowed';
  return (identity) => {
    if (isBroadPat(identity)) return true;
    return allowed && coversOwnerRoute(identity, owner, repo);
  };
}
