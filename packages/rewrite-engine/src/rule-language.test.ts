import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import type { PatternErrorCode } from './pattern-error.js';
import { parsePolicyDocument } from './policy-document-parser.js';
import type { PolicyErrorCode } from './policy-error.js';
import { compileRules } from './compile-rules.js';

/**
 * SPEC.md "PUT .../string-rewrites": "Patterns are regular expressions in a portable RE2 subset:
 * case-sensitive, leftmost-first; literal Unicode; capture and non-capturing groups;
 * alternation; greedy/lazy quantifiers within RE2 repetition limits; bracket classes, ranges,
 * negation; dot (not newline); ^ and $ anchors ($ is absolute end); ASCII word-boundary, word,
 * digit, space escapes and their complements; escaped punctuation; newline, carriage-return,
 * tab, form-feed, bell and vertical-tab escapes. Rejected: flags fields, inline/scoped flags,
 * lookaround, backreferences, named captures, Unicode property classes, octal escapes, the
 * any-byte escape, POSIX named classes, hex/Unicode escapes, quoted-literal blocks,
 * begin/end-of-text escapes. JSON string escaping is decoded before validation."
 *
 * One row per construct of that text (and per decision where it is silent), through the import
 * document as an admin writes it: the pattern is JSON-encoded, so JSON escaping is decoded
 * before validation. An accepted row also proves its meaning: the rule (replacement `#`)
 * rewrites `input` to `output`.
 */
interface Row {
  /** The construct, in SPEC.md's words. */
  readonly construct: string;
  /** The pattern after JSON decoding (`json` overrides how it is written in the document). */
  readonly pattern: string;
  /** The pattern as JSON text in the document, when not `JSON.stringify(pattern)`. */
  readonly json?: string;
  /** A further field of the rule. */
  readonly extra?: string;
  /** `accepted`, or the pattern error (`invalid_pattern`) or policy error code. */
  readonly outcome: 'accepted' | PatternErrorCode | PolicyErrorCode;
  /** For accepted rows: input and the rewrite's output. */
  readonly rewrites?: readonly [string, string];
  /** The replacement, when `#` would match the pattern (the final scan would block). */
  readonly replacement?: string;
}

const ALL_PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

