import { describe, expect, it } from 'vitest';
import { quoteGo, quoteGoList } from './go-quote.js';

describe('quoteGo: Go’s %q of ASCII text', () => {
  it.each<[string, string | undefined]>([
    ['abc', '"abc"'],
    ['', '""'],
    ['a"b\\c', '"a\\"b\\\\c"'],
    ['\x07\b\f\n\r\t\v', '"\\a\\b\\f\\n\\r\\t\\v"'],
    ['\x00\x1b\x7f', '"\\x00\\x1b\\x7f"'],
    ["it's `x`", '"it\'s `x`"'],
    ['é', undefined],
  ])('%j → %s', (text, quoted) => {
    expect(quoteGo(text)).toBe(quoted);
  });

  it('quotes a slice the way fmt prints []string with %q', () => {
    expect(quoteGoList(['a', 'b c'])).toBe('["a" "b c"]');
    expect(quoteGoList(['a', 'ü'])).toBeUndefined();
  });
});
