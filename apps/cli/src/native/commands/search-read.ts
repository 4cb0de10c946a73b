import { PAGINATED_READ_MAX_PAGES } from '@relay/protocol';
import { sanitizeJson } from '../export/ascii-sanitizer.js';
import { delegated } from '../export/export-output.js';
import type { CommandOutcome } from '../export/export-output.js';
import type { RelayPort } from '../relay-port.js';
import type { SearchRequest } from './search-query.js';

/** The most results gh asks one search page for (`maxPerPage` of pkg/search). */
export const SEARCH_MAX_PER_PAGE = 100;

/** gh's `Accept` of a code search: text matches are only sent for this media type. */
export const CODE_SEARCH_ACCEPT = 'application/vnd.github.text-match+json';

/** What reading a search ended with. */
export type SearchReadResult =
  /** Every item read (ASCII-sanitized as gh's client does), in the forge's order. */
  | { readonly kind: 'items'; readonly items: readonly unknown[] }
  | { readonly kind: 'outcome'; readonly outcome: CommandOutcome };

const LINK = /<([^>]+)>;\s*rel="([^"]+)"/g;
const PAGE = /(\?|&)page=(\d*)/;

/**
 * gh's `nextPage`: the `page` parameter of the first `rel="next"` link whose value Go's
 * `strconv.Atoi` reads; 0 (no more pages) otherwise.
 */
export function nextSearchPage(link: string | undefined): number {
  for (const match of (link ?? '').matchAll(LINK)) {
    if (match[2] !== 'next') continue;
    const digits = PAGE.exec(match[1] ?? '')?.[2];
    if (digits === undefined || digits === '') continue;
    const page = Number(digits);
    if (Number.isSafeInteger(page)) return page;
  }
  return 0;
}

/** The `items` of one search page; `undefined` when Go would not decode the answer. */
function pageItems(body: unknown): readonly unknown[] | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const {
    items,
    total_count: total,
    incomplete_results: incomplete,
  } = body as Record<string, unknown>;
  if (total !== undefined && total !== null && !Number.isSafeInteger(total)) return undefined;
  if (incomplete !== undefined && incomplete !== null && typeof incomplete !== 'boolean') {
    return undefined;
  }
  if (items === undefined || items === null) return [];
  return Array.isArray(items) ? items : undefined;
}

/**
 * gh's searcher loop (pkg/search/searcher.go) through the relay: `GET /search/<kind>` (routes
 * search_issues, search_repositories, search_code, search_commits) with `page`, `per_page` (the
 * results still wanted, at most 100), `q`, and `order`/`sort` when given; the next page is the
 * `page` of the answer's `rel="next"` link, read while results are still wanted. A code search
 * asks for text matches (gh's `Accept`). At most 10 pages (SPEC.md Limits; a `--limit` above
 * 100 never gets here). A relay `fallback_local` (`search_denied` included: a pool without
 * `allow_search`) is handed back; any forge status outside 2xx (gh words its search errors its
 * own way) or an answer Go would not decode runs gh.
 */
export async function readSearch(
  port: RelayPort,
  request: SearchRequest,
  limit: number,
): Promise<SearchReadResult> {
  const items: unknown[] = [];
  let wanted = limit;
  let page = 1;
  for (let reads = 0; wanted > 0 && page !== 0; reads += 1) {
    if (reads >= PAGINATED_READ_MAX_PAGES) {
      return { kind: 'outcome', outcome: delegated('unsupported_shape') };
    }
    const result = await port.read({
      path: `/search/${request.kind}`,
      query: {
        page: String(page),
        per_page: String(Math.min(wanted, SEARCH_MAX_PER_PAGE)),
        q: request.q,
        ...(request.order === undefined ? {} : { order: request.order }),
        ...(request.sort === undefined ? {} : { sort: request.sort }),
      },
      ...(request.kind === 'code' ? { headers: { accept: CODE_SEARCH_ACCEPT } } : {}),
    });
    if (result.kind === 'fallback') return { kind: 'outcome', outcome: result };
    const { envelope } = result;
    const found =
      envelope.status >= 200 && envelope.status <= 299 && envelope.body_encoding === 'json'
        ? pageItems(envelope.body)
        : undefined;
    if (found === undefined) return { kind: 'outcome', outcome: delegated('unsupported_shape') };
    items.push(...(sanitizeJson(found) as unknown[]));
    wanted -= found.length;
    page = nextSearchPage(envelope.headers.link);
  }
  return { kind: 'items', items };
}
