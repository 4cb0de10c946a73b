import { getPoolHealthSchema, getPoolStatsSchema } from '@relay/protocol';
import type { PoolHealth, PoolQuota, PoolStats } from '@relay/protocol';
import { CliError } from './cli-error.js';
import type { TerminalStyle } from './terminal-style.js';

// The server's schemas are strict (the contract tests hold the server to them); the client
// reads them with unknown fields dropped, so that a newer server's additions (health's
// `quota` was one) never break an older CLI. Every known field is still validated. (This module
// is loaded only by `relay health` and `relay stats`.)
const clientHealthSchema = getPoolHealthSchema().strip();
const clientStatsSchema = getPoolStatsSchema().strip();

/**
 * Validates a health body (fields this CLI does not know are dropped).
 *
 * @throws CliError `relay_protocol_error`
 */
export function parsePoolHealth(json: unknown): PoolHealth {
  const parsed = clientHealthSchema.safeParse(json);
  if (!parsed.success) {
    throw new CliError('relay_protocol_error', { message: 'Unexpected pool health body.' });
  }
  return parsed.data;
}

/**
 * Validates a stats body (fields this CLI does not know are dropped).
 *
 * @throws CliError `relay_protocol_error`
 */
export function parsePoolStats(json: unknown): PoolStats {
  const parsed = clientStatsSchema.safeParse(json);
  if (!parsed.success) {
    throw new CliError('relay_protocol_error', { message: 'Unexpected pool stats body.' });
  }
  return parsed.data;
}

/** Pool health as `name: value` lines. */
export function formatPoolHealth(health: PoolHealth): string {
  const policy = health.pool_policy;
  const lines = [
    `pool: ${health.pool}`,
    `identities: ${health.identities_total} total, ${health.identities_healthy} healthy, ${health.identities_cooling_down} cooling down`,
    `string-rewrite revision: ${health.string_rewrite_revision ?? 'unavailable'}`,
    policy === null
      ? 'pool policy: unavailable'
      : `pool policy: owners ${policy.allowed_owners.length === 0 ? '(none)' : policy.allowed_owners.join(', ')}; public repos ${policy.allow_public_repos ? 'allowed' : 'denied'}; search ${policy.allow_search ? 'allowed' : 'denied'}; logs ${policy.allow_logs ? 'allowed' : 'denied'}`,
    ...Object.entries(health.quota ?? {}).map(([bucket, quota]) =>
      formatQuotaSentence(bucket, quota),
    ),
  ];
  return `${lines.join('\n')}\n`;
}

const COUNT = new Intl.NumberFormat('en-US');

/** `HH:MM UTC` of an ISO 8601 instant. */
function toUtcClock(iso: string): string {
  return `${new Date(iso).toISOString().slice(11, 16)} UTC`;
}

/**
 * One bucket of health's `quota` as a sentence, e.g. `core: 7,400 of 10,000 left; at 1,800 a
 * minute it runs out at 10:42 UTC, before the reset at 11:30 UTC`.
 *
 * @param bucket - the rate-limit bucket
 * @param quota - its forecast
 */
export function formatQuotaSentence(bucket: string, quota: PoolQuota): string {
  const left = `${bucket}: ${COUNT.format(quota.remaining)} of ${COUNT.format(quota.limit)} left`;
  const reset = toUtcClock(quota.resets_at);
  if (quota.used_last_minute === 0)
    return `${left}; none used in the last minute; resets at ${reset}`;
  const rate = `at ${COUNT.format(quota.used_last_minute)} a minute`;
  if (quota.exhausts_at === null) return `${left}; ${rate} it lasts until the reset at ${reset}`;
  return `${left}; ${rate} it runs out at ${toUtcClock(quota.exhausts_at)}, before the reset at ${reset}`;
}

function percent(rate: number | null): string {
  return rate === null ? '-' : `${(rate * 100).toFixed(1)}%`;
}

/** Rows as a left-aligned table with a heading row. */
export function formatTable(
  headings: readonly string[],
  rows: readonly (readonly (string | number)[])[],
  style: TerminalStyle,
): string {
  const cells = rows.map((row) => row.map(String));
  const widths = headings.map((heading, column) =>
    Math.max(heading.length, ...cells.map((row) => (row[column] ?? '').length)),
  );
  const render = (row: readonly string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [style.heading(render(headings)), ...cells.map(render)].join('\n') + '\n';
}

/** The requests of the filtered client: its rows of `client_usage` (none: 0). */
function clientRequests(stats: PoolStats): number {
  const name = stats.client_filter?.toLowerCase();
  return stats.client_usage
    .filter((usage) => usage.client.toLowerCase() === name)
    .reduce((sum, usage) => sum + usage.requests, 0);
}

/** Pool stats as a human report: a summary, then one table per breakdown that has rows. */
export function formatPoolStats(stats: PoolStats, style: TerminalStyle): string {
  const sections: string[] = [];
  sections.push(
    formatTable(
      ['metric', 'value'],
      [
        ['pool', stats.pool],
        ['window', `${stats.window} (since ${stats.since})`],
        // With --client, the server still counts the whole pool: say so, and report the
        // client's own requests (0 for a client that made none, or that does not exist).
        ...(stats.client_filter === undefined
          ? [['requests', stats.requests]]
          : [
              ['client', stats.client_filter],
              ['client requests', clientRequests(stats)],
              ['pool requests', stats.requests],
            ]),
        ['service errors', stats.service_errors],
        ['local fallbacks', stats.local_fallbacks],
        ['cache hit rate', percent(stats.cache_hit_rate)],
        ['eligible cache hit rate', percent(stats.eligible_cache_hit_rate)],
        ['coalesced misses', stats.coalesced_misses],
        ['cache entries', stats.cache_entries],
      ],
      style,
    ),
  );
  const add = (headings: string[], rows: (string | number)[][]) => {
    if (rows.length > 0) sections.push(formatTable(headings, rows, style));
  };
  add(
    ['route kind', 'requests'],
    stats.top_route_kinds.map((r) => [r.route_kind, r.requests]),
  );
  add(
    ['route kind', 'source', 'upstream'],
    stats.upstream.map((u) => [u.route_kind, u.source, u.count]),
  );
  add(
    ['fallback reason', 'count'],
    Object.entries(stats.fallback_reasons).map(([reason, count]) => [reason, count]),
  );
  add(
    ['caller', 'requests'],
    stats.caller_usage.map((u) => [u.login, u.requests]),
  );
  add(
    ['client', 'requests'],
    stats.client_usage.map((u) => [u.client, u.requests]),
  );
  add(
    ['client', 'route kind', 'requests'],
    stats.client_routes.map((r) => [r.client, r.route_kind, r.requests]),
  );
  add(
    ['active client', 'last used'],
    stats.active_clients.map((c) => [c.client, c.last_used_at]),
  );
  return sections.join('\n');
}
