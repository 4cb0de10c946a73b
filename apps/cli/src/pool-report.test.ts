import { describe, expect, it } from 'vitest';
import { formatPoolHealth, formatQuotaSentence, parsePoolHealth } from './pool-report.js';

const QUOTA = {
  limit: 10_000,
  remaining: 7_400,
  used_last_minute: 1_800,
  resets_at: '2030-03-01T11:30:00.000Z',
  exhausts_at: '2030-03-01T10:42:06.667Z',
};

describe('formatQuotaSentence', () => {
  it.each([
    [
      QUOTA,
      'core: 7,400 of 10,000 left; at 1,800 a minute it runs out at 10:42 UTC, before the reset at 11:30 UTC',
    ],
    [
      { ...QUOTA, used_last_minute: 12, exhausts_at: null },
      'core: 7,400 of 10,000 left; at 12 a minute it lasts until the reset at 11:30 UTC',
    ],
    [
      { ...QUOTA, used_last_minute: 0, exhausts_at: null },
      'core: 7,400 of 10,000 left; none used in the last minute; resets at 11:30 UTC',
    ],
  ])('%o', (quota, sentence) => {
    expect(formatQuotaSentence('core', quota)).toBe(sentence);
  });

  it('ends relay health with one sentence per bucket', () => {
    const text = formatPoolHealth({
      pool: 'team',
      identities_total: 2,
      identities_healthy: 2,
      identities_cooling_down: 0,
      string_rewrite_revision: 1,
      pool_policy: null,
      quota: { core: QUOTA, search: { ...QUOTA, limit: 60, remaining: 60, used_last_minute: 0 } },
    });
    expect(text.trimEnd().split('\n').slice(-2)).toEqual([
      'core: 7,400 of 10,000 left; at 1,800 a minute it runs out at 10:42 UTC, before the reset at 11:30 UTC',
      'search: 60 of 60 left; none used in the last minute; resets at 11:30 UTC',
    ]);
  });
});

describe('parsePoolHealth', () => {
  const BODY = {
    pool: 'team',
    identities_total: 1,
    identities_healthy: 1,
    identities_cooling_down: 0,
    string_rewrite_revision: 3,
    pool_policy: null,
  };

  it('drops fields a newer server added, so an older CLI keeps working', () => {
    expect(parsePoolHealth({ ...BODY, added_by_a_newer_server: { x: 1 } })).toEqual(BODY);
  });

  it('still refuses a body whose known fields are wrong', () => {
    expect(() => parsePoolHealth({ ...BODY, identities_total: -1 })).toThrow(
      'Unexpected pool health body.',
    );
  });
});
