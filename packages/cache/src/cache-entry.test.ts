import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSameLane, utf8Length, type ValidatorLane } from './cache-entry.js';

describe('isSameLane', () => {
  it.each<[ValidatorLane, ValidatorLane, boolean]>([
    [{ kind: 'anonymous' }, { kind: 'anonymous' }, true],
    [{ kind: 'identity', id: 'pat-1' }, { kind: 'identity', id: 'pat-1' }, true],
    [{ kind: 'identity', id: 'pat-1' }, { kind: 'identity', id: 'pat-2' }, false],
    [{ kind: 'identity', id: 'pat-1' }, { kind: 'anonymous' }, false],
    [{ kind: 'anonymous' }, { kind: 'identity', id: 'pat-1' }, false],
  ])('%j and %j: %s', (a, b, expected) => {
    expect(isSameLane(a, b)).toBe(expected);
  });
});

describe('utf8Length', () => {
  it('matches the encoded length of any string, lone surrogates included (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
      }),
    );
  });
});
