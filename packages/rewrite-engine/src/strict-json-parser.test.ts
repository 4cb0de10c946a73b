import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonObject, parseStrictJson } from './strict-json-parser.js';
import type { JsonValue } from './strict-json-parser.js';

/** Converts the strict parser's value to plain JSON data, for comparison with JSON.parse. */
function toPlain(value: JsonValue): unknown {
  if (value instanceof JsonObject) {
    return Object.fromEntries(value.members.map((member) => [member.key, toPlain(member.value)]));
  }
  if (Array.isArray(value)) return value.map(toPlain);
  return value;
}

describe('parseStrictJson', () => {
  it.each([
    ['{"a":1,"a":2}', 'duplicate_key', 7],
    ['{"a":{"b":1,"b":1}}', 'duplicate_key', 12],
    ['[{"x":[{"k":1,"k":1}]}]', 'duplicate_key', 14],
    ['{"\\u0061":1,"a":2}', 'duplicate_key', 12],
    ['"\\udc00"', 'invalid_unicode', 0],
    ['"\\ud800x"', 'invalid_unicode', 0],
    ['["ok","\ud800"]', 'invalid_unicode', 6],
    ['{"a":1,}', 'invalid_json', 7],
    ['[1,]', 'invalid_json', 3],
    ['01', 'invalid_json', 1],
    ["{'a':1}", 'invalid_json', 1],
    ['"a\u0001"', 'invalid_json', 2],
    ['"\\x41"', 'invalid_json', 1],
    ['nul', 'invalid_json', 0],
    ['', 'invalid_json', 0],
    ['[1] [2]', 'invalid_json', 4],
    [`${'['.repeat(100)}${']'.repeat(100)}`, 'invalid_json', 65],
  ])('%j → %s at %d', (text, code, offset) => {
    expect(parseStrictJson(text)).toEqual({ ok: false, error: { code, offset } });
  });

  it('accepts escaped surrogate pairs and keeps member order', () => {
    const parsed = parseStrictJson('{"b":"\\ud83d\\ude00","a":[true,false,null,-1.5e2]}');
    expect(parsed.ok && toPlain(parsed.value)).toEqual({ b: '😀', a: [true, false, null, -150] });
    expect(
      parsed.ok && parsed.value instanceof JsonObject && parsed.value.members.map((m) => m.key),
    ).toEqual(['b', 'a']);
  });

  it('keeps "__proto__" as an ordinary key', () => {
    const parsed = parseStrictJson('{"__proto__":1,"x":2}');
    expect(
      parsed.ok && parsed.value instanceof JsonObject && parsed.value.get('__proto__')?.value,
    ).toBe(1);
  });

  it('agrees with JSON.parse on well-formed JSON without duplicate keys (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value, null, 1);
        const parsed = parseStrictJson(text);
        expect(parsed.ok && toPlain(parsed.value)).toEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on arbitrary text (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        const parsed = parseStrictJson(text);
        if (parsed.ok) expect(() => JSON.parse(text) as unknown).not.toThrow();
      }),
      { numRuns: 2000 },
    );
  });
});
