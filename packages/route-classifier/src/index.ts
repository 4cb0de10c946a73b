/**
 * @relay/route-classifier: what the relay may read. Pure path validation, query-key and header
 * rules, the route table of every route kind of SPEC.md, the search grammar and the
 * native-protection shapes; one `classify` call per relay request.
 *
 * @example
 * ```ts
 * import { classify } from '@relay/route-classifier';
 * const result = classify({ method: 'GET', path: '/repos/cli/cli', policy });
 * if (!result.ok) return reply(result.error); // method_denied, invalid_path, invalid_query, fallback_local
 * result.value.kind; // 'repo_view'
 * ```
 */

// Classification
export { classify } from './route-classifier.js';
export type {
  Classification,
  ClassifiedRoute,
  ClassifiedSearch,
  ClassifyError,
  ClassifyInput,
  LocalCredentialsRequired,
  LogsDenied,
  MethodDenied,
  PathDenied,
  RouteDenied,
  SearchDenial,
  SearchRouteKind,
  TokenFreeEligibility,
} from './route-classifier.js';

// Route kinds and the route table
export { ROUTE_KINDS, isRouteKind } from '@relay/protocol';
export type { RouteKind } from '@relay/protocol';
export { ROUTE_TABLE } from './route-table.js';
export type {
  CachePolicy,
  RouteClass,
  RouteDefinition,
  RouteParams,
  RouteScope,
  TokenFreeMode,
} from './route-table.js';
export { ROUTE_VISIBILITY, visibilityOf } from './route-visibility.js';
export type { ItemRule, RouteVisibility, VisibilityClass } from './route-visibility.js';
export { createRouteMatcher } from './route-matcher.js';
export type { RouteMatch, RouteMatcher } from './route-matcher.js';

// Path rules
export { PATH_MAX_LENGTH, PATH_RULES, isValidBasehead, validatePath } from './path-validator.js';
export type { InvalidPath, PathRule, PathValidation } from './path-validator.js';
export { BRANCH_PROTECTION_SUBRESOURCES, matchNativeProtectionShape } from './native-protection.js';
export type {
  BranchProtectionSubresource,
  NativeProtectionKind,
  NativeProtectionMatch,
} from './native-protection.js';

// Query and header rules
export {
  QUERY_RULES,
  SECRET_QUERY_KEY_FRAGMENTS,
  SECRET_QUERY_KEY_NAMES,
  isSecretQueryKey,
  validateQuery,
} from './query-validator.js';
export type { InvalidQuery, QueryRule, RelayQuery } from './query-validator.js';
export { MAX_AGE_CAP_SECONDS, parseCacheControlMaxAge, reduceHeaders } from './request-headers.js';
export type { ReducedHeaders, UpstreamHeaderName } from './request-headers.js';

// Search grammar
export {
  SEARCH_KINDS,
  SEARCH_QUERY_MAX_LENGTH,
  SEARCH_RULES,
  parseSearchQuery,
} from './search-grammar.js';
export type { SearchDenied, SearchKind, SearchQuery, SearchRule } from './search-grammar.js';

// Cache hints and token-free alternates
export { CACHE_LIFETIME_HINTS_MS, createCacheHint } from './cache-hint.js';
export type { CacheBypass, CacheHint, CacheHintOptions } from './cache-hint.js';
export { findTokenFreeAlternates } from './token-free-alternate.js';
export type { AlternateRequest, TokenFreeAlternate } from './token-free-alternate.js';
