import { REWRITE_PATTERN_MAX_BYTES, REWRITE_REPEAT_MAX, err, ok } from '@relay/protocol';
import type { Result } from '@relay/protocol';
import { MAX_CODE_POINT } from './pattern-ast.js';
import type { CodePointRange, PatternNode } from './pattern-ast.js';
import type { PatternError, PatternErrorCode } from './pattern-error.js';
import { matchesEmptyInput } from './pattern-analysis.js';
import { exceedsUtf8Bytes, findLoneSurrogate } from './text-encoding.js';

/** A pattern of the rule language, parsed and validated. */
export interface ParsedPattern {
  /** The pattern text, exactly as given. */
  readonly source: string;
  /** Its syntax tree. */
  readonly root: PatternNode;
}

const DIGIT: readonly CodePointRange[] = [[0x30, 0x39]];
const WORD: readonly CodePointRange[] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
const SPACE: readonly CodePointRange[] = [
  [0x09, 0x0a],
  [0x0c, 0x0d],
  [0x20, 0x20],
];
const NOT_NEWLINE: readonly CodePointRange[] = [
  [0, 0x09],
  [0x0b, MAX_CODE_POINT],
];

/** Single-letter escapes that stand for one character. */
const CHARACTER_ESCAPES: Readonly<Record<string, number>> = {
  n: 0x0a,
  r: 0x0d,
  t: 0x09,
  f: 0x0c,
  a: 0x07,
  v: 0x0b,
};

/** Escapes that are rejected, with the construct they name. */
const REJECTED_ESCAPES: Readonly<Record<string, PatternErrorCode>> = {
  p: 'unicode_class',
  P: 'unicode_class',
  C: 'any_byte_escape',
  x: 'hex_escape',
  u: 'unicode_escape',
  U: 'unicode_escape',
  Q: 'quoted_literal',
  E: 'quoted_literal',
  A: 'text_anchor_escape',
  z: 'text_anchor_escape',
  Z: 'text_anchor_escape',
  G: 'text_anchor_escape',
  k: 'backreference',
  g: 'backreference',
};

class PatternSyntaxError extends Error {
  constructor(
    readonly code: PatternErrorCode,
    readonly offset: number,
  ) {
    super(code);
  }
}

