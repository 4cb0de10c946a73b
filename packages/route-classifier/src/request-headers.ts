import { reduceRequestHeaders, type RelayRequestHeaderName } from '@relay/protocol';

/** A request header the relay forwards upstream (the allowlist without `cache-control`). */
export type UpstreamHeaderName = Exclude<RelayRequestHeaderName, 'cache-control'>;

/** A relay request's headers after the allowlist, split into what goes upstream and what not. */
export interface ReducedHeaders {
  /** Headers sent upstream: accept, x-github-api-version, if-none-match, if-modified-since. */
  readonly upstream: Readonly<Partial<Record<UpstreamHeaderName, string>>>;
  /** The request's `cache-control: max-age=N` in seconds, when it carries a valid one. */
  readonly maxAgeSeconds: number | undefined;
  /** The request carries `if-none-match` or `if-modified-since`: it bypasses the cache. */
  readonly conditional: boolean;
}

/** The largest max-age kept; larger values are capped to it (RFC 9111 §1.2.2). */
export const MAX_AGE_CAP_SECONDS = 2_147_483_648;

const FIELD_VALUE = /^[\t\x20-\x7e\x80-\uffff]*$/;
const DELTA_SECONDS = /^(?:[0-9]+|"[0-9]+")$/;

/**
 * Reads `max-age=N` from a request `cache-control` value. Directive names are case-insensitive;
 * N is decimal seconds (the quoted form is tolerated); a malformed max-age is ignored; when
 * several valid ones appear the smallest wins, as the strictest bound; other directives
 * (`no-cache`, `no-store`, …) are ignored (SPEC.md rule 4).
 *
 * @returns the bound in seconds (capped at {@link MAX_AGE_CAP_SECONDS}), or undefined.
 */
export function parseCacheControlMaxAge(value: string): number | undefined {
  let bound: number | undefined;
  for (const directive of value.split(',')) {
    const equals = directive.indexOf('=');
    if (equals === -1) continue;
    if (directive.slice(0, equals).trim().toLowerCase() !== 'max-age') continue;
    const raw = directive.slice(equals + 1).trim();
    if (!DELTA_SECONDS.test(raw)) continue;
    const seconds = Math.min(Number(raw.replaceAll('"', '')), MAX_AGE_CAP_SECONDS);
    bound = bound === undefined ? seconds : Math.min(bound, seconds);
  }
  return bound;
}

/**
 * Reduces a relay request's headers to the allowlist (through `reduceRequestHeaders` of
 * `@relay/protocol`: names lowercased, `x-forge-api-version` as an alias of
 * `x-github-api-version`, everything else dropped), drops values that are not valid HTTP field
 * values (CR, LF, NUL and other controls), takes `cache-control` out (never sent upstream) and
 * reads its max-age.
 */
export function reduceHeaders(
  headers: Readonly<Record<string, string>> | undefined,
): ReducedHeaders {
  const kept = reduceRequestHeaders(headers);
  const upstream: Partial<Record<UpstreamHeaderName, string>> = {};
  for (const [name, value] of Object.entries(kept) as [RelayRequestHeaderName, string][]) {
    if (!FIELD_VALUE.test(value) || name === 'cache-control') continue;
    upstream[name] = value;
  }
  // Header names are case-insensitive: `Cache-Control` and `cache-control` in one request are
  // one field whose directives all count (RFC 9110 §5.3), so the strictest max-age of all of
  // them is the bound, not whichever spelling came last.
  let maxAgeSeconds: number | undefined;
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() !== 'cache-control' || !FIELD_VALUE.test(value)) continue;
    const seconds = parseCacheControlMaxAge(value);
    if (seconds !== undefined) {
      maxAgeSeconds = maxAgeSeconds === undefined ? seconds : Math.min(maxAgeSeconds, seconds);
    }
  }
  const conditional =
    (upstream['if-none-match']?.trim() ?? '') !== '' ||
    (upstream['if-modified-since']?.trim() ?? '') !== '';
  return { upstream, maxAgeSeconds, conditional };
}
