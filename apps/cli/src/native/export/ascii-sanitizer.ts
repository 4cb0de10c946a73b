/** Caret notation of a C0 or C1 control's code (`0x1b` → `^[`, `0x85` → `^E`). */
const caretOf = (code: number): string =>
  `^${String.fromCharCode((code >= 0x80 ? code - 0x80 : code) + 0x40)}`;

/**
 * The controls go-gh's JSON mode maps when written as a `\u00XX` escape (hex in either case):
 * C0 but tab, LF, VT, CR; C1.
 */
const JSON_ESCAPED_CONTROL = /^(?:0[0-8cef]|1[0-9a-f]|[89][0-9a-f])$/i;

/**
 * go-gh's ASCII sanitizer, which every API response passes through in gh: C0 controls other
 * than backspace, tab, LF, VT, FF, CR (and C1 controls, U+0080–U+009F) become caret notation
 * (`\u001b` → `^[`, U+0080 → `^@`). Applied to decoded strings.
 *
 * go-gh rewrites the JSON text, where a literal backslash is `\\`: text `\u001b` (a backslash
 * and `u001b`) is `\\u001b` there, whose second backslash starts an escape go-gh replaces
 * (keeping the first one escaped), so gh reads `\^[`. The decoded text shows the same:
 * a backslash followed by `u00` and a mapped control's hex digits keeps the backslash and
 * loses the rest to the caret.
 */
export function sanitizeAscii(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex -- control characters are what it replaces
    /[\u0000-\u0007\u000e-\u001f\u0080-\u009f]|\\u00([0-9a-fA-F]{2})/g,
    (match, hex: string | undefined) => {
      if (hex === undefined) return caretOf(match.charCodeAt(0));
      return JSON_ESCAPED_CONTROL.test(hex) ? `\\${caretOf(Number.parseInt(hex, 16))}` : match;
    },
  );
}

/** {@link sanitizeAscii} on every string of a decoded JSON value (keys excluded). */
export function sanitizeJson(value: unknown): unknown {
  if (typeof value === 'string') return sanitizeAscii(value);
  if (Array.isArray(value)) return value.map((item) => sanitizeJson(item));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = sanitizeJson(item);
    return out;
  }
  return value;
}