/** Complement of sorted, merged ranges over all code points. */
export function negateRanges(ranges: readonly CodePointRange[]): CodePointRange[] {
  const out: CodePointRange[] = [];
  let next = 0;
  for (const [low, high] of ranges) {
    if (low > next) out.push([next, low - 1]);
    next = high + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

/** Sorts and merges overlapping or adjacent ranges. */
export function normalizeRanges(ranges: readonly CodePointRange[]): CodePointRange[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [low, high] of sorted) {
    const last = out.at(-1);
    if (last !== undefined && low <= last[1] + 1) {
      last[1] = Math.max(last[1], high);
    } else {
      out.push([low, high]);
    }
  }
  return out;
}

function isAsciiPunctuation(cp: number): boolean {
  return (
    (cp >= 0x21 && cp <= 0x2f) ||
    (cp >= 0x3a && cp <= 0x40) ||
    (cp >= 0x5b && cp <= 0x60) ||
    (cp >= 0x7b && cp <= 0x7e)
  );
}

function isDigit(cp: number | undefined): boolean {
  return cp !== undefined && cp >= 0x30 && cp <= 0x39;
}

/** The recursive-descent parser over one pattern; positions are UTF-16 indexes. */
class Parser {
  private pos = 0;

  constructor(private readonly src: string) {}

  parse(): PatternNode {
    const node = this.parseAlternation();
    if (this.pos < this.src.length) {
      // Only an unmatched ')' stops the top-level alternation early.
      throw new PatternSyntaxError('unmatched_paren', this.pos);
    }
    return node;
  }

  private peek(ahead = 0): number | undefined {
    let index = this.pos;
    for (let i = 0; i < ahead; i++) {
      const cp = this.src.codePointAt(index);
      if (cp === undefined) return undefined;
      index += cp > 0xffff ? 2 : 1;
    }
    return this.src.codePointAt(index);
  }

  private next(): number {
    const cp = this.src.codePointAt(this.pos);
    if (cp === undefined) throw new PatternSyntaxError('trailing_backslash', this.pos);
    this.pos += cp > 0xffff ? 2 : 1;
    return cp;
  }

  private parseAlternation(): PatternNode {
    const branches = [this.parseConcat()];
    while (this.peek() === 0x7c /* | */) {
      this.pos++;
      branches.push(this.parseConcat());
    }
    const [only] = branches;
    return branches.length === 1 && only !== undefined
      ? only
      : { type: 'alternate', children: branches };
  }

  private parseConcat(): PatternNode {
    const items: PatternNode[] = [];
    for (;;) {
      const cp = this.peek();
      if (cp === undefined || cp === 0x7c || cp === 0x29 /* ) */) break;
      const start = this.pos;
      if (this.isQuantifierStart()) throw new PatternSyntaxError('missing_repeat_argument', start);
      const atom = this.parseAtom();
      items.push(this.parseQuantifiers(atom));
    }
    if (items.length === 0) return { type: 'empty' };
    const [only] = items;
    return items.length === 1 && only !== undefined ? only : { type: 'concat', children: items };
  }

  /** Whether a quantifier starts here: `*`, `+`, `?` or a well-formed `{n}`, `{n,}`, `{n,m}`. */
  private isQuantifierStart(): boolean {
    const cp = this.peek();
    if (cp === 0x2a || cp === 0x2b || cp === 0x3f) return true;
    return cp === 0x7b && this.braceRepeatLength() > 0;
  }

  /** Length of a well-formed brace repetition at the current position, or 0. */
  private braceRepeatLength(): number {
    const match = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.pos, this.pos + 32));
    return match === null ? 0 : match[0].length;
  }

  private parseQuantifiers(atom: PatternNode): PatternNode {
    if (!this.isQuantifierStart()) return atom;
    const quantifierStart = this.pos;
    if (isZeroWidthOnly(atom)) {
      throw new PatternSyntaxError('missing_repeat_argument', quantifierStart);
    }
    let min: number;
    let max: number | null;
    const cp = this.next();
    if (cp === 0x2a) {
      [min, max] = [0, null];
    } else if (cp === 0x2b) {
      [min, max] = [1, null];
    } else if (cp === 0x3f) {
      [min, max] = [0, 1];
    } else {
      this.pos = quantifierStart;
      const length = this.braceRepeatLength();
      const body = this.src.slice(this.pos + 1, this.pos + length - 1);
      this.pos += length;
      const [low = '', high] = body.split(',');
      min = low.length > 9 ? Infinity : Number(low);
      max =
        high === undefined ? min : high === '' ? null : high.length > 9 ? Infinity : Number(high);
      if (min > REWRITE_REPEAT_MAX || (max !== null && max > REWRITE_REPEAT_MAX)) {
        throw new PatternSyntaxError('repeat_count_too_large', quantifierStart);
      }
      if (max !== null && max < min)
        throw new PatternSyntaxError('invalid_repeat', quantifierStart);
    }
    let greedy = true;
    if (this.peek() === 0x3f) {
      this.pos++;
      greedy = false;
    }
    if (this.isQuantifierStart()) throw new PatternSyntaxError('repeated_quantifier', this.pos);
    const count = max ?? min;
    if (count > 1 && count * repeatProduct(atom) > REWRITE_REPEAT_MAX) {
      throw new PatternSyntaxError('repeat_count_too_large', quantifierStart);
    }
    return { type: 'repeat', min, max, greedy, child: atom };
  }

  private parseAtom(): PatternNode {
    const start = this.pos;
    const cp = this.next();
    switch (cp) {
      case 0x28: // (
        return this.parseGroup(start);
      case 0x5b: // [
        return this.parseClass(start);
      case 0x2e: // .
        return { type: 'class', ranges: NOT_NEWLINE };
      case 0x5e: // ^
        return { type: 'assertion', kind: 'begin_text' };
      case 0x24: // $
        return { type: 'assertion', kind: 'end_text' };
      case 0x5c: // \
        return this.parseEscape(start, false);
      case 0x5d: // ]
      case 0x7b: // {
      case 0x7d: // }
        throw new PatternSyntaxError('unescaped_bracket', start);
      default:
        return { type: 'literal', codePoint: cp };
    }
  }

  private parseGroup(start: number): PatternNode {
    let capture = true;
    if (this.peek() === 0x3f /* ? */) {
      this.pos++;
      this.rejectGroupExtension(start);
      this.pos++; // the ':' of (?:
      capture = false;
    }
    const child = this.parseAlternation();
    if (this.peek() !== 0x29) throw new PatternSyntaxError('missing_paren', start);
    this.pos++;
    return { type: 'group', capture, child };
  }

  /** After `(?`: accepts only `:`, and names every other extension. */
  private rejectGroupExtension(start: number): void {
    const c = this.peek();
    if (c === 0x3a) return; // :
    if (c === undefined) throw new PatternSyntaxError('missing_paren', start);
    const ch = String.fromCodePoint(c);
    const following = this.peek(1);
    if (ch === '=' || ch === '!') throw new PatternSyntaxError('lookaround', start);
    if (ch === '<') {
      const code = following === 0x3d || following === 0x21 ? 'lookaround' : 'named_capture';
      throw new PatternSyntaxError(code, start);
    }
    if (ch === "'") throw new PatternSyntaxError('named_capture', start);
    if (ch === 'P') {
      if (following === 0x3c) throw new PatternSyntaxError('named_capture', start);
      if (following === 0x3d) throw new PatternSyntaxError('backreference', start);
      throw new PatternSyntaxError('unsupported_group', start);
    }
    if (/^[a-zA-Z^-]$/.test(ch)) throw new PatternSyntaxError('inline_flags', start);
    throw new PatternSyntaxError('unsupported_group', start);
  }

  /** Parses the escape after a backslash at `start`; `inClass` forbids assertions. */
  private parseEscape(start: number, inClass: boolean): PatternNode {
    const cp = this.peek();
    if (cp === undefined) throw new PatternSyntaxError('trailing_backslash', start);
    this.next();
    const ch = String.fromCodePoint(cp);
    switch (ch) {
      case 'd':
        return { type: 'class', ranges: DIGIT };
      case 'D':
        return { type: 'class', ranges: negateRanges(DIGIT) };
      case 'w':
        return { type: 'class', ranges: WORD };
      case 'W':
        return { type: 'class', ranges: negateRanges(WORD) };
      case 's':
        return { type: 'class', ranges: SPACE };
      case 'S':
        return { type: 'class', ranges: negateRanges(SPACE) };
      case 'b':
      case 'B':
        if (inClass) throw new PatternSyntaxError('unknown_escape', start);
        return { type: 'assertion', kind: ch === 'b' ? 'word_boundary' : 'not_word_boundary' };
      default:
        break;
    }
    const character = CHARACTER_ESCAPES[ch];
    if (character !== undefined) return { type: 'literal', codePoint: character };
    if (isAsciiPunctuation(cp)) return { type: 'literal', codePoint: cp };
    const rejected = REJECTED_ESCAPES[ch];
    if (rejected !== undefined) throw new PatternSyntaxError(rejected, start);
    if (isDigit(cp)) {
      const octal =
        ch === '0' || (cp <= 0x37 && (this.peek() ?? 0) >= 0x30 && (this.peek() ?? 0) <= 0x37);
      throw new PatternSyntaxError(octal ? 'octal_escape' : 'backreference', start);
    }
    throw new PatternSyntaxError('unknown_escape', start);
  }

  private parseClass(start: number): PatternNode {
    let negated = false;
    if (this.peek() === 0x5e) {
      this.pos++;
      negated = true;
    }
    if (this.peek() === 0x5d) throw new PatternSyntaxError('empty_class', start);
    const ranges: CodePointRange[] = [];
    let first = true;
    for (;;) {
      const itemStart = this.pos;
      const cp = this.peek();
      if (cp === undefined) throw new PatternSyntaxError('missing_bracket', start);
      if (cp === 0x5d) {
        this.pos++;
        break;
      }
      const low = this.parseClassAtom(first);
      first = false;
      if (this.peek() === 0x2d /* - */ && this.peek(1) !== 0x5d && this.peek(1) !== undefined) {
        const dash = this.pos;
        this.pos++;
        if (typeof low !== 'number') throw new PatternSyntaxError('invalid_range', dash);
        const high = this.parseClassAtom(false);
        if (typeof high !== 'number' || high < low) {
          throw new PatternSyntaxError('invalid_range', itemStart);
        }
        ranges.push([low, high]);
        if (this.peek() === 0x2d && this.peek(1) !== 0x5d) {
          throw new PatternSyntaxError('invalid_range', this.pos);
        }
        continue;
      }
      if (typeof low === 'number') ranges.push([low, low]);
      else ranges.push(...low);
    }
    const merged = normalizeRanges(ranges);
    return { type: 'class', ranges: negated ? negateRanges(merged) : merged };
  }

  /** One class member: a code point, or the ranges of a class escape. */
  private parseClassAtom(first: boolean): number | readonly CodePointRange[] {
    const start = this.pos;
    const cp = this.next();
    if (cp === 0x5b /* [ */) {
      const following = this.peek();
      const posix = following === 0x3a || following === 0x2e || following === 0x3d;
      throw new PatternSyntaxError(posix ? 'posix_class' : 'unescaped_bracket', start);
    }
    if (cp === 0x2d /* - */ && !first && this.peek() !== 0x5d) {
      throw new PatternSyntaxError('invalid_range', start);
    }
    if (cp !== 0x5c) return cp;
    const node = this.parseEscape(start, true);
    if (node.type === 'literal') return node.codePoint;
    if (node.type === 'class') return node.ranges;
    throw new PatternSyntaxError('unknown_escape', start);
  }
}

