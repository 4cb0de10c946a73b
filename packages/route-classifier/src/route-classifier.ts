import { err, ok, type PoolPolicy, type Result, type RouteKind } from '@relay/protocol';
import { createCacheHint, type CacheHint } from './cache-hint.js';
import { matchNativeProtectionShape, type NativeProtectionKind } from './native-protection.js';
import { isCommitSha, isLogin } from './param-patterns.js';
import { validatePath, type PathRule } from './path-validator.js';
import { validateQuery, type InvalidQuery, type RelayQuery } from './query-validator.js';
import { reduceHeaders, type ReducedHeaders } from './request-headers.js';
import { createRouteMatcher, type RouteMatch } from './route-matcher.js';
import {
  ROUTE_TABLE,
  type CachePolicy,
  type RouteClass,
  type RouteParams,
  type TokenFreeMode,
} from './route-table.js';
import {
  parseSearchQuery,
  type SearchKind,
  type SearchQuery,
  type SearchRule,
} from './search-grammar.js';
import { findTokenFreeAlternates, type TokenFreeAlternate } from './token-free-alternate.js';
import { visibilityOf, type RouteVisibility } from './route-visibility.js';

/** The already schema-validated pieces of one relay request that classification reads. */
export interface ClassifyInput {
  /** The relay request's method; only GET is relayed. */
  readonly method: string;
  /** The relay request's path, as sent. */
  readonly path: string;
  readonly query?: RelayQuery | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Login of the authenticated caller: `GET /user` becomes `GET /users/{callerLogin}`. */
  readonly callerLogin?: string | undefined;
  /** The pool policy's gates: `allow_search` and `allow_logs`. */
  readonly policy: Pick<PoolPolicy, 'allow_search' | 'allow_logs'>;
}

/** The search kinds by route kind. */
export type SearchRouteKind =
  'search_issues' | 'search_code' | 'search_commits' | 'search_repositories';

/** A parsed search, with whether it is the token-free issue-search shape. */
export interface ClassifiedSearch extends SearchQuery {
  /**
   * The token-free issue-search shape (SPEC.md rule 8): it runs even when the pool's
   * `allow_search` is false, anonymously only, and never falls through to pooled credentials.
   */
  readonly tokenFreeShape: boolean;
}

/** How a classified request may be served without a pooled identity. */
export interface TokenFreeEligibility {
  readonly mode: TokenFreeMode;
  /** Public web, raw-content or patch reads equivalent to this request, best first. */
  readonly alternates: readonly TokenFreeAlternate[];
}

/** A request the relay may read: its route kind and everything the pipeline needs about it. */
export interface ClassifiedRoute {
  readonly kind: RouteKind;
  readonly routeClass: RouteClass;
  /** The route table template that matched. */
  readonly template: string;
  /** Owner (user, organization or repository owner) as written in the path or `repo:`. */
  readonly owner: string | undefined;
  readonly repo: string | undefined;
  /** A repository route: the owner gate and the public-visibility check apply. */
  readonly repoScoped: boolean;
  /**
   * What the answer can reveal (`ROUTE_VISIBILITY`); the token-free issue-search shape run
   * without `allow_search` is `anonymous_only`.
   */
  readonly visibility: RouteVisibility;
  /** The route's parameters, percent-encoding kept. */
  readonly params: RouteParams;
  /** The path to request on the API host (the given path, except for the GET /user rewrite). */
  readonly upstreamPath: string;
  /** `/user` when the request was rewritten to the caller's public profile. */
  readonly rewrittenFrom: '/user' | undefined;
  /** The validated query, unchanged. */
  readonly query: RelayQuery;
  readonly headers: ReducedHeaders;
  readonly paginated: boolean;
  readonly cache: CacheHint;
  readonly tokenFree: TokenFreeEligibility;
  /** A log-class read (job logs): needs the pool's `allow_logs`. */
  readonly log: boolean;
  /** A large-payload read (job logs; release assets asked for as octet-stream). */
  readonly largePayload: boolean;
  readonly search: ClassifiedSearch | undefined;
}

/** 403 `method_denied`: only GET is relayed. */
export interface MethodDenied {
  readonly code: 'method_denied';
}

