import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEMO,
  createForgeSim,
  createSimClock,
  seedDemoWorld,
  type ForgeSim,
} from '@relay/forge-sim';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServerConfig, startServer, type RunningServer } from '../src/index.js';
import { DASHBOARD_CSP } from '../src/routes/dashboard-route.js';
import { enrollAlice } from './pipeline/relay-harness.js';

/**
 * The stats dashboard end to end: apps/dashboard built with Vite, served by a real relay-server
 * (loopback, SQLite file) in front of forge-sim, driven in Debian's headless Chromium through
 * playwright-core. `.ci/run` installs chromium when it is missing.
 */
const CHROMIUM = '/usr/bin/chromium';
const HERE = dirname(fileURLToPath(import.meta.url));
const DASHBOARD_APP = join(HERE, '../../dashboard');
/** Screenshots land here (gitignored); the README's picture is a copy of one. */
const ARTIFACTS = join(HERE, '../test-artifacts');
const ADMIN = 'admin-token-for-dashboard-tests-0123456';
/** apps/dashboard's sessionStorage key (session-store.ts). */
const SESSION_KEY = 'relay.dashboard.session';
const POOL = 'team';
const CHART_PANELS = ['health', 'identities', 'hit-rate', 'free-paid', 'route-kinds', 'fallbacks'];
const PANELS = [...CHART_PANELS, 'denials'];

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(`dashboard e2e skipped: ${CHROMIUM} is absent (apt-get install -y chromium)`);
}

