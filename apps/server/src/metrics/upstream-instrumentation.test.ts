import type { ForgeRequest, ForgeTransport } from '@relay/forge-transport';
import type { IdentityPool } from '@relay/identity-pool';
import { describe, expect, it } from 'vitest';
import { createRequestScope, createRequestTrace } from '../http/request-scope.js';
import { parseMetricSamples, sumOf } from './__fixtures__/metric-samples.js';
import { createRelayMetrics } from './relay-metrics.js';
import {
  instrumentIdentityPool,
  instrumentTransport,
  toUpstreamLane,
} from './upstream-instrumentation.js';

type Result = Awaited<ReturnType<ForgeTransport['request']>>;

const answer = (status: number): Result => ({
  ok: true,
  value: {
    status,
    headers: {},
    body: { encoding: 'json', body: null },
  } as unknown as Extract<Result, { ok: true }>['value'],
});

function fakeTransport(results: Result[]) {
  const seen: ForgeRequest[] = [];
  return {
    seen,
    transport: {
      request: (request: ForgeRequest) => {
        seen.push(request);
        const next = results.shift();
        if (next === undefined) throw new Error('no answer queued');
        return Promise.resolve(next);
      },
    },
  };
}

const check = () => true;

describe('toUpstreamLane', () => {
  it.each<[Pick<ForgeRequest, 'host' | 'authorization'>, string]>([
    [{ host: 'api' }, 'anonymous'],
    [{ host: 'api', authorization: 'token x' }, 'identity'],
    [{ host: 'web' }, 'web'],
    [{ host: 'raw' }, 'raw'],
    [{ host: 'patch' }, 'patch'],
  ])('%j is lane %s', (request, lane) => {
    expect(toUpstreamLane(request)).toBe(lane);
  });
});

describe('instrumentTransport', () => {
  it('counts requests on the current trace and by lane, latency and token-free answers', async () => {
    const metrics = createRelayMetrics();
    const scope = createRequestScope();
    const { transport, seen } = fakeTransport([
      answer(200),
      answer(304),
      { ok: false, error: { code: 'forge_timeout', message: 'timeout' } },
      answer(200),
    ]);
    let clock = 0;
    const instrumented = instrumentTransport(transport, {
      scope,
      metrics,
      elapsed: () => (clock += 5),
    });
    const trace = createRequestTrace();
    await scope.run(trace, async () => {
      await instrumented.request({ host: 'api', path: '/a', rewriteCheck: check });
      await instrumented.request({
        host: 'api',
        path: '/b',
        rewriteCheck: check,
        authorization: 'Bearer ghp_secret_value',
      });
      await instrumented.request({ host: 'web', path: '/c', rewriteCheck: check });
    });
    // Outside any request: counted in the metrics only.
    await instrumented.request({ host: 'raw', path: '/d', rewriteCheck: check });
    expect(trace.upstreamRequests).toBe(3);
    expect(seen.map((r) => r.path)).toEqual(['/a', '/b', '/c', '/d']);

    const text = await metrics.render();
    const samples = parseMetricSamples(text);
    expect(
      sumOf(samples, 'relay_upstream_requests_total', { lane: 'anonymous', outcome: '2xx' }),
    ).toBe(1);
    expect(
      sumOf(samples, 'relay_upstream_requests_total', { lane: 'identity', outcome: '3xx' }),
    ).toBe(1);
    expect(
      sumOf(samples, 'relay_upstream_requests_total', { lane: 'web', outcome: 'forge_timeout' }),
    ).toBe(1);
    expect(sumOf(samples, 'relay_upstream_request_duration_seconds_sum')).toBeCloseTo(0.02);
    expect(
      sumOf(samples, 'relay_upstream_answers_total', { lane: 'anonymous', charge: 'charged' }),
    ).toBe(1);
    expect(sumOf(samples, 'relay_upstream_answers_total', { lane: 'raw', charge: 'free' })).toBe(1);
    // Pooled answers are counted by the identity pool, which knows the identity.
    expect(sumOf(samples, 'relay_upstream_answers_total', { lane: 'identity' })).toBe(0);
    expect(text).not.toContain('ghp_secret_value');
    expect(text).not.toContain('/b');
  });

  it('without metrics, only counts on the trace', async () => {
    const scope = createRequestScope();
    const { transport } = fakeTransport([answer(200)]);
    const trace = createRequestTrace();
    await scope.run(trace, () =>
      instrumentTransport(transport, { scope }).request({
        host: 'api',
        path: '/',
        rewriteCheck: check,
      }),
    );
    expect(trace.upstreamRequests).toBe(1);
  });
});

describe('instrumentIdentityPool', () => {
  it('counts reported answers by identity id, a 304 free, transport errors not at all', async () => {
    const metrics = createRelayMetrics();
    const reports: unknown[] = [];
    const pool = {
      select: () => Promise.reject(new Error('unused')),
      acquire: () => Promise.reject(new Error('unused')),
      report: (report: unknown) => {
        reports.push(report);
        return Promise.resolve({ ok: true, value: {} });
      },
    } as unknown as IdentityPool;
    const instrumented = instrumentIdentityPool(pool, metrics);
    const identity = { id: 'alice-pat', kind: 'pat' } as Parameters<
      IdentityPool['report']
    >[0]['identity'];
    const route = { key: 'k', bucket: 'core' } as Parameters<IdentityPool['report']>[0]['route'];
    await instrumented.report({
      identity,
      route,
      outcome: { kind: 'response', status: 200, headers: {} },
    });
    await instrumented.report({
      identity,
      route,
      outcome: { kind: 'response', status: 304, headers: {} },
    });
    await instrumented.report({ identity, route, outcome: { kind: 'transport_error' } });
    expect(reports).toHaveLength(3);
    const samples = parseMetricSamples(await metrics.render());
    expect(
      sumOf(samples, 'relay_upstream_answers_total', { identity: 'alice-pat', charge: 'charged' }),
    ).toBe(1);
    expect(
      sumOf(samples, 'relay_upstream_answers_total', { identity: 'alice-pat', charge: 'free' }),
    ).toBe(1);
  });
});
