import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { COOLDOWN_MS, UNKNOWN_RATE_BUDGET } from '@relay/protocol';
import {
  assumeRateBudget,
  parseRateLimitHeaders,
  supersedesRateState,
  type RateState,
} from './rate-state.js';

const NOW = Date.UTC(2026, 0, 1);
const RESET_S = NOW / 1000 + 600;

describe('parseRateLimitHeaders', () => {
  it('reads limit, remaining, reset and resource', () => {
    const state = parseRateLimitHeaders(
      {
        'X-RateLimit-Limit': '5000',
        'X-RateLimit-Remaining': '4321',
        'X-RateLimit-Reset': String(RESET_S),
        'X-RateLimit-Resource': 'search',
      },
      'core',
      NOW,
    );
    expect(state).toEqual({
      bucket: 'search',
      limit: 5000,
      remaining: 4321,
      resetAt: RESET_S * 1000,
      observedAt: NOW,
    });
  });

  it.each([
    [{}, undefined],
    [{ 'x-ratelimit-remaining': 'many' }, undefined],
    [{ 'x-ratelimit-remaining': '-1' }, undefined],
  ])('records nothing without a usable remaining count (%o)', (headers, expected) => {
    expect(parseRateLimitHeaders(headers, 'core', NOW)).toBe(expected);
  });

  it.each([
    [{ 'x-ratelimit-remaining': '7' }, 'core', NOW + COOLDOWN_MS],
    [
      { 'x-ratelimit-remaining': '7', 'x-ratelimit-resource': 'Bad Name!' },
      'core',
      NOW + COOLDOWN_MS,
    ],
    [{ 'x-ratelimit-remaining': '7', 'x-ratelimit-reset': 'later' }, 'core', NOW + COOLDOWN_MS],
  ])('falls back to the route bucket and a 120 s reset (%o)', (headers, bucket, resetAt) => {
    expect(parseRateLimitHeaders(headers, 'core', NOW)).toMatchObject({
      bucket,
      resetAt,
      remaining: 7,
    });
  });
});

describe('assumeRateBudget', () => {
  const state = (remaining: number, resetAt: number, limit?: number): RateState => ({
    bucket: 'core',
    limit,
    remaining,
    resetAt,
    observedAt: NOW - 1000,
  });

  it.each([
    ['unknown budget is a fresh 5000', undefined, UNKNOWN_RATE_BUDGET, false],
    ['observed budget before reset', state(1234, NOW + 1), 1234, false],
    ['spent budget before reset is exhausted', state(0, NOW + 1), 0, true],
    ['spent budget heals at the reset time', state(0, NOW, 5000), 5000, false],
    [
      'a reset window without a limit is a fresh 5000',
      state(10, NOW - 1),
      UNKNOWN_RATE_BUDGET,
      false,
    ],
    ['a reset window with a limit is that limit', state(10, NOW - 1, 15000), 15000, false],
  ] as const)('%s', (_name, observed, remaining, exhausted) => {
    const budget = assumeRateBudget(observed, NOW);
    expect(budget.remaining).toBe(remaining);
    expect(budget.exhausted).toBe(exhausted);
  });

  it('says when an exhausted budget heals', () => {
    expect(assumeRateBudget(state(0, NOW + 5000), NOW).healsAt).toBe(NOW + 5000);
  });
});

describe('supersedesRateState', () => {
  const arbitraryState = fc.record({
    bucket: fc.constant('core'),
    limit: fc.constant(5000),
    remaining: fc.nat(5000),
    resetAt: fc.integer({ min: NOW, max: NOW + 3 * 3_600_000 }),
    observedAt: fc.constant(NOW),
  });

  it('keeps the same survivor whatever order observations arrive in', () => {
    fc.assert(
      fc.property(fc.array(arbitraryState, { minLength: 1, maxLength: 12 }), (observations) => {
        const fold = (list: readonly RateState[]) =>
          list.reduce<RateState | undefined>(
            (kept, next) => (supersedesRateState(kept, next) ? next : kept),
            undefined,
          );
        const forward = fold(observations);
        const backward = fold([...observations].reverse());
        const latest = Math.max(...observations.map((o) => o.resetAt));
        const lowest = Math.min(
          ...observations.filter((o) => o.resetAt === latest).map((o) => o.remaining),
        );
        expect(forward).toMatchObject({ resetAt: latest, remaining: lowest });
        expect(backward).toMatchObject({ resetAt: latest, remaining: lowest });
      }),
    );
  });
});
