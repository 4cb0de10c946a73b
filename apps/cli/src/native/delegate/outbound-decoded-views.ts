/**
 * The readings the forge gives a text that relay checks on the best-effort path (SPEC.md client
 * rules 15 and 16): a text gh passes on verbatim can still be decoded on the way. Checking only
 * the bytes relay sees would let an escaped spelling of a forbidden string through, so the
 * argv check and the content-file check also check these decoded views (a match in any view
 * refuses; nothing is rewritten).
 *
 * - Percent-encoding: gh puts `gh api`'s endpoint (path and query) into the request URL as
 *   given, and the forge decodes it (`repos/o/r/issues?labels=%41` reads the label `A`), as the
 *   relay does when it checks a canonical URL.
 * - JSON string escapes: `gh api --input file` sends the file as the request body, and the
 *   forge decodes its JSON (`{"body":"\u0041"}` publishes `A`).
 * - GraphQL string escapes: `gh api graphql -f query=…` (or `-F query=@file`, or a query in
 *   an `--input` JSON body) sends the query as written, and the forge decodes its strings
 *   (`addComment(input: {body: "\u0041"})` publishes `A`).
 * - Base64: the forge decodes base64 content it is given (`gh api -X PUT
 *   repos/o/r/contents/f -f content=QQ==` commits a file holding `A`; git blobs likewise).
 */

import { JSON_SIMPLE_ESCAPES } from './publication-rule-json.js';

const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2})+/g;
const utf8 = new TextDecoder('utf-8');

/** Decodes every run of `%XX` escapes as UTF-8 bytes (bytes that are not UTF-8 become U+FFFD). */
function decodePercentRuns(text: string): string {
  return text.replace(PERCENT_RUN, (run) => {
    const bytes = new Uint8Array(run.length / 3);
    for (let index = 0; index < bytes.length; index++) {
      bytes[index] = Number.parseInt(run.slice(index * 3 + 1, index * 3 + 3), 16);
    }
    return utf8.decode(bytes);
  });
}

/**
 * The percent-decoded readings of `text` that differ from it: the URL path reading (`%XX`
 * decoded) and the query reading (`+` is a space, then `%XX` decoded). Empty when `text` has
 * neither `%` nor `+`.
 *
 * @example
 * ```ts
 * percentDecodedViews('repos/o/r/issues?labels=%41+b'); // ['repos/o/r/issues?labels=A+b', 'repos/o/r/issues?labels=A b']
 * ```
 */
export function percentDecodedViews(text: string): string[] {
  const views = new Set<string>();
  if (text.includes('%')) views.add(decodePercentRuns(text));
  if (text.includes('+')) views.add(decodePercentRuns(text.replaceAll('+', ' ')));
  views.delete(text);
  return [...views];
}

const JSON_STRING_TOKEN = /"(?:[^"\\]|\\.)*"/gs;

/**
 * The JSON string literals of `text` that hold an escape, decoded: every `"…"` token that
 * JSON's grammar accepts (member names and values alike, duplicates included, wherever the
 * token stands), so that `{"body":"\u0041"}` is also checked as `A`. Tokens without a
 * backslash read as they are written (the text itself is checked), and a token JSON does not
 * accept (a raw line break, an unknown escape) is left out. One linear scan.
 *
 * @param text - the text
 * @param unescaped - also every token without an escape (each JSON string, for base64)
 * @example
 * ```ts
 * jsonStringViews('{"body":"\\u0041"}'); // ['A']
 * jsonStringViews('{"body":"A"}'); // []
 * ```
 */
export function jsonStringViews(text: string, unescaped = false): string[] {
  if (!unescaped && !text.includes('\\')) return [];
  const views: string[] = [];
  for (const [token] of text.matchAll(JSON_STRING_TOKEN)) {
    if (!unescaped && !token.includes('\\')) continue;
    try {
      views.push(JSON.parse(token) as string);
    } catch {
      // not a JSON string: the forge would not decode it either
    }
  }
  return views;
}

/** Reads one escape of a GraphQL string at `at` (the backslash); null when it is not one. */
function readGraphqlEscape(text: string, at: number): { value: string; end: number } | null {
  const kind = text.charAt(at + 1);
  const simple = JSON_SIMPLE_ESCAPES[kind]; // GraphQL's set is JSON's
  if (simple !== undefined) return { value: simple, end: at + 2 };
  if (kind !== 'u') return null;
  const braced = /^\{([0-9A-Fa-f]{1,8})\}/.exec(text.slice(at + 2, at + 13));
  const fixed = /^[0-9A-Fa-f]{4}/.exec(text.slice(at + 2, at + 6));
  const hex = braced?.[1] ?? fixed?.[0];
  if (hex === undefined) return null;
  const code = Number.parseInt(hex, 16);
  if (code > 0x10ffff) return null;
  return { value: String.fromCodePoint(code), end: at + 2 + (braced?.[0].length ?? 4) };
}

