/** A settable clock for tests: epoch milliseconds, advanced by hand. */
export interface FakeClock {
  (): number;
  advance(ms: number): void;
  set(epochMs: number): void;
}

/** A fake clock starting at `start` (default 2026-01-01T00:00:00Z). */
export function createFakeClock(start = Date.UTC(2026, 0, 1)): FakeClock {
  let current = start;
  const clock = (() => current) as FakeClock;
  clock.advance = (ms) => {
    current += ms;
  };
  clock.set = (epochMs) => {
    current = epochMs;
  };
  return clock;
}
