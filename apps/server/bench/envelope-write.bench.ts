/**
 * A/B of how a hit's envelope reaches the socket (issue 23, item 1: "keep the hit envelope
 * pre-encoded as bytes"), through Hono and @hono/node-server as the relay answers, in one server
 * process (`envelope-write-server.ts`) loaded by autocannon (50 connections) on its two routes in
 * turn, the order alternating round by round; the server's CPU time per answered request (from
 * /proc) and the throughput of each route, medians of the rounds.
 *
 * Run: pnpm --filter @relay/server exec node --conditions=@relay/source --import tsx
 *      bench/envelope-write.bench.ts   (BENCH_QUICK=1 for a short run)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_ORG, startBenchSim } from './bench-world.js';
import { QUICK, median, reportResult, round } from './bench-report.js';
import { runLoad } from './load-generator.js';
import { readCpuMs, removeDir, SOURCE_FLAGS } from './relay-process.js';

const ROUNDS = QUICK ? 2 : 6;
const DURATION_S = QUICK ? 2 : 3;
const HERE = dirname(fileURLToPath(import.meta.url));
const ARMS = ['string', 'bytes'] as const;
type Arm = (typeof ARMS)[number];

const work = mkdtempSync(join(tmpdir(), 'relay-bench-write-'));
const { sim } = await startBenchSim({ rateLimits: 'unlimited', repos: 1, issuesPerRepo: 3 });
const hitFile = join(work, 'hit.json');
try {
  const response = await fetch(`${sim.urls.api}/repos/${BENCH_ORG}/repo-0/issues/1`);
  const headers: Record<string, string> = {};
  for (const name of ['content-type', 'etag', 'last-modified', 'x-github-media-type']) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  writeFileSync(
    hitFile,
    JSON.stringify({
      status: response.status,
      headers,
      body: await response.json(),
      body_encoding: 'json',
    }),
  );
} finally {
  await sim.close();
}

const child = spawn(
  process.execPath,
  [...SOURCE_FLAGS, join(HERE, 'envelope-write-server.ts'), hitFile],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
try {
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /listening on (\S+)/.exec(out);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once('exit', () => {
      reject(new Error('the server did not start'));
    });
  });
  const pid = child.pid ?? 0;
  const load = (arm: Arm, durationS: number) =>
    runLoad({
      url: `${url}/${arm}`,
      body: '{}',
      headers: { 'content-type': 'application/json' },
      connections: 50,
      durationS,
    });
  const rps: Record<Arm, number[]> = { string: [], bytes: [] };
  const cpuUs: Record<Arm, number[]> = { string: [], bytes: [] };
  let failures = 0;
  for (const arm of ARMS) await load(arm, 2);
  for (let r = 0; r < ROUNDS; r++) {
    for (const arm of r % 2 === 0 ? ARMS : [...ARMS].reverse()) {
      const before = readCpuMs(pid);
      const result = await load(arm, DURATION_S);
      failures += result.failures;
      rps[arm].push(round(result.requestsPerSecond, 0));
      cpuUs[arm].push(round(((readCpuMs(pid) - before) * 1000) / result.total, 1));
    }
  }
  reportResult('envelope-write', {
    rounds: ROUNDS,
    duration_s: DURATION_S,
    failures,
    rps: { string: rps.string, bytes: rps.bytes },
    cpu_us_per_request: { string: cpuUs.string, bytes: cpuUs.bytes },
    median_rps: { string: median(rps.string), bytes: median(rps.bytes) },
    median_cpu_us: { string: median(cpuUs.string), bytes: median(cpuUs.bytes) },
    bytes_vs_string_cpu: round(median(cpuUs.bytes) / median(cpuUs.string), 2),
  });
} finally {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  removeDir(work);
}
