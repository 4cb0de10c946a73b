import type { RelayQuery } from './query-validator.js';
import { validatePath } from './path-validator.js';
import type { RouteParams } from './route-table.js';
import type { RouteKind } from '@relay/protocol';

/**
 * A token-free public read equivalent to an API request: a `.diff`/`.patch` page on the web host,
 * or a file on the raw-content host. The path is relative to that host; the transport owns the
 * host names (RELAY_FORGE_WEB_URL, RELAY_FORGE_RAW_URL).
 */
export interface TokenFreeAlternate {
  /** The host family: `web` (github.com) or `raw` (raw.githubusercontent.com). */
  readonly host: 'web' | 'raw';
  readonly format: 'diff' | 'patch' | 'raw';
  /** The path on that host, percent-encoding kept. */
  readonly path: string;
}

const MEDIA_FORMAT = /application\/vnd\.github(?:\.v3)?\.(diff|patch|raw)\b/;

function formatOf(accept: string | undefined): 'diff' | 'patch' | 'raw' | undefined {
  const match = accept === undefined ? null : MEDIA_FORMAT.exec(accept.toLowerCase());
  const format = match?.[1];
  return format === 'diff' || format === 'patch' || format === 'raw' ? format : undefined;
}

// The web pages that serve a diff or patch of an API resource: /{owner}/{repo}/<prefix>/<value>.
const WEB_PAGES: Partial<Record<RouteKind, { readonly prefix: string; readonly param: string }>> = {
  pr_view: { prefix: 'pull', param: 'pull_number' },
  commit_view: { prefix: 'commit', param: 'ref' },
  commit_view_ref: { prefix: 'commit', param: 'ref' },
  compare: { prefix: 'compare', param: 'basehead' },
};

/** What {@link findTokenFreeAlternates} looks at. */
export interface AlternateRequest {
  readonly kind: RouteKind;
  readonly owner: string | undefined;
  readonly repo: string | undefined;
  readonly params: RouteParams;
  readonly query: RelayQuery;
  readonly accept: string | undefined;
}

/**
 * The public web, raw-content or patch alternates of a request, when the requested media type
 * makes one equivalent: a pull request, commit or comparison asked for as diff or patch, and a
 * file's contents asked for raw (at `?ref=`, else the default branch's HEAD). Alternates are
 * built from the already validated path; the one value that is not (`?ref=`) is encoded per
 * segment and must pass {@link validatePath} itself, else no alternate is offered.
 */
export function findTokenFreeAlternates(request: AlternateRequest): readonly TokenFreeAlternate[] {
  const { kind, owner, repo, params, query, accept } = request;
  const format = formatOf(accept);
  if (format === undefined || owner === undefined || repo === undefined) return [];
  const base = `/${owner}/${repo}`;
  if (format === 'raw') {
    const path = params.path;
    if (kind !== 'contents' || path === undefined || path === '') return [];
    const ref = query.ref;
    if (ref !== undefined && typeof ref !== 'string') return [];
    const encodedRef =
      ref === undefined ? 'HEAD' : ref.split('/').map(encodeURIComponent).join('/');
    if (!validatePath(`/${encodedRef}`).ok) return [];
    return [{ host: 'raw', format, path: `${base}/${encodedRef}/${path}` }];
  }
  const page = WEB_PAGES[kind];
  const value = page === undefined ? undefined : params[page.param];
  if (page === undefined || value === undefined) return [];
  return [{ host: 'web', format, path: `${base}/${page.prefix}/${value}.${format}` }];
}
