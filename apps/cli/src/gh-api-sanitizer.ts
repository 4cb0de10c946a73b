/**
 * go-gh v2.11's ASCII sanitizer in its JSON mode (pkg/asciisanitizer, installed by
 * pkg/api's `sanitizerRoundTripper`), which every response whose Content-Type matches
 * `[/+]json($|;)` passes through in gh v2.60 before `gh api` prints, parses or filters it:
 *
 * - a raw C0 or C1 control character other than tab, LF, VT and CR becomes its caret notation
 *   (ESC → `^[`, U+0080 → `^@`, U+001C → `^\\`);
 * - a six-byte escape `\u00XX` (hex digits in any case, a lowercase `u`) naming one of those
 *   characters becomes the same caret text, with a backslash first when the escape followed an
 *   odd run of backslashes (`\\u001b` → `\\\^[`), so that the JSON stays valid;
 * - a body that is not valid UTF-8 is an error: gh prints `invalid UTF-8 string` instead.
 *
 * Written from the Go source's behaviour, over the whole body at once (the Go transformer
 * keeps a six-byte look-ahead, so chunking does not change its output).
 */

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The caret text of a control character gh replaces, or undefined for any other one. */
function caretOf(code: number): string | undefined {
  const isC0 = code <= 0x1f && code !== 0x09 && code !== 0x0a && code !== 0x0b && code !== 0x0d;
  const isC1 = code >= 0x80 && code <= 0x9f;
  if (!isC0 && !isC1) return undefined;
  const base = isC1 ? code - 0x80 : code;
  // go-gh writes U+001C (and U+009C) as the three bytes ^\\ (a Go raw string `^\\`).
  return base === 0x1c ? '^\\\\' : `^${String.fromCharCode(base + 0x40)}`;
}

const JSON_ESCAPE = /^\\u00([0-9A-Fa-f]{2})$/;

/**
 * The body gh v2.60 reads from a JSON response, or undefined when go-gh's sanitizer fails on
 * it (not valid UTF-8: gh then ends with an error of its own, and the native CLI must run).
 *
 * @param body - the response body's bytes as the forge sent them
 */
export function sanitizeGhJsonBody(body: Uint8Array): Buffer | undefined {
  let text: string;
  try {
    text = strictUtf8.decode(body);
  } catch {
    return undefined;
  }
  let out = '';
  let addEscape = false;
  for (let index = 0; index < text.length;) {
    const code = text.codePointAt(index) ?? 0;
    const width = code > 0xffff ? 2 : 1;
    const caret = caretOf(code);
    if (caret !== undefined) {
      out += caret;
      index += width;
      continue;
    }
    const escape = JSON_ESCAPE.exec(text.slice(index, index + 6));
    const escaped = escape === null ? undefined : caretOf(Number.parseInt(escape[1] ?? '', 16));
    if (escaped !== undefined) {
      out += addEscape ? `\\${escaped}` : escaped;
      addEscape = false;
      index += 6;
      continue;
    }
    out += String.fromCodePoint(code);
    addEscape = code === 0x5c ? !addEscape : false;
    index += width;
  }
  return Buffer.from(out, 'utf8');
}
