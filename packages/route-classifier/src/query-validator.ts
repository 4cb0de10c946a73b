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
 * Words that make a query key secret-bearing when the key has one of them as a whole word.
 * A key's words are found by splitting it at every character other than a letter or digit
 * (`gh_pat`, `basic-auth`, `ssh.key`, `mfa code`) and, separately, at camelCase humps
 * (`ghPat`, `PATToken`, `basicAuth`); each word is compared lowercased, and so is the key with
 * every separator removed (`P-A-T` is `pat`). These names are too short to look for inside
 * other words: `pat` is in `path` and `patch`, `sig` in `signed`, `pass` in `passed`, `pin` in
 * `pinned`, `sid` in `inside`.
 */
export const SECRET_QUERY_KEY_NAMES = [
  'auth',
  'authn',
  'authz',
  'pat',
  'sig',
  'pass',
  'pw',
  'pwd',
  'pin',
  'otp',
  'mfa',
  'sid',
  'cred',
  'creds',
  'csrf',
  'xsrf',
] as const;

/**
 * Fragments that make a key secret-bearing wherever they occur in its compact form (the key
 * percent-decoded, NFKC-normalized, lowercased, with every character other than `a-z` and
 * `0-9` removed: `access_token`, `Access-Token`, `access.token` and `accessToken` are all
 * `accesstoken`). None occurs in a query key of GitHub's REST API.
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
  'privkey',
  'sshkey',
  'deploykey',
  'signingkey',
  'clientkey',
  'authkey',
  'authorization',
  'authentication',
  'basicauth',
  'credential',
  'signature',
  'assertion',
  'hmac',
  'oauth',
  'saml',
  'bearer',
  'jwt',
  'cookie',
  'session',
  'sessid',
  'totp',
  'hotp',
  'mfacode',
  'otpcode',
  '2fa',
  'twofactor',
] as const;

const MAX_DECODINGS = 4;
const SECRET_NAMES: ReadonlySet<string> = new Set(SECRET_QUERY_KEY_NAMES);
const SEPARATOR = /[^\p{L}\p{N}]+/u;
/** Where camelCase starts a new word: `ghPat` → gh|Pat, `PATToken` → PAT|Token, `my2FA` → my2|FA. */
const CAMEL_HUMP = /(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;

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

/** A decoded key in the forms the rule reads: its compact form and its lowercased words. */
interface KeyForms {
  readonly compact: string;
  readonly words: readonly string[];
}

/** The forms of a query key, or undefined when its percent-encoding is broken. */
function formsOf(key: string): KeyForms | undefined {
  const decoded = decodeKey(key)?.normalize('NFKC');
  if (decoded === undefined) return undefined;
  const parts = decoded.split(SEPARATOR).filter((part) => part !== '');
  const words = [...parts, ...parts.flatMap((part) => part.split(CAMEL_HUMP))].map((word) =>
    word.toLowerCase(),
  );
  return { compact: decoded.toLowerCase().replace(/[^a-z0-9]/g, ''), words };
}

/** `auth…` but not `author…` (`auth_code`, `authcode`, `authtype`; never `author`, `authored`). */
function startsWithAuth(word: string): boolean {
  return word.startsWith('auth') && !word.startsWith('author');
}

/**
 * Whether a query key looks secret-bearing (SPEC.md: "keys that look secret-bearing (such as
 * token, secret, password, api_key) are rejected"). After percent-decoding (until stable, at
 * most four rounds) and NFKC normalization, a key is secret-bearing when:
 *
 * - one of its words, or its compact form, is one of {@link SECRET_QUERY_KEY_NAMES}
 *   (`pat`, `gh_pat`, `PAT-Token`, `ghPat`, `basic_auth`, `mfaCode`, `otp_code`, `creds`);
 * - its compact form contains one of {@link SECRET_QUERY_KEY_FRAGMENTS} (`access_token`,
 *   `DeployKey`, `ssh.key`, `PHPSESSID`, `jsessionid`, `client_assertion`, `2fa`);
 * - one of its words, or its compact form, starts with `auth` without starting with `author`
 *   (`auth_code`, `authType`);
 * - or its percent-encoding is broken: it cannot be proven harmless.
 *
 * GitHub's own keys (`path`, `patch`, `author`, `per_page`, `state`, `sha`, `ref`, …) pass.
 *
 * @param key - a query key as the relay request gives it
 * @returns true when the key must be rejected
 * @example
 * ```ts
 * isSecretQueryKey('gh_pat'); // true
 * isSecretQueryKey('path'); // false
 * ```
 */
export function isSecretQueryKey(key: string): boolean {
  const forms = formsOf(key);
  if (forms === undefined) return true;
  const { compact, words } = forms;
  if (SECRET_NAMES.has(compact) || words.some((word) => SECRET_NAMES.has(word))) return true;
  if (startsWithAuth(compact) || words.some(startsWithAuth)) return true;
  return SECRET_QUERY_KEY_FRAGMENTS.some((fragment) => compact.includes(fragment));
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
    if (key === '' || decodeKey(key) === undefined) {
      return err({ code: 'invalid_query', rule: 'invalid_key' });
    }
    if (isSecretQueryKey(key)) return err({ code: 'invalid_query', rule: 'secret_key' });
    if (!isQueryValue(value)) return err({ code: 'invalid_query', rule: 'invalid_value' });
  }
  return ok(query as RelayQuery);
}
