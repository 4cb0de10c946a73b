import { describe, expect, it } from 'vitest';
import {
  WATCH_CEILING_MS,
  WATCH_FLOOR_MS,
  firstWatchDelay,
  nextWatchDelay,
} from './pr-checks-watch.js';

describe('watch polling (SPEC.md client rule 10)', () => {
  it.each([
    { interval: 10, first: 30_000 },
    { interval: 0, first: 30_000 },
    { interval: -5, first: 30_000 },
    { interval: 30, first: 30_000 },
    { interval: 45, first: 45_000 },
    { interval: 300, first: 300_000 },
  ])('floors --interval $interval at 30 s ($first ms)', ({ interval, first }) => {
    expect(firstWatchDelay(interval)).toBe(first);
  });

  it.each([
    { previous: 30_000, interval: 10, changed: false, next: 60_000 },
    { previous: 60_000, interval: 10, changed: false, next: 120_000 },
    { previous: 120_000, interval: 10, changed: false, next: WATCH_CEILING_MS },
    { previous: 120_000, interval: 10, changed: true, next: WATCH_FLOOR_MS },
    { previous: 45_000, interval: 45, changed: false, next: 90_000 },
    { previous: 90_000, interval: 45, changed: false, next: 120_000 },
    { previous: 300_000, interval: 300, changed: false, next: 300_000 },
    { previous: 300_000, interval: 300, changed: true, next: 300_000 },
  ])('after $previous ms (interval $interval, changed $changed) waits $next ms', (row) => {
    expect(nextWatchDelay(row.previous, row.interval, row.changed)).toBe(row.next);
  });
});
