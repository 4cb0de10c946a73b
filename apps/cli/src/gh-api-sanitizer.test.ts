import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeGhJsonBody } from './gh-api-sanitizer.js';

/** Whether text holds what gh never prints: a C0/C1 control it replaces, raw or escaped. */
function hasReplacedControl(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code <= 0x07 || (code >= 0x0e && code <= 0x1f) || (code >= 0x80 && code <= 0x9f)) {
      return true;
    }
  }
  return /\\u00(0[0-7]|0e|0f|1|8|9)/i.test(text);
}

const sanitize = (input: string | Buffer): string | undefined =>
  sanitizeGhJsonBody(typeof input === 'string' ? Buffer.from(input, 'utf8') : input)?.toString(
    'utf8',
  );

describe('sanitizeGhJsonBody (go-gh v2.11 asciisanitizer, JSON mode)', () => {
  it.each([
    ['text without control characters', '{"a":"plain é ✓"}', '{"a":"plain é ✓"}'],
    ['an escaped ESC', '{"a":"\\u001b[31mred"}', '{"a":"^[[31mred"}'],
    ['escapes in any hex case, with a lowercase u', '"\\u001B\\u009B\\U001B"', '"^[^[\\U001B"'],
    ['a raw ESC and a raw C1 CSI', '"\u001b[0m\u009b"', '"^[[0m^["'],
    ['U+001C and U+009C, raw or escaped', '"\u001c\\u009c"', '"^\\\\^\\\\"'],
    ['tab, LF, VT and CR, raw or escaped', '"\t\n\u000b\r\\u0009\\u000a\\u000b\\u000d"', null],
    ['DEL, which is not replaced', '"\u007f\\u007f"', null],
    ['backspace and form feed escaped in full', '"\\u0008\\u000c\\b\\f"', '"^H^L\\b\\f"'],
    ['C1 controls from U+0080 to U+009F', '"\\u0080\u0089\\u008A\u009f"', '"^@^I^J^_"'],
    ['a NUL', '{"a":"x\\u0000y"}', '{"a":"x^@y"}'],
    ['a leading byte-order mark, kept', '\ufeff{"a":1}', null],
    ['a literal U+FFFD, kept', '"\ufffd"', null],
  ])('%s', (_name, input, expected) => {
    expect(sanitize(input)).toBe(expected ?? input);
  });

  // A replaced escape that followed an odd run of backslashes gets one more backslash, so
  // that the JSON stays valid (`\\u001b` is the text `\u001b`, not an escape).
  it.each([
    ['\\\\u001B', '\\\\^['],
    ['\\\\\\u001B', '\\\\^['],
    ['\\\\\\\\u001B', '\\\\\\\\^['],
    ['\\\\u001B\\\\u001B', '\\\\^[\\\\^['],
    // go-gh does not reset its backslash state on a raw control character.
    ['\\\u001b\\u001B', '\\^[\\^['],
  ])('%s → %s', (input, expected) => {
    expect(sanitize(input)).toBe(expected);
  });

  it.each([
    ['a lone continuation byte', [0x7b, 0x80, 0x7d]],
    ['a truncated sequence at the end', [0x22, 0xe2, 0x82]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['an overlong slash', [0xc0, 0xaf]],
  ])('is undefined for a body that is not UTF-8 (%s): gh fails', (_name, bytes) => {
    expect(sanitizeGhJsonBody(Buffer.from(bytes))).toBeUndefined();
  });

  it('keeps JSON valid and leaves no control character gh replaces in its strings', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ stringUnit: 'binary' }),
        fc.string({ unit: 'binary' }),
        (value, text) => {
          // Raw text as the forge may send it (JSON.stringify escapes every C0 character).
          const body = JSON.stringify([value, '@']).replace('"@"', `"${text}"`);
          const sanitized = sanitize(body);
          expect(sanitized).toBeDefined();
          let decoded: unknown;
          try {
            decoded = JSON.parse(sanitized ?? '');
          } catch {
            // Only what gh leaves raw and JSON forbids raw can break the body: a quote, a
            // backslash, tab, LF, VT or CR.
            expect(text).toMatch(/["\\\t\n\v\r]/);
            return;
          }
          expect(hasReplacedControl(JSON.stringify(decoded))).toBe(false);
        },
      ),
    );
  });
});
