import { describe, expect, it } from 'vitest';
import { decodeRestJob, decodeRestRun, formatGoSeconds, formatRunDuration } from './run-export.js';
import { formatFuzzyAgo, formatJobElapsed, runSymbol } from './run-view-export.js';

const NOW = Date.parse('2021-02-23T05:50:00Z');
const ago = (ms: number) => formatFuzzyAgo(NOW, NOW - ms);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('gh’s run summary pieces', () => {
  it.each([
    [0, 'less than a minute ago'],
    [59_999, 'less than a minute ago'],
    [-5 * MINUTE, 'less than a minute ago'],
    [MINUTE, 'about 1 minute ago'],
    [59 * MINUTE, 'about 59 minutes ago'],
    [HOUR, 'about 1 hour ago'],
    [23 * HOUR + 59 * MINUTE, 'about 23 hours ago'],
    [DAY, 'about 1 day ago'],
    [29 * DAY, 'about 29 days ago'],
    [30 * DAY, 'about 1 month ago'],
    [364 * DAY, 'about 12 months ago'],
    [365 * DAY, 'about 1 year ago'],
    [3 * 365 * DAY, 'about 3 years ago'],
    // Go's Sub saturates at 2^63−1 ns: a start at Go's zero time is 292 years ago.
    [NOW - Date.parse('0001-01-01T00:00:00Z'), 'about 292 years ago'],
  ])('go-gh RelativeTimeAgo of %i ms: %s', (ms, text) => {
    expect(ago(ms)).toBe(text);
  });

  it.each([
    [0n, '0s'],
    [59n, '59s'],
    [274n, '4m34s'],
    [3600n, '1h0m0s'],
    [90061n, '25h1m1s'],
  ])('time.Duration(%i s).String() = %s', (seconds, text) => {
    expect(formatGoSeconds(seconds)).toBe(text);
  });

  it.each([
    ['finished', '2021-02-23T04:51:00Z', '2021-02-23T04:55:34Z', ' in 4m34s'],
    ['unfinished (zero completion: negative)', '2021-02-23T04:51:00Z', null, ''],
    ['never started', null, null, ' in 0s'],
    [
      'a fraction of a second (not printed as Go does)',
      '2021-02-23T04:51:00.5Z',
      '2021-02-23T04:55:34Z',
      undefined,
    ],
    // Go's Time.Sub saturates at 2^63−1 ns (about 292 years): a finished job without a start.
    [
      'finished, never started (Sub saturates)',
      null,
      '2021-02-23T04:55:34Z',
      ' in 2562047h47m16.854775807s',
    ],
    [
      '293 years (Sub saturates)',
      '1728-01-01T00:00:00Z',
      '2021-02-23T04:51:00Z',
      ' in 2562047h47m16.854775807s',
    ],
    [
      'just under the saturation',
      '1729-01-01T00:00:00Z',
      '2021-02-23T04:51:00Z',
      ' in 2560900h51m0s',
    ],
  ])('job elapsed: %s', (_name, started, completed, text) => {
    const job = decodeRestJob({ id: 1, name: 'j', started_at: started, completed_at: completed });
    expect(job && formatJobElapsed(job)).toBe(text);
  });

  it.each([
    ['completed', 'success', '✓'],
    ['completed', 'skipped', '-'],
    ['completed', 'neutral', '-'],
    ['completed', 'cancelled', 'X'],
    ['completed', 'failure', 'X'],
    ['in_progress', '', '*'],
    ['queued', 'success', '*'],
  ])('symbol of %s/%s: %s', (status, conclusion, symbol) => {
    expect(runSymbol(status, conclusion)).toBe(symbol);
  });

  it.each([
    ['completed in 4m34s', 'completed', '2021-02-23T04:51:00Z', '2021-02-23T04:55:34Z', '4m34s'],
    [
      'half a second rounds up',
      'completed',
      '2021-02-23T04:51:00Z',
      '2021-02-23T04:51:01.5Z',
      '2s',
    ],
    ['ended before it started', 'completed', '2021-02-23T04:51:00Z', '2021-02-23T04:50:00Z', '0s'],
    ['unfinished: to now', 'in_progress', '2021-02-23T05:40:00Z', null, '10m0s'],
    // No start and no creation: Go's zero time, Sub saturates and Round keeps the maximum.
    ['no start at all (Sub saturates)', 'in_progress', null, null, '2562047h47m16.854775807s'],
    [
      'finished, no start (Sub saturates)',
      'completed',
      null,
      '2021-02-23T04:51:00Z',
      '2562047h47m16.854775807s',
    ],
  ])('run duration: %s', (_name, status, started, updated, text) => {
    const run = decodeRestRun({ id: 1, status, run_started_at: started, updated_at: updated });
    expect(run && formatRunDuration(run, NOW)).toBe(text);
  });
});
