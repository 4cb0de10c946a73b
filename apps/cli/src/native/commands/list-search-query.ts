import { parseSearchQuery } from '@relay/route-classifier';
import type { GhRepository } from '../argv/repo-selector.js';

/** What a `pr list`/`issue list` search lists: gh's `type:` qualifier. */
export type ListSearchEntity = 'pr' | 'issue';

/** The state a list search filters on: gh's `state:` qualifier (`all` has none). */
export type ListSearchState = 'open' | 'closed' | 'all';

/** The parts of gh's search query that the relay's grammar can carry. */
export interface ListSearchInput {
  /** The `--search` text, exactly as given. */
  readonly text: string;
  readonly repo: GhRepository;
  readonly state: ListSearchState;
  readonly entity: ListSearchEntity;
}

/** gh's `q`, or why it is not served (the relay would refuse it: run gh without a round trip). */
export type ListSearchQuery =
  | { readonly ok: true; readonly q: string }
  | { readonly ok: false; readonly reason: 'not_plain_terms' | 'search_denied' };

/**
 * gh v2.60's search string for `pr list`/`issue list --search <text>` (`SearchQueryBuild`:
 * the text, one space, then the qualifiers byte-sorted — `repo:`, `state:`, `type:`), served
 * only when SPEC.md's search grammar (server route rule 8, `parseSearchQuery` of
 * `@relay/route-classifier`, the relay's own validator) admits it and every token of the text
 * is a plain term: a qualifier, quote, operator or negation in the text (which gh would also
 * read for `QueryHasStateClause`) runs gh, and so does a text with no term at all (its order
 * is the ranking of a filter-only search). Callers add no other qualifier: `base:`, `head:`,
 * `is:merged`, `label:`, `author:` … are outside the grammar.
 *
 * @example
 * ```ts
 * toListSearchQuery({ text: 'fix crash', repo, state: 'open', entity: 'pr' });
 * // { ok: true, q: 'fix crash repo:acme/widgets state:open type:pr' }
 * ```
 */
export function toListSearchQuery(input: ListSearchInput): ListSearchQuery {
  const tokens = input.text.split(/[ \t]+/).filter((token) => token !== '');
  if (tokens.length === 0 || tokens.some((token) => token.includes(':'))) {
    return { ok: false, reason: 'not_plain_terms' };
  }
  const qualifiers = [
    `repo:${input.repo.owner}/${input.repo.name}`,
    ...(input.state === 'all' ? [] : [`state:${input.state}`]),
    `type:${input.entity}`,
  ];
  const q = `${input.text} ${qualifiers.join(' ')}`;
  const parsed = parseSearchQuery('issues', q);
  return parsed.ok ? { ok: true, q } : { ok: false, reason: 'search_denied' };
}
