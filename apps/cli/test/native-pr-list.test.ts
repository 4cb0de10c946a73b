import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createForgeSim, createSimClock, seedDemoWorld } from '@relay/forge-sim';
import type { ForgeSim } from '@relay/forge-sim';
import { loadServerConfig, startServer } from '@relay/server';
import type { RunningServer } from '@relay/server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from './cli-harness.js';

/**
 * `relay native pr list` through the BUILT binary (tsdown into a directory of its own) against
 * relay-server and @relay/forge-sim on loopback: gh's non-TTY table and `--json` of the PRs
 * forge-sim holds, the cache note, and a search-backed flag running the native gh.
 */
const appDir = dirname(dirname(fileURLToPath(import.meta.url)));
const ADMIN = 'admin-token-for-pr-list-e2e-0123456789';
const HIT_NOTE =
  'relay: pr_list served from the relay cache (hit; the relay reports no refresh time — RELAY_FRESH=1 reads it fresh)\n';
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
  readonly stdout: string;
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
      resolve({
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
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

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'relay-pr-list-cli-'));
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

describe('relay native pr list (built binary) against relay-server and forge-sim', () => {
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

  it('prints gh’s table of the forge’s PRs, newest first, per state; --json; the cache note', async () => {
    const response = await fetch(`${sim.urls.api}/repos/acme/widgets/pulls?state=all`);
    const pulls = (await response.json()) as {
      number: number;
      title: string;
      state: string;
      draft: boolean;
      merged_at: string | null;
      created_at: string;
      head: { ref: string };
    }[];
    const row = (p: (typeof pulls)[number]): string =>
      `${String(p.number)}\t${p.title}\t${p.head.ref}\t${
        p.state === 'open'
          ? p.draft
            ? 'DRAFT'
            : 'OPEN'
          : p.merged_at === null
            ? 'CLOSED'
            : 'MERGED'
      }\t${p.created_at.replace(/\.\d+Z$/, 'Z')}\n`;
    const open = pulls.filter((p) => p.state === 'open');
    const merged = pulls.filter((p) => p.merged_at !== null);
    expect(open.length).toBeGreaterThan(0);
    expect(merged.length).toBeGreaterThan(0);

    const argv = ['native', 'pr', 'list', '-R', 'acme/widgets'];
    expect(await relay(argv, env, dir.path)).toEqual({
      code: 0,
      stdout: open.map(row).join(''),
      stderr: '',
    });
    expect(await relay(argv, env, dir.path)).toEqual({
      code: 0,
      stdout: open.map(row).join(''),
      stderr: HIT_NOTE,
    });
    expect(
      await relay(['native', 'pr', 'list', '-R', 'acme/widgets', '-s', 'all'], env, dir.path),
    ).toMatchObject({ code: 0, stdout: pulls.map(row).join('') });
    expect(
      await relay(
        ['native', 'pr', 'list', '-R', 'acme/widgets', '--state', 'merged'],
        env,
        dir.path,
      ),
    ).toMatchObject({ code: 0, stdout: merged.map(row).join('') });
    expect(
      await relay(
        ['native', 'pr', 'list', '-R', 'acme/widgets', '-H', 'no-such-branch'],
        env,
        dir.path,
      ),
    ).toEqual({ code: 0, stdout: '', stderr: HIT_NOTE }); // the open list's cached page, filtered

    const json = await relay(
      [
        'native',
        'pr',
        'list',
        '-R',
        'acme/widgets',
        '-s',
        'all',
        '--json',
        'number,state,headRefName',
      ],
      env,
      dir.path,
    );
    expect(json).toMatchObject({ code: 0, stderr: HIT_NOTE }); // the -s all page, cached above
    expect(json.stdout).toBe(
      `${JSON.stringify(
        pulls.map((p) => ({
          headRefName: p.head.ref,
          number: p.number,
          state: p.state === 'open' ? 'OPEN' : p.merged_at === null ? 'CLOSED' : 'MERGED',
        })),
      )}\n`,
    );
  }, 60_000);

  it('a search-backed flag runs the native gh with the exact argv', async () => {
    const argv = ['pr', 'list', '-R', 'acme/widgets', '--author', 'bob'];
    const result = await relay(['native', ...argv], env, dir.path);
    expect(result.code).toBe(7);
    expect(result.stderr).toBe('relay: running the native gh (reason unsupported_flag)\n');
    expect(readFileSync(join(dir.path, 'native-argv'), 'utf8')).toBe(
      argv.map((arg) => `${arg}\n`).join(''),
    );
  }, 60_000);
});
