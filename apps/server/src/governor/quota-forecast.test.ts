import { describe, expect, it } from 'vitest';
import { createPoolQuotaReader, forecastBucket } from './quota-forecast.js';
import { createUsageTally } from './usage-tally.js';

const NOW = Date.parse('2030-03-01T10:38:00Z');
const RESET = Date.parse('2030-03-01T11:30:00Z');

describe('forecastBucket', () => {
  it('sums the identities and says when the pool runs out before the reset', () => {
    const quota = forecastBucket({
      bucket: 'core',
      observations: [
        { remaining: 3_000, limit: 5_000, resetAt: RESET },
        { remaining: 4_400, limit: 5_000, resetAt: RESET + 600_000 },
      ],
      usedLastMinute: 1_800,
      now: NOW,
    });
    expect(quota).toEqual({
      limit: 10_000,
      remaining: 7_400,
      used_last_minute: 1_800,
      resets_at: '2030-03-01T11:30:00.000Z',
      // 7,400 at 1,800 a minute: 4 min 6.67 s.
      exhausts_at: '2030-03-01T10:42:06.667Z',
    });
  });

  it('counts a never-seen identity and a reset window as fresh', () => {
    const quota = forecastBucket({
      bucket: 'core',
      observations: [undefined, { remaining: 0, limit: 5_000, resetAt: NOW - 1 }],
      usedLastMinute: 0,
      now: NOW,
    });
    expect(quota).toMatchObject({ limit: 10_000, remaining: 10_000, exhausts_at: null });
    expect(quota.resets_at).toBe(new Date(NOW + 3_600_000).toISOString());
  });

  it('is null when the budget lasts until the reset', () => {
    const quota = forecastBucket({
      bucket: 'core',
      observations: [{ remaining: 4_000, limit: 5_000, resetAt: RESET }],
      usedLastMinute: 10,
      now: NOW,
    });
    expect(quota.exhausts_at).toBeNull();
  });

  it('assumes GitHub’s search budgets for a never-seen identity', () => {
    expect(
      forecastBucket({ bucket: 'search', observations: [undefined], usedLastMinute: 0, now: NOW }),
    ).toMatchObject({ limit: 30, remaining: 30 });
    expect(
      forecastBucket({
        bucket: 'code_search',
        observations: [undefined],
        usedLastMinute: 0,
        now: NOW,
      }),
    ).toMatchObject({ limit: 10, remaining: 10 });
  });
});

describe('createPoolQuotaReader', () => {
  it('reports core and every bucket seen, with this pool’s requests of the last minute', async () => {
    let now = NOW;
    const usage = createUsageTally(() => now);
    usage.record('pat-1', 'core');
    usage.record('pat-2', 'core');
    usage.record('pat-2', 'search');
    usage.record('other-pool-identity', 'core');
    const read = createPoolQuotaReader({
      readStatus: () =>
        Promise.resolve(
          new Map([
            [
              'pat-1',
              {
                rates: [
                  {
                    bucket: 'core',
                    remaining: 100,
                    limit: 5_000,
                    resetAt: RESET,
                    exhausted: false,
                  },
                ],
                cooldowns: [],
              },
            ],
          ]),
        ),
      buckets: new Set(['core']),
      usage,
      now: () => now,
    });
    const quota = await read(['pat-1', 'pat-2']);
    expect(Object.keys(quota)).toEqual(['core', 'search']);
    expect(quota.core).toMatchObject({ limit: 10_000, remaining: 5_100, used_last_minute: 2 });
    expect(quota.search).toMatchObject({ limit: 60, remaining: 60, used_last_minute: 1 });
    now += 61_000;
    expect((await read(['pat-1', 'pat-2'])).core?.used_last_minute).toBe(0);
  });
});
