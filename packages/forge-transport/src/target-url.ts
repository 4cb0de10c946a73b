import { canonicalizePercentEncoding, err, ok } from '@relay/protocol';
import type { Result } from '@relay/protocol';
import type { ForgeBase } from './host-allowlist.js';

/** Query parameters of an upstream read: a value or a list of values per key, in order. */
export type ForgeQuery = Readonly<Record<string, string | readonly string[]>>;

const ENCODED_DOT_OR_BACKSLASH = /%(?:2e|5c)/iu;

/**
 * Whether a path is safe to place under a base: absolute, no control characters, backslash,
 * `?`, `#`, `://`, leading `//`, dot segments or percent-encoded dots and backslashes. This
 * repeats the essentials of the relay's path validation so that the transport alone can never
 * be steered off the base.
 *
 * @param path - an absolute upstream path
 */
export function isSafeTargetPath(path: string): boolean {
  if (!path.startsWith('/') || path.startsWith('//')) return false;
  for (let i = 0; i < path.length; i += 1) {
    const code = path.charCodeAt(i);
    // Control characters, DEL, backslash, '?' and '#'.
    if (code < 0x20 || code === 0x7f || code === 0x5c || code === 0x3f || code === 0x23) {
      return false;
    }
  }
  if (ENCODED_DOT_OR_BACKSLASH.test(path)) return false;
  if (path.includes('://')) return false;
  return path.split('/').every((segment) => segment !== '.' && segment !== '..');
}

/**
 * Builds the canonical URL of an upstream read from an allowlisted base, a path and a query.
 * The URL is assembled from parts (origin, then `pathname`, then `search`), never by string
 * concatenation, so no path or query value can change the scheme, host or port.
 *
 * The path is sent in its RFC 3986 §6.2.2 canonical form (`canonicalizePercentEncoding` of
 * `@relay/protocol`): escapes of unreserved characters are decoded (`%62` is sent as `b`) and
 * the other escapes keep their byte with uppercase hex (`%2f` is sent as `%2F`, `%09` stays
 * `%09`). The string-rewrite check reads this same form, so no encoding of a protected string
 * reaches the forge unseen.
 *
 * @param base - an allowlisted base
 * @param path - the validated absolute path; other characters URL paths do not allow are
 *   percent-encoded
 * @param query - query parameters, form-encoded in the given order
 * @returns the canonical URL, or `invalid_path`
 */
export function buildTargetUrl(
  base: ForgeBase,
  path: string,
  query: ForgeQuery = {},
): Result<URL, 'invalid_path'> {
  if (!isSafeTargetPath(path)) return err('invalid_path');
  // Decoding unreserved escapes cannot add structure: '.' could only come from %2e, refused above.
  const canonicalPath = canonicalizePercentEncoding(path);
  if (!isSafeTargetPath(canonicalPath)) return err('invalid_path');
  const url = new URL(base.origin);
  url.pathname = `${base.basePath}${canonicalPath}`;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (typeof value === 'string') params.append(key, value);
    else for (const item of value) params.append(key, item);
  }
  url.search = params.toString();
  if (url.origin !== base.origin) throw new Error('invariant: target URL left its base origin');
  return ok(url);
}
