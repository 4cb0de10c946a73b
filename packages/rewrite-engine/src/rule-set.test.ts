import type { StringRewriteRule } from '@relay/protocol';
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import {
  generatedPattern,
  generatedText,
  generatedWord,
} from './__fixtures__/pattern-arbitraries.js';
import { mayMatchEmpty } from './pattern-analysis.js';
import type { PatternNode } from './pattern-ast.js';
import { parsePattern } from './pattern-parser.js';
import { re2jsEngine } from './re2js-engine.js';
import { ZERO_WIDTH, createRuleMatcher } from './rule-matcher.js';
import { compileRules } from './compile-rules.js';
import { compileRulesWithChunks } from './rule-set.js';
import type { RuleSet } from './rule-set.js';

function guard(rules: readonly StringRewriteRule[], strategy: 'fast' | 'plain' = 'fast'): RuleSet {
  const compiled = compileRules(rules, { strategy });
  if (!compiled.ok) throw new Error(`refused: ${JSON.stringify(compiled.error)}`);
  return compiled.value;
}

function rule(pattern: string, replacement = '#'): StringRewriteRule {
  return { pattern, replacement };
}

describe.each(['fast', 'plain'] as const)('rewrite semantics (%s strategy)', (strategy) => {
  it.each<[string, readonly StringRewriteRule[], string, string]>([
    ['leftmost-first alternation', [rule('ab|abc', 'X')], 'abc', 'Xc'],
    ['leftmost match wins over earlier alternative', [rule('b|ab', 'X')], 'ab', 'X'],
    ['greedy repetition', [rule('a+', 'X')], 'caaab', 'cXb'],
    ['lazy repetition', [rule('a+?', 'X')], 'aaa', 'XXX'],
    ['$ is the absolute end, not before a final newline', [rule('b$', 'X')], 'ab\n', 'ab\n'],
    ['$ matches at the absolute end', [rule('b$', 'X')], 'b\nab', 'b\naX'],
    ['^ is the absolute start, not after a newline', [rule('^a', 'X')], 'b\na', 'b\na'],
    ['. excludes newline', [rule('a.b', 'X')], 'a\nb a-b', 'a\nb X'],
    ['. includes carriage return', [rule('a.b', 'X')], 'a\rb', 'X'],
    ['\\b is ASCII: é is not a word character', [rule('\\bcafé', 'X')], 'xcafé café', 'xcafé X'],
    ['\\w is ASCII', [rule('\\w+', '-')], 'abé1', '-é-'],
    ['\\d is ASCII', [rule('\\d+', 'X')], '12٣4', 'X٣X'],
    ['\\s is [\\t\\n\\f\\r ] (no vertical tab)', [rule('a\\sb', 'X')], 'a b a\vb', 'X a\vb'],
    ['case-sensitive', [rule('acme', 'X')], 'ACME Acme acme', 'ACME Acme X'],
    ['literal astral characters, offsets after emoji', [rule('😀b', 'X')], 'a😀b😀c', 'aX😀c'],
    ['class with astral characters', [rule('[😀é]+', '-')], 'x😀é😀y', 'x-y'],
    ['replacements are literal: $1 and $&', [rule('(a)(b)', '$2$1$&')], 'ab', '$2$1$&'],
    ['replacements are literal: $$', [rule('a', '$$')], 'a', '$$'],
    ['empty replacement deletes', [rule('secret-\\d+', '')], 'x secret-42 y', 'x  y'],
    ['rules run globally', [rule('a', '-')], 'aXaa', '-X--'],
    ['later rules see earlier output', [rule('a', 'b'), rule('bb', 'c')], 'ab', 'c'],
    ['rules run in file order', [rule('bb', 'c'), rule('a', 'd')], 'ab', 'db'],
    [
      'class rule next to separators',
      [rule('acme-[a-z]+-internal', 'X')],
      'a acme-xy-internal.',
      'a X.',
    ],
    [
      'word-bounded rule',
      [rule('\\bproj(ect)?-x\\b', 'P')],
      'proj-x project-x proj-xy xproj-x',
      'P P proj-xy xproj-x',
    ],
    [
      'counted class rule',
      [rule('internal-[0-9]{3,5}', 'T')],
      'internal-12 internal-123456',
      'internal-12 T6',
    ],
  ])('%s', (_name, rules, input, expected) => {
    expect(guard(rules, strategy).rewrite(input)).toEqual({ ok: true, value: expected });
  });

  it.each<[string, readonly StringRewriteRule[], string]>([
    ['a remaining match (rules run once)', [rule('ab', 'b')], 'aab'],
    ['a match created by its own replacement', [rule('a', 'xa')], 'a'],
    ['a match of an earlier rule created by a later one', [rule('ab', 'c'), rule('x', 'a')], 'xb'],
  ])('final scan blocks %s', (_name, rules, input) => {
    expect(guard(rules, strategy).rewrite(input)).toEqual({
      ok: false,
      error: { code: 'blocked', category: 'final_scan_match' },
    });
  });

  it('aborts on a contextual zero-width match on real input', () => {
    const zeroWidth = guard([rule('\\b', 'X')], strategy);
    expect(zeroWidth.rewrite('word')).toEqual({
      ok: false,
      error: { code: 'aborted', category: 'zero_width_match' },
    });
    expect(zeroWidth.check('word')).toEqual({
      ok: false,
      error: { code: 'aborted', category: 'zero_width_match' },
    });
    expect(zeroWidth.rewrite('  ')).toEqual({ ok: true, value: '  ' });
  });
});

