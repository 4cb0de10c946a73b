import { describe, expect, it } from 'vitest';
import {
  aggregateChecks,
  bucketOf,
  checksExitCode,
  eliminateDuplicates,
  formatGoDuration,
  formatWatchHeader,
  renderChecksTable,
  selectChecksJsonFields,
  sortChecksTable,
} from './checks-export.js';
import type { CheckContext } from './checks-export.js';
import { toCheckContexts, needsRunAssociation } from './checks-rest.js';

const context = (parts: Partial<CheckContext>): CheckContext => ({
  name: '',
  context: '',
  state: '',
  status: '',
  conclusion: '',
  startedAt: undefined,
  completedAt: undefined,
  detailsUrl: '',
  targetUrl: '',
  description: '',
  workflow: '',
  event: '',
  ...parts,
});

describe('bucketOf (gh aggregateChecks)', () => {
  it.each([
    ['SUCCESS', 'pass'],
    ['SKIPPED', 'skipping'],
    ['NEUTRAL', 'skipping'],
    ['ERROR', 'fail'],
    ['FAILURE', 'fail'],
    ['TIMED_OUT', 'fail'],
    ['ACTION_REQUIRED', 'fail'],
    ['CANCELLED', 'cancel'],
    ['EXPECTED', 'pending'],
    ['QUEUED', 'pending'],
    ['IN_PROGRESS', 'pending'],
    ['STALE', 'pending'],
    ['STARTUP_FAILURE', 'pending'],
    ['', 'pending'],
  ])('%s is %s', (state, bucket) => {
    expect(bucketOf(state)).toBe(bucket);
  });
});

describe('formatGoDuration (Go time.Duration.String)', () => {
  it.each([
    [86_000, '1m26s'],
    [1000, '1s'],
    [59_000, '59s'],
    [60_000, '1m0s'],
    [3_600_000, '1h0m0s'],
    [3_723_000, '1h2m3s'],
    [1500, '1.5s'],
    [61_050, '1m1.05s'],
    [250, '250ms'],
    [90_000_000, '25h0m0s'],
  ])('%i ms is %s', (ms, text) => {
    expect(formatGoDuration(ms)).toBe(text);
  });
});

describe('eliminateDuplicates (gh TestEliminateDuplicates)', () => {
  it('keeps the newest check run of a name, newest first', () => {
    const build = context({
      name: 'build (ubuntu-latest)',
      startedAt: '2022-01-01T01:01:01Z',
      detailsUrl: '1',
    });
    const oldLint = context({ name: 'lint', startedAt: '2022-01-01T01:01:01Z', detailsUrl: '2' });
    const newLint = context({ name: 'lint', startedAt: '2022-02-02T02:02:02Z', detailsUrl: '3' });
    expect(eliminateDuplicates([build, oldLint, newLint])).toEqual([newLint, build]);
  });

  it('keeps the newest status of a context', () => {
    const oldGpu = context({
      context: 'Windows GPU',
      state: 'FAILURE',
      startedAt: '2022-01-01T01:01:01Z',
    });
    const newGpu = context({
      context: 'Windows GPU',
      state: 'SUCCESS',
      startedAt: '2022-02-02T02:02:02Z',
    });
    const linux = context({
      context: 'Linux GPU',
      state: 'SUCCESS',
      startedAt: '2022-01-01T01:01:01Z',
    });
    expect(eliminateDuplicates([oldGpu, newGpu, linux])).toEqual([newGpu, linux]);
  });

  it('keeps runs of one name from different workflows or events', () => {
    const push = context({ name: 'test', workflow: 'CI', event: 'push' });
    const pr = context({ name: 'test', workflow: 'CI', event: 'pull_request' });
    const other = context({ name: 'test', workflow: 'Nightly', event: 'push' });
    expect(eliminateDuplicates([push, pr, other, push])).toEqual([push, pr, other]);
  });
});

describe('aggregateChecks', () => {
  it('reads a check run’s state from its conclusion once completed, else its status', () => {
    const { rows, counts } = aggregateChecks([
      context({ name: 'a', status: 'COMPLETED', conclusion: 'SUCCESS', detailsUrl: 'u' }),
      context({ name: 'b', status: 'IN_PROGRESS', conclusion: 'FAILURE' }),
      context({ context: 'c', state: 'ERROR', targetUrl: 't', description: 'd' }),
    ]);
    expect(rows.map((row) => [row.name, row.state, row.bucket, row.link])).toEqual([
      ['a', 'SUCCESS', 'pass', 'u'],
      ['b', 'IN_PROGRESS', 'pending', ''],
      ['c', 'ERROR', 'fail', 't'],
    ]);
    expect(counts).toEqual({ failed: 1, passed: 1, pending: 1, skipping: 0, canceled: 0 });
    expect(checksExitCode(counts)).toBe(1);
  });
});

