/**
 * @relay/forge-transport: the only door to the forge. Allowlisted hosts and canonical URLs, the
 * transport-level rewrite check, the redirect policy, a deadline, a streaming size cap, body
 * encoding, the response header filter and rate-limit headers, on undici.
 *
 * @example
 * ```ts
 * import { createForgeTransport, TRANSPORT_ERROR_MAPPINGS } from '@relay/forge-transport';
 * const transport = createForgeTransport();
 * const result = await transport.request({ host: 'api', path: '/rate_limit', rewriteCheck });
 * if (!result.ok) throw TRANSPORT_ERROR_MAPPINGS[result.error.code];
 * ```
 */

// Transport
export { createForgeTransport } from './forge-transport.js';
export type {
  ForgeRequest,
  ForgeResponse,
  ForgeTransport,
  ForgeTransportOptions,
  ScheduleTimeout,
} from './forge-transport.js';

// Errors
export {
  TRANSPORT_ERROR_CODES,
  TRANSPORT_ERROR_MAPPINGS,
  createTransportError,
} from './transport-error.js';
export type {
  ForgeTransportError,
  ForgeTransportErrorCode,
  TransportErrorMapping,
} from './transport-error.js';

// Hosts and URLs
export {
  DEFAULT_FORGE_API_URL,
  DEFAULT_FORGE_LOG_HOSTS,
  DEFAULT_FORGE_PATCH_URL,
  DEFAULT_FORGE_RAW_URL,
  DEFAULT_FORGE_WEB_URL,
  FORGE_HOST_KINDS,
  canonicalizeHostname,
  isAllowedLogTarget,
  isIpLiteral,
  isLoopbackHostname,
  matchesLogHost,
  parseCanonicalUrl,
  parseForgeHosts,
} from './host-allowlist.js';
export type {
  ForgeBase,
  ForgeHostKind,
  ForgeHosts,
  ForgeHostsError,
  ForgeHostsErrorCode,
  ForgeHostsOptions,
} from './host-allowlist.js';
export { buildTargetUrl, isSafeTargetPath } from './target-url.js';
export type { ForgeQuery } from './target-url.js';

// Redirects
export { MAX_PUBLIC_REDIRECTS, REDIRECT_STATUSES, decideRedirect } from './redirect-policy.js';
export type {
  ForgeTargetKind,
  RedirectFlow,
  RedirectInput,
  RedirectTarget,
} from './redirect-policy.js';

// Rewrite check
export { passesRewriteCheck, passesRewriteCheckAll } from './rewrite-check.js';
export type { RewriteCheck, RewriteVerdict } from './rewrite-check.js';

// Request and response headers
export {
  DEFAULT_USER_AGENT,
  FORWARDED_REQUEST_HEADERS,
  buildRequestHeaders,
  isValidHeaderValue,
} from './request-headers.js';
export type { OutgoingHeaders, RequestHeaderParts } from './request-headers.js';
export { toEnvelopeHeaders } from './response-headers.js';
export { parseRateLimitHeaders } from './rate-limit-parser.js';
export type { RateLimitInfo, ResponseHeaders } from './rate-limit-parser.js';

// Bodies
export { readCappedBody } from './capped-body-reader.js';
export { NUL_SCAN_BYTES, encodeBody, encodeOpaqueBody, isJsonContentType } from './body-encoder.js';
export type { BodyKind, EncodeBodyOptions, EncodedBody, JsonValue } from './body-encoder.js';
