import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countUtf8Bytes,
  exceedsUtf8Bytes,
  findLoneSurrogate,
  isWellFormedUnicode,
  utf8ByteLength,
} from './text-encoding.js';

describe('text encoding', () => {
  it.each([
    ['', 0],
    ['a', 1],
    ['é', 2],
    ['€', 3],
    ['😀', 4],
    ['\ud800', 3],
    ['a\udc00b', 5],
  ])('%j is %d UTF-8 bytes', (text, bytes) => {
    expect(countUtf8Bytes(text)).toBe(bytes);
    expect(utf8ByteLength(text)).toBe(bytes);
  });

  it('the portable count equals TextEncoder on any string (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const expected = new TextEncoder().encode(text).length;
        expect(countUtf8Bytes(text)).toBe(expected);
        expect(exceedsUtf8Bytes(text, 10)).toBe(expected > 10);
      }),
    );
  });

  it.each([
    ['abc', -1],
    ['a😀', -1],
    ['a\ud83d', 1],
    ['\ude00a', 0],
    ['😀\ude00', 2],
  ])('lone surrogate in %j at %d', (text, index) => {
    expect(findLoneSurrogate(text)).toBe(index);
    expect(isWellFormedUnicode(text)).toBe(index < 0);
  });

  it('isWellFormedUnicode agrees with the portable scan', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(isWellFormedUnicode(text)).toBe(findLoneSurrogate(text) < 0);
      }),
    );
  });
});
