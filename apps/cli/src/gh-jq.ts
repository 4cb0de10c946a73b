/**
 * `gh api --jq` as gh v2.60 prints it (go-gh v2.11.0 pkg/jq, gojq v0.12.15), reproduced over
 * the system jq:
 *
 * - gh decodes the body with Go's `encoding/json` into maps: numbers are float64 and gojq
 *   iterates an object's keys in sorted order. jq keeps the document's order and (1.7) the
 *   literal text of numbers, so jq is given the body re-encoded with every object's keys
 *   sorted (UTF-8 byte order) and numbers in their shortest float64 form
 *   ({@link normalizeJqInput}).
 * - jq runs with `-c` (never `-r`), and each result is printed as gh prints it
 *   ({@link formatGhJqResult}): strings raw, integers in full (`1e21` → 22 digits), other
 *   numbers with two decimals, null as an empty line, booleans; arrays and objects as Go's
 *   `json.Marshal` writes them: keys sorted, `<`, `>`, `&`, U+2028 and U+2029 escaped.
 * - Expressions whose result jq and gojq would not agree on are not run here
 *   ({@link checkJqExpression}); nor is an input whose numbers jq 1.6 stringifies differently,
 *   when the expression stringifies. Any jq failure (gh's message would be gojq's) hands the
 *   command to the native gh as well.
 */

/** A JSON value as `JSON.parse` gives it. */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Functions that do not exist in gojq, read the environment, the clock or other inputs, or
 * whose results differ between jq and gojq (byte offsets, regex replacement, error texts). */
const DENIED_NAMES = new Set([
  'keys_unsorted',
  'input',
  'inputs',
  'debug',
  'stderr',
  'input_filename',
  'input_line_number',
  'env',
  'builtins',
  'halt',
  'halt_error',
  'error',
  'now',
  'localtime',
  'gmtime',
  'mktime',
  'strftime',
  'strptime',
  'strflocaltime',
  'todate',
  'fromdate',
  'date',
  'todateiso8601',
  'fromdateiso8601',
  'dateadd',
  'datesub',
  'index',
  'rindex',
  'indices',
  'sub',
  'gsub',
  'nan',
  'infinite',
  'ascii',
  'isvalid',
  'significand',
  'gamma',
  'lgamma',
  'tgamma',
  'lgamma_r',
  'frexp',
  'modf',
  'ldexp',
  'scalb',
  'scalbln',
  'nearbyint',
  'trunc',
  'drem',
  'logb',
  'pow10',
  'abs',
  'toarray',
  'pick',
  'have_decnum',
  'have_literal_numbers',
  'trim',
  'ltrim',
  'rtrim',
  'getpath',
  'splits',
  'skip',
  'get_search_list',
  'get_jq_origin',
  'get_prog_origin',
  'modulemeta',
  'def',
  'import',
  'include',
  'catch',
  '__loc__',
]);

const DENIED_VARIABLES = new Set(['$ENV', '$__loc__', '$__prog_args']);
const DENIED_FORMATS = new Set(['@uri', '@base32d']);

/** Operations whose result follows an object's key order (gojq: sorted; jq: insertion). */
const ORDER_NAMES = new Set([
  'to_entries',
  'with_entries',
  'map',
  'map_values',
  'add',
  'paths',
  'leaf_paths',
  'tostream',
  'walk',
  'join',
  'recurse',
  'tojson',
  'tostring',
]);

/** Operations that can build an object whose key order jq keeps and gojq sorts. */
const BUILDER_NAMES = new Set([
  'setpath',
  'from_entries',
  'with_entries',
  'add',
  'reduce',
  'foreach',
  'fromjson',
  'walk',
  'fromstream',
]);
const BUILDER_OPERATORS = new Set(['{', '+', '*', '=', '|=', '+=', '-=', '*=', '/=', '%=', '//=']);

