import type { DashboardData, TimeseriesPointAnswer } from './relay-answers.js';

/** A table of a panel: what every panel shows, with or without its chart. */
export interface TableModel {
  readonly caption: string;
  readonly columns: readonly string[];
  /** Cells as text; an empty table says `empty` instead. */
  readonly rows: readonly (readonly string[])[];
  readonly empty: string;
}

/** One series of a chart. */
export interface ChartSeries {
  readonly label: string;
  readonly values: readonly (number | null)[];
  /** Series with the same stack are stacked (bar charts). */
  readonly stack?: string;
}

/** A chart of a panel, drawn by the chart chunk when it loads. */
export interface ChartModel {
  readonly type: 'line' | 'bar' | 'doughnut';
  readonly labels: readonly string[];
  readonly series: readonly ChartSeries[];
  /** Horizontal bars (ranked lists). */
  readonly horizontal?: boolean;
  /** The values are fractions, shown as percentages. */
  readonly percent?: boolean;
  /** Accessible description of the canvas. */
  readonly description: string;
}

/** What one panel shows. */
export interface PanelModel {
  /** The `data-panel` of its section. */
  readonly id: PanelId;
  /** A few headline figures, shown above the chart. */
  readonly figures?: readonly { readonly label: string; readonly value: string }[];
  readonly chart?: ChartModel;
  readonly table: TableModel;
}

/** The panels of the dashboard, in page order. */
export const PANEL_IDS = [
  'health',
  'identities',
  'hit-rate',
  'free-paid',
  'route-kinds',
  'fallbacks',
  'denials',
] as const;

/** A panel of the dashboard. */
export type PanelId = (typeof PANEL_IDS)[number];

/** A fraction as a percentage with one decimal (`—` when null). */
export function formatPercent(value: number | null): string {
  return value === null ? '—' : `${(value * 100).toFixed(1)} %`;
}

/** An ISO time as `YYYY-MM-DD HH:MM` UTC. */
export function formatTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

/** A bucket start as a short axis label: `HH:MM` within a day, else `MM-DD HH:MM`. */
export function formatBucketLabel(iso: string, bucket: string): string {
  return bucket === '1d' || bucket === '6h'
    ? `${iso.slice(5, 10)} ${iso.slice(11, 16)}`
    : iso.slice(11, 16);
}

const yesNo = (value: boolean) => (value ? 'yes' : 'no');

function toHealthPanel(data: DashboardData): PanelModel {
  const { health, stats } = data;
  const ready = health.identities_healthy - health.identities_cooling_down;
  const policy = health.pool_policy;
  return {
    id: 'health',
    figures: [
      { label: 'Requests', value: String(stats.requests) },
      { label: 'Cache hit rate', value: formatPercent(stats.cache_hit_rate) },
      {
        label: 'Identities ready',
        value: `${String(Math.max(ready, 0))} / ${String(health.identities_total)}`,
      },
      { label: 'Local fallbacks', value: String(stats.local_fallbacks) },
    ],
    chart: {
      type: 'doughnut',
      labels: ['Ready', 'Cooling down'],
      series: [
        { label: 'Identities', values: [Math.max(ready, 0), health.identities_cooling_down] },
      ],
      description: `Identities: ${String(Math.max(ready, 0))} ready, ${String(health.identities_cooling_down)} cooling down`,
    },
    table: {
      caption: `Pool ${health.pool}, window ${stats.window}`,
      columns: ['Figure', 'Value'],
      rows: [
        ['Identities registered', String(health.identities_total)],
        ['Identities active', String(health.identities_healthy)],
        ['Identities cooling down', String(health.identities_cooling_down)],
        [
          'String-rewrite revision',
          health.string_rewrite_revision === null
            ? 'unreadable'
            : String(health.string_rewrite_revision),
        ],
        [
          'Pool policy',
          policy === null
            ? 'unusable'
            : `search ${yesNo(policy.allow_search)}, logs ${yesNo(policy.allow_logs)}, public repositories ${yesNo(policy.allow_public_repos)}`,
        ],
        ['Requests', String(stats.requests)],
        ['Cache hit rate', formatPercent(stats.cache_hit_rate)],
        ['Eligible cache hit rate', formatPercent(stats.eligible_cache_hit_rate)],
        ['Local fallbacks', String(stats.local_fallbacks)],
        ['Service errors', String(stats.service_errors)],
        ['Cache entries', String(stats.cache_entries)],
      ],
      empty: 'No figures.',
    },
  };
}

function toIdentitiesPanel(data: DashboardData): PanelModel {
  const identities = data.identities.identities;
  const rows: string[][] = [];
  const labels: string[] = [];
  const remaining: number[] = [];
  for (const identity of identities) {
    const cooldowns =
      identity.cooldowns.length === 0
        ? 'none'
        : identity.cooldowns
            .map(
              (c) =>
                `${c.scope}${c.bucket === undefined ? '' : ` ${c.bucket}`} (${c.cause}) until ${formatTime(c.until)}`,
            )
            .join('; ');
    if (identity.rate_limits.length === 0) {
      rows.push([
        identity.id,
        identity.kind,
        String(identity.weight),
        '—',
        'not observed yet',
        '—',
        cooldowns,
      ]);
      continue;
    }
    for (const rate of identity.rate_limits) {
      rows.push([
        identity.id,
        identity.kind,
        String(identity.weight),
        rate.bucket,
        `${String(rate.remaining)}${rate.limit === null ? '' : ` / ${String(rate.limit)}`}${rate.exhausted ? ' (exhausted)' : ''}`,
        formatTime(rate.reset_at),
        cooldowns,
      ]);
      labels.push(`${identity.id} · ${rate.bucket}`);
      remaining.push(rate.remaining);
    }
  }
  return {
    id: 'identities',
    ...(labels.length === 0
      ? {}
      : {
          chart: {
            type: 'bar',
            horizontal: true,
            labels,
            series: [{ label: 'Remaining requests', values: remaining }],
            description: 'Remaining quota per identity and resource bucket',
          },
        }),
    table: {
      caption: 'Identities (times UTC)',
      columns: ['Identity', 'Kind', 'Weight', 'Bucket', 'Remaining', 'Resets', 'Cooldowns'],
      rows,
      empty: 'No identity is registered in this pool.',
    },
  };
}

