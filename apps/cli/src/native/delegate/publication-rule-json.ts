/**
 * The recognizer of "active rule JSON in content" (SPEC.md client rule 16): a publication must
 * not carry the policy itself (a pasted rules file, an admin's `string-rewrites status`
 * output), since a pattern such as `falc[o0]n` does not match its own text and would pass the
 * rewrite untouched.
 *
 * Recognized, precisely: a JSON object member whose key is the string `pattern` and whose value
 * is a JSON string equal, after JSON decoding, to the pattern of an active rule — wherever it
 * stands in the text (inside a rules document, a lone rule object, a code block, one line of a
 * log). JSON's grammar is followed exactly: the key and the value may use any JSON string
 * escape (`"p\u0061ttern"`, `"falc\u005bo0]n"`), whitespace around the colon is JSON's
 * (space, tab, line feed, carriage return). Not recognized: a pattern's text without its
 * `"pattern":` key (the rewrite and its final scan judge plain text), a key written in
 * another case, a member of a syntax other than JSON (YAML, TOML).
 *
 * Linear: each `"` starts at most one bounded key read (a JSON spelling of `pattern` is at most
 * 7 × 6 + 2 characters), and only a recognized key starts a value read, bounded by the longest
 * JSON spelling of a 256-byte pattern.
 */

/** The key whose member carries a rule's pattern. */
const PATTERN_KEY = 'pattern';
/** The longest JSON spelling of `"pattern"`: every letter as `\uXXXX`, plus the quotes. */
const MAX_KEY_SPELLING = PATTERN_KEY.length * 6 + 2;
/** The longest JSON spelling of a pattern of 256 UTF-8 bytes (every byte at most 6 chars). */
const MAX_VALUE_SPELLING = 256 * 6 + 2;

/** The single-character escapes of a JSON string (GraphQL strings have the same set). */
export const JSON_SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/**
 * Reads the JSON string literal starting at `start` (a `"`), at most `limit` characters long.
 *
 * @returns the decoded text and the index after the closing quote, or null when the text there
 *   is not a JSON string of at most `limit` characters
 */
export function readJsonString(
  text: string,
  start: number,
  limit: number,
): { value: string; end: number } | null {
  if (text.charCodeAt(start) !== 0x22) return null;
  let value = '';
  const stop = Math.min(text.length, start + limit);
  let index = start + 1;
  while (index < stop) {
    const unit = text.charCodeAt(index);
    if (unit === 0x22) return { value, end: index + 1 };
    if (unit < 0x20) return null;
    if (unit !== 0x5c) {
      value += text.charAt(index);
      index += 1;
      continue;
    }
    const escape = text.charAt(index + 1);
    const simple = JSON_SIMPLE_ESCAPES[escape];
    if (simple !== undefined) {
      value += simple;
      index += 2;
      continue;
    }
    if (escape !== 'u') return null;
    const hex = text.slice(index + 2, index + 6);
    if (!/^[0-9A-Fa-f]{4}$/.test(hex)) return null;
    value += String.fromCharCode(Number.parseInt(hex, 16));
    index += 6;
  }
  return null;
}

function skipJsonWhitespace(text: string, index: number): number {
  let at = index;
  while (at < text.length && ' \t\n\r'.includes(text.charAt(at))) at += 1;
  return at;
}

/**
 * Whether `text` holds a JSON member `"pattern": "<an active pattern>"`.
 *
 * @param text - the content about to be published
 * @param activePatterns - the patterns of the merged policy of this dispatch
 * @example
 * ```ts
 * containsActiveRuleJson('{"pattern": "falc[o0]n", "replacement": "x"}', ['falc[o0]n']); // true
 * containsActiveRuleJson('falc[o0]n', ['falc[o0]n']); // false: no JSON member
 * ```
 */
export function containsActiveRuleJson(text: string, activePatterns: readonly string[]): boolean {
  if (activePatterns.length === 0) return false;
  const active = new Set(activePatterns);
  let from = 0;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return false;
    from = quote + 1;
    const key = readJsonString(text, quote, MAX_KEY_SPELLING);
    if (key?.value !== PATTERN_KEY) continue;
    let at = skipJsonWhitespace(text, key.end);
    if (text.charAt(at) !== ':') continue;
    at = skipJsonWhitespace(text, at + 1);
    const value = readJsonString(text, at, MAX_VALUE_SPELLING);
    if (value !== null && active.has(value.value)) return true;
    from = key.end;
  }
}