describe('check', () => {
  const rules = guard([rule('falcon'), rule('acme-[a-z]+-internal'), rule('\\btoken\\b')]);

  it.each([
    ['/repos/o/falcon', false],
    ['/repos/o/r?q=acme-x-internal', false],
    ['x-token: abc', false],
    ['tokens', true],
    ['/repos/o/Falcon', true],
    ['', true],
  ])('%j passes: %s', (value, passes) => {
    const result = rules.check(value);
    expect(result).toEqual(
      passes
        ? { ok: true, value }
        : { ok: false, error: { code: 'blocked', category: 'pattern_match' } },
    );
  });

  it('blocks with a generic category only, never the matched text or the pattern', () => {
    const result = rules.check('the falcon flies');
    expect(JSON.stringify(result)).not.toMatch(/falcon/);
  });
});

describe('size bounds (1,048,576 UTF-8 bytes)', () => {
  const limit = 1_048_576;

  it('accepts an input of exactly the limit and refuses one byte more', () => {
    const rules = guard([rule('zz')]);
    expect(rules.rewrite('a'.repeat(limit)).ok).toBe(true);
    expect(rules.rewrite('a'.repeat(limit + 1))).toEqual({
      ok: false,
      error: { code: 'aborted', category: 'input_too_large' },
    });
    expect(rules.check(`${'a'.repeat(limit - 1)}é`)).toEqual({
      ok: false,
      error: { code: 'aborted', category: 'input_too_large' },
    });
  });

  it('aborts when an intermediate result grows past the limit', () => {
    const rules = guard([rule('a', 'bb'), rule('b', '')]);
    expect(rules.rewrite('a'.repeat(limit / 2))).toEqual({ ok: true, value: '' });
    expect(rules.rewrite('a'.repeat(limit / 2 + 1))).toEqual({
      ok: false,
      error: { code: 'aborted', category: 'output_too_large' },
    });
  });

  it('counts replacement bytes in UTF-8', () => {
    const rules = guard([rule('a', 'é')]);
    expect(rules.rewrite('a'.repeat(limit / 2)).ok).toBe(true);
    expect(rules.rewrite(`${'a'.repeat(limit / 2)}a`).ok).toBe(false);
  });
});

