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
 * `relay native release list` end to end: the BUILT binary against relay-server and
 * @relay/forge-sim on loopback (routes release_list, release_latest), compared with the
 * releases forge-sim holds.
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

describe('relay native release list through relay-server and the simulated forge', () => {
  let sim: ForgeSim;
  let server: RunningServer;
  let dir: ReturnType<typeof createTempDir>;
  let env: Record<string, string>;

  beforeEach(async () => {
    const clock = createSimClock({ start: Date.now() });
    sim = await createForgeSim({ clock });
    seedDemoWorld(sim.world);
    // Releases a minute apart (gh orders by creation; equal seconds would run gh).
    clock.advance(60_000);
    sim.world.addRelease({
      owner: 'acme',
      repo: 'widgets',
      tag: 'v1.1.0-rc.1',
      name: 'RC  one',
      prerelease: true,
    });
    clock.advance(60_000);
    sim.world.addRelease({ owner: 'acme', repo: 'widgets', tag: 'v1.2.0', draft: true });
    dir = createTempDir();
    const config = loadServerConfig({
      RELAY_PORT: '0',
      RELAY_DATABASE: join(dir.path, 'relay.db'),
      RELAY_ADMIN_TOKEN: 'admin-token-for-releases-e2e-0123456789',
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

  it('--exclude-drafts prints gh’s table and --json, newest first, Latest from /releases/latest', async () => {
    const direct = await fetch(`${sim.urls.api}/repos/acme/widgets/releases`);
    const rest = (await direct.json()) as {
      tag_name: string;
      published_at: string | null;
      created_at: string;
    }[];
    const time = (tag: string) =>
      (rest.find((r) => r.tag_name === tag)?.published_at ?? '').replace(/\.\d+Z$/, 'Z');

    const table = await relay(
      ['native', 'release', 'list', '-R', 'acme/widgets', '--exclude-drafts'],
      env,
    );
    expect(table).toEqual({
      code: 0,
      stdout:
        `RC one\tPre-release\tv1.1.0-rc.1\t${time('v1.1.0-rc.1')}\n` +
        `Widgets 1.0\tLatest\tv1.0.0\t${time('v1.0.0')}\n`,
      stderr: '',
    });

    const json = await relay(
      [
        'native',
        'release',
        'list',
        '-R',
        'acme/widgets',
        '--exclude-drafts',
        '--order',
        'asc',
        '--json',
        'tagName,isLatest,isPrerelease',
      ],
      env,
    );
    expect(json).toEqual({
      code: 0,
      stdout:
        '[{"isLatest":true,"isPrerelease":false,"tagName":"v1.0.0"},' +
        '{"isLatest":false,"isPrerelease":true,"tagName":"v1.1.0-rc.1"}]\n',
      stderr: '',
    });

    const jq = await relay(
      [
        'native',
        'release',
        'list',
        '-R',
        'acme/widgets',
        '--exclude-drafts',
        '--exclude-pre-releases',
        '--json',
        'name',
        '--jq',
        '.[].name',
      ],
      env,
    );
    expect(jq).toEqual({ code: 0, stdout: 'Widgets 1.0\n', stderr: '' });

    const drafts = await relay(['native', 'release', 'list', '-R', 'acme/widgets'], env);
    expect(drafts.code).toBe(1);
    expect(drafts.stderr).toContain('fallback_local, reason unsupported_shape');
  }, 60_000);
});