describe('sortChecksTable (gh printTable’s sort.Slice)', () => {
  it('orders names and links by their UTF-8 bytes, as Go compares strings', () => {
    // U+1F680 is F0 9F 9A 80 in UTF-8 (after U+FF46's EF BD 86), but a surrogate pair in
    // UTF-16 (before U+FF46): JavaScript's `<` would put the rocket first.
    const { rows } = aggregateChecks([
      context({ name: '\u{1F680} deploy', status: 'COMPLETED', conclusion: 'SUCCESS' }),
      context({ name: '\uFF46ull', status: 'COMPLETED', conclusion: 'SUCCESS' }),
      context({ context: 'ci', state: 'SUCCESS', targetUrl: 'https://x/\u{1F680}' }),
      context({ context: 'ci2', state: 'SUCCESS', targetUrl: 'https://x/\uFF46' }),
    ]);
    const sorted = [...rows];
    sortChecksTable(sorted);
    expect(renderChecksTable(sorted)).toBe(
      [
        'ci\tpass\t0\thttps://x/\u{1F680}\t',
        'ci2\tpass\t0\thttps://x/\uFF46\t',
        '\uFF46ull\tpass\t0\t\t',
        '\u{1F680} deploy\tpass\t0\t\t',
        '',
      ].join('\n'),
    );
    const sameName = aggregateChecks([
      context({ name: 'a', status: 'COMPLETED', conclusion: 'SUCCESS', detailsUrl: 'u/\u{1F680}' }),
      context({
        name: 'a',
        status: 'COMPLETED',
        conclusion: 'SUCCESS',
        detailsUrl: 'u/\uFF46',
        workflow: 'w',
      }),
    ]).rows.slice();
    sortChecksTable(sameName);
    expect(sameName.map((row) => row.link)).toEqual(['u/\uFF46', 'u/\u{1F680}']);
  });
});

describe('REST contexts', () => {
  it('orders check runs by id, then statuses, and upper-cases REST’s enums', () => {
    const runs = [
      {
        id: 9,
        name: 'late',
        status: 'queued',
        conclusion: null,
        started_at: null,
        completed_at: null,
        details_url: null,
        check_suite: { id: 1 },
      },
      {
        id: 2,
        name: 'early',
        status: 'completed',
        conclusion: 'timed_out',
        started_at: '2020-01-01T00:00:00Z',
        completed_at: '2020-01-01T00:00:05Z',
        details_url: 'd',
        check_suite: { id: 1 },
      },
    ];
    const statuses = [
      { context: 'ci', state: 'pending' as const, target_url: null, description: null },
    ];
    const contexts = toCheckContexts(
      runs,
      statuses,
      new Map([[1, { workflow: 'CI', event: 'push' }]]),
    );
    expect(
      contexts.map((c) => [c.name || c.context, c.status || c.state, c.conclusion, c.workflow]),
    ).toEqual([
      ['early', 'COMPLETED', 'TIMED_OUT', 'CI'],
      ['late', 'QUEUED', '', 'CI'],
      ['ci', 'PENDING', '', ''],
    ]);
    expect(needsRunAssociation(runs)).toBe(false);
    expect(needsRunAssociation([...runs, { ...runs[0]!, id: 10 }])).toBe(true);
  });
});

describe('selectChecksJsonFields', () => {
  it('appends and de-duplicates CSV records; the last --jq wins', () => {
    expect(
      selectChecksJsonFields({ json: ['name,state', 'bucket,name'], jq: ['.a', '.b'] }),
    ).toEqual({
      ok: true,
      value: { kind: 'json', fields: ['name', 'state', 'bucket'], jq: '.b' },
    });
  });

  it.each([
    [{ json: ['name,isRequired'] }, 'unknown_field'],
    [{ jq: ['.'] }, 'jq_without_json'],
    [{ json: ['"name'] }, 'invalid_csv'],
  ])('%j is refused (%s)', (flags, code) => {
    const result = selectChecksJsonFields(flags);
    expect(result.ok ? 'ok' : result.error.code).toBe(code);
  });
});

it('prints gh’s watch header with the interval’s seconds', () => {
  expect(formatWatchHeader(0)).toBe(
    'Refreshing checks status every 0 seconds. Press Ctrl+C to quit.\n\n',
  );
});
