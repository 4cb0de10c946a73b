import { describe, expect, it } from 'vitest';
import { PANEL_IDS, formatPercent, toPanelModels } from './panel-models.js';
import type { DashboardData } from './relay-answers.js';

const DATA: DashboardData = {
  health: {
    pool: 'team',
    identities_total: 2,
    identities_healthy: 2,
    identities_cooling_down: 1,
    string_rewrite_revision: 3,
    pool_policy: {
      allowed_owners: ['octo-org'],
      allow_public_repos: true,
      allow_search: false,
      allow_logs: true,
    },
  },
  identities: {
    identities: [
      {
        id: 'alice',
        kind: 'pat',
        weight: 100,
        rate_limits: [
          {
            bucket: 'core',
            remaining: 4990,
            limit: 5000,
            reset_at: '2030-01-01T01:00:00.000Z',
            exhausted: false,
          },
        ],
        cooldowns: [],
      },
      {
        id: 'bob',
        kind: 'forge_app',
        weight: 50,
        rate_limits: [],
        cooldowns: [{ scope: 'global', cause: 'unauthorized', until: '2030-01-01T00:02:00.000Z' }],
      },
    ],
  },
  stats: {
    window: '24h',
    requests: 4,
    service_errors: 0,
    local_fallbacks: 1,
    cache_hit_rate: 0.25,
    eligible_cache_hit_rate: 0.5,
    cache_entries: 2,
    top_route_kinds: [{ route_kind: 'issue_list', requests: 3 }],
    fallback_reasons: { route_denied: 1, search_denied: 0 },
  },
  timeseries: {
    window: '24h',
    bucket: '1h',
    buckets: [
      {
        start: '2029-12-31T23:00:00.000Z',
        requests: 0,
        hits: 0,
        hit_rate: null,
        free: 0,
        paid: 0,
        local_fallbacks: 0,
        service_errors: 0,
      },
      {
        start: '2030-01-01T00:00:00.000Z',
        requests: 4,
        hits: 1,
        hit_rate: 0.25,
        free: 2,
        paid: 1,
        local_fallbacks: 1,
        service_errors: 0,
      },
    ],
  },
  denials: {
    denials: [
      {
        request_id: 'req-9',
        occurred_at: '2030-01-01T00:10:00.000Z',
        status: 424,
        error_code: 'fallback_local',
        fallback_reason: 'route_denied',
        route_kind: null,
      },
    ],
  },
};

describe('toPanelModels', () => {
  const panels = toPanelModels(DATA);
  const panel = (id: (typeof PANEL_IDS)[number]) => panels.find((p) => p.id === id)!;

  it('gives every panel a table, in page order', () => {
    expect(panels.map((p) => p.id)).toEqual([...PANEL_IDS]);
    for (const p of panels) expect(p.table.columns.length).toBeGreaterThan(1);
  });

  it('charts the time series over every bucket, and tables the non-empty ones', () => {
    const hitRate = panel('hit-rate');
    expect(hitRate.chart?.labels).toEqual(['23:00', '00:00']);
    expect(hitRate.chart?.series[0]?.values).toEqual([null, 0.25]);
    expect(hitRate.table.rows).toEqual([['2030-01-01 00:00', '4', '1', '25.0 %']]);
    const freePaid = panel('free-paid');
    expect(freePaid.chart?.series.map((s) => s.values)).toEqual([
      [0, 2],
      [0, 1],
      [0, 1],
    ]);
  });

  it('lists identities with quota and cooldowns, charting observed budgets only', () => {
    const identities = panel('identities');
    expect(identities.table.rows).toEqual([
      ['alice', 'pat', '100', 'core', '4990 / 5000', '2030-01-01 01:00', 'none'],
      [
        'bob',
        'forge_app',
        '50',
        '—',
        'not observed yet',
        '—',
        'global (unauthorized) until 2030-01-01 00:02',
      ],
    ]);
    expect(identities.chart?.labels).toEqual(['alice · core']);
  });

  it('ranks fallback reasons without zero counts, and keeps denials to codes', () => {
    expect(panel('fallbacks').table.rows).toEqual([['route_denied', '1']]);
    expect(panel('route-kinds').chart?.labels).toEqual(['issue_list']);
    expect(panel('denials').chart).toBeUndefined();
    expect(panel('denials').table.rows).toEqual([
      ['2030-01-01 00:10', 'req-9', '424', 'fallback_local', 'route_denied', '—'],
    ]);
  });

  it('leaves empty panels without a chart and with their empty text', () => {
    const empty = toPanelModels({
      ...DATA,
      stats: { ...DATA.stats, top_route_kinds: [], fallback_reasons: {} },
    });
    expect(empty.find((p) => p.id === 'fallbacks')?.chart).toBeUndefined();
    expect(formatPercent(null)).toBe('—');
  });
});
