import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createForgeSim, createSimClock, seedDemoWorld } from '@relay/forge-sim';
import type { ForgeSim } from '@relay/forge-sim';
import { loadServerConfig, startServer } from '@relay/server';
import type { RunningServer } from '@relay/server';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from './cli-harness.js';

/**
 * `relay native repo view` end to end: the BUILT binary against relay-server and
 * @relay/forge-sim on loopback (routes repo_view, repo_readme), compared with the
 * repository forge-sim holds.
 */
const appDir = dirname(dirname(fileURLToPath(import.meta.url)));
const bin = join(appDir, 'dist', 'main.js');

function build(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('pnpm', ['exec', 'tsdown', '--logLevel', 'error'], {
      cwd: appDir,
      stdio: 'ignore',
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`tsdown exited ${String(code)}`));
    });
  });
}

function relay(args: readonly string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: env.RELAY_CONFIG_DIR ?? '/nonexistent', ...env },
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.stdin.end();
    child.once('error', reject);
    child.once('close', (code) => {
      resolve({
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
  });
}

beforeAll(async () => {
  await build();
}, 120_000);

describe('relay native repo view through relay-server and the simulated forge', () => {
  let sim: ForgeSim;
  let server: RunningServer;
  let dir: ReturnType<typeof createTempDir>;
  let env: Record<string, string>;

  beforeEach(async () => {
    sim = await createForgeSim({ clock: createSimClock({ start: Date.now() }) });
    seedDemoWorld(sim.world);
    sim.world.addRepo({
      owner: 'acme',
      name: 'gadgets',
      description: 'Gadgets <&> co',
      files: { 'README.md': '# gadgets\n\n100% tested, 50%% less\n' },
    });
    sim.world.addRepo({ owner: 'acme', name: 'bare', files: { 'a.txt': 'a\n' } });
    dir = createTempDir();
    const config = loadServerConfig({
      RELAY_PORT: '0',
      RELAY_DATABASE: join(dir.path, 'relay.db'),
      RELAY_ADMIN_TOKEN: 'admin-token-for-repo-view-e2e-0123456789',
      RELAY_FORGE_API_URL: sim.urls.api,
      RELAY_FORGE_WEB_URL: sim.urls.web,
      RELAY_FORGE_RAW_URL: sim.urls.raw,
      ALLOWED_FORGE_ORG: 'acme',
      DEFAULT_LOGIN_POOL: 'team',
      DEFAULT_ALLOWED_OWNERS: 'acme',
    });
    if (!config.ok) throw new Error('invalid test configuration');
    server = await startServer(config.value);
    const { token } = sim.tokens.addPat({ login: 'alice' });
    env = {
      RELAY_CONFIG_DIR: join(dir.path, 'config'),
      GH_TOKEN: token,
      RELAY_RETRIES: '0',
      RELAY_NO_FALLBACK: '1',
    };
    const login = await relay(['login', server.url], env);
    if (login.code !== 0) throw new Error(`login failed: ${login.stderr}`);
  });
  afterEach(async () => {
    await server.close();
    await sim.close();
    dir.remove();
  });

  it('prints gh’s name/description/README layout (printf-mangled) and --json from REST', async () => {
    const widgets = await relay(['native', 'repo', 'view', 'acme/widgets'], env);
    expect(widgets).toEqual({
      code: 0,
      stdout:
        'name:\tacme/widgets\ndescription:\tWidgets for everyone\n--\n# widgets\n\nWidgets for everybody.\n\n',
      stderr: '',
    });

    const gadgets = await relay(['native', 'repo', 'view', 'https://github.com/acme/gadgets'], env);
    expect(gadgets).toEqual({
      code: 0,
      stdout:
        'name:\tacme/gadgets\ndescription:\tGadgets <&> co\n--\n# gadgets\n\n100%!t(MISSING)ested, 50% less\n\n',
      stderr: '',
    });

    const bare = await relay(['native', 'repo', 'view', 'acme/bare'], env);
    expect(bare).toEqual({ code: 0, stdout: 'name:\tacme/bare\ndescription:\t\n', stderr: '' });

    const json = await relay(
      [
        'native',
        'repo',
        'view',
        'acme/widgets',
        '--json',
        'nameWithOwner,isPrivate,visibility,description',
      ],
      env,
    );
    expect(json).toEqual({
      code: 0,
      stdout:
        '{"description":"Widgets for everyone","isPrivate":false,"nameWithOwner":"acme/widgets","visibility":"PUBLIC"}\n',
      stderr: '',
    });

    const jq = await relay(
      ['native', 'repo', 'view', 'acme/widgets', '--json', 'watchers', '--jq', '.watchers'],
      env,
    );
    expect(jq.code).toBe(0);
    expect(jq.stdout).toMatch(/^\{"totalCount":\d+\}\n$/);

    const graphqlOnly = await relay(
      ['native', 'repo', 'view', 'acme/widgets', '--json', 'viewerPermission'],
      env,
    );
    expect(graphqlOnly.code).toBe(1);
    expect(graphqlOnly.stderr).toContain('fallback_local, reason unsupported_flag');
  }, 60_000);
});
