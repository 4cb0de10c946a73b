import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createForgeSim, createSimClock, seedDemoWorld } from '@relay/forge-sim';
import type { DemoWorldIds, ForgeSim } from '@relay/forge-sim';
import { loadServerConfig, startServer } from '@relay/server';
import type { RunningServer } from '@relay/server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from './cli-harness.js';

/**
 * `relay native pr diff` through the BUILT binary (tsdown into a directory of its own) against
 * the real relay-server and @relay/forge-sim on loopback: the bytes printed are forge-sim's
 * own `.diff`/`.patch` pages of the PR, read through the relay's token-free web lane.
 */
const appDir = dirname(dirname(fileURLToPath(import.meta.url)));
const ADMIN = 'admin-token-for-pr-diff-e2e-0123456789';
let outDir: string;
let bin: string;

function run(command: string, args: readonly string[], cwd: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) => {
      resolve(code);
    });
  });
}

interface RunResult {
  readonly code: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

function relay(args: readonly string[], env: Record<string, string>, cwd: string) {
  return new Promise<RunResult>((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env },
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.stdin.end();
    child.once('error', reject);
    child.once('close', (code) => {
      resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

/** A fake gh that records its argv and exits 7. */
function writeFakeGh(dir: string): string {
  const path = join(dir, 'fake-gh');
  writeFileSync(path, `#!/bin/sh\nprintf '%s\\n' "$@" > "${dir}/native-argv"\nexit 7\n`);
  chmodSync(path, 0o755);
  return path;
}

async function bytesOf(url: string): Promise<Buffer> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'relay-pr-diff-cli-'));
  const code = await run(
    'pnpm',
    ['exec', 'tsdown', '--logLevel', 'error', '--out-dir', outDir],
    appDir,
  );
  if (code !== 0) throw new Error(`tsdown exited ${String(code)}`);
  bin = join(outDir, 'main.js');
}, 120_000);
afterAll(() => {
  rmSync(outDir, { recursive: true, force: true });
});

describe('relay native pr diff (built binary) against relay-server and forge-sim', () => {
  let sim: ForgeSim;
  let ids: DemoWorldIds;
  let server: RunningServer;
  let dir: ReturnType<typeof createTempDir>;
  let env: Record<string, string>;

  beforeEach(async () => {
    sim = await createForgeSim({ clock: createSimClock({ start: Date.now() }) });
    ids = seedDemoWorld(sim.world);
    dir = createTempDir();
    const config = loadServerConfig({
      RELAY_PORT: '0',
      RELAY_DATABASE: join(dir.path, 'relay.db'),
      RELAY_ADMIN_TOKEN: ADMIN,
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
      RELAY_NATIVE_CLI: writeFakeGh(dir.path),
      RELAY_RETRIES: '0',
    };
    const login = await relay(['login', server.url], env, dir.path);
    expect(login.code).toBe(0);
  });
  afterEach(async () => {
    await server.close();
    await sim.close();
    dir.remove();
  });

  it("prints forge-sim's .diff and .patch bytes of the PR, and the names of its files", async () => {
    const n = String(ids.pullNumber);
    const page = `${sim.urls.web}/acme/widgets/pull/${n}`;
    const diff = await bytesOf(`${page}.diff`);
    const patch = await bytesOf(`${page}.patch`);
    expect(diff.length).toBeGreaterThan(0);

    const cases: [readonly string[], Buffer][] = [
      [['pr', 'diff', n, '-R', 'acme/widgets'], diff],
      [['pr', 'diff', `#${n}`, '--color', 'never', '-R', 'acme/widgets'], diff],
      [['pr', 'diff', `https://github.com/acme/widgets/pull/${n}/files`, '-R', 'acme/other'], diff],
      [['pr', 'diff', n, '--patch', '-R', 'acme/widgets'], patch],
    ];
    for (const [argv, expected] of cases) {
      const result = await relay(['native', ...argv], env, dir.path);
      expect({ argv, code: result.code, stderr: result.stderr }).toEqual({
        argv,
        code: 0,
        stderr: '',
      });
      expect(result.stdout.equals(expected)).toBe(true);
    }

    const filesResponse = await fetch(`${sim.urls.api}/repos/acme/widgets/pulls/${n}/files`);
    const files = (await filesResponse.json()) as { filename: string }[];
    expect(files.length).toBeGreaterThan(0);
    const names = await relay(
      ['native', 'pr', 'diff', n, '--name-only', '--patch', '-R', 'acme/widgets'],
      env,
      dir.path,
    );
    expect(names).toMatchObject({ code: 0, stderr: '' });
    expect(names.stdout.toString('utf8')).toBe(files.map((file) => `${file.filename}\n`).join(''));
  }, 60_000);

  it("prints gh's error line with exit 1 for a PR that does not exist", async () => {
    const result = await relay(
      ['native', 'pr', 'diff', '999', '-R', 'acme/widgets'],
      env,
      dir.path,
    );
    expect(result.stdout.length).toBe(0);
    expect(result.stderr).toBe(
      'could not find pull request diff: HTTP 404: Not Found (https://api.github.com/repos/acme/widgets/pulls/999)\n',
    );
    expect(result.code).toBe(1);
  }, 60_000);

  it('runs the native gh for a private repository (the relay answers fallback_local)', async () => {
    const argv = ['pr', 'diff', '1', '-R', 'acme/secret-sauce'];
    const result = await relay(['native', ...argv], env, dir.path);
    expect(result.code).toBe(7);
    expect(readFileSync(join(dir.path, 'native-argv'), 'utf8')).toBe(
      argv.map((arg) => `${arg}\n`).join(''),
    );
  }, 60_000);
});