/**
 * Whether a node can only ever match the empty string: an assertion (`^`, `$`, `\b`, `\B`), an
 * empty group or alternative, `x{0}`, or groups, sequences and alternations of these. A
 * quantifier on such a node (`\b*`, `(?:\b)+`, `(^)*`, `(?:$|\B)?`) repeats nothing, and RE2
 * and JS `RegExp` disagree about some of them, so the rule language rejects it.
 */
function isZeroWidthOnly(node: PatternNode): boolean {
  switch (node.type) {
    case 'assertion':
    case 'empty':
      return true;
    case 'literal':
    case 'class':
      return false;
    case 'group':
      return isZeroWidthOnly(node.child);
    case 'repeat':
      return node.max === 0 || isZeroWidthOnly(node.child);
    case 'concat':
    case 'alternate':
      return node.children.every(isZeroWidthOnly);
  }
}

/** The index of the first raw C0 control character (U+0000–U+001F) or DEL, or -1. */
function findControlCharacter(source: string): number {
  for (let index = 0; index < source.length; index++) {
    const unit = source.charCodeAt(index);
    if (unit < 0x20 || unit === 0x7f) return index;
  }
  return -1;
}

/**
 * The largest product of nested counted repetitions in a node, as RE2 bounds it: `{n,m}` counts
 * m (n when unbounded); `*`, `+` and `?` count 1.
 */
