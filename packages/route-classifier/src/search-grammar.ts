import { err, ok, type Result } from '@relay/protocol';
import { isLogin, isRepoName } from './param-patterns.js';

/** The search kinds, by the upstream path `/search/<kind>`. */
export const SEARCH_KINDS = ['issues', 'code', 'commits', 'repositories'] as const;

/** One search kind. */
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** Why a search query is outside the grammar (424 `fallback_local`, reason `search_denied`). */
export const SEARCH_RULES = [
  'missing_query',
  'too_long',
  'empty',
  'invalid_character',
  'quoted',
  'boolean_operator',
  'negated_term',
  'grouping',
  'uppercase_qualifier',
  'unknown_qualifier',
  'qualifier_not_allowed',
  'malformed_repo',
  'repo_qualifier_count',
  'invalid_filter_value',
  'duplicate_filter',
] as const;

/** A rule of {@link SEARCH_RULES}. */
export type SearchRule = (typeof SEARCH_RULES)[number];

/** A search query outside the grammar. Carries the rule only, never the query. */
export interface SearchDenied {
  readonly reason: 'search_denied';
  readonly rule: SearchRule;
}

/** A search query that fits the grammar of SPEC.md rule 8. */
export interface SearchQuery {
  readonly kind: SearchKind;
  /** The query exactly as given: it is sent upstream unchanged. */
  readonly raw: string;
  /** The plain terms, in order. */
  readonly terms: readonly string[];
  /** Owner and name of the one `repo:` qualifier (issue, code and commit searches). */
  readonly owner: string | undefined;
  readonly repo: string | undefined;
  /** The `type:` filter, when present. */
  readonly type: 'issue' | 'pr' | undefined;
  /** The `state:` filter, when present. */
  readonly state: 'open' | 'closed' | undefined;
}

/** The longest accepted query, in characters. */
export const SEARCH_QUERY_MAX_LENGTH = 1024;

const BOOLEAN_OPERATORS: ReadonlySet<string> = new Set(['AND', 'OR', 'NOT']);
const QUALIFIERS: ReadonlySet<string> = new Set(['repo', 'type', 'state']);
// Whitespace other than space and tab: a token separator upstream that we would not see.
const OTHER_WHITESPACE = /(?![ \t])\s/u;

/** Controls other than tab, backslash, and whitespace other than space and tab. */
function hasForbiddenCharacter(q: string): boolean {
  for (let index = 0; index < q.length; index += 1) {
    const code = q.charCodeAt(index);
    if ((code < 0x20 && code !== 0x09) || code === 0x7f || code === 0x5c) return true;
  }
  return OTHER_WHITESPACE.test(q);
}
const QUOTE = /["'\u201c\u201d\u2018\u2019]/;

function denied(rule: SearchRule): { readonly ok: false; readonly error: SearchDenied } {
  return err({ reason: 'search_denied', rule });
}

interface Filters {
  repos: { owner: string; repo: string }[];
  type: 'issue' | 'pr' | undefined;
  state: 'open' | 'closed' | undefined;
}

function applyQualifier(token: string, filters: Filters): SearchRule | undefined {
  const colon = token.indexOf(':');
  const name = token.slice(0, colon);
  const value = token.slice(colon + 1);
  if (!QUALIFIERS.has(name)) {
    return QUALIFIERS.has(name.toLowerCase()) ? 'uppercase_qualifier' : 'unknown_qualifier';
  }
  if (name === 'repo') {
    const parts = value.split('/');
    const [owner, repo] = parts;
    if (parts.length !== 2 || owner === undefined || repo === undefined) return 'malformed_repo';
    if (!isLogin(owner) || !isRepoName(repo)) return 'malformed_repo';
    filters.repos.push({ owner, repo });
    return undefined;
  }
  if (name === 'type') {
    if (filters.type !== undefined) return 'duplicate_filter';
    if (value !== 'issue' && value !== 'pr') return 'invalid_filter_value';
    filters.type = value;
    return undefined;
  }
  if (filters.state !== undefined) return 'duplicate_filter';
  if (value !== 'open' && value !== 'closed') return 'invalid_filter_value';
  filters.state = value;
  return undefined;
}

/**
 * Parses a search query against the grammar of SPEC.md rule 8. Issue, code and commit searches:
 * exactly one `repo:owner/name`, plain terms, at most one `type:issue|pr` and one
 * `state:open|closed`, nothing else (no quotes, no AND/OR/NOT, no negated term, no grouping, no
 * other qualifier). Qualifier names and filter values are lowercase; owner and repository keep
 * their casing; tokens are separated by spaces or tabs. Repository search: plain terms only, at
 * least one. The query is never rewritten: {@link SearchQuery.raw} is the input.
 *
 * @returns the parsed query, or `search_denied` with the broken rule.
 * @example
 * ```ts
 * parseSearchQuery('issues', 'repo:cli/cli crash type:pr state:open'); // ok
 * parseSearchQuery('issues', 'repo:cli/cli NOT crash'); // rule 'boolean_operator'
 * ```
 */
export function parseSearchQuery(kind: SearchKind, q: string): Result<SearchQuery, SearchDenied> {
  if (q.length > SEARCH_QUERY_MAX_LENGTH) return denied('too_long');
  if (hasForbiddenCharacter(q)) return denied('invalid_character');
  if (QUOTE.test(q)) return denied('quoted');
  const tokens = q.split(/[ \t]+/).filter((token) => token !== '');
  if (tokens.length === 0) return denied('empty');
  const terms: string[] = [];
  const filters: Filters = { repos: [], type: undefined, state: undefined };
  for (const token of tokens) {
    if (BOOLEAN_OPERATORS.has(token)) return denied('boolean_operator');
    if (token.startsWith('-')) return denied('negated_term');
    if (token.includes('(') || token.includes(')')) return denied('grouping');
    if (!token.includes(':')) {
      terms.push(token);
      continue;
    }
    if (kind === 'repositories') return denied('qualifier_not_allowed');
    const broken = applyQualifier(token, filters);
    if (broken !== undefined) return denied(broken);
  }
  if (kind === 'repositories') {
    return ok({
      kind,
      raw: q,
      terms,
      owner: undefined,
      repo: undefined,
      type: undefined,
      state: undefined,
    });
  }
  const [only, ...more] = filters.repos;
  if (only === undefined || more.length > 0) return denied('repo_qualifier_count');
  return ok({
    kind,
    raw: q,
    terms,
    owner: only.owner,
    repo: only.repo,
    type: filters.type,
    state: filters.state,
  });
}