describe('linear time', () => {
  it.each(['(a+)+$', '(a|aa)+b', '(?:a*)*c$', '(x+x+)+y', 'a[a-z]*b'])(
    'finishes %s on 200,000 adversarial characters',
    (pattern) => {
      const rules = guard([rule(pattern)]);
      const text = `${'a'.repeat(200_000)}!`;
      expect(rules.check(text).ok).toBe(true);
      expect(rules.rewrite(text).ok).toBe(true);
    },
  );
});

describe('compileRules validation', () => {
  it('refuses an invalid pattern with its rule index and construct, without the text', () => {
    const result = compileRules([rule('ok'), rule('(?i)secret-codename')]);
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'invalid_pattern',
        ruleIndex: 1,
        field: 'pattern',
        pattern: { code: 'inline_flags', offset: 0 },
      },
    });
    expect(JSON.stringify(result)).not.toMatch(/secret/);
  });

  it('refuses duplicate patterns and more than 128 rules', () => {
    expect(compileRules([rule('a'), rule('a', 'b')])).toEqual({
      ok: false,
      error: { code: 'duplicate_pattern', ruleIndex: 1, field: 'pattern' },
    });
    const many = Array.from({ length: 129 }, (_, i) => rule(`w${String(i)}`));
    expect(compileRules(many.slice(0, 128)).ok).toBe(true);
    expect(compileRules(many)).toEqual({
      ok: false,
      error: { code: 'too_many_rules', field: 'rules' },
    });
  });

  it('exposes the rules, frozen', () => {
    const rules = guard([rule('a', 'b')]);
    expect(rules.rules).toEqual([{ pattern: 'a', replacement: 'b' }]);
    expect(Object.isFrozen(rules.rules)).toBe(true);
  });
});

/** Match spans of one pattern as JS RegExp finds them, or 'zero_width' like the engine. */
function jsSpans(js: string, text: string): number[] | typeof ZERO_WIDTH {
  const spans: number[] = [];
  for (const match of text.matchAll(new RegExp(js, 'gu'))) {
    if (match[0] === '') return ZERO_WIDTH;
    spans.push(match.index, match.index + match[0].length);
  }
  return spans;
}

function ruleMatcher(pattern: string, strategy: 'fast' | 'plain') {
  const parsed = parsePattern(pattern);
  const regex = re2jsEngine.compile(pattern);
  if (!parsed.ok || regex === null) throw new Error('unexpected');
  return createRuleMatcher(parsed.value, regex, strategy);
}

const validPattern = generatedPattern.filter(({ source }) => parsePattern(source).ok);

/**
 * A repetition of a sub-pattern that can match empty, such as `(a?)*`: there RE2 (whose
 * semantics the rule language has) and ECMAScript legitimately differ, so the differential
 * test leaves such patterns out.
 */
function hasNullableRepeat(node: PatternNode): boolean {
  switch (node.type) {
    case 'repeat':
      return mayMatchEmpty(node.child) || hasNullableRepeat(node.child);
    case 'group':
      return hasNullableRepeat(node.child);
    case 'concat':
    case 'alternate':
      return node.children.some(hasNullableRepeat);
    case 'empty':
    case 'literal':
    case 'class':
    case 'assertion':
      return false;
  }
}

const portablePattern = validPattern.filter(({ source }) => {
  const parsed = parsePattern(source);
  return parsed.ok && !hasNullableRepeat(parsed.value.root);
});

