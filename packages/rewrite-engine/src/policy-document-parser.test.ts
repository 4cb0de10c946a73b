import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePolicyDocument, parsePolicyUpdate } from './policy-document-parser.js';
import type { PolicyError } from './policy-error.js';
import { findLoneSurrogate } from './text-encoding.js';

const SECRET = 'zq-codename-orion';

/** The offset of the last occurrence of `needle`: where a duplicate or unknown key starts. */
function lastOffset(text: string, needle: string): number {
  return text.lastIndexOf(needle);
}

function doc(rules: string, extra = ''): string {
  return `{"schema_version":1,${extra}"rules":${rules}}`;
}

describe('parsePolicyDocument (import file)', () => {
  it('accepts exactly schema_version 1 and rules, decoding JSON escapes first', () => {
    const text = doc(
      '[{"pattern":"acme\\\\.corp","replacement":"\\u00e9"},{"pattern":"b","replacement":""}]',
    );
    expect(parsePolicyDocument(text)).toEqual({
      ok: true,
      value: {
        schemaVersion: 1,
        rules: [
          { pattern: 'acme\\.corp', replacement: 'é' },
          { pattern: 'b', replacement: '' },
        ],
      },
    });
  });

  it('accepts an empty rule list and UTF-8 bytes as input', () => {
    expect(parsePolicyDocument(new TextEncoder().encode(doc('[]')))).toEqual({
      ok: true,
      value: { schemaVersion: 1, rules: [] },
    });
  });

  it.each<[string, string, PolicyError]>([
    ['not JSON', '{"schema_version":1,', { code: 'invalid_json', offset: 20 }],
    ['trailing data', `${doc('[]')} x`, { code: 'invalid_json', offset: doc('[]').length + 1 }],
    ['a byte-order mark', `\ufeff${doc('[]')}`, { code: 'invalid_json', offset: 0 }],
    ['an array', '[]', { code: 'invalid_type', field: 'document' }],
    [
      'a duplicate top-level key',
      '{"schema_version":1,"schema_version":1,"rules":[]}',
      { code: 'duplicate_key', offset: 20 },
    ],
    [
      'a duplicate key inside a rule',
      doc('[{"pattern":"a","replacement":"b","replacement":"c"}]'),
      {
        code: 'duplicate_key',
        offset: lastOffset(
          doc('[{"pattern":"a","replacement":"b","replacement":"c"}]'),
          '"replacement"',
        ),
      },
    ],
    [
      'an escaped lone surrogate',
      doc('[{"pattern":"\\ud800","replacement":"b"}]'),
      { code: 'invalid_unicode', offset: doc('[{"pattern":').length - 1 },
    ],
    [
      'a raw lone surrogate',
      doc('[{"pattern":"a","replacement":"\ud800"}]'),
      { code: 'invalid_unicode', offset: doc('[{"pattern":"a","replacement":').length - 1 },
    ],
    ['an unknown top-level field', doc('[]', '"name":"x",'), { code: 'unknown_field', offset: 20 }],
    [
      'a flags field on a rule',
      doc('[{"pattern":"a","replacement":"b","flags":"i"}]'),
      {
        code: 'flags_field',
        offset: lastOffset(doc('[{"pattern":"a","replacement":"b","flags":"i"}]'), '"flags"'),
        ruleIndex: 0,
      },
    ],
    [
      'an unknown rule field',
      doc('[{"pattern":"a","replacement":"b","x":1}]'),
      {
        code: 'unknown_field',
        offset: lastOffset(doc('[{"pattern":"a","replacement":"b","x":1}]'), '"x"'),
        ruleIndex: 0,
      },
    ],
    ['a missing rules field', '{"schema_version":1}', { code: 'missing_field', field: 'rules' }],
    [
      'a missing schema_version',
      '{"rules":[]}',
      { code: 'missing_field', field: 'schema_version' },
    ],
    [
      'an expected_revision in an import file',
      doc('[]', '"expected_revision":1,'),
      { code: 'unknown_field', offset: 20 },
    ],
    [
      'schema_version 2',
      '{"schema_version":2,"rules":[]}',
      { code: 'unsupported_schema_version', field: 'schema_version' },
    ],
    [
      'schema_version "1"',
      '{"schema_version":"1","rules":[]}',
      { code: 'invalid_type', field: 'schema_version' },
    ],
    ['rules not an array', doc('{}'), { code: 'invalid_type', field: 'rules' }],
    ['a rule not an object', doc('["a"]'), { code: 'invalid_type', field: 'rule', ruleIndex: 0 }],
    [
      'a missing replacement',
      doc('[{"pattern":"a"}]'),
      { code: 'missing_field', field: 'replacement', ruleIndex: 0 },
    ],
    [
      'a numeric pattern',
      doc('[{"pattern":1,"replacement":"b"}]'),
      { code: 'invalid_type', field: 'pattern', ruleIndex: 0 },
    ],
    [
      'a null replacement',
      doc('[{"pattern":"a","replacement":null}]'),
      { code: 'invalid_type', field: 'replacement', ruleIndex: 0 },
    ],
    [
      'a duplicate pattern',
      doc('[{"pattern":"a","replacement":"b"},{"pattern":"a","replacement":"b"}]'),
      { code: 'duplicate_pattern', field: 'pattern', ruleIndex: 1 },
    ],
    [
      'a pattern matching empty input',
      doc('[{"pattern":"a*","replacement":"b"}]'),
      {
        code: 'invalid_pattern',
        field: 'pattern',
        ruleIndex: 0,
        pattern: { code: 'matches_empty', offset: 0 },
      },
    ],
    [
      'a pattern with inline flags',
      doc('[{"pattern":"x","replacement":""},{"pattern":"a(?i)b","replacement":"b"}]'),
      {
        code: 'invalid_pattern',
        field: 'pattern',
        ruleIndex: 1,
        pattern: { code: 'inline_flags', offset: 1 },
      },
    ],
  ])('refuses %s', (_name, text, error) => {
    expect(parsePolicyDocument(text)).toEqual({ ok: false, error });
  });

  it('refuses invalid UTF-8 bytes', () => {
    const bytes = new Uint8Array([...new TextEncoder().encode(doc('[]')).slice(0, -2), 0xff, 0x7d]);
    expect(parsePolicyDocument(bytes)).toEqual({
      ok: false,
      error: { code: 'invalid_encoding', field: 'document' },
    });
  });

  describe('limits', () => {
    const rules = (count: number, pattern = (i: number) => `w${String(i)}`, replacement = '') =>
      JSON.stringify(
        Array.from({ length: count }, (_, i) => ({ pattern: pattern(i), replacement })),
      );

    it('allows 128 rules and refuses 129', () => {
      expect(parsePolicyDocument(doc(rules(128))).ok).toBe(true);
      expect(parsePolicyDocument(doc(rules(129)))).toEqual({
        ok: false,
        error: { code: 'too_many_rules', field: 'rules' },
      });
    });

    it('allows 256 UTF-8 bytes per pattern and refuses 257', () => {
      const at = (bytes: number) =>
        doc(rules(1, () => `${'é'.repeat(100)}${'a'.repeat(bytes - 200)}`));
      expect(parsePolicyDocument(at(256)).ok).toBe(true);
      expect(parsePolicyDocument(at(257))).toEqual({
        ok: false,
        error: { code: 'pattern_too_large', field: 'pattern', ruleIndex: 0 },
      });
    });

    it('allows 1,024 UTF-8 bytes per replacement and refuses 1,025', () => {
      expect(parsePolicyDocument(doc(rules(1, undefined, '😀'.repeat(256)))).ok).toBe(true);
      expect(parsePolicyDocument(doc(rules(1, undefined, `${'😀'.repeat(256)}a`)))).toEqual({
        ok: false,
        error: { code: 'replacement_too_large', field: 'replacement', ruleIndex: 0 },
      });
    });

    it('allows a 65,536-byte document and refuses one byte more', () => {
      const base = doc(rules(60, undefined, 'r'.repeat(1000)));
      const padded = base + ' '.repeat(65_536 - new TextEncoder().encode(base).length);
      expect(parsePolicyDocument(padded).ok).toBe(true);
      expect(parsePolicyDocument(`${padded} `)).toEqual({
        ok: false,
        error: { code: 'document_too_large', field: 'document' },
      });
      expect(parsePolicyDocument(new TextEncoder().encode(`${padded} `)).ok).toBe(false);
    });
  });

  it('never echoes a pattern, replacement or unknown key in an error', () => {
    const faults = [
      doc(`[{"pattern":"${SECRET}(?i)","replacement":"x"}]`),
      doc(`[{"pattern":"a","replacement":"${SECRET}".repeat(99)}]`),
      doc(`[{"pattern":"${SECRET}","replacement":"x"},{"pattern":"${SECRET}","replacement":"x"}]`),
      doc(`[{"pattern":"a","replacement":"b","${SECRET}":1}]`),
      doc('[]', `"${SECRET}":1,`),
      `{"schema_version":1,"rules":[{"pattern":"${SECRET}"`,
    ];
    for (const text of faults) {
      const result = parsePolicyDocument(text);
      expect(result.ok).toBe(false);
      expect(JSON.stringify(result)).not.toContain('orion');
    }
  });

  it('agrees with JSON.parse on documents without duplicate keys (property)', () => {
    const rule = fc.record({
      pattern: fc.stringMatching(/^[a-z]{1,8}$/),
      replacement: fc.string(),
    });
    fc.assert(
      fc.property(fc.uniqueArray(rule, { maxLength: 8, selector: (r) => r.pattern }), (rules) => {
        const text = JSON.stringify({ schema_version: 1, rules }, null, 1);
        const hasLone = rules.some((r) => findLoneSurrogate(r.replacement) >= 0);
        const parsed = parsePolicyDocument(text);
        if (hasLone) expect(parsed.ok).toBe(false);
        else expect(parsed).toEqual({ ok: true, value: { schemaVersion: 1, rules } });
      }),
    );
  });
});