/** 400 `invalid_path`. */
export interface PathDenied {
  readonly code: 'invalid_path';
  readonly rule: PathRule;
}

/** 424 `fallback_local`, reason `route_denied`: a read shape outside the supported set. */
export interface RouteDenied {
  readonly code: 'fallback_local';
  readonly reason: 'route_denied';
}

/** 424 `fallback_local`, reason `local_credentials_required`: a native-protection shape. */
export interface LocalCredentialsRequired {
  readonly code: 'fallback_local';
  readonly reason: 'local_credentials_required';
  readonly kind: NativeProtectionKind;
  readonly owner: string;
  readonly repo: string;
}

/** 424 `fallback_local`, reason `search_denied`: outside the grammar, or search not allowed. */
export interface SearchDenial {
  readonly code: 'fallback_local';
  readonly reason: 'search_denied';
  readonly kind: SearchRouteKind;
  readonly rule: SearchRule | 'search_not_allowed';
}

/** 424 `fallback_local`, reason `logs_denied`: the pool does not allow logs. */
export interface LogsDenied {
  readonly code: 'fallback_local';
  readonly reason: 'logs_denied';
  readonly kind: 'job_logs';
  readonly owner: string;
  readonly repo: string;
}

/** Why a request is not relayed. Switch on `code`, then on `reason`. */
export type ClassifyError =
  | MethodDenied
  | PathDenied
  | InvalidQuery
  | RouteDenied
  | LocalCredentialsRequired
  | SearchDenial
  | LogsDenied;

/** The outcome of {@link classify}. */
export type Classification = Result<ClassifiedRoute, ClassifyError>;

const matchRoute = createRouteMatcher(ROUTE_TABLE);
const ROUTE_DENIED: RouteDenied = { code: 'fallback_local', reason: 'route_denied' };
const USER_VIEW_TEMPLATE = '/users/{username}';
const OCTET_STREAM = /application\/octet-stream/i;

const SEARCH_KIND_OF: Readonly<Partial<Record<RouteKind, SearchKind>>> = {
  search_issues: 'issues',
  search_code: 'code',
  search_commits: 'commits',
  search_repositories: 'repositories',
};

function segmentsOf(path: string): readonly string[] {
  return path === '/' ? [] : path.slice(1).split('/');
}

/** GET /user: the caller's public profile (SPEC.md route-specific behaviour 6). */
function rewriteUser(callerLogin: string | undefined): RouteMatch | undefined {
  if (callerLogin === undefined || !isLogin(callerLogin)) return undefined;
  const definition = ROUTE_TABLE.find((route) => route.kind === 'user_view');
  if (definition === undefined) return undefined;
  return { definition, template: USER_VIEW_TEMPLATE, params: { username: callerLogin } };
}

function ownerAndRepo(params: RouteParams): {
  owner: string | undefined;
  repo: string | undefined;
} {
  return {
    owner: params.owner ?? params.username ?? params.org,
    repo: params.repo,
  };
}

function cachePolicyOf(match: RouteMatch): CachePolicy {
  // A tree addressed by its SHA never changes; one addressed by a ref name does.
  if (match.definition.kind === 'git_tree') {
    return isCommitSha(match.params.tree_sha ?? '') ? 'immutable' : 'default';
  }
  return match.definition.cachePolicy;
}

function classifySearch(
  kind: RouteKind,
  query: RelayQuery,
  policy: ClassifyInput['policy'],
): Result<ClassifiedSearch, SearchDenial> {
  const searchKind = SEARCH_KIND_OF[kind];
  const denied = (rule: SearchDenial['rule']) =>
    err({
      code: 'fallback_local',
      reason: 'search_denied',
      kind: kind as SearchRouteKind,
      rule,
    } as const);
  const q = query.q;
  if (searchKind === undefined || typeof q !== 'string') return denied('missing_query');
  const parsed = parseSearchQuery(searchKind, q);
  if (!parsed.ok) return denied(parsed.error.rule);
  const tokenFreeShape = searchKind === 'issues';
  if (!policy.allow_search && !tokenFreeShape) return denied('search_not_allowed');
  return ok({ ...parsed.value, tokenFreeShape });
}