/**
 * Reads the GraphQL string starting at `start` (its opening quote): its decoded value when it
 * holds an escape, and where it ends (after the closing quote, or at the line end or text end
 * where an unterminated string stops).
 */
function readGraphqlString(text: string, start: number): { value?: string; end: number } {
  let value = '';
  let escaped = false;
  let at = start + 1;
  while (at < text.length) {
    const char = text.charAt(at);
    if (char === '"') return escaped ? { value, end: at + 1 } : { end: at + 1 };
    if (char === '\n' || char === '\r') return { end: at };
    if (char === '\\') {
      const escape = readGraphqlEscape(text, at);
      if (escape === null) return { end: at + 1 };
      value += escape.value;
      escaped = true;
      at = escape.end;
      continue;
    }
    value += char;
    at += 1;
  }
  return { end: at };
}

/**
 * The GraphQL string literals of `text` that hold an escape, decoded: `gh api graphql -f
 * query=…` sends the query as written, and the forge decodes `"\u0041"` (and `"\u{41}"`) in
 * it to `A`. A GraphQL lexer's view of the text: `#` comments run to the line end, block
 * strings (`"""…"""`, whose only escape is `\"""`) are skipped as written (the text itself is
 * checked), a string stops at its closing quote or the line end. Empty when `text` has no
 * backslash. One linear scan.
 *
 * @example
 * ```ts
 * graphqlStringViews('mutation { a(body: "\\u0041") }'); // ['A']
 * ```
 */
export function graphqlStringViews(text: string): string[] {
  if (!text.includes('\\')) return [];
  const views: string[] = [];
  let at = 0;
  while (at < text.length) {
    const char = text.charAt(at);
    if (char === '#') {
      while (at < text.length && text.charAt(at) !== '\n' && text.charAt(at) !== '\r') at += 1;
    } else if (text.startsWith('"""', at)) {
      let end = at + 3;
      for (;;) {
        const close = text.indexOf('"""', end);
        if (close < 0) {
          end = text.length;
          break;
        }
        if (text.charAt(close - 1) === '\\') {
          end = close + 3;
          continue;
        }
        end = close + 3;
        break;
      }
      at = end;
    } else if (char === '"') {
      const read = readGraphqlString(text, at);
      if (read.value !== undefined) views.push(read.value);
      at = read.end;
    } else {
      at += 1;
    }
  }
  return views;
}

/** Base64 in either alphabet, padded or not, possibly wrapped in lines (MIME style). */
const BASE64_TEXT = /^[A-Za-z0-9+/_-]+={0,2}$/;
/** Shorter texts are words more often than base64, and decode to at most 5 bytes. */
const BASE64_MIN_LENGTH = 8;

/**
 * The base64 reading of `text`, when the whole text (line breaks and spaces taken out) is
 * base64 of at least 8 characters: its bytes as UTF-8, each byte that is not UTF-8 read as
 * U+001A (one byte, so that text around binary stays whole and the reading is never longer
 * than the text: a text within the 1 MiB budget has a reading within it). Empty otherwise.
 *
 * @example
 * ```ts
 * base64DecodedViews('U0VDUkVU'); // ['SECRET']
 * ```
 */
export function base64DecodedViews(text: string): string[] {
  const compact = text.replace(/\s+/g, '');
  if (compact.length < BASE64_MIN_LENGTH || compact.length % 4 === 1) return [];
  if (!BASE64_TEXT.test(compact)) return [];
  const bytes = Buffer.from(compact.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return [utf8.decode(bytes).replaceAll('\ufffd', '\u001a')];
}

/**
 * Every reading of a content file relay checks besides the text itself: its escaped JSON
 * strings decoded, its escaped GraphQL strings decoded, and the GraphQL strings of those JSON
 * strings (a query inside an `--input` body is escaped twice); the base64 reading of the text
 * (`-F content=@file`) and of every JSON string (a `content` member of an `--input` body), each
 * reading once.
 */
export function contentFileViews(text: string): string[] {
  const json = jsonStringViews(text);
  return [
    ...new Set([
      ...json,
      ...graphqlStringViews(text),
      ...json.flatMap(graphqlStringViews),
      ...[text, ...jsonStringViews(text, true)].flatMap(base64DecodedViews),
    ]),
  ];
}
