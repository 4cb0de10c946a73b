/**
 * The shapes of route parameters, as they appear (still percent-encoded) in a relay path.
 * A segment that fails its parameter's shape does not match the route, so the request falls
 * through to `route_denied` instead of reaching the forge with a value it would reject.
 */

/**
 * A forge login (user or organization). GitHub's current rule is 1-39 letters, digits or single
 * inner hyphens; older accounts may carry a trailing or doubled hyphen, so only the first
 * character and the length are strict here.
 */
export const LOGIN_PATTERN = /^[A-Za-z0-9][A-Za-z0-9-]{0,38}$/;

/** A repository name: 1-100 letters, digits, '.', '_' or '-' (never '.' or '..'). */
export const REPO_NAME_PATTERN = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,100}$/;

/** A numeric id or number (issue, pull request, run, job, comment, …). */
export const NUMERIC_ID_PATTERN = /^[0-9]{1,19}$/;

/** A full commit hash as the `_ref`-less route kinds require it: exactly 40 hexadecimal digits. */
export const COMMIT_SHA_PATTERN = /^[0-9a-fA-F]{40}$/;

/** A git object id (blob, tag, commit): 4-64 hexadecimal digits. */
export const GIT_OBJECT_ID_PATTERN = /^[0-9a-fA-F]{4,64}$/;

/** A gist id: hexadecimal (current gists) or decimal (the oldest gists), both within [0-9a-f]. */
export const GIST_ID_PATTERN = /^[0-9a-fA-F]{1,64}$/;

/** A license key (`mit`, `apache-2.0`, `bsd-3-clause-clear`, `0bsd`, …). */
export const LICENSE_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9.+-]{0,63}$/;

/**
 * Whether a decoded parameter holds a control character: C0 (U+0000–U+001F), DEL (U+007F) or
 * C1 (U+0080–U+009F). No forge name has one: git refuses them in ref names, and a line feed or
 * carriage return in a decoded parameter could split a line at whatever logs or forwards it.
 */
export function hasControlCharacter(decoded: string): boolean {
  for (let index = 0; index < decoded.length; index += 1) {
    const code = decoded.charCodeAt(index);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

/** Whether `value` is a forge login. */
export function isLogin(value: string): boolean {
  return LOGIN_PATTERN.test(value);
}

/** Whether `value` is a repository name. */
export function isRepoName(value: string): boolean {
  return REPO_NAME_PATTERN.test(value);
}

/** Whether `value` is a decimal id. */
export function isNumericId(value: string): boolean {
  return NUMERIC_ID_PATTERN.test(value);
}

/** Whether `value` is a full (40 hex digit) commit hash. */
export function isCommitSha(value: string): boolean {
  return COMMIT_SHA_PATTERN.test(value);
}
