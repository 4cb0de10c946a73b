import { describe, expect, it } from 'vitest';
import { parseRateLimitHeaders } from './rate-limit-parser.js';

const NOW = Date.parse('2026-11-22T10:00:00Z');

describe('parseRateLimitHeaders', () => {
  it('parses every rate-limit header', () => {
    expect(
      parseRateLimitHeaders(
        {
          'x-ratelimit-limit': '5000',
          'x-ratelimit-remaining': '4999',
          'x-ratelimit-used': '1',
          'x-ratelimit-reset': '1691591363',
          'x-ratelimit-resource': 'core',
          'retry-after': '60',
        },
        NOW,
      ),
    ).toEqual({
      limit: 5000,
      remaining: 4999,
      used: 1,
      resetEpochSeconds: 1691591363,
      resource: 'core',
      retryAfterSeconds: 60,
    });
  });

  it('gives an empty record when no header is present', () => {
    expect(parseRateLimitHeaders({ 'content-type': 'application/json' }, NOW)).toEqual({});
  });

  it.each([
    ['x-ratelimit-remaining', '0', { remaining: 0 }],
    ['x-ratelimit-remaining', ' 12 ', { remaining: 12 }],
    ['x-ratelimit-remaining', '-1', {}],
    ['x-ratelimit-remaining', '1.5', {}],
    ['x-ratelimit-remaining', '1e3', {}],
    ['x-ratelimit-remaining', '0x10', {}],
    ['x-ratelimit-remaining', '', {}],
    ['x-ratelimit-remaining', '9007199254740992', {}],
    ['x-ratelimit-reset', '9007199254740991', { resetEpochSeconds: 9007199254740991 }],
    ['x-ratelimit-limit', '12345678901234567', {}],
    ['x-ratelimit-resource', 'code_search', { resource: 'code_search' }],
    ['x-ratelimit-resource', 'integration_manifest', { resource: 'integration_manifest' }],
    ['x-ratelimit-resource', 'Core', {}],
    ['x-ratelimit-resource', 'core search', {}],
    ['x-ratelimit-resource', '', {}],
    ['retry-after', '0', { retryAfterSeconds: 0 }],
    ['retry-after', 'Sun, 22 Nov 2026 10:02:00 GMT', { retryAfterSeconds: 120 }],
    ['retry-after', 'Sun, 22 Nov 2026 10:00:00 GMT', { retryAfterSeconds: 0 }],
    ['retry-after', 'Sun, 22 Nov 2026 09:00:00 GMT', { retryAfterSeconds: 0 }],
    ['retry-after', 'Sun, 22 Nov 2026 10:00:00.5 GMT', { retryAfterSeconds: 1 }],
    ['retry-after', 'soon', {}],
    ['retry-after', '2026-11-22', {}],
    ['retry-after', '-5', {}],
  ] as const)('%s: %j → %j', (name, value, expected) => {
    expect(parseRateLimitHeaders({ [name]: value }, NOW)).toEqual(expected);
  });

  it('ignores a repeated header as ambiguous', () => {
    expect(parseRateLimitHeaders({ 'x-ratelimit-remaining': ['1', '2'] }, NOW)).toEqual({});
  });
});
