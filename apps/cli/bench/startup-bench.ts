/**
 * Start-up cost of the built `relay` binary (build it first: `pnpm build`), against `node -e 0`
 * measured in the same run: `relay --version`, and reads answered from the relay's cache: a
 * `relay native api` read from a loopback stub of the relay contract (the string-rewrite policy
 * GET of client rule 15, then a `cache: hit` envelope: the client's own cost), the same without
 * Node's compile cache, and `relay native api` and `relay native pr view` from the real
 * relay-server over @relay/forge-sim after warming reads (the whole round trip). Issue 23's goal:
 * a cache hit within node's floor + 60 ms. Prints medians and ratios.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createForgeSim, seedDemoWorld } from '@relay/forge-sim';
import { loadServerConfig, startServer } from '@relay/server';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const bin = join(dirname(dirname(fileURLToPath(import.meta.url))), 'dist', 'main.js');

function run(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    // stderr is kept for a failure's message (a served pr view prints its cache note there).
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${String(code)}: ${stderr}`));
      else resolve(Number(process.hrtime.bigint() - started) / 1e6);
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 0
    ? ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
    : (sorted[middle] ?? 0);
}

const envelope = JSON.stringify({
  status: 200,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: { id: 1, full_name: 'acme/widgets', private: false, stargazers_count: 3 },
  body_encoding: 'json',
  identity: null,
  relay: {
    pool: 'team',
    request_id: 'bench',
    cacheable: true,
    cache: 'hit',
    stale_ok: false,
    route_kind: 'repo_view',
  },
});
// Client rule 15: every relay request of `relay native` is preceded by a fresh policy GET.
const policy = JSON.stringify({
  schema_version: 1,
  revision: 1,
  updated_at: new Date(0).toISOString(),
  rules: [],
});
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const isPolicy = req.method === 'GET' && (req.url ?? '').endsWith('/string-rewrites');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(isPolicy ? policy : envelope);
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;
const dir = mkdtempSync(join(tmpdir(), 'relay-bench-'));
writeFileSync(
  join(dir, 'auth.json'),
  JSON.stringify({
    url: `http://127.0.0.1:${port}`,
    pool: 'team',
    token: 'rly_bench',
    login: 'bench',
    client: 'bench',
    timestamp: new Date(0).toISOString(),
  }),
  { mode: 0o600 },
);
// The compile cache (main.ts) goes to a directory of this run, filled by the warm-up round.
const cacheHome = join(dir, 'cache');
mkdirSync(cacheHome);
const env = { PATH: process.env.PATH ?? '', RELAY_CONFIG_DIR: dir, XDG_CACHE_HOME: cacheHome };
const coldEnv = { ...env, NODE_DISABLE_COMPILE_CACHE: '1' };

// The real relay-server over @relay/forge-sim: log in once, warm the cache, then measure hits.
const sim = await createForgeSim();
seedDemoWorld(sim.world);
const config = loadServerConfig({
  RELAY_PORT: '0',
  RELAY_DATABASE: ':memory:',
  RELAY_FORGE_API_URL: sim.urls.api,
  RELAY_FORGE_WEB_URL: sim.urls.web,
  RELAY_FORGE_RAW_URL: sim.urls.raw,
  ALLOWED_FORGE_ORG: 'acme',
  DEFAULT_LOGIN_POOL: 'team',
  DEFAULT_ALLOWED_OWNERS: 'acme',
});
if (!config.ok) throw new Error('invalid bench configuration');
const relayServer = await startServer(config.value);
const realDir = mkdtempSync(join(tmpdir(), 'relay-bench-real-'));
const realEnv = {
  PATH: process.env.PATH ?? '',
  RELAY_CONFIG_DIR: realDir,
  XDG_CACHE_HOME: cacheHome,
  GH_TOKEN: sim.tokens.addPat({ login: 'alice' }).token,
};
await run([bin, 'login', relayServer.url], realEnv);

const cases = {
  'node -e 0': ['-e', '0'],
  'relay --version': [bin, '--version'],
  'relay native api (stub hit)': [bin, 'native', 'api', 'repos/acme/widgets'],
  'relay native api (stub, no compile cache)': [bin, 'native', 'api', 'repos/acme/widgets'],
  'relay native api (server hit)': [bin, 'native', 'api', 'repos/acme/widgets'],
  'relay native pr view (server hit)': [bin, 'native', 'pr', 'view', '1', '-R', 'acme/widgets'],
} as const;
const envOf = (name: string) =>
  name.endsWith('(server hit)') ? realEnv : name.includes('no compile cache') ? coldEnv : env;
const times: Record<string, number[]> = {};
for (const name of Object.keys(cases)) times[name] = [];
for (const [name, args] of Object.entries(cases)) await run(args, envOf(name)); // warm caches
for (let i = 0; i < RUNS; i += 1) {
  for (const [name, args] of Object.entries(cases)) times[name]?.push(await run(args, envOf(name)));
}
server.close();
await relayServer.close();
await sim.close();
rmSync(dir, { recursive: true, force: true });
rmSync(realDir, { recursive: true, force: true });

const baseline = median(times['node -e 0'] ?? []);
console.log(
  `${RUNS} runs each, interleaved; medians; Node ${process.version}; goal: a hit within node -e 0 + 60 ms`,
);
for (const [name, values] of Object.entries(times)) {
  const m = median(values);
  console.log(
    `${name.padEnd(42)} ${m.toFixed(1).padStart(7)} ms  ×${(m / baseline).toFixed(2)} of node -e 0  +${(m - baseline).toFixed(1)} ms`,
  );
}