/** Operations that print a number as text (jq 1.6: 17 significant digits; gojq: shortest). */
const STRINGIFY_NAMES = new Set(['tostring', 'tojson', 'join']);
const STRINGIFY_FORMATS = new Set([
  '@text',
  '@json',
  '@csv',
  '@tsv',
  '@sh',
  '@html',
  '@base64',
  '@base32',
]);

/** Operations that make a non-integer number from integers. */
const FLOAT_NAMES = new Set([
  'tonumber',
  'sqrt',
  'pow',
  'log',
  'log2',
  'log10',
  'log1p',
  'exp',
  'exp2',
  'exp10',
  'expm1',
  'cbrt',
  'sin',
  'cos',
  'tan',
  'asin',
  'acos',
  'atan',
  'atan2',
  'sinh',
  'cosh',
  'tanh',
  'asinh',
  'acosh',
  'atanh',
  'hypot',
  'fma',
  'fmin',
  'fmax',
  'fmod',
  'fabs',
  'j0',
  'j1',
  'y0',
  'y1',
  'fromjson',
]);

const REGEX_NAMES = new Set(['test', 'match', 'capture', 'scan', 'split']);

interface Token {
  readonly kind: 'name' | 'field' | 'variable' | 'format' | 'number' | 'op' | 'interpolation';
  readonly text: string;
}