/**
 * Classifies one relay request: the single decision of what the relay may read, taken before
 * any cache entry, anonymous request or pooled credential is touched. In order: the method
 * (GET only), the path rules ({@link validatePath}), the query rules, the header allowlist,
 * then the route table: a native-protection shape, a supported route kind, or a read shape
 * outside the set; finally the log and search gates of the pool policy and the search grammar.
 * Pure and total: it returns a result for every input and throws for none.
 *
 * @returns the classified route, or a typed error: `method_denied`, `invalid_path` (with the
 *   rule), `invalid_query` (with the rule) or `fallback_local` with reason `route_denied`,
 *   `local_credentials_required`, `search_denied` or `logs_denied`.
 * @example
 * ```ts
 * const result = classify({
 *   method: 'GET',
 *   path: '/repos/cli/cli/pulls/42',
 *   policy: { allow_search: false, allow_logs: true },
 * });
 * if (result.ok) result.value.kind; // 'pr_view'
 * ```
 */
export function classify(input: ClassifyInput): Classification {
  if (input.method.toUpperCase() !== 'GET') return err({ code: 'method_denied' });
  const { path, policy } = input;
  const validPath = validatePath(path);
  if (!validPath.ok) return err({ code: 'invalid_path', rule: validPath.rule });
  const validQuery = validateQuery(input.query);
  if (!validQuery.ok) return err(validQuery.error);
  const query = validQuery.value;
  const headers = reduceHeaders(input.headers);
  const segments = segmentsOf(path);

  const protection = matchNativeProtectionShape(segments);
  if (protection !== undefined) {
    const { kind, owner, repo } = protection;
    return err({ code: 'fallback_local', reason: 'local_credentials_required', kind, owner, repo });
  }
  const rewritten = path === '/user' ? rewriteUser(input.callerLogin) : undefined;
  const match = rewritten ?? matchRoute(segments);
  if (match === undefined) return err(ROUTE_DENIED);
  const { definition, params } = match;
  const { kind } = definition;
  if (definition.nativeProtection) return err(ROUTE_DENIED);

  let { owner, repo } = ownerAndRepo(params);
  let search: ClassifiedSearch | undefined;
  if (definition.routeClass === 'search') {
    const classified = classifySearch(kind, query, policy);
    if (!classified.ok) return classified;
    search = classified.value;
    owner = search.owner;
    repo = search.repo;
  }
  const log = definition.routeClass === 'log';
  if (log && !policy.allow_logs) {
    return err({
      code: 'fallback_local',
      reason: 'logs_denied',
      kind: 'job_logs',
      owner: owner ?? '',
      repo: repo ?? '',
    });
  }

  const accept = headers.upstream.accept;
  const largePayload =
    log || (kind === 'release_asset' && accept !== undefined && OCTET_STREAM.test(accept));
  // Without allow_search only the token-free issue-search shape runs, and only anonymously.
  // GET /user is the caller's public profile, read anonymously; a pooled identity reads it only
  // when the anonymous quota is exhausted (rule 6).
  const tokenFreeSearch = search?.tokenFreeShape === true && !policy.allow_search;
  const mode: TokenFreeMode = tokenFreeSearch
    ? 'anonymous_only'
    : rewritten === undefined
      ? definition.tokenFree
      : 'anonymous_until_exhausted';
  const visibility: RouteVisibility = tokenFreeSearch
    ? { class: 'anonymous_only' }
    : visibilityOf(kind);
  return ok({
    kind,
    routeClass: definition.routeClass,
    template: match.template,
    owner,
    repo,
    repoScoped: definition.scope === 'repo' || repo !== undefined,
    visibility,
    params,
    upstreamPath: rewritten === undefined ? path : `/users/${params.username ?? ''}`,
    rewrittenFrom: rewritten === undefined ? undefined : '/user',
    query,
    headers,
    paginated: definition.paginated,
    cache: createCacheHint({
      policy: cachePolicyOf(match),
      conditional: headers.conditional,
      largePayload,
      maxAgeSeconds: headers.maxAgeSeconds,
    }),
    tokenFree: {
      mode,
      alternates: findTokenFreeAlternates({ kind, owner, repo, params, query, accept }),
    },
    log,
    largePayload,
    search,
  });
}
