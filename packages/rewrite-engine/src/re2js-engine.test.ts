import { describe, expect, it } from 'vitest';
import { re2jsEngine } from './re2js-engine.js';

function spans(pattern: string, text: string): number[] {
  const regex = re2jsEngine.compile(pattern);
  if (regex === null) throw new Error('refused');
  const found: number[] = [];
  regex.forEachMatch(text, (start, end) => {
    found.push(start, end);
    return true;
  });
  return found;
}

describe('re2jsEngine', () => {
  it.each([
    ['b', 'a😀b😀b', [3, 4, 6, 7]],
    ['😀', 'é😀😀', [1, 3, 3, 5]],
    ['[^a]', 'a😀', [1, 3]],
    ['\\bx', 'x yx x', [0, 1, 5, 6]],
  ])('reports UTF-16 offsets: %j in %j', (pattern, text, expected) => {
    expect(spans(pattern, text)).toEqual(expected);
  });

  it('stops when the visitor says so, and tests without positions', () => {
    const regex = re2jsEngine.compile('a');
    const found: number[] = [];
    regex?.forEachMatch('aaa', (start) => {
      found.push(start);
      return false;
    });
    expect(found).toEqual([0]);
    expect(regex?.test('xa')).toBe(true);
    expect(regex?.test('x')).toBe(false);
  });

  it('returns null for a pattern it cannot compile', () => {
    expect(re2jsEngine.compile('(')).toBeNull();
  });
});