/** Splits a jq expression into the tokens the checks need; undefined for an unclosed string. */
function tokenize(expression: string): Token[] | undefined {
  const tokens: Token[] = [];
  // Interpolation depth: each entry counts the open parentheses of one `\(`.
  const interpolations: number[] = [];
  let i = 0;
  const readString = (): boolean => {
    // i is just after an opening quote (or a closing `)` of an interpolation).
    while (i < expression.length) {
      const char = expression[i];
      if (char === '"') {
        i += 1;
        return true;
      }
      if (char === '\\') {
        if (expression[i + 1] === '(') {
          tokens.push({ kind: 'interpolation', text: '\\(' });
          interpolations.push(0);
          i += 2;
          return true;
        }
        i += 2;
        continue;
      }
      i += 1;
    }
    return false;
  };
  while (i < expression.length) {
    const char = expression[i] ?? '';
    const rest = expression.slice(i);
    if (/\s/.test(char)) {
      i += 1;
    } else if (char === '#') {
      const end = expression.indexOf('\n', i);
      i = end < 0 ? expression.length : end + 1;
    } else if (char === '"') {
      i += 1;
      if (!readString()) return undefined;
    } else if (char === '(' && interpolations.length > 0) {
      interpolations[interpolations.length - 1] = (interpolations.at(-1) ?? 0) + 1;
      tokens.push({ kind: 'op', text: '(' });
      i += 1;
    } else if (char === ')' && interpolations.length > 0 && interpolations.at(-1) === 0) {
      interpolations.pop();
      i += 1;
      if (!readString()) return undefined;
    } else if (char === ')' && interpolations.length > 0) {
      interpolations[interpolations.length - 1] = (interpolations.at(-1) ?? 1) - 1;
      tokens.push({ kind: 'op', text: ')' });
      i += 1;
    } else {
      const name = /^\.?[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*/.exec(rest);
      const variable = /^\$[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*/.exec(rest);
      const format = /^@[A-Za-z0-9_]+/.exec(rest);
      const number = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(rest);
      const op = /^(\?\/\/|\/\/=|\/\/|\|=|\+=|-=|\*=|\/=|%=|==|!=|<=|>=|\.\.|\.\[|\S)/.exec(rest);
      if (name !== null) {
        const text = name[0];
        tokens.push(
          text.startsWith('.') ? { kind: 'field', text: text.slice(1) } : { kind: 'name', text },
        );
        i += text.length;
      } else if (variable !== null) {
        tokens.push({ kind: 'variable', text: variable[0] });
        i += variable[0].length;
      } else if (format !== null) {
        tokens.push({ kind: 'format', text: format[0] });
        i += format[0].length;
      } else if (number !== null) {
        tokens.push({ kind: 'number', text: number[0] });
        i += number[0].length;
      } else if (op !== null) {
        tokens.push({ kind: 'op', text: op[0] });
        i += op[0].length;
      } else {
        i += 1;
      }
    }
  }
  return interpolations.length === 0 ? tokens : undefined;
}

/** What {@link checkJqExpression} found. */
export type JqExpressionCheck =
  | {
      readonly ok: true;
      /** The expression prints numbers as text (then an input with risky numbers delegates). */
      readonly stringifies: boolean;
    }
  | { readonly ok: false };

/**
 * Whether the system jq, given {@link normalizeJqInput}'s input, prints what gh's gojq prints
 * for this expression (as far as its tokens tell): no function gojq lacks or runs differently
 * (the environment, dates, regex replacement, byte offsets, error texts, `def`); no iteration
 * or stringification after an object may have been built (jq keeps a built object's key
 * order, gojq sorts it); no stringification of numbers that may be non-integers; no regular
 * expression syntax outside what both Oniguruma and RE2 read alike.
 */
export function checkJqExpression(expression: string): JqExpressionCheck {
  const tokens = tokenize(expression);
  if (tokens === undefined) return { ok: false };
  let built = false;
  let stringifies = false;
  let makesFloats = false;
  let usesModulo = false;
  let usesRegex = false;
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index];
    if (token === undefined) continue;
    const next = tokens[index + 1];
    const { kind, text } = token;
    if (kind === 'name') {
      if (DENIED_NAMES.has(text) || text.includes('::')) return { ok: false };
      // limit(n; f) with a positive literal n: the same in jq and gojq (n ≤ 0 differs).
      if (text === 'limit' && !isPositiveLimit(tokens, index)) return { ok: false };
      if (text === 'as' && (next?.text === '{' || next?.text === '[')) return { ok: false };
      if ((ORDER_NAMES.has(text) || STRINGIFY_NAMES.has(text)) && built) return { ok: false };
      if (STRINGIFY_NAMES.has(text)) stringifies = true;
      if (FLOAT_NAMES.has(text)) makesFloats = true;
      if (REGEX_NAMES.has(text)) usesRegex = true;
      // A global match (scan, split/2): jq 1.6 and gojq step over empty matches differently
      // (`[match("$"; "g")] | length` is 13 in jq 1.6, 1 in gojq, on a 13-character string).
      if (text === 'scan' || (text === 'split' && hasTwoArguments(tokens, index))) {
        return { ok: false };
      }
      if (BUILDER_NAMES.has(text)) built = true;
    } else if (kind === 'variable') {
      if (DENIED_VARIABLES.has(text)) return { ok: false };
    } else if (kind === 'format') {
      if (DENIED_FORMATS.has(text)) return { ok: false };
      if (STRINGIFY_FORMATS.has(text)) {
        if (built) return { ok: false };
        stringifies = true;
      }
    } else if (kind === 'interpolation') {
      if (built) return { ok: false };
      stringifies = true;
    } else if (kind === 'number') {
      const value = Number(text);
      if (!Number.isSafeInteger(value)) {
        if (/^\d+$/.test(text)) return { ok: false };
        makesFloats = true;
      }
    } else if (kind === 'op') {
      if (text === '?//') return { ok: false };
      // `[]` after a term, `.[]` and `..`: iteration in key order.
      const iterates = text === '..' || ((text === '[' || text === '.[') && next?.text === ']');
      if (iterates && built) return { ok: false };
      if (text === '/') makesFloats = true;
      if (text === '%') usesModulo = true;
      if (BUILDER_OPERATORS.has(text)) built = true;
    }
  }
  if (stringifies && makesFloats) return { ok: false };
  if (usesModulo && makesFloats) return { ok: false };
  if (usesRegex && hasEngineSpecificRegex(expression)) return { ok: false };
  return { ok: true, stringifies: stringifies || usesModulo };
}

/** Whether the call at `tokens[index]` has two or more arguments (a `;` at its own depth). */
function hasTwoArguments(tokens: readonly Token[], index: number): boolean {
  if (tokens[index + 1]?.text !== '(') return false;
  let depth = 0;
  for (const token of tokens.slice(index + 1)) {
    if (token.text === '(' || token.text === '[' || token.text === '{') depth += 1;
    else if (token.text === ')' || token.text === ']' || token.text === '}') {
      depth -= 1;
      if (depth === 0) return false;
    } else if (token.text === ';' && depth === 1) return true;
  }
  return false;
}

function isPositiveLimit(tokens: readonly Token[], index: number): boolean {
  const [open, count, separator] = tokens.slice(index + 1, index + 4);
  return (
    open?.text === '(' &&
    count?.kind === 'number' &&
    /^[1-9]\d*$/.test(count.text) &&
    separator?.text === ';'
  );
}

/**
 * Regex syntax Oniguruma (jq) and RE2 (gojq) read differently or only one of them reads:
 * every `(?` group but `(?:` (lookaround, atomic groups, comments, named groups, inline flags,
 * whose sets differ),
 * backreferences and escapes RE2 refuses (`\\u0054`, `\\e`, `\\cX`, `\\N`, `\\O`,
 * `\\o{…}`, `\\V`, `\\h`, `\\K`, `\\R`, `\\X`, …: gh prints gojq's "invalid escape
 * sequence" error), possessive quantifiers, property classes, flags RE2 lacks, and the
 * global flag `g` (the engines step over empty matches differently).
 */
function hasEngineSpecificRegex(expression: string): boolean {
  return (
    /\(\?(?!:)/.test(expression) ||
    /\\\\[1-9kgKGhHRXZAzueEcNOoV]|[*+?}]\+|\\\\p/.test(expression) ||
    /;\s*"[^"]*[gxnpsl][^"]*"/.test(expression)
  );
}

/** Whether a number prints the same under jq 1.6's `%.17g` and gojq's shortest form. */
function isPlainNumber(value: number): boolean {
  return Number.isSafeInteger(value) && !Object.is(value, -0);
}

/** Go's string for a JS string: a lone surrogate (invalid UTF-8 there) is U+FFFD. */
function toWellFormed(text: string): string {
  return text.replace(
    /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    '\uFFFD',
  );
}

/** Compares strings as Go does (UTF-8 bytes, that is code points). */
function compareGo(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** The input jq is given, and whether it has numbers jq 1.6 would stringify differently. */
export interface NormalizedJqInput {
  readonly text: string;
  readonly riskyNumbers: boolean;
}

/**
 * The body as gh's gojq sees it, written for jq: Go's decoding (float64 numbers, the last of
 * duplicate keys, lone surrogates as U+FFFD) and gojq's key order (sorted). Undefined when the
 * body is not JSON (gh's jq step then fails with a Go error).
 */
export function normalizeJqInput(body: string): NormalizedJqInput | undefined {
  let value: Json;
  try {
    value = JSON.parse(body) as Json;
  } catch {
    return undefined;
  }
  let riskyNumbers = false;
  const write = (item: Json): string => {
    if (item === null || typeof item === 'boolean') return String(item);
    if (typeof item === 'number') {
      if (!isPlainNumber(item)) riskyNumbers = true;
      return Object.is(item, -0) ? '-0' : String(item);
    }
    if (typeof item === 'string') return JSON.stringify(toWellFormed(item));
    if (Array.isArray(item)) return `[${item.map(write).join(',')}]`;
    const keys = Object.keys(item).sort(compareGo);
    return `{${keys.map((key) => `${JSON.stringify(toWellFormed(key))}:${write(item[key] ?? null)}`).join(',')}}`;
  };
  const text = write(value);
  return { text, riskyNumbers };
}

/** Go's `json.Marshal` of a string (HTML escaping on). */
function goJsonString(text: string): string {
  let out = '"';
  for (const char of toWellFormed(text)) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (char === '\b') out += '\\b';
    else if (char === '\f') out += '\\f';
    else if (code < 0x20 || char === '<' || char === '>' || char === '&') {
      out += `\\u00${code.toString(16).padStart(2, '0')}`;
    } else if (code === 0x2028 || code === 0x2029) out += `\\u${code.toString(16)}`;
    else out += char;
  }
  return `${out}"`;
}

/** Go's `json.Marshal` of a float64 (finite): shortest digits, exponent below 1e-6 and from 1e21. */
function goJsonNumber(value: number): string {
  return Object.is(value, -0) ? '-0' : String(value);
}

/** Go's `json.Marshal` of a decoded value: object keys sorted, HTML-escaped strings. */
export function goJsonMarshal(value: Json): string {
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return goJsonNumber(value);
  if (typeof value === 'string') return goJsonString(value);
  if (Array.isArray(value)) return `[${value.map(goJsonMarshal).join(',')}]`;
  const keys = Object.keys(value).sort(compareGo);
  return `{${keys.map((key) => `${goJsonString(key)}:${goJsonMarshal(value[key] ?? null)}`).join(',')}}`;
}

/** strconv.FormatFloat(value, 'f', 2, 64): the exact binary value rounded half to even. */
export function formatFloatTwoDecimals(value: number): string {
  const negative = value < 0 || Object.is(value, -0);
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(value));
  const high = view.getUint32(0);
  const low = view.getUint32(4);
  const exponentBits = (high >>> 20) & 0x7ff;
  let mantissa = (BigInt(high & 0xfffff) << 32n) | BigInt(low);
  let exponent: number;
  if (exponentBits === 0) exponent = -1074;
  else {
    mantissa |= 1n << 52n;
    exponent = exponentBits - 1075;
  }
  let numerator = mantissa * 100n;
  let denominator = 1n;
  if (exponent >= 0) numerator <<= BigInt(exponent);
  else denominator <<= BigInt(-exponent);
  let quotient = numerator / denominator;
  const twiceRemainder = (numerator % denominator) * 2n;
  if (twiceRemainder > denominator || (twiceRemainder === denominator && quotient % 2n === 1n)) {
    quotient += 1n;
  }
  const digits = quotient.toString().padStart(3, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/**
 * One `--jq` result as gh prints it (go-gh `jsonScalarToString`, else `json.Marshal`), with
 * its newline. Undefined for a number gojq could not print (an infinity jq clamps).
 */
export function formatGhJqResult(value: Json): string | undefined {
  if (value === null) return '\n';
  if (typeof value === 'string') return `${value}\n`;
  if (typeof value === 'boolean') return `${String(value)}\n`;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || Math.abs(value) === Number.MAX_VALUE) return undefined;
    if (Math.trunc(value) === value) {
      return `${Object.is(value, -0) ? '-0' : BigInt(value).toString()}\n`;
    }
    return `${formatFloatTwoDecimals(value)}\n`;
  }
  const clamped = (item: Json): boolean => {
    if (typeof item === 'number') return Math.abs(item) === Number.MAX_VALUE;
    if (Array.isArray(item)) return item.some(clamped);
    if (typeof item === 'object' && item !== null) return Object.values(item).some(clamped);
    return false;
  };
  return clamped(value) ? undefined : `${goJsonMarshal(value)}\n`;
}

/**
 * gh's printing of jq's `-c` output (one JSON value a line). Undefined when a line is not JSON
 * or a result is one gh would not print.
 */
export function formatJqOutput(output: string): string | undefined {
  // A negative zero is gojq's only for a float result (`-.n * 0`; `-0` and `0 * -1` are ints,
  // printed `0`), a distinction jq's doubles do not keep: gh runs.
  if (/(?:^|[[:,])-0(?:[\],}]|$)/m.test(output)) return undefined;
  let printed = '';
  for (const line of output.split('\n')) {
    if (line === '') continue;
    let value: Json;
    try {
      value = JSON.parse(line) as Json;
    } catch {
      return undefined;
    }
    const text = formatGhJqResult(value);
    if (text === undefined) return undefined;
    printed += text;
  }
  return printed;
}
