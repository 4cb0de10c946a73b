/**
 * The percent-encoding forms of a URL or of a value that will travel in one. One implementation
 * serves both sides of the deployment-wide string protection: the transport sends the canonical
 * form, and the checks read that same form (plus the decoded one), so that a check and the
 * wire cannot disagree about what a value says.
 */

const HEX = '0123456789ABCDEF';

/** RFC 3986 §2.3 unreserved characters: ALPHA, DIGIT, '-', '.', '_', '~'. */
function isUnreservedByte(byte: number): boolean {
  return (
    (byte >= 0x41 && byte <= 0x5a) ||
    (byte >= 0x61 && byte <= 0x7a) ||
    (byte >= 0x30 && byte <= 0x39) ||
    byte === 0x2d ||
    byte === 0x2e ||
    byte === 0x5f ||
    byte === 0x7e
  );
}

/** The value of a hex digit's code unit, or -1. */
function hexValue(unit: number): number {
  if (unit >= 0x30 && unit <= 0x39) return unit - 0x30;
  if (unit >= 0x41 && unit <= 0x46) return unit - 0x37;
  if (unit >= 0x61 && unit <= 0x66) return unit - 0x57;
  return -1;
}

/** The byte of the escape `%XY` at `index`, or -1 when no well-formed escape starts there. */
function escapedByteAt(text: string, index: number): number {
  if (text.charCodeAt(index) !== 0x25) return -1;
  const high = hexValue(text.charCodeAt(index + 1));
  const low = hexValue(text.charCodeAt(index + 2));
  return high < 0 || low < 0 ? -1 : high * 16 + low;
}

/**
 * The RFC 3986 §6.2.2 canonical form of percent-encoding in a URL (or in a path, query or
 * header value): in one left-to-right pass, an escape of an unreserved character (ALPHA,
 * DIGIT, `-`, `.`, `_`, `~`) is decoded (§6.2.2.2), every other escape keeps its byte with
 * uppercase hex digits (§6.2.2.1), and a `%` that starts no well-formed escape is written
 * `%25` (it can only be a literal percent sign). Everything else is left as it is.
 *
 * The pass decodes once: `%2562` stays `%2562` (it is the text `%62`, not `b`). The result is
 * canonical, so a second call returns it unchanged: no escape in the output decodes to an
 * unreserved character and every `%` in it starts an escape.
 *
 * @param text - a URL, path or value, as it is (or will be) written on the wire
 * @returns its canonical form
 * @example
 * ```ts
 * canonicalizePercentEncoding('/repos/acme/%62lue%2dfalcon%2f'); // '/repos/acme/blue-falcon%2F'
 * canonicalizePercentEncoding('%2562%09%zz'); // '%2562%09%25zz'
 * ```
 */
export function canonicalizePercentEncoding(text: string): string {
  if (!text.includes('%')) return text;
  let out = '';
  let last = 0;
  for (let index = text.indexOf('%'); index !== -1; index = text.indexOf('%', index + 1)) {
    out += text.slice(last, index);
    const byte = escapedByteAt(text, index);
    if (byte < 0) {
      out += '%25';
      last = index + 1;
      continue;
    }
    out += isUnreservedByte(byte)
      ? String.fromCharCode(byte)
      : `%${HEX.charAt(byte >> 4)}${HEX.charAt(byte & 0xf)}`;
    last = index + 3;
    index += 2;
  }
  return out + text.slice(last);
}

const UTF8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/**
 * Decodes every well-formed escape of `text` once, reading each run of escapes as UTF-8 (an
 * invalid sequence becomes U+FFFD, as a lenient server would read it). A `%` that starts no
 * well-formed escape stays as it is. Never throws, unlike `decodeURIComponent`.
 *
 * The decoding is single: `%2562` becomes `%62`, never `b`.
 *
 * @param text - a URL, path or value with percent-escapes
 * @returns the text a server decoding it once would read
 * @example
 * ```ts
 * decodePercentEncoding('bluefalc%C3%B3n%2Fx'); // 'bluefalcón/x'
 * ```
 */
export function decodePercentEncoding(text: string): string {
  if (!text.includes('%')) return text;
  let out = '';
  let last = 0;
  let index = text.indexOf('%');
  while (index !== -1) {
    const bytes: number[] = [];
    let end = index;
    for (let byte = escapedByteAt(text, end); byte >= 0; byte = escapedByteAt(text, end)) {
      bytes.push(byte);
      end += 3;
    }
    if (bytes.length === 0) {
      index = text.indexOf('%', index + 1);
      continue;
    }
    out += text.slice(last, index) + UTF8.decode(Uint8Array.from(bytes));
    last = end;
    index = text.indexOf('%', end);
  }
  return out + text.slice(last);
}

/**
 * The forms of a value that the deployment-wide string protection reads: the value as written,
 * its canonical form ({@link canonicalizePercentEncoding}: `%62` read as `b`) and its decoded
 * form ({@link decodePercentEncoding}: `bluefalc%C3%B3n` read as `bluefalcón`), without
 * repeats. A pattern that matches any of them denies the value. Each decoding is single:
 * `%2562` is read as `%2562` and `%62`, never as `b`.
 *
 * @param value - a path, query key or value, header value or outgoing URL
 * @returns one to three distinct strings, the value itself first
 * @example
 * ```ts
 * percentEncodingForms('/repos/acme/%62luefalcon'); // ['/repos/acme/%62luefalcon', '/repos/acme/bluefalcon']
 * ```
 */
export function percentEncodingForms(value: string): readonly string[] {
  if (!value.includes('%')) return [value];
  return [...new Set([value, canonicalizePercentEncoding(value), decodePercentEncoding(value)])];
}