const ROWS: readonly Row[] = [
  // Accepted, with their meaning.
  {
    construct: 'case-sensitive',
    pattern: 'falcon',
    outcome: 'accepted',
    rewrites: ['Falcon falcon', 'Falcon #'],
  },
  {
    construct: 'leftmost-first (not leftmost-longest)',
    pattern: 'a|ab',
    outcome: 'accepted',
    rewrites: ['ab', '#b'],
  },
  {
    construct: 'literal Unicode',
    pattern: 'café😀',
    outcome: 'accepted',
    rewrites: ['x café😀', 'x #'],
  },
  { construct: 'capture group', pattern: '(ab)c', outcome: 'accepted', rewrites: ['abc', '#'] },
  {
    construct: 'non-capturing group',
    pattern: '(?:ab)+c',
    outcome: 'accepted',
    rewrites: ['ababc', '#'],
  },
  {
    construct: 'alternation',
    pattern: 'cat|dog',
    outcome: 'accepted',
    rewrites: ['cat dog', '# #'],
  },
  {
    construct: 'greedy quantifiers',
    pattern: 'ba+c?',
    outcome: 'accepted',
    rewrites: ['baaac', '#'],
  },
  {
    construct: 'lazy quantifiers',
    pattern: 'ba+?',
    outcome: 'accepted',
    rewrites: ['baaa', '#aa'],
  },
  {
    construct: 'counted repetition',
    pattern: 'a{2,3}',
    outcome: 'accepted',
    rewrites: ['aaaa', '#a'],
  },
  {
    construct: 'lazy counted repetition',
    pattern: 'a{2,3}?',
    outcome: 'accepted',
    rewrites: ['aaaa', '##'],
  },
  { construct: 'repetition at the RE2 limit', pattern: 'a{1000}', outcome: 'accepted' },
  {
    construct: 'repetition beyond the RE2 limit',
    pattern: 'a{1001}',
    outcome: 'repeat_count_too_large',
  },
  {
    construct: 'nested repetition beyond the RE2 limit',
    pattern: '(?:a{10}){101}',
    outcome: 'repeat_count_too_large',
  },
  {
    construct: 'bracket class',
    pattern: '[abc]',
    outcome: 'accepted',
    rewrites: ['cab d', '### d'],
  },
  { construct: 'range', pattern: '[a-c]+', outcome: 'accepted', rewrites: ['abcd', '#d'] },
  {
    construct: 'negation',
    pattern: '[^a]',
    outcome: 'accepted',
    rewrites: ['ab', 'a'],
    replacement: '',
  },
  {
    construct: 'dot (not newline)',
    pattern: 'a.b',
    outcome: 'accepted',
    rewrites: ['a\nb a-b', 'a\nb #'],
  },
  { construct: '^ anchor', pattern: '^a', outcome: 'accepted', rewrites: ['aa\na', '#a\na'] },
  {
    construct: '$ anchor (absolute end)',
    pattern: 'a$',
    outcome: 'accepted',
    rewrites: ['a\na', 'a\n#'],
  },
  {
    construct: 'ASCII word boundary',
    pattern: '\\ba',
    outcome: 'accepted',
    rewrites: ['ba éa', 'ba é#'],
  },
  {
    construct: 'ASCII word boundary complement',
    pattern: 'a\\Bb',
    outcome: 'accepted',
    rewrites: ['ab', '#'],
  },
  {
    construct: 'ASCII word escape',
    pattern: '\\w+',
    outcome: 'accepted',
    rewrites: ['a_1é', '#é'],
  },
  {
    construct: 'ASCII word complement',
    pattern: '\\W',
    outcome: 'accepted',
    rewrites: ['a-é', 'a'],
    replacement: '',
  },
  {
    construct: 'ASCII digit escape',
    pattern: '\\d+',
    outcome: 'accepted',
    rewrites: ['a12٣', 'a#٣'],
  },
  {
    construct: 'ASCII digit complement',
    pattern: '\\D',
    outcome: 'accepted',
    rewrites: ['1a', '1'],
    replacement: '',
  },
  {
    construct: 'ASCII space escape',
    pattern: 'a\\sb',
    outcome: 'accepted',
    rewrites: ['a b a\u00a0b', '# a\u00a0b'],
  },
  {
    construct: 'ASCII space complement',
    pattern: '\\S+',
    outcome: 'accepted',
    rewrites: ['ab c', ' '],
    replacement: '',
  },
  {
    construct: 'escaped punctuation (every ASCII punctuation character)',
    pattern: Array.from(ALL_PUNCTUATION, (char) => `\\${char}`).join(''),
    outcome: 'accepted',
    rewrites: [`x${ALL_PUNCTUATION}`, 'x#'],
  },
  {
    construct: 'newline, carriage-return, tab, form-feed, bell, vertical-tab escapes',
    pattern: '\\n\\r\\t\\f\\a\\v',
    outcome: 'accepted',
    rewrites: ['x\n\r\t\f\u0007\u000b', 'x#'],
  },
  {
    construct: 'JSON string escaping decoded before validation',
    pattern: 'falcon',
    json: '"\\u0066alc\\u006fn"',
    outcome: 'accepted',
    rewrites: ['falcon', '#'],
  },
  // Rejected by SPEC.md's list.
  { construct: 'flags field', pattern: 'a', extra: ',"flags":"i"', outcome: 'flags_field' },
  { construct: 'inline flags', pattern: '(?i)falcon', outcome: 'inline_flags' },
  { construct: 'scoped flags', pattern: '(?i:falcon)', outcome: 'inline_flags' },
  { construct: 'lookahead', pattern: 'a(?=b)', outcome: 'lookaround' },
  { construct: 'negative lookahead', pattern: 'a(?!b)', outcome: 'lookaround' },
  { construct: 'lookbehind', pattern: '(?<=a)b', outcome: 'lookaround' },
  { construct: 'negative lookbehind', pattern: '(?<!a)b', outcome: 'lookaround' },
  { construct: 'numbered backreference', pattern: '(a)\\1', outcome: 'backreference' },
  { construct: 'named backreference', pattern: '(?P<n>a)(?P=n)', outcome: 'named_capture' },
  { construct: 'named capture (?P<n>)', pattern: '(?P<n>a)', outcome: 'named_capture' },
  { construct: 'named capture (?<n>)', pattern: '(?<n>a)', outcome: 'named_capture' },
  { construct: 'Unicode property class', pattern: '\\p{L}', outcome: 'unicode_class' },
  { construct: 'Unicode property class complement', pattern: '\\PL', outcome: 'unicode_class' },
  { construct: 'octal escape', pattern: 'a\\012', outcome: 'octal_escape' },
  { construct: 'octal escape \\0', pattern: '\\0', outcome: 'octal_escape' },
  { construct: 'any-byte escape', pattern: '\\C', outcome: 'any_byte_escape' },
  { construct: 'POSIX named class', pattern: '[[:alpha:]]', outcome: 'posix_class' },
  { construct: 'hex escape', pattern: '\\x41', outcome: 'hex_escape' },
  { construct: 'braced hex escape', pattern: '\\x{41}', outcome: 'hex_escape' },
  { construct: 'Unicode escape', pattern: '\\u0041', outcome: 'unicode_escape' },
  { construct: 'quoted-literal block', pattern: '\\Qa.b\\E', outcome: 'quoted_literal' },
  { construct: 'begin-of-text escape', pattern: '\\Aabc', outcome: 'text_anchor_escape' },
  { construct: 'end-of-text escape', pattern: 'abc\\z', outcome: 'text_anchor_escape' },
  { construct: 'a pattern matching empty input', pattern: 'a*', outcome: 'matches_empty' },
  {
    construct: 'invalid Unicode',
    pattern: 'a\ud800',
    json: '"a\\ud800"',
    outcome: 'invalid_unicode',
  },
  // Where SPEC.md's list is silent: decided (see README "The rule language").
  { construct: 'escaped space (not punctuation)', pattern: 'a\\ b', outcome: 'unknown_escape' },
  { construct: 'escaped letter', pattern: '\\e', outcome: 'unknown_escape' },
  {
    construct: 'quantified word boundary \\b*',
    pattern: 'a\\b*',
    outcome: 'missing_repeat_argument',
  },
  {
    construct: 'quantified word boundary \\b+',
    pattern: '\\b+a',
    outcome: 'missing_repeat_argument',
  },
  {
    construct: 'quantified word boundary in a group',
    pattern: '(?:\\b)+a',
    outcome: 'missing_repeat_argument',
  },
  {
    construct: 'quantified anchor in a group',
    pattern: '(^)*a',
    outcome: 'missing_repeat_argument',
  },
  {
    construct: 'optional end anchor in a group',
    pattern: 'a(?:$|\\B)?',
    outcome: 'missing_repeat_argument',
  },
  { construct: 'quantified empty group', pattern: '(?:)+a', outcome: 'missing_repeat_argument' },
  { construct: 'raw tab (write \\t)', pattern: 'a\tb', outcome: 'control_character' },
  { construct: 'raw line feed (write \\n)', pattern: 'a\nb', outcome: 'control_character' },
  { construct: 'raw carriage return (write \\r)', pattern: 'a\rb', outcome: 'control_character' },
  { construct: 'raw NUL', pattern: 'a\u0000b', outcome: 'control_character' },
  { construct: 'raw escape character', pattern: 'a\u001bb', outcome: 'control_character' },
  { construct: 'raw DEL', pattern: 'a\u007fb', outcome: 'control_character' },
  { construct: 'raw control character in a class', pattern: '[\t ]', outcome: 'control_character' },
  { construct: 'escaped raw control character', pattern: 'a\\\tb', outcome: 'control_character' },
];

