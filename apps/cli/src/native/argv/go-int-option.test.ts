import { describe, expect, it } from 'vitest';
import { parseGoInt, parseLimitOption } from './go-int-option.js';

describe('Go integer syntax (strconv.ParseInt base 0)', () => {
  it.each([
    ['30', 30n],
    ['+7', 7n],
    ['-1', -1n],
    ['0x1F', 31n],
    ['0o17', 15n],
    ['017', 15n],
    ['0b101', 5n],
    ['0x_1f', 31n],
    ['0', 0n],
    ['9223372036854775807', 9223372036854775807n],
  ])('%s → %s', (text, value) => {
    expect(parseGoInt(text)).toBe(value);
  });

  it.each(['', 'x', '1_0', '0x', '08', '0b2', '1e3', ' 1', '0x__1', '1_', '9223372036854775808'])(
    '%j is a flag error',
    (text) => {
      expect(parseGoInt(text)).toBeUndefined();
    },
  );
});

describe('--limit (client rule 12)', () => {
  it.each([
    [undefined, { ok: true, limit: 30 }],
    [['5', '0x10'], { ok: true, limit: 16 }],
    [['100'], { ok: true, limit: 100 }],
    [['101'], { ok: false, reason: 'unsupported_flag' }],
    [['0'], { ok: false, reason: 'invalid_usage' }],
    [['-3'], { ok: false, reason: 'invalid_usage' }],
    [['ten'], { ok: false, reason: 'invalid_usage' }],
  ])('%j → %j', (values, outcome) => {
    expect(parseLimitOption(values, 30)).toEqual(outcome);
  });
});
