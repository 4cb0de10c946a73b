/** Why Go's `strconv.ParseInt(s, 0, 64)` refuses a text (its `NumError.Err`). */
export type GoIntError = 'syntax' | 'range';

/** The outcome of {@link parseGoIntValue}. */
export type GoIntResult =
  | { readonly ok: true; readonly value: bigint }
  | { readonly ok: false; readonly error: GoIntError };

const MAX_UINT64 = (1n << 64n) - 1n;
const INT64_CUTOFF = 1n << 63n;

/** Go's `underscoreOK`: `_` only between digits (a base prefix counts as a digit). */
function underscoresAllowed(body: string): boolean {
  let saw: '^' | '0' | '_' | '!' = '^';
  let index = 0;
  let hex = false;
  if (body.length >= 2 && body.startsWith('0') && /^[bBoOxX]$/.test(body[1] ?? '')) {
    index = 2;
    saw = '0';
    hex = /^[xX]$/.test(body[1] ?? '');
  }
  for (; index < body.length; index += 1) {
    const char = body[index] ?? '';
    if (/^[0-9]$/.test(char) || (hex && /^[a-fA-F]$/.test(char))) {
      saw = '0';
    } else if (char === '_') {
      if (saw !== '0') return false;
      saw = '_';
    } else {
      if (saw === '_') return false;
      saw = '!';
    }
  }
  return saw !== '_';
}

/**
 * pflag's `Uint64Var` value syntax, Go's `strconv.ParseUint(body, 0, 64)`, in Go's order (an
 * overflow is found before a bad digit later on): no sign (`+1` and `-1` are syntax errors),
 * the bases and `_` of {@link parseGoIntValue}; `range` beyond 2^64−1.
 *
 * @example
 * ```ts
 * parseGoUintValue('0x10'); // { ok: true, value: 16n }
 * parseGoUintValue('-1'); // { ok: false, error: 'syntax' }
 * ```
 */
export function parseGoUintValue(body: string): GoIntResult {
  if (body === '') return { ok: false, error: 'syntax' };
  let base = 10n;
  let digits = body;
  if (body.startsWith('0')) {
    const letter = body.length >= 3 ? (body[1] ?? '').toLowerCase() : '';
    if (letter === 'b') [base, digits] = [2n, body.slice(2)];
    else if (letter === 'o') [base, digits] = [8n, body.slice(2)];
    else if (letter === 'x') [base, digits] = [16n, body.slice(2)];
    else [base, digits] = [8n, body.slice(1)];
  }
  const cutoff = MAX_UINT64 / base + 1n;
  let underscores = false;
  let value = 0n;
  for (const char of digits) {
    if (char === '_') {
      underscores = true;
      continue;
    }
    const lower = char.toLowerCase();
    let digit: bigint;
    if (/^[0-9]$/.test(char)) digit = BigInt(char);
    else if (/^[a-z]$/.test(lower) && char.length === 1 && char.charCodeAt(0) < 0x80) {
      digit = BigInt(lower.charCodeAt(0) - 0x61 + 10);
    } else return { ok: false, error: 'syntax' };
    if (digit >= base) return { ok: false, error: 'syntax' };
    if (value >= cutoff) return { ok: false, error: 'range' };
    value = value * base + digit;
    if (value > MAX_UINT64) return { ok: false, error: 'range' };
  }
  if (underscores && !underscoresAllowed(body)) return { ok: false, error: 'syntax' };
  return { ok: true, value };
}

/**
 * pflag's `IntVar` value syntax, as Go's `strconv.ParseInt(s, 0, 64)` reads it: an optional
 * sign, then decimal, `0x`/`0X` hex, `0o`/`0O` or leading-`0` octal, `0b`/`0B` binary, `_`
 * between digits (Go literal syntax); `range` beyond 64 bits.
 *
 * @example
 * ```ts
 * parseGoIntValue('0x1f'); // { ok: true, value: 31n }
 * parseGoIntValue('1_000'); // { ok: true, value: 1000n }
 * parseGoIntValue('1__0'); // { ok: false, error: 'syntax' }
 * ```
 */
export function parseGoIntValue(text: string): GoIntResult {
  if (text === '') return { ok: false, error: 'syntax' };
  const negative = text.startsWith('-');
  const body = text.startsWith('-') || text.startsWith('+') ? text.slice(1) : text;
  const unsigned = parseGoUintValue(body);
  if (!unsigned.ok) return unsigned;
  if (!negative && unsigned.value >= INT64_CUTOFF) return { ok: false, error: 'range' };
  if (negative && unsigned.value > INT64_CUTOFF) return { ok: false, error: 'range' };
  return { ok: true, value: negative ? -unsigned.value : unsigned.value };
}

/**
 * {@link parseGoIntValue} as a value: `undefined` when gh would print a flag error.
 *
 * @example
 * ```ts
 * parseGoInt('0x1f'); // 31n
 * parseGoInt('010'); // 8n
 * parseGoInt('1_'); // undefined
 * ```
 */
export function parseGoInt(text: string): bigint | undefined {
  const parsed = parseGoIntValue(text);
  return parsed.ok ? parsed.value : undefined;
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
