import { err, ok, type Result } from '@relay/protocol';

/**
 * A relay request's query: each value a string or an array of strings (sent as repeated keys).
 */
export type RelayQuery = Readonly<Record<string, string | readonly string[]>>;

/** Why a query was rejected with 400 `invalid_query`. */
export const QUERY_RULES = ['secret_key', 'invalid_key', 'invalid_value'] as const;

/** A rule of {@link QUERY_RULES}. */
export type QueryRule = (typeof QUERY_RULES)[number];

/** A rejected query. Carries the rule only: never the key, never a value. */
export interface InvalidQuery {
  readonly code: 'invalid_query';
  readonly rule: QueryRule;
}

/**
 * Normalized key names that are secret-bearing on their own. Normalization: percent-decoded until
 * stable, lowercased, every character other than a-z and 0-9 removed (so `api_key`, `api-key`,
 * `API.Key` and `apikey` are one name). These are too short to search for inside other names
 * without false positives (`sig` would hit `signed`, `pass` would hit `passed`).
 */
export const SECRET_QUERY_KEY_NAMES = ['auth', 'sig', 'pass', 'pwd', 'otp', 'sid'] as const;

/**
 * Fragments that make a normalized key secret-bearing wherever they occur in it (`access_token`,
 * `private_token`, `client_secret`, `x-amz-security-token`, `x-api-key`, `oauth_verifier`, …).
 * None occurs in a query key of GitHub's REST API.
 */
export const SECRET_QUERY_KEY_FRAGMENTS = [
  'token',
  'secret',
  'password',
  'passwd',
  'passphrase',
  'passcode',
  'apikey',
  'accesskey',
  'privatekey',
  'authkey',
  'authorization',
  'authentication',
  'credential',
  'signature',
  'hmac',
  'oauth',
  'bearer',
  'jwt',
  'cookie',
  'session',
] as const;

const MAX_DECODINGS = 4;
const SECRET_NAMES: ReadonlySet<string> = new Set(SECRET_QUERY_KEY_NAMES);

function decodeKey(key: string): string | undefined {
  let current = key;
  for (let round = 0; round < MAX_DECODINGS && current.includes('%'); round += 1) {
    try {
      const next = decodeURIComponent(current);
      if (next === current) break;
      current = next;
    } catch {
      return undefined;
    }
  }
  return current;
}

/** The normalized form of a query key, or undefined when its percent-encoding is broken. */
function normalizeKey(key: string): string | undefined {
  const decoded = decodeKey(key);
  return decoded?.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * Whether a query key looks secret-bearing: after normalization it is one of
 * {@link SECRET_QUERY_KEY_NAMES}, contains one of {@link SECRET_QUERY_KEY_FRAGMENTS}, or starts
 * with `auth` without being `author…` (`auth_code`, `authn`). A key whose percent-encoding is
 * broken counts as secret-bearing: it cannot be proven harmless.
 */
export function isSecretQueryKey(key: string): boolean {
  const normalized = normalizeKey(key);
  if (normalized === undefined) return true;
  if (SECRET_NAMES.has(normalized)) return true;
  if (normalized.startsWith('auth') && !normalized.startsWith('author')) return true;
  return SECRET_QUERY_KEY_FRAGMENTS.some((fragment) => normalized.includes(fragment));
}

function isQueryValue(value: unknown): value is string | readonly string[] {
  return (
    typeof value === 'string' ||
    (Array.isArray(value) && value.every((item: unknown) => typeof item === 'string'))
  );
}

/**
 * Validates a relay request's query (SPEC.md "Relay request": values are strings or arrays of
 * strings; secret-bearing keys are rejected). The query is returned unchanged: it is never
 * rewritten on its way upstream.
 *
 * @param query - the `query` of a relay request; `undefined` is an empty query.
 * @returns the query, or `invalid_query` with the broken rule: `invalid_key` for an empty key
 *   or one whose percent-encoding is broken, `secret_key`, or `invalid_value`.
 */
export function validateQuery(query: unknown): Result<RelayQuery, InvalidQuery> {
  if (query === undefined) return ok({});
  if (typeof query !== 'object' || query === null || Array.isArray(query)) {
    return err({ code: 'invalid_query', rule: 'invalid_value' });
  }
  for (const [key, value] of Object.entries(query)) {
    if (key === '' || normalizeKey(key) === undefined) {
      return err({ code: 'invalid_query', rule: 'invalid_key' });
    }
    if (isSecretQueryKey(key)) return err({ code: 'invalid_query', rule: 'secret_key' });
    if (!isQueryValue(value)) return err({ code: 'invalid_query', rule: 'invalid_value' });
  }
  return ok(query as RelayQuery);
}
