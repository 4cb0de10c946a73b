import { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { createAdminAuthenticator } from '../auth/admin-authenticator.js';
import type { RelayMetrics } from './relay-metrics.js';

/** The path of the Prometheus scrape endpoint. */
export const METRICS_PATH = '/metrics';

/**
 * GET /metrics: the Prometheus text exposition of `metrics`, for a bearer token equal to `token`
 * (compared in constant time through its SHA-256, as the admin token is). Any other request is
 * 401 `unauthorized` with the catalogue's error body: no metric, no hint of the token.
 * `Cache-Control: no-store`.
 *
 * @param metrics - the app's metrics
 * @param token - RELAY_METRICS_TOKEN
 */
export function createMetricsRoute(metrics: RelayMetrics, token: string): Hono<AppEnv> {
  const route = new Hono<AppEnv>();
  route.get(METRICS_PATH, createAdminAuthenticator(token), async (c) => {
    const text = await metrics.render();
    return c.body(text, 200, {
      'content-type': metrics.contentType,
      'cache-control': 'no-store',
    });
  });
  return route;
}
