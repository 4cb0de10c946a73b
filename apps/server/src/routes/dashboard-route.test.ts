import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../create-app.js';
import { loadDashboardAssets, type DashboardAssets } from './dashboard-assets.js';
import { DASHBOARD_CSP } from './dashboard-route.js';

let dir: string;
let assets: DashboardAssets;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'relay-dashboard-route-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Relay</title>');
  writeFileSync(join(dir, 'assets/index-abc123.js'), 'export {};');
  writeFileSync(join(dir, 'assets/index-abc123.css'), 'body{}');
  writeFileSync(join(dir, 'assets/index-abc123.js.map'), '{}');
  const loaded = loadDashboardAssets(dir);
  if (loaded === undefined) throw new Error('not loaded');
  assets = loaded;
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const app = () =>
  createApp({
    discovery: {
      publicUrl: () => 'http://relay.test',
      defaultPool: 'default',
      allowedOrg: undefined,
      minCliVersion: '0.1.0',
    },
    dashboard: assets,
  });

describe('GET /dashboard/', () => {
  it('loads the built files, leaving out source maps', () => {
    expect([...assets.keys()]).toEqual([
      'assets/index-abc123.css',
      'assets/index-abc123.js',
      'index.html',
    ]);
    expect(loadDashboardAssets(join(dir, 'assets'))).toBeUndefined();
  });

  it('serves the page with its CSP and hardening headers, uncached', async () => {
    const response = await app().request('/dashboard/');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>Relay</title>');
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': DASHBOARD_CSP,
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-cache',
    });
    expect(DASHBOARD_CSP).toContain("script-src 'self'");
    expect(DASHBOARD_CSP).not.toContain('unsafe-inline');
  });

  it('serves hashed assets as immutable, and 404s anything else', async () => {
    const script = await app().request('/dashboard/assets/index-abc123.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    for (const path of [
      '/dashboard/assets/index-abc123.js.map',
      '/dashboard/assets/missing.js',
      '/dashboard/../package.json',
    ]) {
      expect((await app().request(path)).status, path).toBe(404);
    }
  });

  it('redirects /dashboard to /dashboard/', async () => {
    const response = await app().request('/dashboard');
    expect(response.status).toBe(308);
    expect(response.headers.get('location')).toBe('/dashboard/');
  });

  it('is not served without the built dashboard', async () => {
    const bare = createApp({
      discovery: {
        publicUrl: () => 'http://relay.test',
        defaultPool: 'default',
        allowedOrg: undefined,
        minCliVersion: '0.1.0',
      },
    });
    expect((await bare.request('/dashboard/')).status).toBe(404);
  });
});