function repeatProduct(node: PatternNode): number {
  switch (node.type) {
    case 'repeat': {
      const count = node.max ?? node.min;
      return Math.max(1, count) * repeatProduct(node.child);
    }
    case 'group':
      return repeatProduct(node.child);
    case 'concat':
    case 'alternate':
      return Math.max(1, ...node.children.map(repeatProduct));
    case 'empty':
    case 'literal':
    case 'class':
    case 'assertion':
      return 1;
  }
}

/**
 * Parses and validates one pattern of the rule language (SPEC.md "Policy rules"): a portable
 * RE2 subset, case-sensitive and leftmost-first, that never matches the empty input. Raw
 * control characters (U+0000–U+001F, U+007F) are rejected (`control_character`): they are
 * written as the escapes `\n`, `\r`, `\t`, `\f`, `\a`, `\v`. A quantifier on an operand that
 * can only match empty (`\b*`, `(?:^)+`) is `missing_repeat_argument`; an escaped space (`\ `)
 * is `unknown_escape` (a space is not punctuation).
 *
 * @param source - The pattern, with any JSON escaping already decoded.
 * @returns The syntax tree, or a {@link PatternError} naming the rejected construct and its
 *   UTF-16 offset. The error never contains pattern text.
 * @example
 * ```ts
 * const parsed = parsePattern('acme-[a-z]+-internal');
 * if (!parsed.ok) console.error(parsed.error.code, parsed.error.offset);
 * ```
 */
export function parsePattern(source: string): Result<ParsedPattern, PatternError> {
  if (exceedsUtf8Bytes(source, REWRITE_PATTERN_MAX_BYTES)) {
    return err({ code: 'pattern_too_large', offset: 0 });
  }
  const lone = findLoneSurrogate(source);
  if (lone >= 0) return err({ code: 'invalid_unicode', offset: lone });
  // Control characters are written as the escapes \n \r \t \f \a \v, never raw.
  const control = findControlCharacter(source);
  if (control >= 0) return err({ code: 'control_character', offset: control });
  let root: PatternNode;
  try {
    root = new Parser(source).parse();
  } catch (error) {
    if (error instanceof PatternSyntaxError) {
      return err({ code: error.code, offset: error.offset });
    }
    throw error;
  }
  if (matchesEmptyInput(root)) return err({ code: 'matches_empty', offset: 0 });
  return ok({ source, root });
}