describe('the rule language, construct by construct (SPEC.md)', () => {
  it.each(ROWS)('$construct: $outcome', (row) => {
    const json = row.json ?? JSON.stringify(row.pattern);
    const text = `{"schema_version":1,"rules":[{"pattern":${json},"replacement":${JSON.stringify(row.replacement ?? '#')}${row.extra ?? ''}}]}`;
    const parsed = parsePolicyDocument(text);
    if (row.outcome !== 'accepted') {
      expect(parsed.ok).toBe(false);
      if (parsed.ok) return;
      const code =
        parsed.error.code === 'invalid_pattern' ? parsed.error.pattern?.code : parsed.error.code;
      expect(code).toBe(row.outcome);
      return;
    }
    expect(parsed).toMatchObject({ ok: true, value: { rules: [{ pattern: row.pattern }] } });
    if (!parsed.ok) return;
    // Accepted here means accepted by RE2 too (the subset is portable).
    expect(() => RE2JS.compile(row.pattern)).not.toThrow();
    const guard = compileRules(parsed.value.rules);
    expect(guard.ok).toBe(true);
    if (!guard.ok || row.rewrites === undefined) return;
    const [input, output] = row.rewrites;
    expect(guard.value.rewrite(input)).toEqual({ ok: true, value: output });
    expect(guard.value.check(input).ok).toBe(false);
  });
});

describe('input that is not well-formed Unicode', () => {
  const guard = compileRules([{ pattern: 'b', replacement: 'x' }]);
  if (!guard.ok) throw new Error('fixture rules');
  const empty = compileRules([]);
  if (!empty.ok) throw new Error('fixture rules');
  const invalid = { ok: false, error: { code: 'aborted', category: 'invalid_unicode' } };

  it.each([
    ['a lone high surrogate', 'a\ud800b'],
    ['a lone low surrogate', 'a\udc00b'],
    ['a reversed pair', '\ude00\ud83d'],
    ['a high surrogate at the end', 'ab\ud83d'],
    ['a low surrogate at the start', '\ude00ab'],
    ['no match otherwise', '\ud800'],
  ])('%s: check and rewrite abort with invalid_unicode, whatever the rules', (_name, text) => {
    expect(guard.value.check(text)).toEqual(invalid);
    expect(guard.value.rewrite(text)).toEqual(invalid);
    expect(empty.value.check(text)).toEqual(invalid);
    expect(empty.value.rewrite(text)).toEqual(invalid);
  });

  it('a removed character cannot join two lone surrogates into a pair', () => {
    // Without the rule, rewriting 'b' away would turn \ud83d b \ude00 into 😀.
    const emoji = compileRules([
      { pattern: 'b', replacement: '' },
      { pattern: '😀', replacement: 'x' },
    ]);
    expect(emoji.ok && emoji.value.rewrite('\ud83db\ude00')).toEqual(invalid);
  });

  it('well-formed astral text is matched by code point', () => {
    expect(guard.value.rewrite('😀b😀')).toEqual({ ok: true, value: '😀x😀' });
    const dot = compileRules([{ pattern: 'a.b', replacement: '#' }]);
    expect(dot.ok && dot.value.rewrite('a😀b')).toEqual({ ok: true, value: '#' });
  });
});
