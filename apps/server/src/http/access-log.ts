import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { AppEnv } from '../app-env.js';

/**
 * One structured log line per request. It names the route pattern (`/v1/pools/:pool/stats`),
 * never the path's values, the query, a header or a body.
 */
export interface AccessLogEntry {
  readonly level: 'info' | 'warn' | 'error';
  readonly msg: 'request';
  readonly request_id: string;
  readonly method: string;
  readonly route: string;
  readonly status: number;
  readonly duration_ms: number;
}

/**
 * Middleware writing one {@link AccessLogEntry} per request.
 *
 * @param log - the sink (main.ts prints JSON lines)
 * @param now - the clock, milliseconds (a monotonic one in production)
 */
export function createAccessLog(
  log: (entry: AccessLogEntry) => void,
  now: () => number,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = now();
    await next();
    const status = c.res.status;
    let route: string;
    try {
      route = routePath(c, -1);
    } catch {
      route = '*';
    }
    if (route === '/*' || route === '*') route = '(unmatched)';
    log({
      level: status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info',
      msg: 'request',
      request_id: c.get('requestId'),
      method: c.req.method,
      route,
      status,
      duration_ms: Math.max(0, Math.round((now() - started) * 1000) / 1000),
    });
  };
}
