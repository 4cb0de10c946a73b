/**
 * relay-server as the benchmarks run it: the built `dist/main.js` in its own Node process
 * (configured through the environment, exactly as deployed; built first with turbo, like
 * `pnpm start`), on a temporary SQLite file, against forge-sim, with the node flags of its
 * `#!/usr/bin/env -S node …` line (as the `relay-server` bin runs). `RELAY_BENCH_FROM_SOURCE=1`
 * runs `src/main.ts` through tsx instead. Also the admin calls that give it a caller and pooled
 * identities.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ForgeSim } from '@relay/forge-sim';
import { BENCH_ORG, issueBenchPats, type PatToken } from './bench-world.js';

const SERVER_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Node flags that run TypeScript sources of the workspace (resolved here, so that a child may
 * run in any working directory).
 */
export const SOURCE_FLAGS: readonly string[] = [
  '--conditions=@relay/source',
  '--import',
  import.meta.resolve('tsx'),
];

const FROM_SOURCE = process.env.RELAY_BENCH_FROM_SOURCE === '1';
/**
 * `BENCH_RELAY_NODE_FLAGS`: node flags added to every relay a benchmark starts, separated by
 * spaces (for example `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile the miss path).
 */
const EXTRA_NODE_FLAGS = (process.env.BENCH_RELAY_NODE_FLAGS ?? '')
  .split(' ')
  .filter((f) => f !== '');
let built = false;

/**
 * Builds relay-server and the workspace packages it imports (`dist/`), once per benchmark
 * process; turbo's cache makes this quick when nothing changed.
 */
export function buildServer(): void {
  if (built || FROM_SOURCE) return;
  execFileSync(
    'pnpm',
    ['exec', 'turbo', 'run', 'build', '--filter=@relay/server...', '--output-logs=errors-only'],
    { cwd: join(SERVER_DIR, '..', '..'), stdio: ['ignore', 'ignore', 'inherit'] },
  );
  built = true;
}

/** The admin token every benchmark relay is started with. */
export const BENCH_ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
/** The pool every benchmark caller uses. */
export const BENCH_POOL = 'bench';

/** A relay-server child process. */
export interface RelayProcess {
  readonly url: string;
  readonly pid: number;
  /** The directory holding the database, secrets and the log. */
  readonly dir: string;
  /** Resident set size of the process now, in bytes (from /proc, else NaN). */
  rss(): number;
  /** CPU time the process has used so far, in milliseconds (from /proc, else NaN). */
  cpuMs(): number;
  /** SIGTERM, wait for exit, remove the directory. */
  stop(): Promise<void>;
}

