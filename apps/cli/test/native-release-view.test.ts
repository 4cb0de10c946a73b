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
 * `relay native release view` end to end: the BUILT binary against relay-server and
 * @relay/forge-sim on loopback (routes release_view, release_latest), compared with the
 * release forge-sim answers directly.
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

describe('relay native release view through relay-server and the simulated forge', () => {
  let sim: ForgeSim;
  let server: RunningServer;
  let dir: ReturnType<typeof createTempDir>;
  let env: Record<string, string>;

  beforeEach(async () => {
    sim = await createForgeSim({ clock: createSimClock({ start: Date.now() }) });
    seedDemoWorld(sim.world);
    dir = createTempDir();
    const config = loadServerConfig({
      RELAY_PORT: '0',
      RELAY_DATABASE: join(dir.path, 'relay.db'),
      RELAY_ADMIN_TOKEN: 'admin-token-for-release-e2e-0123456789',
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

  it('prints gh’s plain layout and --json of the forge’s release, by tag and latest', async () => {
    const direct = await fetch(`${sim.urls.api}/repos/acme/widgets/releases/tags/v1.0.0`);
    const rest = (await direct.json()) as {
      id: number;
      name: string;
      body: string;
      html_url: string;
      created_at: string;
      published_at: string;
      author: { login: string; node_id: string };
      assets: { name: string }[];
    };
    expect(rest.name).toBe('Widgets 1.0');
    const plain =
      `title:\tWidgets 1.0\ntag:\tv1.0.0\ndraft:\tfalse\nprerelease:\tfalse\n` +
      `author:\t${rest.author.login}\ncreated:\t${rest.created_at.replace(/\.\d+Z$/, 'Z')}\n` +
      `published:\t${rest.published_at.replace(/\.\d+Z$/, 'Z')}\nurl:\t${rest.html_url}\n` +
      rest.assets.map((a) => `asset:\t${a.name}\n`).join('') +
      `--\n${rest.body}\n`;

    for (const args of [['v1.0.0'], []]) {
      const view = await relay(['native', 'release', 'view', ...args, '-R', 'acme/widgets'], env);
      expect(view).toEqual({ code: 0, stdout: plain, stderr: '' });
    }

    const json = await relay(
      [
        'native',
        'release',
        'view',
        'v1.0.0',
        '-R',
        'acme/widgets',
        '--json',
        'databaseId,author,tagName',
      ],
      env,
    );
    expect(json).toEqual({
      code: 0,
      stdout: `{"author":{"id":"${rest.author.node_id}","login":"${rest.author.login}"},"databaseId":${String(rest.id)},"tagName":"v1.0.0"}\n`,
      stderr: '',
    });

    const jq = await relay(
      [
        'native',
        'release',
        'view',
        '-R',
        'acme/widgets',
        '--json',
        'assets',
        '--jq',
        '.assets[].name',
      ],
      env,
    );
    expect(jq).toEqual({
      code: 0,
      stdout: rest.assets.map((a) => `${a.name}\n`).join(''),
      stderr: '',
    });
  }, 60_000);

  it('a repository without a published release prints gh’s `release not found`, exit 1; a missing tag runs gh', async () => {
    sim.world.addRepo({ owner: 'acme', name: 'gadgets', files: { 'a.txt': 'a\n' } });
    sim.world.addRelease({ owner: 'acme', repo: 'gadgets', tag: 'v0.1.0', draft: true });
    const latest = await relay(['native', 'release', 'view', '-R', 'acme/gadgets'], env);
    expect(latest).toEqual({ code: 1, stdout: '', stderr: 'release not found\n' });

    const tag = await relay(['native', 'release', 'view', 'v9.9.9', '-R', 'acme/widgets'], env);
    expect(tag.code).toBe(1);
    expect(tag.stderr).toContain('fallback_local, reason unsupported_shape');
  }, 60_000);
});
