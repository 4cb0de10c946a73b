import type { RouteKind } from '@relay/protocol';

/** The parts of a read that identify one shared-cache entry. */
export interface CacheKeyInput {
  /** The HTTP method (only GET is relayed; kept in the key so that no other method can alias). */
  readonly method: string;
  /** The route kind the classifier gave: the PR discriminators apply to `pr_files` only. */
  readonly routeKind: RouteKind;
  /** The canonical upstream URL (host and path; its query is merged with `query`). */
  readonly url: URL | string;
  /** Extra query parameters, as the relay request carries them. */
  readonly query?: Readonly<Record<string, string | readonly string[]>>;
  /** The request's `accept` header, if any. */
  readonly accept?: string | undefined;
  /** The request's API version (`x-github-api-version`), if any. */
  readonly apiVersion?: string | undefined;
  /** The validated `route_hint.pr_head_sha` (a lowercase commit hash). */
  readonly prHeadSha?: string | undefined;
  /** The validated `route_hint.pr_state`. Only `closed` and `merged` scope an entry. */
  readonly prState?: 'open' | 'closed' | 'merged' | undefined;
}

/**
 * Builds the shared-cache key of a read: method, host, path, the query sorted by name (values of
 * a repeated name keep their order), the accept header, the API version and, for `pr_files`
 * only, the head commit and the closed/merged state. The key is a JSON array, so no two inputs
 * collide through a separator. `cache-control` is not an input: it never changes the key.
 *
 * @param input - the parts of the read.
 * @returns an opaque, injective key string.
 *
 * @example
 * ```ts
 * createCacheKey({ method: 'GET', routeKind: 'repo_view', url: 'https://api.github.com/repos/o/r' });
 * ```
 */
export function createCacheKey(input: CacheKeyInput): string {
  const url = typeof input.url === 'string' ? new URL(input.url) : input.url;
  const pairs: [string, string][] = [];
  for (const [name, value] of url.searchParams) pairs.push([name, value]);
  for (const [name, value] of Object.entries(input.query ?? {})) {
    if (typeof value === 'string') pairs.push([name, value]);
    else for (const item of value) pairs.push([name, item]);
  }
  // A stable sort by name keeps the order of repeated values, which the forge may honour.
  pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = pairs
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
  const isPrFiles = input.routeKind === 'pr_files';
  const state =
    isPrFiles && (input.prState === 'closed' || input.prState === 'merged') ? input.prState : '';
  return JSON.stringify([
    input.method.toUpperCase(),
    url.protocol,
    url.host.toLowerCase(),
    url.pathname,
    query,
    normalizeHeaderValue(input.accept),
    normalizeHeaderValue(input.apiVersion),
    isPrFiles ? (input.prHeadSha?.toLowerCase() ?? '') : '',
    state,
  ]);
}

function normalizeHeaderValue(value: string | undefined): string {
  return value === undefined ? '' : value.trim().toLowerCase();
}