function seriesOf(
  points: readonly TimeseriesPointAnswer[],
  pick: (point: TimeseriesPointAnswer) => number | null,
): (number | null)[] {
  return points.map(pick);
}

function toHitRatePanel(data: DashboardData): PanelModel {
  const { buckets, bucket } = data.timeseries;
  return {
    id: 'hit-rate',
    chart: {
      type: 'line',
      percent: true,
      labels: buckets.map((point) => formatBucketLabel(point.start, bucket)),
      series: [{ label: 'Cache hit rate', values: seriesOf(buckets, (p) => p.hit_rate) }],
      description: `Cache hit rate per ${bucket} bucket`,
    },
    table: {
      caption: `Per ${bucket} bucket (UTC)`,
      columns: ['Bucket start', 'Requests', 'Cache hits', 'Hit rate'],
      rows: buckets
        .filter((point) => point.requests > 0)
        .map((point) => [
          formatTime(point.start),
          String(point.requests),
          String(point.hits),
          formatPercent(point.hit_rate),
        ]),
      empty: 'No requests in this window.',
    },
  };
}

function toFreePaidPanel(data: DashboardData): PanelModel {
  const { buckets, bucket } = data.timeseries;
  return {
    id: 'free-paid',
    chart: {
      type: 'bar',
      labels: buckets.map((point) => formatBucketLabel(point.start, bucket)),
      series: [
        {
          label: 'Free (cache, web, anonymous API)',
          values: seriesOf(buckets, (p) => p.free),
          stack: 'answers',
        },
        {
          label: 'Paid (pooled identity)',
          values: seriesOf(buckets, (p) => p.paid),
          stack: 'answers',
        },
        {
          label: 'Local fallbacks',
          values: seriesOf(buckets, (p) => p.local_fallbacks),
          stack: 'answers',
        },
      ],
      description: `Free and paid answers per ${bucket} bucket`,
    },
    table: {
      caption: `Per ${bucket} bucket (UTC)`,
      columns: ['Bucket start', 'Free', 'Paid', 'Local fallbacks', 'Service errors'],
      rows: buckets
        .filter((point) => point.requests > 0)
        .map((point) => [
          formatTime(point.start),
          String(point.free),
          String(point.paid),
          String(point.local_fallbacks),
          String(point.service_errors),
        ]),
      empty: 'No requests in this window.',
    },
  };
}

function toRankedPanel(
  id: 'route-kinds' | 'fallbacks',
  entries: readonly (readonly [string, number])[],
  names: { label: string; column: string; empty: string },
): PanelModel {
  return {
    id,
    ...(entries.length === 0
      ? {}
      : {
          chart: {
            type: 'bar',
            horizontal: true,
            labels: entries.map(([name]) => name),
            series: [{ label: names.label, values: entries.map(([, count]) => count) }],
            description: names.label,
          },
        }),
    table: {
      caption: names.label,
      columns: [names.column, 'Requests'],
      rows: entries.map(([name, count]) => [name, String(count)]),
      empty: names.empty,
    },
  };
}

function toDenialsPanel(data: DashboardData): PanelModel {
  return {
    id: 'denials',
    table: {
      caption: 'Newest first (UTC); codes only, never the request’s content',
      columns: ['Time', 'Request id', 'Status', 'Code', 'Fallback reason', 'Route kind'],
      rows: data.denials.denials.map((denial) => [
        formatTime(denial.occurred_at),
        denial.request_id,
        String(denial.status),
        denial.error_code,
        denial.fallback_reason ?? '—',
        denial.route_kind ?? '—',
      ]),
      empty: 'No denials in this window.',
    },
  };
}

/**
 * Turns one refresh's answers into the panels (pure): a table for every panel, a chart for
 * those with something to draw.
 *
 * @param data - the answers of the caller endpoints
 */
export function toPanelModels(data: DashboardData): PanelModel[] {
  const fallbacks = Object.entries(data.stats.fallback_reasons)
    .filter(([, count]) => count > 0)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  return [
    toHealthPanel(data),
    toIdentitiesPanel(data),
    toHitRatePanel(data),
    toFreePaidPanel(data),
    toRankedPanel(
      'route-kinds',
      data.stats.top_route_kinds.map((row) => [row.route_kind, row.requests] as const),
      {
        label: 'Requests per route kind',
        column: 'Route kind',
        empty: 'No requests in this window.',
      },
    ),
    toRankedPanel('fallbacks', fallbacks, {
      label: 'Local fallbacks per reason',
      column: 'Reason',
      empty: 'No local fallbacks in this window.',
    }),
    toDenialsPanel(data),
  ];
}
