/**
 * Go's `encoding/json` output, byte for byte, for the values gh's exporters build: the only
 * JSON writer of `native/export`.
 */

/** A JSON value as gh's exporters build it; object key order is the order written. */
export type GoJsonValue =
  | null
  | boolean
  | number
  | string
  | GoStruct
  | readonly GoJsonValue[]
  | { readonly [key: string]: GoJsonValue };

/**
 * A Go struct inside exported data (`IssueLabel`, `Milestone`, `Owner`): `encoding/json`
 * writes its fields in declaration order, so its keys are never sorted (only maps are).
 */
export class GoStruct {
  /** @param fields - the struct's JSON fields in declaration order */
  constructor(readonly fields: Readonly<Record<string, GoJsonValue>>) {}
}

/** How {@link encodeGoJson} writes. */
export interface GoJsonOptions {
  /** Escape `<`, `>`, `&` as `\u003c` … (json.Marshal; gh's exporter turns it off). */
  readonly escapeHtml: boolean;
  /** Sort object keys (Go maps); otherwise the given key order (Go structs). */
  readonly sortKeys: boolean;
}

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
};

/** A Go-encoded JSON string: JSON.stringify's escapes plus U+2028/U+2029 (and HTML). */
function encodeString(text: string, escapeHtml: boolean): string {
  let out = JSON.stringify(text).replace(/[\u2028\u2029]/g, (c) =>
    c === '\u2028' ? '\\u2028' : '\\u2029',
  );
  if (escapeHtml) out = out.replace(/[<>&]/g, (c) => HTML_ESCAPES[c] ?? c);
  return out;
}

/** A number as Go's `float64` encoder writes it (`1e+21` from 1e21 on, like ES for integers). */
function encodeNumber(value: number): string {
  if (!Number.isFinite(value)) throw new TypeError('JSON cannot encode a non-finite number');
  const abs = Math.abs(value);
  if (abs !== 0 && (abs < 1e-6 || abs >= 1e21)) {
    // Go: exponent form with at least two exponent digits (`1e-07`, `1e+21`).
    return value.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  }
  return String(value);
}

/**
 * Encodes a value compactly as Go's `encoding/json` does (no trailing newline).
 *
 * @example
 * ```ts
 * encodeGoJson({ b: '<x>', a: 1 }, { escapeHtml: false, sortKeys: true }); // '{"a":1,"b":"<x>"}'
 * ```
 */
export function encodeGoJson(value: GoJsonValue, options: GoJsonOptions): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return encodeNumber(value);
  if (typeof value === 'string') return encodeString(value, options.escapeHtml);
  if (value instanceof GoStruct) {
    const members = Object.entries(value.fields).map(
      ([key, item]) => `${encodeString(key, options.escapeHtml)}:${encodeGoJson(item, options)}`,
    );
    return `{${members.join(',')}}`;
  }
  if (Array.isArray(value)) {
    return `[${(value as readonly GoJsonValue[]).map((item) => encodeGoJson(item, options)).join(',')}]`;
  }
  const record = value as Readonly<Record<string, GoJsonValue>>;
  const keys = Object.keys(record);
  if (options.sortKeys) keys.sort(compareBytes);
  const members = keys.map(
    (key) =>
      `${encodeString(key, options.escapeHtml)}:${encodeGoJson(record[key] ?? null, options)}`,
  );
  return `{${members.join(',')}}`;
}

/** Go's `sort.Strings` order: UTF-8 byte order (code-point order for these keys). */
export function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * Go's `strings.ToLower`: `unicode.ToLower` one code point at a time, the simple (one to one)
 * mapping. JavaScript's `toLowerCase` differs in two ways: over a whole string it applies the
 * final-sigma rule, and one code point lowers to two (U+0130 `İ` → `i` + U+0307), where Go's
 * simple mapping gives `i`.
 */
export function goToLower(text: string): string {
  return Array.from(text, (c) => (c === '\u0130' ? 'i' : c.toLowerCase())).join('');
}
