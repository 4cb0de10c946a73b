import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { openTestRedis } from '../scale/__fixtures__/redis-test-connection.js';
import { REDIS_AVAILABLE } from '../scale/__fixtures__/test-redis.js';
import { createRedisPaceLedger } from '../scale/redis-pace-ledger.js';
import { subKeyspace } from '../scale/redis-script.js';
import {
  PACE_RECOVERY_MS,
  PACE_WINDOW_MS,
  createMemoryPaceLedger,
  scalePaceLimits,
  toPaceFactor,
  type PaceLedger,
} from './pace-ledger.js';

const T0 = 1_700_000_000_000;
const LIMITS = { maxInFlight: 3, pointsPerMinute: 5 };

/**
 * Every implementation runs the same tests: the in-process ledger, and the Redis one of several
 * replicas (each test on keys of its own). `replicas` gives three ledgers over one shared state,
 * as three relay processes have.
 */
interface LedgerSubject {
  readonly name: string;
  readonly create: () => PaceLedger;
  readonly replicas: () => readonly [PaceLedger, PaceLedger, PaceLedger];
}

const redis = REDIS_AVAILABLE ? await openTestRedis() : undefined;
afterAll(async () => {
  await redis?.close();
});
let serial = 0;
const LEDGERS: LedgerSubject[] = [
  {
    name: 'memory',
    create: () => createMemoryPaceLedger(),
    replicas: () => {
      const shared = createMemoryPaceLedger();
      return [shared, shared, shared];
    },
  },
  ...(redis === undefined
    ? []
    : [
        {
          name: 'redis',
          create: () => createRedisPaceLedger({ redis: subKeyspace(redis, `p${++serial}`) }),
          replicas: () => {
            const keys = subKeyspace(redis, `p${++serial}`);
            return [
              createRedisPaceLedger({ redis: keys }),
              createRedisPaceLedger({ redis: keys }),
              createRedisPaceLedger({ redis: keys }),
            ] as const;
          },
        },
      ]),
];

