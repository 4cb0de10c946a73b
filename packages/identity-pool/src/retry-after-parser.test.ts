import { describe, expect, it } from 'vitest';
import { MAX_RETRY_AFTER_MS, parseRetryAfter } from './retry-after-parser.js';

const NOW = Date.UTC(2026, 0, 1);

describe('parseRetryAfter', () => {
  it.each([
    ['120', 120_000],
    ['0', 0],
    [' 5 ', 5_000],
    [new Date(NOW + 90_000).toUTCString(), 90_000],
    [new Date(NOW - 90_000).toUTCString(), 0],
    ['999999', MAX_RETRY_AFTER_MS],
    ['-5', undefined],
    ['1.5', undefined],
    ['soon', undefined],
    ['', undefined],
  ])('%j → %s', (value, expected) => {
    expect(parseRetryAfter({ 'retry-after': value }, NOW)).toBe(expected);
  });

  it('is absent when the header is', () => {
    expect(parseRetryAfter(new Headers(), NOW)).toBeUndefined();
  });

  it('reads WHATWG Headers and arrays', () => {
    expect(parseRetryAfter(new Headers({ 'Retry-After': '3' }), NOW)).toBe(3_000);
    expect(parseRetryAfter({ 'Retry-After': ['4', '9'] }, NOW)).toBe(4_000);
  });
});
