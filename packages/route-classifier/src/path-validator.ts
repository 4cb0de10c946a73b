import { RELAY_PATH_MAX_LENGTH } from '@relay/protocol';
import { matchNativeProtectionShape } from './native-protection.js';
import {
  hasControlCharacter as hasDecodedControlCharacter,
  isLogin,
  isRepoName,
} from './param-patterns.js';

/**
 * The path rules, each a reason a path is rejected with 400 `invalid_path`. The order is the
 * order in which {@link validatePath} checks them: the first broken rule is reported.
 */
export const PATH_RULES = [
  'too_long',
  'control_character',
  'scheme',
  'backslash',
  'query_or_fragment',
  'not_absolute',
  'double_slash',
  'empty_segment',
  'invalid_character',
  'invalid_percent_encoding',
  'encoded_dot',
  'encoded_backslash',
  'encoded_nul',
  'invalid_utf8',
  'double_encoding',
  'dot_segment',
  'dot_dot',
  'encoded_slash',
  'encoded_control_character',
  'unicode_lookalike',
  'host_change',
] as const;

/** A rule of {@link PATH_RULES}: why a path was rejected. */
export type PathRule = (typeof PATH_RULES)[number];

/** A rejected path. Carries the rule only, never the path itself. */
export interface InvalidPath {
  readonly ok: false;
  readonly code: 'invalid_path';
  readonly rule: PathRule;
}

/** The outcome of {@link validatePath}. */
export type PathValidation = { readonly ok: true } | InvalidPath;

/** The longest accepted path, in UTF-16 code units (the schema bound of `@relay/protocol`). */
export const PATH_MAX_LENGTH = RELAY_PATH_MAX_LENGTH;

const VALID: PathValidation = { ok: true };
const PROBE_BASE = 'https://forge.invalid';
const PROBE_HOST = 'forge.invalid';
/** Only ASCII: NFKC leaves such a string as it is. */
const ASCII_ONLY = /^[^\u0080-\uffff]*$/;
/**
 * Segments of RFC 3986 unreserved characters, none starting with a dot: no escape, no dot
 * segment and nothing the URL parser encodes, so joining such a path to a host keeps both.
 */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+$/;

// RFC 3986 pchar (unreserved, sub-delims, ':' and '@') plus '/' and '%' (checked separately).
const ALLOWED_CHARACTER = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*$/;
const PERCENT_ESCAPE = /%[0-9A-Fa-f]{2}/;
const HEX_DIGIT = /^[0-9A-Fa-f]$/;

function invalid(rule: PathRule): InvalidPath {
  return { ok: false, code: 'invalid_path', rule };
}

