import { describe, expect, it } from 'vitest';
import { parseMetricSamples, sumOf } from './__fixtures__/metric-samples.js';
import { createRelayMetrics, toMethodLabel, toStatusClass } from './relay-metrics.js';

describe('createRelayMetrics', () => {
  it('counts HTTP and relay requests, coalesced duplicates, upstream requests and answers', async () => {
    const metrics = createRelayMetrics();
    metrics.recordHttpRequest('GET', '/.well-known/relay', 200);
    metrics.recordHttpRequest('BREW', '(unmatched)', 404);
    metrics.recordRelayRequest({
      routeKind: 'issue_list',
      status: 200,
      source: 'cache_hit',
      reason: '',
      coalesced: false,
      durationSeconds: 0.0008,
    });
    metrics.recordRelayRequest({
      routeKind: 'issue_list',
      status: 200,
      source: 'coalesced',
      reason: '',
      coalesced: true,
      durationSeconds: 0.02,
    });
    metrics.recordRelayRequest({
      routeKind: 'search_issues',
      status: 424,
      source: 'fallback',
      reason: 'search_denied',
      coalesced: false,
      durationSeconds: 0.001,
    });
    metrics.recordUpstreamRequest('identity', '2xx', 0.03);
    metrics.recordUpstreamRequest('web', 'forge_timeout', 15);
    metrics.recordUpstreamAnswer('identity', 'alice-pat', 'free');
    metrics.recordUpstreamAnswer('anonymous', '', 'charged');
    metrics.recordBackgroundProblem('audit_queue_full');
    metrics.recordGovernorEvent('slowed', 'alice-pat');
    metrics.recordGovernorEvent('refused', 'alice-pat');
    metrics.recordGovernorEvent('refused', 'alice-pat');

    const samples = parseMetricSamples(await metrics.render());
    expect(sumOf(samples, 'relay_http_requests_total', { method: 'other', status: '404' })).toBe(1);
    expect(
      sumOf(samples, 'relay_requests_total', { route_kind: 'issue_list', source: 'cache_hit' }),
    ).toBe(1);
    expect(
      sumOf(samples, 'relay_requests_total', { source: 'fallback', reason: 'search_denied' }),
    ).toBe(1);
    expect(sumOf(samples, 'relay_coalesced_requests_total', { route_kind: 'issue_list' })).toBe(1);
    expect(
      sumOf(samples, 'relay_governor_events_total', { event: 'refused', sender: 'alice-pat' }),
    ).toBe(2);
    expect(sumOf(samples, 'relay_governor_events_total', { event: 'slowed' })).toBe(1);
    const governed = createRelayMetrics({
      sources: {
        governorSenders: () =>
          Promise.resolve([{ sender: 'alice-pat', points: 12, inFlight: 3, factor: 0.5 }]),
      },
    });
    const gauges = parseMetricSamples(await governed.render());
    expect(sumOf(gauges, 'relay_governor_points_last_minute', { sender: 'alice-pat' })).toBe(12);
    expect(sumOf(gauges, 'relay_governor_in_flight', { sender: 'alice-pat' })).toBe(3);
    expect(sumOf(gauges, 'relay_governor_pace_factor', { sender: 'alice-pat' })).toBe(0.5);
    expect(sumOf(samples, 'relay_request_duration_seconds_count')).toBe(3);
    expect(
      sumOf(samples, 'relay_request_duration_seconds_bucket', { source: 'cache_hit', le: '0.001' }),
    ).toBe(1);
    expect(
      sumOf(samples, 'relay_upstream_requests_total', { lane: 'web', outcome: 'forge_timeout' }),
    ).toBe(1);
    expect(sumOf(samples, 'relay_upstream_request_duration_seconds_sum', { lane: 'web' })).toBe(15);
    expect(
      sumOf(samples, 'relay_upstream_answers_total', {
        lane: 'identity',
        identity: 'alice-pat',
        charge: 'free',
      }),
    ).toBe(1);
    expect(sumOf(samples, 'relay_background_problems_total', { code: 'audit_queue_full' })).toBe(1);
  });

  it('keeps one registry per instance, so that two apps in one process do not collide', async () => {
    const first = createRelayMetrics();
    const second = createRelayMetrics();
    first.recordHttpRequest('GET', '/metrics', 200);
    expect(first.registry).not.toBe(second.registry);
    expect(sumOf(parseMetricSamples(await second.render()), 'relay_http_requests_total')).toBe(0);
    expect(sumOf(parseMetricSamples(await first.render()), 'relay_http_requests_total')).toBe(1);
  });

  it('computes gauges at scrape time, reading each source once per scrape', async () => {
    let reads = 0;
    let backlog = 3;
    const metrics = createRelayMetrics({
      sources: {
        countIdentities: () => Promise.resolve(2),
        rateBudgets: () => {
          reads++;
          return Promise.resolve([
            {
              identity: 'alice-pat',
              bucket: 'core',
              remaining: 4990,
              limit: 5000,
              resetAtSeconds: 1_900_000_000,
            },
            {
              identity: 'app-1',
              bucket: 'search',
              remaining: 29,
              limit: undefined,
              resetAtSeconds: 1_900_000_060,
            },
          ]);
        },
        cooldowns: () =>
          Promise.resolve([{ identity: 'alice-pat', scope: 'route', cause: 'failure', count: 2 }]),
        cacheSize: () => Promise.resolve({ entries: 7, bytes: 4096 }),
        cacheFrontSize: () => ({ entries: 5, bytes: 9000 }),
        auditBacklog: () => backlog,
      },
    });
    let samples = parseMetricSamples(await metrics.render());
    expect(reads).toBe(1);
    expect(sumOf(samples, 'relay_identities')).toBe(2);
    expect(
      sumOf(samples, 'relay_identity_rate_remaining', { identity: 'alice-pat', bucket: 'core' }),
    ).toBe(4990);
    expect(sumOf(samples, 'relay_identity_rate_limit', { identity: 'alice-pat' })).toBe(5000);
    expect(
      samples.some((s) => s.name === 'relay_identity_rate_limit' && s.labels.identity === 'app-1'),
    ).toBe(false);
    expect(
      sumOf(samples, 'relay_identity_rate_reset_timestamp_seconds', { bucket: 'search' }),
    ).toBe(1_900_000_060);
    expect(
      sumOf(samples, 'relay_identity_cooldowns', { identity: 'alice-pat', scope: 'route' }),
    ).toBe(2);
    expect(sumOf(samples, 'relay_cache_entries')).toBe(7);
    expect(sumOf(samples, 'relay_cache_bytes')).toBe(4096);
    expect(sumOf(samples, 'relay_cache_front_entries')).toBe(5);
    expect(sumOf(samples, 'relay_cache_front_bytes')).toBe(9000);
    expect(sumOf(samples, 'relay_audit_pending_rows')).toBe(3);
    expect(sumOf(samples, 'relay_metrics_source_up')).toBe(6);
    backlog = 0;
    samples = parseMetricSamples(await metrics.render());
    expect(reads).toBe(2);
    expect(sumOf(samples, 'relay_audit_pending_rows')).toBe(0);
  });

  it('empties the gauges of a failing source and reports it down, without failing the scrape', async () => {
    let failing = false;
    const metrics = createRelayMetrics({
      sources: {
        cacheSize: () =>
          failing
            ? Promise.reject(new Error('database locked'))
            : Promise.resolve({ entries: 1, bytes: 2 }),
        auditBacklog: () => 0,
      },
    });
    expect(sumOf(parseMetricSamples(await metrics.render()), 'relay_cache_entries')).toBe(1);
    failing = true;
    const text = await metrics.render();
    const samples = parseMetricSamples(text);
    // prom-client keeps an unlabelled gauge at 0 after a reset: source_up tells it is unknown.
    expect(sumOf(samples, 'relay_cache_entries')).toBe(0);
    expect(sumOf(samples, 'relay_metrics_source_up', { source: 'cache' })).toBe(0);
    expect(sumOf(samples, 'relay_metrics_source_up', { source: 'audit' })).toBe(1);
    expect(text).not.toContain('database locked');
  });

  it('adds the default process metrics only when asked', async () => {
    const plain = await createRelayMetrics().render();
    expect(plain).not.toContain('process_cpu_seconds_total');
    const withDefaults = await createRelayMetrics({ defaultMetrics: true }).render();
    expect(withDefaults).toContain('process_cpu_seconds_total');
  });
});

describe('labels', () => {
  it.each([
    ['GET', 'GET'],
    ['POST', 'POST'],
    ['get', 'other'],
    ['X-SECRET-abc123', 'other'],
  ])('method %j is labelled %j', (method, label) => {
    expect(toMethodLabel(method)).toBe(label);
  });

  it.each([
    [200, '2xx'],
    [304, '3xx'],
    [404, '4xx'],
    [599, '5xx'],
    [99, 'other'],
    [600, 'other'],
  ])('status %d is class %j', (status, label) => {
    expect(toStatusClass(status)).toBe(label);
  });
});
