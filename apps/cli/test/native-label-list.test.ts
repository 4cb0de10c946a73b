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
 * `relay native label list` end to end: the BUILT binary against relay-server and
 * @relay/forge-sim on loopback (route label_list), compared with the labels forge-sim holds.
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

describe('relay native label list through relay-server and the simulated forge', () => {
  let sim: ForgeSim;
  let server: RunningServer;
  let dir: ReturnType<typeof createTempDir>;
  let env: Record<string, string>;

  beforeEach(async () => {
    sim = await createForgeSim({ clock: createSimClock({ start: Date.now() }) });
    seedDemoWorld(sim.world);
    sim.world.addLabel({
      owner: 'acme',
      repo: 'widgets',
      name: 'good first issue',
      description: 'Good for <newcomers> & co',
    });
    dir = createTempDir();
    const config = loadServerConfig({
      RELAY_PORT: '0',
      RELAY_DATABASE: join(dir.path, 'relay.db'),
      RELAY_ADMIN_TOKEN: 'admin-token-for-label-e2e-0123456789',
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

  it('prints gh’s table and --json of the forge’s labels in creation order, and gh’s field error', async () => {
    const repo = sim.world.getRepo('acme', 'widgets');
    const labels = [...(repo?.labels.values() ?? [])].sort((a, b) => a.id - b.id);
    expect(labels.length).toBeGreaterThan(1);

    const table = await relay(['native', 'label', 'list', '-R', 'acme/widgets'], env);
    expect(table).toMatchObject({ code: 0, stderr: '' });
    expect(table.stdout).toBe(
      labels.map((l) => `${l.name}\t${l.description ?? ''}\t#${l.color}\n`).join(''),
    );

    const json = await relay(
      [
        'native',
        'label',
        'list',
        '-R',
        'acme/widgets',
        '--json',
        'name,color',
        '--order',
        'desc',
        '-L',
        '0x2',
      ],
      env,
    );
    expect(json).toMatchObject({ code: 0, stderr: '' });
    expect(json.stdout).toBe(
      `${JSON.stringify(
        labels
          .reverse()
          .slice(0, 2)
          .map((l) => ({ color: l.color, name: l.name })),
      )}\n`,
    );

    const jq = await relay(
      ['native', 'label', 'list', '-R', 'acme/widgets', '--json', 'name', '--jq', '.[0]'],
      env,
    );
    expect(jq).toMatchObject({ code: 0, stderr: '' });
    expect(jq.stdout).toBe(`${JSON.stringify({ name: labels.at(-1)?.name })}\n`);

    const unknown = await relay(
      ['native', 'label', 'list', '-R', 'acme/widgets', '--json', 'nope'],
      env,
    );
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toBe(
      'Unknown JSON field: "nope"\nAvailable fields:\n  color\n  createdAt\n  description\n  id\n  isDefault\n  name\n  updatedAt\n  url\n',
    );

    const createdAt = await relay(
      ['native', 'label', 'list', '-R', 'acme/widgets', '--json', 'createdAt'],
      env,
    );
    expect(createdAt.code).toBe(1);
    expect(createdAt.stderr).toContain('fallback_local, reason unsupported_flag');
  }, 60_000);
});
