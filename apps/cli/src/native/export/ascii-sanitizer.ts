/**
 * go-gh's ASCII sanitizer, which every API response passes through in gh: C0 controls other
 * than backspace, tab, LF, VT, FF, CR (and C1 controls, U+0080–U+009F) become caret notation
 * (`\u001b` → `^[`, U+0080 → `^@`). Applied to decoded strings.
 */
export function sanitizeAscii(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what it replaces
  return text.replace(/[\u0000-\u0007\u000e-\u001f\u0080-\u009f]/g, (c) => {
    const code = c.charCodeAt(0);
    return `^${String.fromCharCode((code >= 0x80 ? code - 0x80 : code) + 0x40)}`;
  });
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