describe.each(LEDGERS)('PaceLedger: $name', (subject) => {
  const { create } = subject;
  it('never admits more than the points of a 60 s window, nor more in flight, whatever three replicas interleave', async () => {
    const limits = { maxInFlight: 3, pointsPerMinute: 7 };
    const step = fc.record({
      advanceMs: fc.integer({ min: 0, max: 9_000 }),
      // Operations sent at once by the replicas (concurrent calls on the shared state).
      batch: fc.array(fc.record({ replica: fc.integer({ min: 0, max: 2 }), take: fc.boolean() }), {
        minLength: 1,
        maxLength: 5,
      }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 30 }), async (steps) => {
        const ledgers = subject.replicas();
        const held: (string | undefined)[][] = [[], [], []];
        const admittedAt: number[] = [];
        let at = T0;
        for (const { advanceMs, batch } of steps) {
          at += advanceMs;
          const now = at;
          await Promise.all(
            batch.map(async ({ replica, take }) => {
              const ledger = ledgers[replica]!;
              const mine = held[replica]!;
              if (!take && mine.length > 0) {
                const slot = mine.shift();
                await ledger.release('id', now, slot);
                return;
              }
              const admission = await ledger.tryTake('id', limits, now);
              if (admission.ok) {
                admittedAt.push(now);
                mine.push(admission.slot);
              }
            }),
          );
          expect(held.flat().length).toBeLessThanOrEqual(limits.maxInFlight);
        }
        for (const t of admittedAt) {
          const inWindow = admittedAt.filter((u) => u > t - PACE_WINDOW_MS && u <= t).length;
          expect(inWindow).toBeLessThanOrEqual(limits.pointsPerMinute);
        }
        // The first request of a run always finds headroom.
        expect(admittedAt.length).toBeGreaterThan(0);
      }),
      { numRuns: 40 },
    );
  });

  it('admits pointsPerMinute points in a window and frees the oldest exactly 60 s later', async () => {
    const ledger = create();
    for (let i = 0; i < 5; i++) {
      expect(await ledger.tryTake('a', LIMITS, T0 + i * 1000)).toMatchObject({ ok: true });
      await ledger.release('a', T0 + i * 1000);
    }
    expect(await ledger.tryTake('a', LIMITS, T0 + 10_000)).toEqual({
      ok: false,
      retryAt: T0 + PACE_WINDOW_MS,
    });
    // One millisecond before the edge the first point still counts; at the edge it is gone.
    expect((await ledger.tryTake('a', LIMITS, T0 + PACE_WINDOW_MS - 1)).ok).toBe(false);
    expect(await ledger.tryTake('a', LIMITS, T0 + PACE_WINDOW_MS)).toMatchObject({ ok: true });
    expect(await ledger.tryTake('a', LIMITS, T0 + PACE_WINDOW_MS)).toEqual({
      ok: false,
      retryAt: T0 + 1000 + PACE_WINDOW_MS,
    });
  });

  it('bounds the requests in flight, and a release frees a slot', async () => {
    const ledger = create();
    for (let i = 0; i < 3; i++) expect((await ledger.tryTake('a', LIMITS, T0)).ok).toBe(true);
    expect(await ledger.tryTake('a', LIMITS, T0)).toEqual({ ok: false, retryAt: undefined });
    await ledger.release('a', T0 + 5);
    expect((await ledger.tryTake('a', LIMITS, T0 + 5)).ok).toBe(true);
  });

  it('keeps keys apart', async () => {
    const ledger = create();
    for (let i = 0; i < 3; i++) await ledger.tryTake('a', LIMITS, T0);
    expect((await ledger.tryTake('b', LIMITS, T0)).ok).toBe(true);
  });

  it('halves the pace after a penalty and restores it linearly over ten minutes', async () => {
    const ledger = create();
    const limits = { maxInFlight: 80, pointsPerMinute: 720 };
    expect(await ledger.penalize('a', T0)).toBe(0.5);
    expect(await ledger.inspect('a', limits, T0)).toMatchObject({
      factor: 0.5,
      limits: { maxInFlight: 40, pointsPerMinute: 360 },
    });
    expect((await ledger.inspect('a', limits, T0 + PACE_RECOVERY_MS / 2)).factor).toBe(0.75);
    expect((await ledger.inspect('a', limits, T0 + PACE_RECOVERY_MS)).factor).toBe(1);
    // A second penalty halves the factor it finds.
    await ledger.penalize('b', T0);
    expect(await ledger.penalize('b', T0 + PACE_RECOVERY_MS / 2)).toBe(0.375);
  });

  it('refuses at the halved pace', async () => {
    const ledger = create();
    await ledger.penalize('a', T0);
    const limits = { maxInFlight: 10, pointsPerMinute: 4 };
    expect((await ledger.tryTake('a', limits, T0)).ok).toBe(true);
    expect((await ledger.tryTake('a', limits, T0)).ok).toBe(true);
    expect((await ledger.tryTake('a', limits, T0)).ok).toBe(false);
  });
});

describe('toPaceFactor and scalePaceLimits', () => {
  it.each([
    [0.5, undefined, 0, 1],
    [0.5, T0, T0, 0.5],
    [0.25, T0, T0 + PACE_RECOVERY_MS, 0.75],
    [0.5, T0, T0 + 2 * PACE_RECOVERY_MS, 1],
  ])('factor after %d at %s, now %d → %d', (penalty, at, now, factor) => {
    expect(toPaceFactor(penalty, at, now)).toBe(factor);
  });

  it('never scales below one', () => {
    expect(scalePaceLimits({ maxInFlight: 1, pointsPerMinute: 1 }, 1 / 16)).toEqual({
      maxInFlight: 1,
      pointsPerMinute: 1,
    });
  });
});
