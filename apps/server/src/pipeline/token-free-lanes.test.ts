import { afterAll, describe, expect, it } from 'vitest';
import { openTestRedis } from '../scale/__fixtures__/redis-test-connection.js';
import { REDIS_AVAILABLE } from '../scale/__fixtures__/test-redis.js';
import { createRedisAnonymousBudget } from '../scale/redis-anonymous-budget.js';
import { subKeyspace } from '../scale/redis-script.js';
import { forgeResponse } from './__fixtures__/forge-responses.js';
import {
  ANONYMOUS_SPENT_DEFAULT_MS,
  ANONYMOUS_SPENT_MAX_MS,
  createAnonymousBudget,
  type AnonymousBudget,
} from './token-free-lanes.js';

const T0 = Date.parse('2030-03-01T09:00:00Z');

/**
 * Every implementation runs the same rules: one process's memory, and the marks replicas share
 * on Redis — there every answer is observed by one replica and every question asked of another,
 * so each rule also holds across replicas.
 */
interface BudgetSubject {
  readonly name: string;
  /** Two replicas' budgets over one shared state (the same object in one process). */
  readonly replicas: (now: () => number) => {
    readonly observer: AnonymousBudget;
    readonly reader: AnonymousBudget;
    readonly settled: () => Promise<void>;
  };
}

const redis = REDIS_AVAILABLE ? await openTestRedis() : undefined;
afterAll(async () => {
  await redis?.close();
});
let serial = 0;
const BUDGETS: BudgetSubject[] = [
  {
    name: 'memory',
    replicas: (now) => {
      const shared = createAnonymousBudget(now);
      return { observer: shared, reader: shared, settled: () => Promise.resolve() };
    },
  },
  ...(redis === undefined
    ? []
    : [
        {
          name: 'redis',
          replicas: (now: () => number) => {
            const keys = subKeyspace(redis, `b${String(++serial)}`);
            const observer = createRedisAnonymousBudget({ redis: keys, now });
            const reader = createRedisAnonymousBudget({ redis: keys, now });
            return { observer, reader, settled: () => observer.settled() };
          },
        },
      ]),
];

function setUp(subject: BudgetSubject) {
  let now = T0;
  const { observer, reader, settled } = subject.replicas(() => now);
  return {
    budget: {
      async observe(...args: Parameters<AnonymousBudget['observe']>) {
        observer.observe(...args);
        await settled();
      },
      isSpent: (bucket: string) => reader.isSpent(bucket),
    },
    advance: (ms: number) => (now += ms),
  };
}

describe.each(BUDGETS)('anonymous rate-limit memory: $name', (subject) => {
  it('knows nothing spent at first', async () => {
    expect(await setUp(subject).budget.isSpent('core')).toBe(false);
  });

  it('skips a spent bucket until x-ratelimit-reset, then asks again', async () => {
    const h = setUp(subject);
    const reset = (T0 + 600_000) / 1000;
    await h.budget.observe(
      'core',
      forgeResponse(403, null, { remaining: 0, resetEpochSeconds: reset, resource: 'core' }),
    );
    expect(await h.budget.isSpent('core')).toBe(true);
    expect(await h.budget.isSpent('search')).toBe(false);
    h.advance(599_999);
    expect(await h.budget.isSpent('core')).toBe(true);
    h.advance(1);
    expect(await h.budget.isSpent('core')).toBe(false);
  });

  it('marks the bucket spent after the last request of the window (a 200 with remaining 0)', async () => {
    const h = setUp(subject);
    await h.budget.observe(
      'core',
      forgeResponse(200, {}, { remaining: 0, resetEpochSeconds: (T0 + 60_000) / 1000 }),
    );
    expect(await h.budget.isSpent('core')).toBe(true);
  });

  it('files the answer under its x-ratelimit-resource', async () => {
    const h = setUp(subject);
    await h.budget.observe(
      'core',
      forgeResponse(403, null, {
        remaining: 0,
        resetEpochSeconds: (T0 + 60_000) / 1000,
        resource: 'search',
      }),
    );
    expect(await h.budget.isSpent('search')).toBe(true);
    expect(await h.budget.isSpent('core')).toBe(false);
  });

  it('a throttle lasts as long as its Retry-After, not until the window resets', async () => {
    const h = setUp(subject);
    await h.budget.observe(
      'core',
      forgeResponse(403, null, {
        remaining: 12,
        retryAfterSeconds: 30,
        resetEpochSeconds: (T0 + 3_000_000) / 1000,
      }),
    );
    expect(await h.budget.isSpent('core')).toBe(true);
    h.advance(30_000);
    expect(await h.budget.isSpent('core')).toBe(false);
  });

  it('a 429 without any header is skipped for the default time', async () => {
    const h = setUp(subject);
    await h.budget.observe('core', forgeResponse(429, null));
    h.advance(ANONYMOUS_SPENT_DEFAULT_MS - 1);
    expect(await h.budget.isSpent('core')).toBe(true);
    h.advance(1);
    expect(await h.budget.isSpent('core')).toBe(false);
  });

  it('a reset in the past or absurdly far ahead is bounded', async () => {
    const past = setUp(subject);
    await past.budget.observe(
      'core',
      forgeResponse(403, null, { remaining: 0, resetEpochSeconds: (T0 - 1000) / 1000 }),
    );
    past.advance(ANONYMOUS_SPENT_DEFAULT_MS);
    expect(await past.budget.isSpent('core')).toBe(false);

    const far = setUp(subject);
    await far.budget.observe(
      'core',
      forgeResponse(403, null, { remaining: 0, resetEpochSeconds: (T0 + 10 * 3_600_000) / 1000 }),
    );
    far.advance(ANONYMOUS_SPENT_MAX_MS);
    expect(await far.budget.isSpent('core')).toBe(false);
  });

  it('an answer with budget left clears the mark; one without rate headers leaves it', async () => {
    const h = setUp(subject);
    const spent = forgeResponse(403, null, {
      remaining: 0,
      resetEpochSeconds: (T0 + 600_000) / 1000,
    });
    await h.budget.observe('core', spent);
    await h.budget.observe('core', forgeResponse(200, {}));
    expect(await h.budget.isSpent('core')).toBe(true);
    await h.budget.observe('core', forgeResponse(200, {}, { remaining: 59 }));
    expect(await h.budget.isSpent('core')).toBe(false);
  });

  it('a 403 that is not a rate limit marks nothing', async () => {
    const h = setUp(subject);
    await h.budget.observe('core', forgeResponse(403, { message: 'no' }, { remaining: 10 }));
    expect(await h.budget.isSpent('core')).toBe(false);
  });
});
