import { err, ok, reduceRequestHeaders } from '@relay/protocol';
import type { Result } from '@relay/protocol';

/**
 * Caller headers the transport forwards upstream. `cache-control` is reduced into the relay
 * request but never sent upstream (SPEC.md "Relay request" rule 4); every other caller header,
 * credentials above all, is dropped. `x-forge-api-version` arrives as `x-github-api-version`.
 */
export const FORWARDED_REQUEST_HEADERS = [
  'accept',
  'x-github-api-version',
  'if-none-match',
  'if-modified-since',
] as const;

/** The relay's `User-Agent` upstream, unless the transport is given another. */
export const DEFAULT_USER_AGENT = 'relay-forge-transport/0.1 (relay; +read-only GET relay)';

/** What goes into the headers of one upstream request. */
export interface RequestHeaderParts {
  /** Caller headers; reduced to {@link FORWARDED_REQUEST_HEADERS}. */
  readonly callerHeaders?: Readonly<Record<string, string>> | undefined;
  /** The pooled credential's `Authorization` value; only given for the API host. */
  readonly authorization?: string | undefined;
  /** The relay's `User-Agent`. */
  readonly userAgent: string;
}

/** The headers of one upstream request, split so that only the credential escapes the check. */
export interface OutgoingHeaders {
  /** Headers the rewrite check sees (all but the credential), lowercase names. */
  readonly checked: Readonly<Record<string, string>>;
  /** The `Authorization` value, when one is sent. */
  readonly authorization?: string;
}

const FIELD_VALUE = /^[\t\u0020-\u007e]*$/u;

/**
 * Whether a string is a header value this transport sends: visible ASCII, space and tab only
 * (no CR, LF, NUL or non-ASCII).
 *
 * @param value - a header value
 */
export function isValidHeaderValue(value: string): boolean {
  return FIELD_VALUE.test(value);
}

/**
 * Assembles the headers of an upstream request: the forwarded caller headers, the relay's
 * `User-Agent`, and the credential when one is given.
 *
 * @param parts - caller headers, credential and user agent
 * @returns the headers, or `invalid_header` when a value is not valid HTTP
 */
export function buildRequestHeaders(
  parts: RequestHeaderParts,
): Result<OutgoingHeaders, 'invalid_header'> {
  const reduced = reduceRequestHeaders(parts.callerHeaders);
  const checked: Record<string, string> = {};
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = reduced[name];
    if (value !== undefined) checked[name] = value;
  }
  checked['user-agent'] = parts.userAgent;
  for (const value of Object.values(checked)) {
    if (!isValidHeaderValue(value)) return err('invalid_header');
  }
  if (parts.authorization === undefined) return ok({ checked });
  if (!isValidHeaderValue(parts.authorization) || parts.authorization.trim() === '') {
    return err('invalid_header');
  }
  return ok({ checked, authorization: parts.authorization });
}
