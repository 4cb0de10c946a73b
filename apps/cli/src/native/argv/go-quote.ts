/** Go's own escapes in `strconv.Quote` for the ASCII control characters that have one. */
const NAMED_ESCAPES: Readonly<Record<string, string>> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '"': '\\"',
  '\\': '\\\\',
};

/**
 * Go's `%q` of a string (`strconv.Quote`) for ASCII text: printable characters as they are,
 * `\"` and `\\`, the named escapes (`\n`, `\t`, …), other control characters as `\xNN`.
 * `undefined` for text with any non-ASCII character: Go decides which of those are printable
 * from its own Unicode tables (and prints invalid UTF-8 byte by byte, which argv decoding has
 * already lost), so a message quoting such text is left to gh.
 *
 * @example
 * ```ts
 * quoteGo('a"b\n'); // '"a\\"b\\n"'
 * quoteGo('é'); // undefined
 * ```
 */
export function quoteGo(text: string): string | undefined {
  let out = '"';
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (code > 0x7f) return undefined;
    const named = NAMED_ESCAPES[char];
    if (named !== undefined) out += named;
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += char;
  }
  return `${out}"`;
}

/**
 * Go's `%q` of a string slice: `["a" "b"]`; `undefined` when an element has non-ASCII text
 * ({@link quoteGo}).
 */
export function quoteGoList(items: readonly string[]): string | undefined {
  const quoted: string[] = [];
  for (const item of items) {
    const one = quoteGo(item);
    if (one === undefined) return undefined;
    quoted.push(one);
  }
  return `[${quoted.join(' ')}]`;
}