describe('properties', () => {
  it('differential: spans equal JS RegExp with the u flag on the safe subset', () => {
    fc.assert(
      fc.property(portablePattern, generatedText, ({ source, js }, text) => {
        expect(ruleMatcher(source, 'fast').matches(text, false)).toEqual(jsSpans(js, text));
      }),
      { numRuns: 3000 },
    );
  }, 60_000);

  it('the literal fast path and the prefilter give exactly what plain rule-by-rule re2js gives', () => {
    const rulesArbitrary = fc.uniqueArray(
      fc.record({
        pattern: fc.oneof(
          generatedWord.map((word) => word.replace(/[-.]/g, '\\$&')),
          validPattern.map(({ source }) => source),
        ),
        replacement: fc.oneof(generatedWord, fc.constant(''), fc.constant('$1')),
      }),
      { minLength: 1, maxLength: 6, selector: (r) => r.pattern },
    );
    const textArbitrary = fc.oneof(generatedText, fc.string({ unit: 'binary', maxLength: 30 }));
    fc.assert(
      fc.property(rulesArbitrary, textArbitrary, (rules, text) => {
        const fast = guard(rules, 'fast');
        const plain = guard(rules, 'plain');
        expect(fast.rewrite(text)).toEqual(plain.rewrite(text));
        expect(fast.check(text)).toEqual(plain.check(text));
      }),
      { numRuns: 1000 },
    );
  }, 60_000);

  it('a rewrite result never contains a match of any rule', () => {
    const rulesArbitrary = fc.uniqueArray(
      fc.record({ pattern: validPattern.map(({ source }) => source), replacement: generatedWord }),
      { minLength: 1, maxLength: 5, selector: (r) => r.pattern },
    );
    fc.assert(
      fc.property(rulesArbitrary, generatedText, (rules, text) => {
        const result = guard(rules).rewrite(text);
        if (!result.ok) return;
        for (const { pattern } of rules)
          expect(RE2JS.compile(pattern).test(result.value)).toBe(false);
      }),
      { numRuns: 1000 },
    );
  }, 60_000);

  it('segments of a long text give the same spans as one plain scan', () => {
    const longText = fc
      .array(fc.oneof(generatedText, generatedWord), { minLength: 5, maxLength: 40 })
      .map((parts) => parts.join(' '));
    fc.assert(
      fc.property(validPattern, longText, ({ source }, text) => {
        expect(ruleMatcher(source, 'fast').matches(text, false)).toEqual(
          ruleMatcher(source, 'plain').matches(text, false),
        );
      }),
      { numRuns: 1000 },
    );
  }, 60_000);

  it('rewriting in chunks gives exactly what one plain pass gives', () => {
    const rulesArbitrary = fc.uniqueArray(
      fc.record({
        pattern: fc.oneof(
          generatedWord.map((word) => word.replace(/[-.]/g, '\\$&')),
          validPattern.map(({ source }) => source),
        ),
        replacement: fc.oneof(generatedWord, fc.constant(''), fc.constant('\n')),
      }),
      { minLength: 1, maxLength: 6, selector: (r) => r.pattern },
    );
    const longText = fc
      .array(fc.oneof(generatedText, generatedWord), { minLength: 5, maxLength: 40 })
      .map((parts) => parts.join(' '));
    fc.assert(
      fc.property(rulesArbitrary, longText, fc.integer({ min: 1, max: 8 }), (rules, text, size) => {
        const chunked = compileRulesWithChunks(rules, { engine: re2jsEngine }, size);
        const plain = compileRules(rules, { strategy: 'plain' });
        if (!chunked.ok || !plain.ok) throw new Error('unexpected');
        expect(chunked.value.rewrite(text)).toEqual(plain.value.rewrite(text));
      }),
      { numRuns: 1000 },
    );
  }, 60_000);
});

describe('costPerChar', () => {
  it.each([
    [['abc'], 3],
    [['a|b'], 4],
    [['a{3}'], 4],
    [['(?:ab){1,10}'], 21],
    [['.{1,1000}x'], 1002],
    [['a+'], 3],
    [['abc', '.{1,1000}x'], 1005],
  ])('%j costs at most %i states per character', (patterns, cost) => {
    const compiled = compileRules(patterns.map((pattern) => ({ pattern, replacement: '' })));
    expect(compiled.ok && compiled.value.costPerChar).toBe(cost);
  });
});
