/**
 * pflag's `IntVar` value syntax: Go `strconv.ParseInt(s, 0, 64)` — an optional sign, then
 * decimal, `0x`/`0X` hex, `0o`/`0O` or leading-`0` octal, `0b`/`0B` binary, with `_` only
 * between digits after a base prefix (or a leading 0). `undefined` when gh would print a flag
 * error (also beyond 64 bits).
 *
 * @example
 * ```ts
 * parseGoInt('0x1f'); // 31
 * parseGoInt('010'); // 8
 * parseGoInt('1_0'); // undefined (underscores need a base prefix)
 * ```
 */
export function parseGoInt(text: string): bigint | undefined {
  const match = /^([+-]?)(.*)$/s.exec(text);
  const sign = match?.[1] ?? '';
  const body = match?.[2] ?? '';
  if (body === '') return undefined;
  let digits: string;
  let base: number;
  let prefixed: boolean;
  if (/^0[xX]/.test(body)) [digits, base, prefixed] = [body.slice(2), 16, true];
  else if (/^0[bB]/.test(body)) [digits, base, prefixed] = [body.slice(2), 2, true];
  else if (/^0[oO]/.test(body)) [digits, base, prefixed] = [body.slice(2), 8, true];
  else if (body.length > 1 && body.startsWith('0'))
    [digits, base, prefixed] = [body.slice(1), 8, true];
  else [digits, base, prefixed] = [body, 10, false];
  if (digits.includes('_')) {
    // Go's underscoreOK: only with a base prefix; never doubled, never last, never first
    // after an explicit letter prefix (`0x_1` is fine: `_` may follow the prefix).
    if (!prefixed || /__|_$/.test(digits)) return undefined;
    digits = digits.replace(/_/g, '');
  }
  const alphabet = '0123456789abcdef'.slice(0, base);
  if (
    digits === '' ||
    !Array.from(digits.toLowerCase(), (c) => alphabet.includes(c)).every(Boolean)
  ) {
    return undefined;
  }
  let value = 0n;
  for (const c of Array.from(digits.toLowerCase()))
    value = value * BigInt(base) + BigInt(alphabet.indexOf(c));
  if (sign === '-') value = -value;
  if (value > 0x7fffffffffffffffn || value < -0x8000000000000000n) return undefined;
  return value;
}

/** What a `--limit` asks for (SPEC.md client rule 12). */
export type LimitOption =
  | { readonly ok: true; readonly limit: number }
  /** Not Go integer syntax, or below 1: gh's flag error (run gh). */
  | { readonly ok: false; readonly reason: 'invalid_usage' }
  /** Above 100: a read longer than one page (run gh). */
  | { readonly ok: false; readonly reason: 'unsupported_flag' };

/**
 * A list command's `-L/--limit` (last occurrence wins): Go integer syntax, at least 1, at
 * most 100 served (SPEC.md client rule 12); `fallback` when absent.
 */
export function parseLimitOption(
  values: readonly string[] | undefined,
  fallback: number,
): LimitOption {
  const raw = values?.at(-1);
  if (raw === undefined) return { ok: true, limit: fallback };
  const value = parseGoInt(raw);
  if (value === undefined || value < 1n) return { ok: false, reason: 'invalid_usage' };
  if (value > 100n) return { ok: false, reason: 'unsupported_flag' };
  return { ok: true, limit: Number(value) };
}