/** Options of {@link spawnRelay}. */
export interface SpawnRelayOptions {
  /** The simulator (in this process or another): only its URLs are used. */
  readonly sim: Pick<ForgeSim, 'urls'>;
  /** Extra Node flags (for example `--cpu-prof`). */
  readonly nodeFlags?: readonly string[];
  /** The working directory of the child (where `--cpu-prof` writes). */
  readonly cwd?: string;
  /**
   * Variables that replace the bench defaults below (`undefined` removes one: the relay's own
   * default applies), for example the governor's limits of the burst benchmark.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The node flags of a script's `#!/usr/bin/env -S node …` line (none for `#!/usr/bin/env node`):
 * what its bin is started with.
 */
export function shebangNodeFlags(file: string): string[] {
  const first = readFileSync(file, 'utf8').split('\n', 1)[0] ?? '';
  const flags = /^#!\/usr\/bin\/env -S node (.+)$/.exec(first)?.[1];
  return flags === undefined ? [] : flags.split(' ').filter((flag) => flag !== '');
}

/** Reads VmRSS of a process from /proc (Linux); NaN elsewhere. */
/**
 * CPU time (user + system) a process has used so far, in milliseconds, from /proc (clock ticks
 * of 10 ms); NaN where /proc is not available.
 */
export function readCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

export function readRss(pid: number): number {
  try {
    const status = readFileSync(`/proc/${String(pid)}/status`, 'utf8');
    const match = /VmRSS:\s+(\d+) kB/.exec(status);
    return match?.[1] === undefined ? Number.NaN : Number(match[1]) * 1024;
  } catch {
    return Number.NaN;
  }
}

/**
 * Starts `relay-server` (the built dist/main.js, or src/main.ts through tsx with
 * `RELAY_BENCH_FROM_SOURCE=1`) on an ephemeral port against the simulator.
 */
export async function spawnRelay(options: SpawnRelayOptions): Promise<RelayProcess> {
  buildServer();
  const dir = mkdtempSync(join(tmpdir(), 'relay-bench-'));
  const secretsDir = join(dir, 'secrets');
  mkdirSync(secretsDir, { mode: 0o700 });
  const logPath = join(dir, 'relay.log');
  const logFd = openSync(logPath, 'w');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '',
    RELAY_HOST: '127.0.0.1',
    RELAY_PORT: '0',
    RELAY_DATABASE: join(dir, 'relay.db'),
    RELAY_ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
    RELAY_FORGE_API_URL: options.sim.urls.api,
    RELAY_FORGE_WEB_URL: options.sim.urls.web,
    RELAY_FORGE_RAW_URL: options.sim.urls.raw,
    RELAY_FORGE_LOG_HOSTS: new URL(options.sim.urls.log).hostname,
    RELAY_SECRETS_DIR: secretsDir,
    DEFAULT_ALLOWED_OWNERS: BENCH_ORG,
    DEFAULT_LOGIN_POOL: BENCH_POOL,
    // One bench caller drives every connection of the load (50 at a time): the per-caller bound
    // of a deployment (8) would turn most of them into 424 relay_overloaded.
    RELAY_MAX_CALLER_CONCURRENCY: '0',
    // The connections of the load all come from one loopback address.
    RELAY_MAX_CONNECTIONS_PER_PEER: '0',
    // The benches measure the relay, not GitHub's secondary limits: the upstream governor's pace
    // (80 % of those limits) would hold the bench's one identity at 720 reads a minute and stall
    // every bench that fills the cache through misses (cache-memory: 100,000). Its own cost stays
    // in the path; only its limits are opened.
    RELAY_GOVERNOR_MAX_IN_FLIGHT: '10000',
    RELAY_GOVERNOR_POINTS_PER_MINUTE: '1000000',
  };
  const childEnv = Object.fromEntries(
    Object.entries({ ...env, ...options.env }).filter(([, value]) => value !== undefined),
  );
  const entry = join(SERVER_DIR, ...(FROM_SOURCE ? ['src', 'main.ts'] : ['dist', 'main.js']));
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...shebangNodeFlags(entry),
      ...(options.nodeFlags ?? []),
      ...EXTRA_NODE_FLAGS,
      ...(FROM_SOURCE ? SOURCE_FLAGS : []),
      entry,
    ],
    { cwd: options.cwd ?? SERVER_DIR, env: childEnv, stdio: ['ignore', logFd, logFd] },
  );
  closeSync(logFd);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
  // A fixed RELAY_PORT is polled (a relay whose RELAY_LOG_LEVEL is above info never logs where
  // it listens); otherwise the port comes from its `listening on` line.
  const fixedPort = childEnv.RELAY_PORT !== undefined && childEnv.RELAY_PORT !== '0';
  const answers = async (candidate: string) => {
    try {
      return (await fetch(`${candidate}/.well-known/relay`)).ok;
    } catch {
      return false;
    }
  };
  let url: string | undefined;
  for (let waited = 0; url === undefined; waited += 50) {
    if (child.exitCode !== null || waited > 30_000) {
      child.kill('SIGKILL');
      throw new Error(`relay-server did not start:\n${readFileSync(logPath, 'utf8')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (fixedPort) {
      const candidate = `http://127.0.0.1:${String(childEnv.RELAY_PORT)}`;
      if (await answers(candidate)) url = candidate;
    } else {
      url = /relay-server listening on (http:\/\/[^\s"]+)/.exec(readFileSync(logPath, 'utf8'))?.[1];
    }
  }
  const pid = child.pid ?? 0;
  return {
    url,
    pid,
    dir,
    rss: () => readRss(pid),
    cpuMs: () => readCpuMs(pid),
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A loopback port free now (for a relay started with a fixed RELAY_PORT). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function admin(url: string, path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${BENCH_ADMIN_TOKEN}` },
    body: JSON.stringify(body),
  });
  const json: unknown = await response.json();
  if (response.status >= 300) throw new Error(`${path}: ${String(response.status)}`);
  return json;
}

/** Provisions a caller for a forge login (POST /v1/admin/callers); returns its caller token. */
export async function provisionCaller(url: string, login: string): Promise<string> {
  const answer = (await admin(url, '/v1/admin/callers', {
    pool: BENCH_POOL,
    forge_login: login,
    name: 'bench',
  })) as { token: string };
  return answer.token;
}

/**
 * Registers `count` PAT identities (users `bench-pat-N`, org-wide scope on the benchmark
 * organization) whose tokens the relay reads from `secretsDir`.
 */
export async function registerPats(
  url: string,
  sim: ForgeSim,
  secretsDir: string,
  count: number,
): Promise<void> {
  await registerPatTokens(url, secretsDir, issueBenchPats(sim, count));
}

/**
 * Registers PATs the simulator already issued (for example in a simulator process) as the pool's
 * identities `pat-1` …, each token in its own secret file.
 */
export async function registerPatTokens(
  url: string,
  secretsDir: string,
  pats: readonly PatToken[],
): Promise<void> {
  for (const [index, pat] of pats.entries()) {
    const n = String(index + 1);
    writeFileSync(join(secretsDir, `bench_pat_${n}`), pat.token, { mode: 0o600 });
    await admin(url, `/v1/admin/pools/${BENCH_POOL}/identities`, {
      id: `pat-${n}`,
      kind: 'pat',
      login: pat.login,
      secret_ref: `bench_pat_${n}`,
      scopes: [{ owner: BENCH_ORG }],
    });
  }
}

/** The body of a relay read of `path`. */
export function relayBody(path: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ pool: BENCH_POOL, method: 'GET', path, ...extra });
}

/** Removes a temporary directory (best effort). */
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
