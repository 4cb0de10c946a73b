import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { generatedPattern } from './__fixtures__/pattern-arbitraries.js';
import { parsePattern } from './pattern-parser.js';
import type { PatternErrorCode } from './pattern-error.js';
import { PATTERN_ERROR_CODES } from './pattern-error.js';

describe('parsePattern: accepted constructs', () => {
  it.each([
    ['literal ASCII', 'acme'],
    ['literal Unicode and astral', 'café😀'],
    ['capture group', '(ab)c'],
    ['non-capturing group', '(?:ab)c'],
    ['alternation', 'a|b|cd'],
    ['greedy quantifiers', 'a*b+c?'],
    ['lazy quantifiers', 'xa*?b+?c??'],
    ['counted repetition', 'a{3}b{2,}c{1,5}d{2,4}?'],
    ['repetition at the limit', 'a{1000}'],
    ['nested repetition at the limit', '(?:a{10}){100}'],
    ['bracket class', '[abc]'],
    ['range', '[a-z0-9]'],
    ['negated class', '[^a-z]'],
    ['dash first and last', '[-a][a-]'],
    ['class escapes in class', '[\\d\\w\\s\\-\\]]'],
    ['dot', 'a.b'],
    ['anchors', '^abc$'],
    ['word boundary', '\\bword\\b'],
    ['not word boundary', 'a\\Bb'],
    ['perl classes and complements', '\\d\\D\\w\\W\\s\\S'],
    ['escaped punctuation', '\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\^\\$\\\\\\/\\-\\#\\_'],
    ['control escapes', 'a\\n\\r\\t\\f\\a\\v'],
    ['literal braces in class', '[{}]'],
    ['unicode range in class', '[é-ü]'],
  ])('%s: %s', (_name, source) => {
    const parsed = parsePattern(source);
    expect(parsed.ok).toBe(true);
  });
});

describe('parsePattern: rejected constructs name the construct and its offset', () => {
  it.each<[string, PatternErrorCode, number]>([
    ['x(?i)a', 'inline_flags', 1],
    ['(?i:a)', 'inline_flags', 0],
    ['(?U)a', 'inline_flags', 0],
    ['(?s)a.b', 'inline_flags', 0],
    ['(?-i)a', 'inline_flags', 0],
    ['a(?=b)', 'lookaround', 1],
    ['a(?!b)', 'lookaround', 1],
    ['(?<=a)b', 'lookaround', 0],
    ['(?<!a)b', 'lookaround', 0],
    ['(a)\\1', 'backreference', 3],
    ['(?P<n>a)(?P=n)', 'named_capture', 0],
    ['(?P=n)', 'backreference', 0],
    ['(?<n>a)', 'named_capture', 0],
    ["(?'n'a)", 'named_capture', 0],
    ['\\k<n>', 'backreference', 0],
    ['(?#comment)a', 'unsupported_group', 0],
    ['(?>a)', 'unsupported_group', 0],
    ['\\p{L}', 'unicode_class', 0],
    ['a\\PL', 'unicode_class', 1],
    ['[\\p{Greek}]', 'unicode_class', 1],
    ['\\0', 'octal_escape', 0],
    ['a\\012', 'octal_escape', 1],
    ['\\C', 'any_byte_escape', 0],
    ['[[:alpha:]]', 'posix_class', 1],
    ['[a[:digit:]]', 'posix_class', 2],
    ['\\x41', 'hex_escape', 0],
    ['\\x{41}', 'hex_escape', 0],
    ['\\u0041', 'unicode_escape', 0],
    ['\\Qa.b\\E', 'quoted_literal', 0],
    ['\\Aabc', 'text_anchor_escape', 0],
    ['abc\\z', 'text_anchor_escape', 3],
    ['\\e', 'unknown_escape', 0],
    ['\\é', 'unknown_escape', 0],
    ['[\\b]', 'unknown_escape', 1],
    ['ab\\', 'trailing_backslash', 2],
    ['(ab', 'missing_paren', 0],
    ['ab)', 'unmatched_paren', 2],
    ['[ab', 'missing_bracket', 0],
    ['a]', 'unescaped_bracket', 1],
    ['a{', 'unescaped_bracket', 1],
    ['a{,3}', 'unescaped_bracket', 1],
    ['a}', 'unescaped_bracket', 1],
    ['[a[]', 'unescaped_bracket', 2],
    ['[]a]', 'empty_class', 0],
    ['[^]', 'empty_class', 0],
    ['[z-a]', 'invalid_range', 1],
    ['[a-b-c]', 'invalid_range', 4],
    ['[\\d-z]', 'invalid_range', 3],
    ['*a', 'missing_repeat_argument', 0],
    ['a|+b', 'missing_repeat_argument', 2],
    ['(*a)', 'missing_repeat_argument', 1],
    ['{2}a', 'missing_repeat_argument', 0],
    ['^*a', 'missing_repeat_argument', 1],
    ['a**', 'repeated_quantifier', 2],
    ['a*+', 'repeated_quantifier', 2],
    ['a{2}{3}', 'repeated_quantifier', 4],
    ['a{3,2}', 'invalid_repeat', 1],
    ['a{1001}', 'repeat_count_too_large', 1],
    ['a{2,1001}', 'repeat_count_too_large', 1],
    ['(?:a{10}){101}', 'repeat_count_too_large', 9],
    ['((a{2}){2}){251}', 'repeat_count_too_large', 11],
    ['a\\ b', 'unknown_escape', 1],
    ['(?:\\b)+a', 'missing_repeat_argument', 6],
    ['x(^)*a', 'missing_repeat_argument', 4],
    ['a(?:$|\\B)?', 'missing_repeat_argument', 9],
    ['ab\tc', 'control_character', 2],
    ['[a\u007f]', 'control_character', 2],
    ['\\\n', 'control_character', 1],
  ])('%s → %s at %d', (source, code, offset) => {
    expect(parsePattern(source)).toEqual({ ok: false, error: { code, offset } });
  });

  it('rejects a lone surrogate with its offset', () => {
    expect(parsePattern('ab\ud800')).toEqual({
      ok: false,
      error: { code: 'invalid_unicode', offset: 2 },
    });
  });

  it('rejects a pattern over 256 UTF-8 bytes, counting bytes not characters', () => {
    expect(parsePattern('a'.repeat(256)).ok).toBe(true);
    expect(parsePattern('a'.repeat(257))).toEqual({
      ok: false,
      error: { code: 'pattern_too_large', offset: 0 },
    });
    expect(parsePattern('é'.repeat(128)).ok).toBe(true);
    expect(parsePattern(`${'é'.repeat(128)}a`).ok).toBe(false);
  });
});

