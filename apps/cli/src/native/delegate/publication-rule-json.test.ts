import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { containsActiveRuleJson, readJsonString } from './publication-rule-json.js';

/** Escapes every character of `text` as JSON `\uXXXX` (the longest spelling JSON allows). */
function escapeAll(text: string): string {
  let out = '';
  for (let index = 0; index < text.length; index++) {
    out += `\\u${text.charCodeAt(index).toString(16).padStart(4, '0')}`;
  }
  return out;
}

describe('publication-rule-json properties', () => {
  it('recognizes any active pattern serialized in a rule object, anywhere in any text', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 64 }),
        fc.string(),
        fc.string(),
        fc.boolean(),
        (pattern, before, after, pretty) => {
          const rule = JSON.stringify({ pattern, replacement: 'x' }, null, pretty ? 2 : undefined);
          expect(containsActiveRuleJson(`${before}${rule}${after}`, [pattern])).toBe(true);
        },
      ),
    );
  });

  it('recognizes the longest JSON spelling of a 256-byte pattern and its key', () => {
    const pattern = 'a'.repeat(256);
    const text = `{"${escapeAll('pattern')}": "${escapeAll(pattern)}"}`;
    expect(containsActiveRuleJson(text, [pattern])).toBe(true);
  });

  it('recognizes nothing in text without a quote', () => {
    fc.assert(
      fc.property(
        fc.string().map((text) => text.replaceAll('"', '')),
        fc.string({ minLength: 1 }),
        (text, pattern) => {
          expect(containsActiveRuleJson(text, [pattern])).toBe(false);
        },
      ),
    );
  });

  it('decodes what JSON.stringify writes', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        const literal = JSON.stringify(value);
        expect(readJsonString(literal, 0, literal.length)).toEqual({ value, end: literal.length });
      }),
    );
  });
});
