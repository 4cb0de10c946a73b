import { parseSearchQuery } from '@relay/route-classifier';
import type { SearchKind } from '@relay/route-classifier';
import { compareBytes } from '../export/go-json-encoder.js';
import { parseCsvRecord } from '../export/json-field-catalogue.js';
import type { SearchExportCommand } from '../export/search-export.js';
import { trimGoSpace } from '../export/search-export.js';

/** The REST search kind (`/search/<kind>`) each search command reads. */
export const SEARCH_KIND_OF: Readonly<Record<SearchExportCommand, SearchKind>> = {
  'search issues': 'issues',
  'search prs': 'issues',
  'search repos': 'repositories',
  'search code': 'code',
  'search commits': 'commits',
};

/**
 * The flags each search command serves: output (`--json`, `--jq`), paging (`--limit`), the
 * REST `order`/`sort` parameters, and the only qualifier flags whose qualifiers SPEC.md's
 * search grammar admits (`--repo` → `repo:`, `--state` → `state:`, `--include-prs`, which drops
 * `type:issue`). Any other qualifier flag (`--author`, `--label`, `--owner`, `--language`, …)
 * adds a qualifier outside the grammar: gh runs.
 */
const SERVED_FLAGS: Readonly<Record<SearchExportCommand, readonly string[]>> = {
  'search issues': ['json', 'jq', 'limit', 'order', 'sort', 'repo', 'state', 'include-prs'],
  'search prs': ['json', 'jq', 'limit', 'order', 'sort', 'repo', 'state'],
  'search repos': ['json', 'jq', 'limit', 'order', 'sort'],
  'search code': ['json', 'jq', 'limit', 'repo'],
  'search commits': ['json', 'jq', 'limit', 'order', 'sort', 'repo'],
};

/** One search request as gh v2.60 sends it (`search.Query` of pkg/search). */
export interface SearchRequest {
  readonly kind: SearchKind;
  /** gh's `Query.String()`: the keywords, then the qualifiers byte-sorted. */
  readonly q: string;
  /** `order`, sent only when `--order` was given. */
  readonly order: string | undefined;
  /** `sort`, sent only when `--sort` was given. */
  readonly sort: string | undefined;
}

/** Why a search command line is not served (each runs gh). */
export type SearchQueryRefusal =
  /** No keywords and no flags (gh's `specify search keywords or flags`), or a `--repo` value Go's CSV reader refuses. */
  | 'invalid_usage'
  /** A qualifier flag outside the grammar. */
  | 'unsupported_flag'
  /**
   * gh's `q` is outside SPEC.md's search grammar (quotes, operators, other qualifiers, no
   * `repo:`), or a keyword or `--repo` holds U+FFFD (perhaps bytes that are not UTF-8).
   */
  | 'unsupported_shape';

/** The outcome of {@link buildSearchRequest}. */
export type SearchRequestResult =
  | { readonly ok: true; readonly request: SearchRequest }
  | { readonly ok: false; readonly reason: SearchQueryRefusal };

/** The characters that make gh's `quote` wrap a value in Go's `%q` (and so put a quote in `q`). */
const NEEDS_QUOTES = /[ "\t\r\n]/;

/**
 * One keyword as gh's `formatKeywords` writes it (`before:quote(after)` for a keyword with a
 * colon); `undefined` when gh would quote it (a quote is outside the grammar).
 */
function formatKeyword(keyword: string): string | undefined {
  const colon = keyword.indexOf(':');
  const value = colon === -1 ? keyword : keyword.slice(colon + 1);
  return NEEDS_QUOTES.test(value) ? undefined : keyword;
}

/**
 * gh v2.60's search request for a search command line (the command's `RunE` and
 * `search.Query.String()`: keywords in order, then every qualifier `key:value` byte-sorted,
 * joined by spaces and trimmed), served only when it fits SPEC.md server route rule 8 — checked
 * here with the relay's own validator (`parseSearchQuery` of `@relay/route-classifier`), so an
 * unadmitted query runs gh without a round trip. `search issues` adds `type:issue` (none with
 * `--include-prs`), `search prs` adds `type:pr`.
 *
 * @param command - the search command
 * @param args - its positional arguments (the keywords)
 * @param flags - its parsed flags by long name
 * @example
 * ```ts
 * buildSearchRequest('search issues', ['crash'], { repo: ['acme/widgets'], state: ['open'] });
 * // { ok: true, request: { kind: 'issues', q: 'crash repo:acme/widgets state:open type:issue', … } }
 * ```
 */
export function buildSearchRequest(
  command: SearchExportCommand,
  args: readonly string[],
  flags: Readonly<Record<string, readonly string[]>>,
): SearchRequestResult {
  const given = Object.keys(flags);
  // gh's "specify search keywords or flags" (a flag error with the usage).
  if (args.length === 0 && given.length === 0) return { ok: false, reason: 'invalid_usage' };
  if (given.some((flag) => !SERVED_FLAGS[command].includes(flag))) {
    return { ok: false, reason: 'unsupported_flag' };
  }
  // Node decodes an argument that is not UTF-8 with U+FFFD: gh would send the bytes themselves.
  const values = [...args, ...(flags.repo ?? [])];
  if (values.some((value) => value.includes('\uFFFD'))) {
    return { ok: false, reason: 'unsupported_shape' };
  }
  const keywords: string[] = [];
  for (const arg of args) {
    const keyword = formatKeyword(arg);
    if (keyword === undefined) return { ok: false, reason: 'unsupported_shape' };
    keywords.push(keyword);
  }
  const qualifiers: string[] = [];
  for (const occurrence of flags.repo ?? []) {
    const repos = parseCsvRecord(occurrence);
    if (repos === undefined) return { ok: false, reason: 'invalid_usage' };
    // gh's Qualifiers.Map skips empty slice elements.
    qualifiers.push(...repos.filter((repo) => repo !== '').map((repo) => `repo:${repo}`));
  }
  const state = flags.state?.at(-1) ?? '';
  if (state !== '') qualifiers.push(`state:${state}`);
  if (command === 'search issues' && flags['include-prs']?.at(-1) !== 'true') {
    qualifiers.push('type:issue');
  }
  if (command === 'search prs') qualifiers.push('type:pr');
  if (qualifiers.some((qualifier) => NEEDS_QUOTES.test(qualifier))) {
    return { ok: false, reason: 'unsupported_shape' };
  }
  qualifiers.sort(compareBytes);
  const q = trimGoSpace([...keywords, ...qualifiers].join(' '));
  const kind = SEARCH_KIND_OF[command];
  if (!parseSearchQuery(kind, q).ok) return { ok: false, reason: 'unsupported_shape' };
  return {
    ok: true,
    request: { kind, q, order: flags.order?.at(-1), sort: flags.sort?.at(-1) },
  };
}