describe('parsePattern: patterns matching the empty input', () => {
  it.each(['', 'a*', 'a?', '(a|)', 'a|', '^', '$', '^$', '\\B', '(?:)', 'a{0}', '(a*)+', 'a*?b?'])(
    'rejects %j',
    (source) => {
      expect(parsePattern(source)).toEqual({
        ok: false,
        error: { code: 'matches_empty', offset: 0 },
      });
    },
  );

  it.each(['a', 'a+', 'a*b', '^a', 'a$', '\\b', '\\ba', '(a|b)', 'a{1,}', '\\bx?\\b'])(
    'accepts %j (it cannot match the text "")',
    (source) => {
      expect(parsePattern(source).ok).toBe(true);
    },
  );

  it('agrees with re2js on whether the pattern matches the empty input', () => {
    fc.assert(
      fc.property(generatedPattern, ({ source }) => {
        const parsed = parsePattern(source);
        const matchesEmpty = RE2JS.compile(source).test('');
        if (matchesEmpty)
          expect(parsed).toEqual({ ok: false, error: { code: 'matches_empty', offset: 0 } });
        else expect(parsed.ok).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('parsePattern: properties', () => {
  it('never throws, and every error code is in the closed catalogue', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (source) => {
        const parsed = parsePattern(source);
        if (!parsed.ok) {
          expect(PATTERN_ERROR_CODES).toContain(parsed.error.code);
          expect(parsed.error.offset).toBeGreaterThanOrEqual(0);
          expect(parsed.error.offset).toBeLessThanOrEqual(source.length);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts only what re2js also compiles', () => {
    const punctuation = fc.constantFrom(...'()[]{}|*+?.^$\\-:=!<>PpxuQEAzbBdwsn0123aé'.split(''));
    fc.assert(
      fc.property(fc.array(punctuation, { maxLength: 12 }), (chars) => {
        const source = chars.join('');
        if (parsePattern(source).ok) expect(() => RE2JS.compile(source)).not.toThrow();
      }),
      { numRuns: 3000 },
    );
  });
});
