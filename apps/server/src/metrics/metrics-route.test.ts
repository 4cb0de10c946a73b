import { describe, expect, it } from 'vitest';
import { createApp } from '../create-app.js';
import { parseMetricSamples, sumOf } from './__fixtures__/metric-samples.js';
import { createRelayMetrics } from './relay-metrics.js';

const TOKEN = 'metrics-scrape-token-0123456789';
const discovery = {
  publicUrl: () => 'http://relay.test',
  defaultPool: 'default',
  allowedOrg: undefined,
  minCliVersion: '0.1.0',
};

describe('GET /metrics', () => {
  it('serves the exposition for the metrics token, and counts requests by route pattern', async () => {
    const metrics = createRelayMetrics();
    const app = createApp({ discovery, metrics, metricsToken: TOKEN });
    await app.request('/.well-known/relay');
    await app.request('/nowhere/secret-path-value?q=secret-query-value');
    const response = await app.request('/metrics', {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const text = await response.text();
    const samples = parseMetricSamples(text);
    expect(
      sumOf(samples, 'relay_http_requests_total', { route: '/.well-known/relay', status: '200' }),
    ).toBe(1);
    expect(
      sumOf(samples, 'relay_http_requests_total', { route: '(unmatched)', status: '404' }),
    ).toBe(1);
    expect(text).not.toContain('secret-path-value');
    expect(text).not.toContain('secret-query-value');
  });

  it.each([
    ['no token', {}],
    ['another token', { authorization: 'Bearer not-the-metrics-token-000' }],
    ['the token in the query', {}, `?token=${TOKEN}`],
    ['a basic credential', { authorization: `Basic ${TOKEN}` }],
  ])('refuses a scrape with %s: 401 and nothing of the metrics', async (_, headers, query = '') => {
    const metrics = createRelayMetrics();
    metrics.recordUpstreamAnswer('identity', 'alice-pat', 'charged');
    const app = createApp({ discovery, metrics, metricsToken: TOKEN });
    const response = await app.request(`/metrics${query}`, { headers });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ error: { code: 'unauthorized' } });
    expect(text).not.toContain('relay_');
    expect(text).not.toContain('alice-pat');
    expect(text).not.toContain(TOKEN);
  });

  it('is not served without a metrics token (404 like any unknown path)', async () => {
    const app = createApp({ discovery, metrics: createRelayMetrics() });
    const response = await app.request('/metrics', {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('relay_');
  });
});
