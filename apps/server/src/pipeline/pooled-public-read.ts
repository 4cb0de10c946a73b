import type { ClassifiedRoute, RelayQuery } from '@relay/route-classifier';

/**
 * How a pooled identity reads a `filtered` collection so that the forge itself answers with
 * public items only:
 * - `read`: send `query` (the caller's, or one that asks the forge for public items) and never
 *   use an identity whose login is `excludedLogin` (the account whose collection it is);
 * - `refuse`: no pooled read can be limited to public items (424 `local_credentials_required`:
 *   the caller's own credentials run it).
 */
export type PooledPublicRead =
  | {
      readonly kind: 'read';
      readonly query: RelayQuery;
      readonly excludedLogin: string | undefined;
    }
  | { readonly kind: 'refuse' };

/** The `type` values of an organization's repository list that a public-only read serves. */
const ORG_TYPES_SERVED = new Set(['all', 'public']);

/** The account collections that only the account's own token lists private items in. */
const OWN_ACCOUNT_KINDS = new Set<ClassifiedRoute['kind']>([
  'user_repo_list',
  'user_gist_list',
  'user_event_list',
  'user_received_event_list',
]);

/**
 * The public-only screen removes private items from a pooled answer, but the forge paged,
 * counted and matched them: a page emptied by the screen, a `next` link, a page number, tell
 * how many private repositories an organization has, or whether a word matches one. So a
 * pooled read of such a collection asks the forge for public items only, and the answer is
 * then a function of public data, as an anonymous one is:
 * - a repository search gets `is:public` added to its `q` (GitHub's visibility qualifier: a
 *   caller's own `is:private` then matches nothing);
 * - an organization's repository list is read with `type=public` when the caller asks for all
 *   or public repositories (the default); any other `type` (private, internal, forks, sources,
 *   member) cannot be limited so and is refused;
 * - an account's repositories, gists, events and received events are never read with that
 *   account's own identity, the only token the forge shows their private items to.
 *
 * Other routes read as the caller asked. The screen still runs on every answer.
 *
 * @param route - the classified request
 */
export function pooledPublicRead(route: ClassifiedRoute): PooledPublicRead {
  const { query } = route;
  if (route.kind === 'search_repositories') {
    const q = query.q;
    // No q: the forge's own 422 answers it, and there is nothing to match.
    if (q === undefined) return { kind: 'read', query, excludedLogin: undefined };
    if (typeof q !== 'string') return { kind: 'refuse' };
    return { kind: 'read', query: { ...query, q: `${q} is:public` }, excludedLogin: undefined };
  }
  if (route.kind === 'org_repo_list') {
    const type = query.type ?? 'all';
    if (typeof type !== 'string' || !ORG_TYPES_SERVED.has(type.toLowerCase())) {
      return { kind: 'refuse' };
    }
    return { kind: 'read', query: { ...query, type: 'public' }, excludedLogin: undefined };
  }
  return {
    kind: 'read',
    query,
    excludedLogin: OWN_ACCOUNT_KINDS.has(route.kind) ? route.owner : undefined,
  };
}
