import { describe, expect, it } from 'vitest';
import { forgeResponse } from './__fixtures__/forge-responses.js';
import {
  ANONYMOUS_SPENT_DEFAULT_MS,
  ANONYMOUS_SPENT_MAX_MS,
  createAnonymousBudget,
} from './token-free-lanes.js';

const T0 = Date.parse('2030-03-01T09:00:00Z');

function setUp() {
  let now = T0;
  const budget = createAnonymousBudget(() => now);
  return { budget, advance: (ms: number) => (now += ms) };
}

describe('anonymous rate-limit memory', () => {
  it('knows nothing spent at first', () => {
    expect(setUp().budget.isSpent('core')).toBe(false);
  });

  it('skips a spent bucket until x-ratelimit-reset, then asks again', () => {
    const h = setUp();
    const reset = (T0 + 600_000) / 1000;
    h.budget.observe(
      'core',
      forgeResponse(403, null, { remaining: 0, resetEpochSeconds: reset, resource: 'core' }),
    );
    expect(h.budget.isSpent('core')).toBe(true);
    expect(h.budget.isSpent('search')).toBe(false);
    h.advance(599_999);
    expect(h.budget.isSpent('core')).toBe(true);
    h.advance(1);
    expect(h.budget.isSpent('core')).toBe(false);
  });

  it('marks the bucket spent after the last request of the window (a 200 with remaining 0)', () => {
    const h = setUp();
    h.budget.observe(
      'core',
      forgeResponse(200, {}, { remaining: 0, resetEpochSeconds: (T0 + 60_000) / 1000 }),
    );
    expect(h.budget.isSpent('core')).toBe(true);
  });

  it('files the answer under its x-ratelimit-resource', () => {
    const h = setUp();
    h.budget.observe(
      'core',
      forgeResponse(403, null, {
        remaining: 0,
        resetEpochSeconds: (T0 + 60_000) / 1000,
        resource: 'search',
      }),
    );
    expect(h.budget.isSpent('search')).toBe(true);
    expect(h.budget.isSpent('core')).toBe(false);
  });

  it('a throttle lasts as long as its Retry-After, not until the window resets', () => {
    const h = setUp();
    h.budget.observe(
      'core',
      forgeResponse(403, null, {
        remaining: 12,
        retryAfterSeconds: 30,
        resetEpochSeconds: (T0 + 3_000_000) / 1000,
      }),
    );
    expect(h.budget.isSpent('core')).toBe(true);
    h.advance(30_000);
    expect(h.budget.isSpent('core')).toBe(false);
  });

  it('a 429 without any header is skipped for the default time', () => {
    const h = setUp();
    h.budget.observe('core', forgeResponse(429, null));
    h.advance(ANONYMOUS_SPENT_DEFAULT_MS - 1);
    expect(h.budget.isSpent('core')).toBe(true);
    h.advance(1);
    expect(h.budget.isSpent('core')).toBe(false);
  });

  it('a reset in the past or absurdly far ahead is bounded', () => {
    const past = setUp();
    past.budget.observe(
      'core',
      forgeResponse(403, null, { remaining: 0, resetEpochSeconds: (T0 - 1000) / 1000 }),
    );
    past.advance(ANONYMOUS_SPENT_DEFAULT_MS);
    expect(past.budget.isSpent('core')).toBe(false);

    const far = setUp();
    far.budget.observe(
      'core',
      forgeResponse(403, null, { remaining: 0, resetEpochSeconds: (T0 + 10 * 3_600_000) / 1000 }),
    );
    far.advance(ANONYMOUS_SPENT_MAX_MS);
    expect(far.budget.isSpent('core')).toBe(false);
  });

  it('an answer with budget left clears the mark; one without rate headers leaves it', () => {
    const h = setUp();
    const spent = forgeResponse(403, null, {
      remaining: 0,
      resetEpochSeconds: (T0 + 600_000) / 1000,
    });
    h.budget.observe('core', spent);
    h.budget.observe('core', forgeResponse(200, {}));
    expect(h.budget.isSpent('core')).toBe(true);
    h.budget.observe('core', forgeResponse(200, {}, { remaining: 59 }));
    expect(h.budget.isSpent('core')).toBe(false);
  });

  it('a 403 that is not a rate limit marks nothing', () => {
    const h = setUp();
    h.budget.observe('core', forgeResponse(403, { message: 'no' }, { remaining: 10 }));
    expect(h.budget.isSpent('core')).toBe(false);
  });
});
