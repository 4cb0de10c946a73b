import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMaxAge } from './cache-control-parser.js';

describe('parseMaxAge', () => {
  it.each<[string | undefined, number | undefined]>([
    [undefined, undefined],
    ['', undefined],
    ['no-cache', undefined],
    ['max-age=0', 0],
    ['max-age=60', 60],
    ['MAX-AGE=60', 60],
    ['no-store, max-age=5', 5],
    [' max-age = 7 ', 7],
    ['max-age="9"', 9],
    ['max-age=10, max-age=3', 3],
    ['max-age=-1', undefined],
    ['max-age=1.5', undefined],
    ['max-age=abc', undefined],
    ['max-age=', undefined],
    ['s-maxage=5', undefined],
    ['max-stale=5', undefined],
    ['max-age=99999999999999999999', 2 ** 31],
  ])('reads %j as %j', (header, expected) => {
    expect(parseMaxAge(header)).toBe(expected);
  });

  it('reads back any bound it is given, among other directives (property)', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 2 ** 31 }),
        fc.constantFrom('', 'no-cache, ', 'public,'),
        (n, pre) => {
          expect(parseMaxAge(`${pre}max-age=${n}`)).toBe(n);
        },
      ),
    );
  });

  it('never throws and returns a non-negative integer or undefined (property)', () => {
    fc.assert(
      fc.property(fc.string(), (header) => {
        const bound = parseMaxAge(header);
        if (bound !== undefined) expect(Number.isInteger(bound) && bound >= 0).toBe(true);
      }),
    );
  });
});
