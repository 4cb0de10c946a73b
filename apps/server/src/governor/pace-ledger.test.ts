import { describe, expect, it } from 'vitest';
import {
  PACE_RECOVERY_MS,
  PACE_WINDOW_MS,
  createMemoryPaceLedger,
  scalePaceLimits,
  toPaceFactor,
} from './pace-ledger.js';

const T0 = 1_700_000_000_000;
const LIMITS = { maxInFlight: 3, pointsPerMinute: 5 };

describe('createMemoryPaceLedger', () => {
  it('admits pointsPerMinute points in a window and frees the oldest exactly 60 s later', () => {
    const ledger = createMemoryPaceLedger();
    for (let i = 0; i < 5; i++) {
      expect(ledger.tryTake('a', LIMITS, T0 + i * 1000)).toEqual({ ok: true });
      ledger.release('a', T0 + i * 1000);
    }
    expect(ledger.tryTake('a', LIMITS, T0 + 10_000)).toEqual({
      ok: false,
      retryAt: T0 + PACE_WINDOW_MS,
    });
    // One millisecond before the edge the first point still counts; at the edge it is gone.
    expect(ledger.tryTake('a', LIMITS, T0 + PACE_WINDOW_MS - 1).ok).toBe(false);
    expect(ledger.tryTake('a', LIMITS, T0 + PACE_WINDOW_MS)).toEqual({ ok: true });
    expect(ledger.tryTake('a', LIMITS, T0 + PACE_WINDOW_MS)).toEqual({
      ok: false,
      retryAt: T0 + 1000 + PACE_WINDOW_MS,
    });
  });

  it('bounds the requests in flight, and a release frees a slot', () => {
    const ledger = createMemoryPaceLedger();
    for (let i = 0; i < 3; i++) expect(ledger.tryTake('a', LIMITS, T0).ok).toBe(true);
    expect(ledger.tryTake('a', LIMITS, T0)).toEqual({ ok: false, retryAt: undefined });
    ledger.release('a', T0 + 5);
    expect(ledger.tryTake('a', LIMITS, T0 + 5).ok).toBe(true);
  });

  it('keeps keys apart', () => {
    const ledger = createMemoryPaceLedger();
    for (let i = 0; i < 3; i++) ledger.tryTake('a', LIMITS, T0);
    expect(ledger.tryTake('b', LIMITS, T0).ok).toBe(true);
  });

  it('halves the pace after a penalty and restores it linearly over ten minutes', () => {
    const ledger = createMemoryPaceLedger();
    const limits = { maxInFlight: 80, pointsPerMinute: 720 };
    expect(ledger.penalize('a', T0)).toBe(0.5);
    expect(ledger.inspect('a', limits, T0)).toMatchObject({
      factor: 0.5,
      limits: { maxInFlight: 40, pointsPerMinute: 360 },
    });
    expect(ledger.inspect('a', limits, T0 + PACE_RECOVERY_MS / 2).factor).toBe(0.75);
    expect(ledger.inspect('a', limits, T0 + PACE_RECOVERY_MS).factor).toBe(1);
    // A second penalty halves the factor it finds.
    ledger.penalize('b', T0);
    expect(ledger.penalize('b', T0 + PACE_RECOVERY_MS / 2)).toBe(0.375);
  });

  it('refuses at the halved pace', () => {
    const ledger = createMemoryPaceLedger();
    ledger.penalize('a', T0);
    const limits = { maxInFlight: 10, pointsPerMinute: 4 };
    expect(ledger.tryTake('a', limits, T0).ok).toBe(true);
    expect(ledger.tryTake('a', limits, T0).ok).toBe(true);
    expect(ledger.tryTake('a', limits, T0).ok).toBe(false);
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
