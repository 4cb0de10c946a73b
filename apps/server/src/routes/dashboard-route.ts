import { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { RelayHttpError } from '../relay-http-error.js';
import type { DashboardAssets } from './dashboard-assets.js';

/** Where the dashboard is served. */
export const DASHBOARD_PATH = '/dashboard';

/**
 * The dashboard's Content-Security-Policy: scripts, styles and API calls from the relay's own
 * origin only; no inline script or style, no framing, no form posts, no other origin.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': DASHBOARD_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/**
 * GET /dashboard/ and its files: the stats dashboard (apps/dashboard), a static page that signs
 * in with a caller token held in the browser's sessionStorage and reads the caller endpoints.
 * Served from memory with the {@link DASHBOARD_CSP} and hardening headers; `index.html` is not
 * cached, content-hashed `assets/` files are immutable. `/dashboard` redirects to `/dashboard/`.
 *
 * @param assets - the built dashboard ({@link loadDashboardAssets})
 */
export function createDashboardRoute(assets: DashboardAssets): Hono<AppEnv> {
  const route = new Hono<AppEnv>();
  route.get(DASHBOARD_PATH, (c) => c.redirect(`${DASHBOARD_PATH}/`, 308));
  route.get(`${DASHBOARD_PATH}/*`, (c) => {
    const path = c.req.path.slice(DASHBOARD_PATH.length + 1);
    const asset = assets.get(path === '' ? 'index.html' : path);
    if (asset === undefined) throw new RelayHttpError('not_found');
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.header(name, value);
    c.header('content-type', asset.contentType);
    c.header('cache-control', asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    return c.body(asset.body as Uint8Array<ArrayBuffer>, 200);
  });
  return route;
}