function hasControlCharacter(path: string): boolean {
  for (let index = 0; index < path.length; index += 1) {
    const code = path.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** Checks every '%': two hex digits follow, and the escaped byte is not a forbidden one. */
function checkPercentEscapes(path: string): PathRule | { readonly encodedSlash: boolean } {
  let encodedSlash = false;
  for (let index = path.indexOf('%'); index !== -1; index = path.indexOf('%', index + 1)) {
    const high = path.charAt(index + 1);
    const low = path.charAt(index + 2);
    if (!HEX_DIGIT.test(high) || !HEX_DIGIT.test(low)) return 'invalid_percent_encoding';
    const byte = Number.parseInt(high + low, 16);
    if (byte === 0x2e) return 'encoded_dot';
    if (byte === 0x5c) return 'encoded_backslash';
    if (byte === 0x00) return 'encoded_nul';
    if (byte === 0x2f) encodedSlash = true;
  }
  return { encodedSlash };
}

function decodeOnce(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

/** The {basehead} of the compare route, when the path has that shape. */
function compareBasehead(segments: readonly string[]): string | undefined {
  const [root, owner, repo, resource] = segments;
  if (root !== 'repos' || resource !== 'compare' || segments.length < 5) return undefined;
  if (owner === undefined || repo === undefined || !isLogin(owner) || !isRepoName(repo)) {
    return undefined;
  }
  return segments.slice(4).join('/');
}

/** An escaped TAB, LF or CR: the bytes a URL parser strips once they are decoded. */
const ENCODED_URL_WHITESPACE = /%0[9aAdD]/g;

/**
 * Whether an escaped TAB, LF or CR hides an empty or dot segment. Such an escape stays encoded on
 * the wire (SPEC.md rule 2: `%09` stays `%09`), but a URL parser strips the decoded character: a
 * segment of only such escapes, or one that leaves `.` or `..` around them, would read as `//`
 * (another host, at the start), an empty segment or a traversal to anything that decodes the path
 * once more and parses it as a URL. (`/%09/octocat` decodes to `//octocat`.)
 */
function hidesStructureBehindUrlWhitespace(path: string): boolean {
  if (!path.includes('%')) return false;
  const stripped = path.replace(ENCODED_URL_WHITESPACE, '');
  if (stripped === path) return false;
  if (stripped.includes('//') || (stripped.length > 1 && stripped.endsWith('/'))) return true;
  if (stripped === '') return true;
  const segments = stripped === '/' ? [] : stripped.slice(1).split('/');
  return checkDots(stripped, segments) !== undefined;
}

/**
 * Ruling (a): inside the compare route's {basehead}, `..` is allowed once, as the separator of
 * BASE...HEAD or BASE..HEAD, with non-empty sides that do not start or end with '.' or '/'.
 */
export function isValidBasehead(basehead: string): boolean {
  const runs = basehead.match(/\.{2,}/g);
  if (runs?.length !== 1) return false;
  const separator = runs[0];
  if (separator.length > 3) return false;
  const at = basehead.indexOf(separator);
  const base = basehead.slice(0, at);
  const head = basehead.slice(at + separator.length);
  return [base, head].every(
    (side) => side.length > 0 && !/^[./]/.test(side) && !/[./]$/.test(side),
  );
}

function checkDots(path: string, segments: readonly string[]): PathRule | undefined {
  for (const segment of segments) {
    if (segment === '.') return 'dot_segment';
    if (segment === '..') return 'dot_dot';
  }
  if (!path.includes('..')) return undefined;
  const basehead = compareBasehead(segments);
  if (basehead === undefined) return 'dot_dot';
  const prefix = path.slice(0, path.length - basehead.length);
  return !prefix.includes('..') && isValidBasehead(basehead) ? undefined : 'dot_dot';
}

/**
 * Ruling (b) and the decoded structural checks of a native-protection branch (SPEC.md rule 10:
 * "encoded slashes are accepted only in these branch parameters after decoded structural
 * checks"). `%2F` is accepted only in that branch, and only when the decoded branch has no
 * empty, `.` or `..` segment; and the decoded branch must hold no control character (C0, DEL
 * or C1: `%0A`, `%0D`, `%1B`, `%7F`, `%C2%85`, …), which no git ref name has.
 */
function checkProtectionBranch(
  segments: readonly string[],
  encodedSlash: boolean,
): PathRule | undefined {
  const shape = matchNativeProtectionShape(segments);
  if (shape?.branch === undefined) return encodedSlash ? 'encoded_slash' : undefined;
  const branchStart = shape.kind === 'branch_rules' ? 5 : 4;
  const decoded = decodeOnce(shape.branch);
  if (encodedSlash) {
    // Owner and repo matched their name patterns and the literals matched literally, so only
    // the branch can hold the escape; the check below is the decoded structure of that branch.
    if (segments.slice(0, branchStart).some((segment) => segment.includes('%'))) {
      return 'encoded_slash';
    }
    const parts = decoded?.split('/');
    if (parts?.every((part) => part !== '' && part !== '.' && part !== '..') !== true) {
      return 'encoded_slash';
    }
  }
  if (decoded === undefined || hasDecodedControlCharacter(decoded)) {
    return 'encoded_control_character';
  }
  return undefined;
}

/** NFKC (what a normalizing intermediary might apply) must not add structure to the path. */
function changesUnderNormalization(decoded: string): boolean {
  if (ASCII_ONLY.test(decoded)) return false;
  const normalized = decoded.normalize('NFKC');
  if (normalized === decoded) return false;
  if (normalized.includes('\\') || PERCENT_ESCAPE.test(normalized)) return true;
  const parts = normalized.slice(1).split('/');
  if (parts.length !== decoded.slice(1).split('/').length) return true;
  return parts.some((part) => part === '' || part === '.' || part === '..');
}

function changesOnJoin(path: string): boolean {
  if (PLAIN_PATH.test(path)) return false;
  const joined = new URL(path, PROBE_BASE);
  return joined.host !== PROBE_HOST || joined.pathname !== path;
}

/**
 * Validates a relay path (SPEC.md "Relay request" rule 2 and issue 3's rulings) before any URL
 * parsing. A valid path starts with exactly one '/', has no empty, '.' or '..' segment, uses only
 * RFC 3986 path characters, has well-formed percent-escapes of valid UTF-8 and no escape that
 * survives one decoding, and cannot leave the API host when joined to it. `%09` and other
 * escapes stay encoded: the path sent upstream is the path given.
 *
 * Rulings where SPEC.md's text conflicts with GitHub: `..` is allowed only as the separator
 * inside the compare route's {basehead}; `%2F` only inside the branch of a native-protection
 * shape, after decoded structural checks, which also refuse a decoded control character in
 * that branch (`encoded_control_character`).
 *
 * @param path - the `path` of a relay request, as sent.
 * @returns `{ ok: true }`, or `{ ok: false, code: 'invalid_path', rule }` naming the first
 *   broken rule of {@link PATH_RULES}. The path itself is never echoed.
 * @example
 * ```ts
 * validatePath('/repos/octocat/hello-world/compare/main...feature'); // { ok: true }
 * validatePath('/repos/octocat/hello-world/contents/%2e%2e/x'); // rule 'encoded_dot'
 * ```
 */
export function validatePath(path: string): PathValidation {
  if (path.length > PATH_MAX_LENGTH) return invalid('too_long');
  if (hasControlCharacter(path)) return invalid('control_character');
  if (path.includes('://')) return invalid('scheme');
  if (path.includes('\\')) return invalid('backslash');
  if (path.includes('?') || path.includes('#')) return invalid('query_or_fragment');
  if (!path.startsWith('/')) return invalid('not_absolute');
  if (path.includes('//')) return invalid('double_slash');
  if (path.length > 1 && path.endsWith('/')) return invalid('empty_segment');
  if (!ALLOWED_CHARACTER.test(path)) return invalid('invalid_character');
  const escapes = checkPercentEscapes(path);
  if (typeof escapes === 'string') return invalid(escapes);
  const decoded = decodeOnce(path);
  if (decoded === undefined) return invalid('invalid_utf8');
  if (PERCENT_ESCAPE.test(decoded)) return invalid('double_encoding');
  const segments = path === '/' ? [] : path.slice(1).split('/');
  const dots = checkDots(path, segments);
  if (dots !== undefined) return invalid(dots);
  if (hidesStructureBehindUrlWhitespace(path)) return invalid('encoded_control_character');
  // Without an escape, the decoded branch is the raw one: already free of control characters.
  const branch = path.includes('%')
    ? checkProtectionBranch(segments, escapes.encodedSlash)
    : undefined;
  if (branch !== undefined) return invalid(branch);
  if (changesUnderNormalization(decoded)) return invalid('unicode_lookalike');
  if (changesOnJoin(path)) return invalid('host_change');
  return VALID;
}
