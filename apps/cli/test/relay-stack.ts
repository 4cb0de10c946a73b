import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createForgeSim, createSimClock, seedDemoWorld } from '@relay/forge-sim';
import type { DemoWorldIds, ForgeSim, SimClock } from '@relay/forge-sim';
import { loadServerConfig, startServer } from '@relay/server';
import type { RunningServer } from '@relay/server';
import { createTempDir } from './cli-harness.js';

/**
 * The end-to-end stack of the `relay native` tests: the BUILT `relay` binary, relay-server and
 * @relay/forge-sim (demo world) on loopback, with a caller logged in. One place for what every
 * such test file needs.
 */

const appDir = dirname(dirname(fileURLToPath(import.meta.url)));

/** A build of the CLI in a directory of its own. */
export interface BuiltCli {
  /** The built `relay` bin (`main.js`). */
  readonly bin: string;
  /** Removes the build directory. */
  remove(): void;
}

/**
 * Builds the CLI with tsdown into a fresh temporary directory: test files build in parallel,
 * and a shared `dist/` (which tsdown cleans first) would be replaced under another file's run.
 *
 * @param prefix - the temporary directory's name prefix
 */
export async function buildCli(prefix: string): Promise<BuiltCli> {
  const outDir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn('pnpm', ['exec', 'tsdown', '--logLevel', 'error', '--out-dir', outDir], {
      cwd: appDir,
      stdio: 'ignore',
    });
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) {
    rmSync(outDir, { recursive: true, force: true });
    throw new Error(`tsdown exited ${String(code)}`);
  }
  return {
    bin: join(outDir, 'main.js'),
    remove: () => {
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}

/** What one run of the binary printed and how it ended. */
export interface BinaryResult {
  readonly code: number | null;
  /** stdout as UTF-8 text. */
  readonly stdout: string;
  /** stdout as bytes. */
  readonly stdoutBytes: Buffer;
  readonly stderr: string;
}

/**
 * Runs the built binary with only PATH, HOME and `env` in its environment, empty stdin.
 *
 * @param bin - the built bin
 * @param args - its arguments
 * @param env - its environment (HOME defaults to RELAY_CONFIG_DIR)
 * @param cwd - its working directory
 */
export function runBinary(
  bin: string,
  args: readonly string[],
  env: Record<string, string>,
  cwd?: string,
): Promise<BinaryResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      ...(cwd === undefined ? {} : { cwd }),
      env: { PATH: process.env.PATH ?? '', HOME: env.RELAY_CONFIG_DIR ?? '/nonexistent', ...env },
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.stdin.end();
    child.once('error', reject);
    child.once('close', (code) => {
      const stdoutBytes = Buffer.concat(out);
      resolve({
        code,
        stdout: stdoutBytes.toString('utf8'),
        stdoutBytes,
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
  });
}

/** Options of {@link startRelayStack}. */
export interface RelayStackOptions {
  /** The built bin that logs in. */
  readonly bin: string;
  /** Adds to the demo world before the server starts. */
  readonly seed?: (sim: ForgeSim, clock: SimClock) => void;
  /** More environment of the logged-in CLI (RELAY_NO_FALLBACK, RELAY_NATIVE_CLI, …). */
  readonly env?: (dir: string) => Record<string, string>;
  /** The server's secret bindings (pooled identities' credentials), by name. */
  readonly secrets?: Readonly<Record<string, string>>;
}

/** The admin token of the stack's relay-server. */
export const STACK_ADMIN_TOKEN = 'admin-token-for-native-e2e-0123456789';

/**
 * Replaces the string-rewrite rules of the stack's relay-server through the admin API (the
 * first edit: revision 1 becomes 2).
 */
export async function putStringRewrites(
  stack: RelayStack,
  rules: readonly { readonly pattern: string; readonly replacement: string }[],
): Promise<void> {
  const put = await fetch(`${stack.server.url}/v1/admin/string-rewrites`, {
    method: 'PUT',
    headers: {
      authorization: `Bearer ${STACK_ADMIN_TOKEN}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ schema_version: 1, expected_revision: 1, rules }),
  });
  if (put.status !== 200) throw new Error(`string-rewrites PUT answered ${String(put.status)}`);
}

/** A running stack with a logged-in caller (alice, pool `team`). */
export interface RelayStack {
  readonly sim: ForgeSim;
  readonly ids: DemoWorldIds;
  readonly server: RunningServer;
  /** The temporary directory of the database and the CLI's config. */
  readonly dir: string;
  /** alice's PAT (the login's forge token). */
  readonly token: string;
  /** The environment of the logged-in CLI. */
  readonly env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * Starts forge-sim with the demo world, relay-server on an ephemeral loopback port over a
 * temporary SQLite file, and logs the built CLI in as alice.
 *
 * @param options - the bin, extra seeding and environment
 */
export async function startRelayStack(options: RelayStackOptions): Promise<RelayStack> {
  const clock = createSimClock({ start: Date.now() });
  const sim = await createForgeSim({ clock });
  const dir = createTempDir();
  let server: RunningServer | undefined;
  try {
    const ids = seedDemoWorld(sim.world);
    options.seed?.(sim, clock);
    const config = loadServerConfig({
      RELAY_PORT: '0',
      RELAY_DATABASE: join(dir.path, 'relay.db'),
      RELAY_ADMIN_TOKEN: STACK_ADMIN_TOKEN,
      RELAY_FORGE_API_URL: sim.urls.api,
      RELAY_FORGE_WEB_URL: sim.urls.web,
      RELAY_FORGE_RAW_URL: sim.urls.raw,
      ALLOWED_FORGE_ORG: 'acme',
      DEFAULT_LOGIN_POOL: 'team',
      DEFAULT_ALLOWED_OWNERS: 'acme',
    });
    if (!config.ok) throw new Error('invalid test configuration');
    const { secrets } = options;
    server = await startServer(
      config.value,
      secrets === undefined
        ? {}
        : {
            readSecret: (ref) =>
              Promise.resolve(Object.hasOwn(secrets, ref) ? secrets[ref] : undefined),
          },
    );
    const { token } = sim.tokens.addPat({ login: 'alice' });
    const env = {
      RELAY_CONFIG_DIR: join(dir.path, 'config'),
      GH_TOKEN: token,
      RELAY_RETRIES: '0',
      ...options.env?.(dir.path),
    };
    const login = await runBinary(options.bin, ['login', server.url], env, dir.path);
    if (login.code !== 0) throw new Error(`login failed: ${login.stderr}`);
    const running = server;
    return {
      sim,
      ids,
      server: running,
      dir: dir.path,
      token,
      env,
      async close() {
        await running.close();
        await sim.close();
        dir.remove();
      },
    };
  } catch (error) {
    await server?.close();
    await sim.close();
    dir.remove();
    throw error;
  }
}