describe('parsePolicyUpdate (PUT body)', () => {
  const put = (revision: string, rules = '[]') =>
    `{"schema_version":1,"expected_revision":${revision},"rules":${rules}}`;

  it('accepts exactly schema_version, expected_revision and rules', () => {
    expect(parsePolicyUpdate(put('7', '[{"pattern":"a","replacement":"b"}]'))).toEqual({
      ok: true,
      value: { schemaVersion: 1, expectedRevision: 7, rules: [{ pattern: 'a', replacement: 'b' }] },
    });
  });

  it.each<[string, string, PolicyError]>([
    [
      'a missing expected_revision',
      doc('[]'),
      { code: 'missing_field', field: 'expected_revision' },
    ],
    ['a string revision', put('"7"'), { code: 'invalid_type', field: 'expected_revision' }],
    ['a fractional revision', put('1.5'), { code: 'invalid_revision', field: 'expected_revision' }],
    ['a negative revision', put('-1'), { code: 'invalid_revision', field: 'expected_revision' }],
    [
      'an unsafe revision',
      put('9007199254740992'),
      { code: 'invalid_revision', field: 'expected_revision' },
    ],
    [
      'an extra field',
      put('1').replace('{', '{"updated_at":"x",'),
      { code: 'unknown_field', offset: 1 },
    ],
    [
      'a duplicate expected_revision',
      put('1').replace('{', '{"expected_revision":1,'),
      {
        code: 'duplicate_key',
        offset: lastOffset(put('1').replace('{', '{"expected_revision":1,'), '"expected_revision"'),
      },
    ],
  ])('refuses %s', (_name, text, error) => {
    expect(parsePolicyUpdate(text)).toEqual({ ok: false, error });
  });
});
