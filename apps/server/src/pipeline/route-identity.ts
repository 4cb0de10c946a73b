import type { SelectionRoute } from '@relay/identity-pool';
import type { ClassifiedRoute } from '@relay/route-classifier';

/**
 * The forge resource bucket a route spends: code search has its own, other searches share
 * `search`, everything else spends `core`.
 *
 * @param route - the classified route
 */
export function toResourceBucket(route: Pick<ClassifiedRoute, 'kind' | 'routeClass'>): string {
  if (route.kind === 'search_code') return 'code_search';
  return route.routeClass === 'search' ? 'search' : 'core';
}

/**
 * The route key of a request: its route kind and, lowercased, the owner and repository it reads.
 * Leases, route-key cooldowns and audit rows are keyed by it; it never holds a query value.
 *
 * @param route - the classified route
 */
export function toRouteKey(route: Pick<ClassifiedRoute, 'kind' | 'owner' | 'repo'>): string {
  if (route.owner === undefined) return route.kind;
  const owner = route.owner.toLowerCase();
  return route.repo === undefined
    ? `${route.kind}:${owner}`
    : `${route.kind}:${owner}/${route.repo.toLowerCase()}`;
}

/**
 * The identity-selection view of a classified route.
 *
 * @param route - the classified route
 * @param publicVerified - the public-visibility guard proved the repository public
 */
export function toSelectionRoute(route: ClassifiedRoute, publicVerified: boolean): SelectionRoute {
  return {
    kind: route.kind,
    key: toRouteKey(route),
    bucket: toResourceBucket(route),
    owner: route.owner,
    repo: route.repo,
    publicVerified,
  };
}
