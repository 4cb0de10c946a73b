import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalizePercentEncoding,
  decodePercentEncoding,
  percentEncodingForms,
} from './percent-encoding.js';

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** Percent-encodes each character of `text` that `encode` picks, with hex of either case. */
function encodeSome(text: string, encode: readonly boolean[], lower: readonly boolean[]): string {
  return Array.from(text)
    .map((char, index) => {
      if (encode[index] !== true) return char;
      return [...new TextEncoder().encode(char)]
        .map((byte) => {
          const hex = byte.toString(16).padStart(2, '0');
          return `%${lower[index] === true ? hex : hex.toUpperCase()}`;
        })
        .join('');
    })
    .join('');
}

describe('canonicalizePercentEncoding (RFC 3986 §6.2.2)', () => {
  it.each([
    ['no escape', '/repos/acme/bluefalcon', '/repos/acme/bluefalcon'],
    ['lowercase letter', '/repos/acme/%62luefalcon', '/repos/acme/bluefalcon'],
    ['uppercase letter', '/repos/acme/%42luefalcon', '/repos/acme/Bluefalcon'],
    ['lowercase hex digits', '/repos/acme/%6cue', '/repos/acme/lue'],
    ['mixed hex case', '/%6C%6c%6C', '/lll'],
    ['every character escaped', '%62%6C%75%65', 'blue'],
    ['digit', '/x%31', '/x1'],
    ['hyphen, period, underscore, tilde', '%2d%2E%5f%7E', '-._~'],
    ['reserved escapes keep their byte, hex uppercased', '/a%2fb%3a%40', '/a%2Fb%3A%40'],
    ['%09 stays encoded', '/a%09b', '/a%09b'],
    ['non-ASCII UTF-8 stays encoded', '/caf%c3%a9', '/caf%C3%A9'],
    [
      'double encoding is decoded once only',
      '/repos/acme/%2562luefalcon',
      '/repos/acme/%2562luefalcon',
    ],
    ['a stray % is a literal percent', '/a%zz%4', '/a%25zz%254'],
    ['a stray % cannot build a new escape', '%%362', '%2562'],
    ['query string', '?q=%62lue+falcon&k=%2b', '?q=blue+falcon&k=%2B'],
  ])('%s: %s → %s', (_name, input, expected) => {
    expect(canonicalizePercentEncoding(input)).toBe(expected);
  });

  it('is idempotent: the canonical form is canonical', () => {
    const text = fc.string({
      unit: fc.constantFrom(...'%%%0123456789abcdefABCDEFgz/-~.'.split('')),
    });
    fc.assert(
      fc.property(text, (input) => {
        const once = canonicalizePercentEncoding(input);
        expect(canonicalizePercentEncoding(once)).toBe(once);
      }),
      { numRuns: 2000 },
    );
  });

  it('gives every percent-encoding of an unreserved text that text itself', () => {
    const unreserved = fc.string({
      unit: fc.constantFrom(...'abcxyzABCXYZ0189-._~'.split('')),
      minLength: 1,
    });
    fc.assert(
      fc.property(
        unreserved,
        fc.array(fc.boolean(), { maxLength: 30 }),
        fc.array(fc.boolean(), { maxLength: 30 }),
        (text, encode, lower) => {
          expect(canonicalizePercentEncoding(encodeSome(text, encode, lower))).toBe(text);
        },
      ),
    );
  });

  it('never decodes a character that is not unreserved', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), (byte) => {
        const escape = `%${byte.toString(16).padStart(2, '0')}`;
        const char = String.fromCharCode(byte);
        const expected = UNRESERVED.test(char) ? char : escape.toUpperCase();
        expect(canonicalizePercentEncoding(escape)).toBe(expected);
      }),
    );
  });
});

describe('decodePercentEncoding', () => {
  it.each([
    ['no escape', '/repos/acme/x', '/repos/acme/x'],
    ['ASCII', '/repos/acme/%62lue%2Ffalcon', '/repos/acme/blue/falcon'],
    ['UTF-8', 'bluefalc%C3%B3n', 'bluefalcón'],
    ['astral', '%F0%9F%98%80', '😀'],
    ['invalid UTF-8 reads as U+FFFD', 'a%FFb', 'a\uFFFDb'],
    ['a truncated sequence reads as U+FFFD', 'a%C3', 'a\uFFFD'],
    ['double encoding is decoded once only', '%2562luefalcon', '%62luefalcon'],
    ['a stray % stays', '100%zz %', '100%zz %'],
    ['control characters decode', 'a%0Ab%09', 'a\nb\t'],
  ])('%s: %s → %s', (_name, input, expected) => {
    expect(decodePercentEncoding(input)).toBe(expected);
  });

  it('inverts encodeURIComponent on well-formed text, and never throws', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(decodePercentEncoding(encodeURIComponent(text))).toBe(text);
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(typeof decodePercentEncoding(text)).toBe('string');
      }),
    );
  });
});

describe('percentEncodingForms', () => {
  it.each([
    ['/repos/acme/bluefalcon', ['/repos/acme/bluefalcon']],
    ['/repos/acme/%62luefalcon', ['/repos/acme/%62luefalcon', '/repos/acme/bluefalcon']],
    ['/a%2fb', ['/a%2fb', '/a%2Fb', '/a/b']],
    ['%2562', ['%2562', '%62']],
    ['x%C3%A9', ['x%C3%A9', 'xé']],
  ])('%s → %j', (value, forms) => {
    expect(percentEncodingForms(value)).toEqual(forms);
  });

  it('holds the value first, then its canonical and decoded forms, each once', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'%%62fAzé/'.split('')) }), (value) => {
        const forms = percentEncodingForms(value);
        expect(forms[0]).toBe(value);
        expect(forms).toContain(canonicalizePercentEncoding(value));
        expect(forms).toContain(decodePercentEncoding(value));
        expect(new Set(forms).size).toBe(forms.length);
      }),
    );
  });
});
