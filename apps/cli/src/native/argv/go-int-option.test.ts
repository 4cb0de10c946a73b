import { describe, expect, it } from 'vitest';
import { parseGoInt, parseGoIntValue, parseLimitOption } from './go-int-option.js';

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
    ['-9223372036854775808', -9223372036854775808n],
    ['1_0', 10n],
    ['1_2_3_4_5', 12345n],
    ['0_17', 15n],
    ['0x_1_F', 31n],
    ['-0x5', -5n],
  ])('%s → %s', (text, value) => {
    expect(parseGoInt(text)).toBe(value);
  });

  it.each([
    '',
    'x',
    '1__0',
    '_1',
    '0x',
    '08',
    '0b2',
    '1e3',
    ' 1',
    '0x__1',
    '1_',
    '+',
    '9223372036854775808',
  ])('%j is a flag error', (text) => {
    expect(parseGoInt(text)).toBeUndefined();
  });
});

describe('Go integer errors (syntax or range, in Go’s order)', () => {
  it.each<[string, 'syntax' | 'range']>([
    ['ten', 'syntax'],
    ['1_', 'syntax'],
    ['9223372036854775808', 'range'],
    ['-9223372036854775809', 'range'],
    ['0x10000000000000000', 'range'],
    ['18446744073709551616', 'range'],
    // An overflow is met before the bad digit after it.
    ['99999999999999999999x', 'range'],
    ['9x9999999999999999999', 'syntax'],
  ])('%s: %s', (text, error) => {
    expect(parseGoIntValue(text)).toEqual({ ok: false, error });
  });
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