// Browser steps under a loaded CI machine take seconds each: a minute per test.
describe.skipIf(!hasChromium)(
  'the stats dashboard in headless Chromium',
  { timeout: 60_000 },
  () => {
    let sim: ForgeSim | undefined;
    let server: RunningServer;
    let browser: Browser | undefined;
    let dir: string | undefined;
    let callerToken: string;
    const secrets = new Map<string, string>();
    const logLines: string[] = [];

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'relay-dashboard-'));
      // Build the dashboard from source, so that the test never serves a stale build.
      const vite = join(DASHBOARD_APP, 'node_modules/vite/bin/vite.js');
      const built = spawnSync(
        process.execPath,
        [vite, 'build', '--outDir', join(dir, 'dashboard'), '--emptyOutDir', '--logLevel', 'warn'],
        { cwd: DASHBOARD_APP, encoding: 'utf8' },
      );
      if (built.status !== 0) throw new Error(`vite build failed: ${built.stderr}`);

      const clock = createSimClock({ start: Date.parse('2030-01-01T12:30:00Z') });
      const forge = await createForgeSim({ clock });
      sim = forge;
      seedDemoWorld(forge.world);
      const config = loadServerConfig({
        RELAY_PORT: '0',
        RELAY_HOST: '127.0.0.1',
        RELAY_DATABASE: join(dir, 'relay.db'),
        RELAY_ADMIN_TOKEN: ADMIN,
        RELAY_FORGE_API_URL: forge.urls.api,
        RELAY_FORGE_WEB_URL: forge.urls.web,
        RELAY_FORGE_RAW_URL: forge.urls.raw,
        RELAY_FORGE_LOG_HOSTS: new URL(forge.urls.log).hostname,
        ALLOWED_FORGE_ORG: DEMO.org,
        DEFAULT_ALLOWED_OWNERS: DEMO.org,
        DEFAULT_LOGIN_POOL: POOL,
      });
      if (!config.ok) throw new Error('invalid test configuration');
      server = await startServer(config.value, {
        now: () => clock.now(),
        readSecret: (name) => Promise.resolve(secrets.get(name)),
        dashboardDir: join(dir, 'dashboard'),
        onLog: (entry) => logLines.push(JSON.stringify(entry)),
      });

      // A caller of the pool, and two identities: alice (a working PAT) and bob, whose secret
      // binding is missing (a credential cooldown when selection tries it first).
      callerToken = await enrollAlice(server.database, clock.now(), POOL);
      secrets.set('alice_pat', forge.tokens.addPat({ login: DEMO.users.alice }).token);
      for (const identity of [
        { id: 'alice', secret_ref: 'alice_pat', weight: 100 },
        { id: 'bob', secret_ref: 'bob_pat_missing', weight: 900 },
      ]) {
        const registered = await fetch(`${server.url}/v1/admin/pools/${POOL}/identities`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            ...identity,
            kind: 'pat',
            login: DEMO.users.alice,
            scopes: [{ owner: DEMO.org }],
          }),
        });
        if (registered.status !== 201)
          throw new Error(`registration: ${String(registered.status)}`);
      }

      // Traffic: a miss then two hits, a paid read (bob fails locally and cools down, alice
      // serves), a local fallback and a denied method.
      const relay = async (body: Record<string, unknown>) => {
        const response = await fetch(`${server.url}/v1/forge/request`, {
          method: 'POST',
          headers: { authorization: `Bearer ${callerToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ pool: POOL, method: 'GET', ...body }),
        });
        await response.arrayBuffer();
        return response.status;
      };
      const issues = `/repos/${DEMO.org}/${DEMO.publicRepo}/issues`;
      expect(await relay({ path: issues })).toBe(200);
      expect(await relay({ path: issues })).toBe(200);
      expect(await relay({ path: issues })).toBe(200);
      expect(await relay({ path: '/rate_limit' })).toBe(200);
      expect(await relay({ path: `/repos/${DEMO.org}/${DEMO.publicRepo}/hooks` })).toBe(424);
      expect(await relay({ path: issues, method: 'DELETE' })).toBe(403);
      await server.audit.flush();

      browser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      mkdirSync(ARTIFACTS, { recursive: true });
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed early
      await server?.close();
      await sim?.close();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    });

    async function signIn(page: Page): Promise<void> {
      await page.goto(`${server.url}/dashboard/`);
      await page.locator('#sign-in').waitFor({ state: 'visible' });
      // Discovery's default pool is filled in.
      await expect.poll(() => page.inputValue('#pool')).toBe(POOL);
      await page.fill('#token', callerToken);
      await page.click('#sign-in-form button[type=submit]');
      await page.locator('body[data-state="loaded"]').waitFor({ timeout: 15_000 });
    }

    /** A panel's table as text: cells joined by tabs, rows by newlines (folded or not). */
    const panelText = (page: Page, panel: string) =>
      page
        .locator(`[data-panel="${panel}"] table tr`)
        .evaluateAll((rows: { children: ArrayLike<{ textContent: string | null }> }[]) =>
          rows
            .map((row) => Array.from(row.children, (cell) => cell.textContent ?? '').join('\t'))
            .join('\n'),
        );

    it('signs in, populates every panel with a chart and a table, and saves a screenshot', async () => {
      const context = await browser!.newContext({ viewport: { width: 1280, height: 1800 } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('response', (answer) => {
        if (answer.status() >= 400) errors.push(`${String(answer.status())} ${answer.url()}`);
      });
      const response = await page.goto(`${server.url}/dashboard/`);
      expect(response?.status()).toBe(200);
      expect(response?.headers()['content-security-policy']).toBe(DASHBOARD_CSP);
      expect(response?.headers()['x-frame-options']).toBe('DENY');
      await signIn(page);

      for (const panel of PANELS) {
        await expect
          .poll(() => page.getAttribute(`[data-panel="${panel}"]`, 'data-populated'))
          .toBe('true');
      }
      for (const panel of CHART_PANELS) {
        expect(await page.locator(`[data-panel="${panel}"] canvas`).count(), panel).toBe(1);
        expect(await page.getAttribute(`[data-panel="${panel}"]`, 'data-chart'), panel).toBe(
          'drawn',
        );
      }
      // Figures from the live relay: 6 requests, of which 2 cache hits.
      const health = await panelText(page, 'health');
      expect(health).toContain('Identities registered\t2');
      expect(health).toContain('Requests\t6');
      expect(health).toContain('Cache hit rate\t33.3 %');
      const identities = await panelText(page, 'identities');
      expect(identities).toMatch(/alice\tpat\t100\tcore\t\d+ \/ 5000/);
      expect(identities).toMatch(/bob\tpat\t900\t.*global \(credential\) until 2030-01-01 12:3\d/);
      const hitRate = await panelText(page, 'hit-rate');
      expect(hitRate).toContain('2030-01-01 12:00\t6\t2\t33.3 %');
      const freePaid = await panelText(page, 'free-paid');
      expect(freePaid).toContain('2030-01-01 12:00\t3\t1\t1\t0');
      expect(await panelText(page, 'route-kinds')).toContain('issue_list\t3');
      expect(await panelText(page, 'fallbacks')).toContain('route_denied\t1');
      const denials = await panelText(page, 'denials');
      expect(denials).toMatch(/2030-01-01 12:30\t\S+\t403\tmethod_denied\t—\t/);
      expect(denials).toMatch(/2030-01-01 12:30\t\S+\t424\tfallback_local\troute_denied\t/);
      expect(denials).not.toContain(DEMO.publicRepo);

      // The token is held in this tab's sessionStorage only: no cookie, no localStorage, no URL.
      const storage = await page.evaluate(() => ({
        session: Object.keys(sessionStorage),
        local: localStorage.length,
      }));
      // Page globals other than the storages are not typed here (no DOM library): read as text.
      expect(await page.evaluate('document.cookie')).toBe('');
      expect(page.url()).toBe(`${server.url}/dashboard/`);
      expect(storage).toEqual({
        session: [SESSION_KEY],
        local: 0,
      });
      expect(await context.cookies()).toEqual([]);
      expect(logLines.join('\n')).not.toContain(callerToken);
      expect(errors).toEqual([]);

      await page.screenshot({ path: join(ARTIFACTS, 'dashboard.png'), fullPage: true });

      // Signing out forgets the token.
      await page.click('#sign-out');
      await page.locator('#sign-in').waitFor({ state: 'visible' });
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
      await context.close();
    });

    it('falls back to tables when the chart library cannot load', async () => {
      const context = await browser!.newContext({ viewport: { width: 1280, height: 1600 } });
      await context.route('**/dashboard/assets/chart-panels-*.js', (route) => route.abort());
      const page = await context.newPage();
      await signIn(page);
      expect(await page.getAttribute('body', 'data-charts')).toBe('unavailable');
      await expect.poll(() => page.locator('#chart-status').isVisible()).toBe(true);
      expect(await page.locator('canvas').count()).toBe(0);
      for (const panel of PANELS) {
        expect(await page.getAttribute(`[data-panel="${panel}"]`, 'data-chart'), panel).toBe(
          'table-only',
        );
        expect(await page.locator(`[data-panel="${panel}"] details[open] table`).count()).toBe(1);
      }
      expect(await panelText(page, 'route-kinds')).toContain('issue_list\t3');
      await page.screenshot({ path: join(ARTIFACTS, 'dashboard-tables.png'), fullPage: true });
      await context.close();
    });

    it('says what it needs without JavaScript, and shows no form', async () => {
      const context = await browser!.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${server.url}/dashboard/`);
      expect(await page.locator('noscript').count()).toBe(1);
      expect(await page.locator('body').innerText()).toContain('relay stats --json');
      expect(await page.locator('#sign-in').isVisible()).toBe(false);
      await context.close();
    });

    it('refuses a wrong token and returns to the sign-in form', async () => {
      const context = await browser!.newContext();
      const page = await context.newPage();
      await page.goto(`${server.url}/dashboard/`);
      await page.locator('#sign-in').waitFor({ state: 'visible' });
      await page.fill('#pool', POOL);
      await page.fill('#token', 'rly_not_a_token');
      await page.click('#sign-in-form button[type=submit]');
      await expect.poll(() => page.locator('#sign-in-error').innerText()).toContain('refused');
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
      await context.close();
    });
  },
);
