/**
 * Cache-hit throughput and latency of POST /v1/forge/request (autocannon, 50 connections)
 * against a bare Hono / @hono/node-server endpoint returning the same bytes, measured in the
 * same run, interleaved round by round. Then one more loaded run of the relay under
 * `--cpu-prof`, summarized (where the hit path spends its time).
 *
 * Run: pnpm --filter @relay/server bench:hit   (BENCH_QUICK=1 for a short run;
 * BENCH_PROFILE_OUT=<file> keeps the raw `.cpuprofile`)
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_ORG, startBenchSim } from './bench-world.js';
import { QUICK, median, reportResult, round } from './bench-report.js';
import { runLoad, type LoadResult } from './load-generator.js';
import {
  stageShares,
  summarizeProfile,
  type CpuProfile,
  type ProfileStage,
} from './profile-summary.js';
import {
  freePort,
  readCpuMs,
  provisionCaller,
  registerPats,
  relayBody,
  removeDir,
  SOURCE_FLAGS,
  spawnRelay,
  type RelayProcess,
} from './relay-process.js';

const CONNECTIONS = 50;
const ROUNDS = QUICK ? 1 : 3;
const DURATION_S = QUICK ? 3 : 10;
const PROFILE_S = QUICK ? 3 : 8;
const PATH = `/repos/${BENCH_ORG}/repo-0/issues/1`;
const HERE = dirname(fileURLToPath(import.meta.url));

/**
 * The stages of a hit, by the names of their functions in the built relay; a sample belongs to
 * the innermost stage on its stack (so `other` holds Hono's routing and middleware, Node's
 * event plumbing and the pipeline's own glue).
 */
const HIT_STAGES: readonly ProfileStage[] = [
  { name: 'HTTP request parsing (Node)', functions: ['parserOnHeadersComplete'] },
  { name: 'request body read and JSON.parse', functions: ['readJsonBody'] },
  { name: 'request validation (zod)', functions: ['safeParse'] },
  { name: 'caller token and grant (cached)', functions: ['authenticate', 'hasGrant'] },
  {
    name: 'string-rewrite snapshot and check',
    functions: ['loadRewriteSnapshot', 'passesStructuralCheck'],
  },
  { name: 'route classification', functions: ['classify'] },
  { name: 'cache key', functions: ['createCacheKey'] },
  { name: 'envelope serialization', functions: ['serializeEnvelope'] },
  { name: 'audit row queued', functions: ['enqueue'] },
  { name: 'SQLite statements (audit batches)', functions: ['executeQuery'] },
  { name: 'Kysely query building', functions: ['compileQuery', 'values'] },
  { name: 'access log line', functions: ['writeLine', 'onLog'] },
  { name: 'response write (@hono/node-server, socket)', functions: ['responseViaCache'] },
  { name: 'garbage collector', functions: ['(garbage collector)'] },
];

const { sim } = await startBenchSim({ rateLimits: 'unlimited', repos: 1, issuesPerRepo: 3 });
const work = mkdtempSync(join(tmpdir(), 'relay-bench-hit-'));

/** Starts a relay with a caller and two PATs, and fills the entry the load reads. */
async function startWarmRelay(
  nodeFlags: readonly string[] = [],
  env: Readonly<Record<string, string>> = {},
) {
  const relay = await spawnRelay({ sim, nodeFlags, cwd: work, env });
  sim.world.addUser({ login: 'bench-agent' });
  const token = await provisionCaller(relay.url, 'bench-agent');
  await registerPats(relay.url, sim, join(relay.dir, 'secrets'), 2);
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  const read = async () => {
    const response = await fetch(`${relay.url}/v1/forge/request`, {
      method: 'POST',
      headers,
      body: relayBody(PATH),
    });
    return { status: response.status, text: await response.text() };
  };
  const miss = await read();
  const hit = await read();
  const cache = (JSON.parse(hit.text) as { relay?: { cache?: string } }).relay?.cache;
  if (miss.status !== 200 || hit.status !== 200 || cache !== 'hit')
    throw new Error(`warm-up failed: ${String(hit.status)} ${String(cache)}`);
  return { relay, headers, hitText: hit.text };
}

async function startHono(
  bodyFile: string,
  mode: 'fixed' | 'parse' = 'fixed',
): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const child = spawn(
    process.execPath,
    [...SOURCE_FLAGS, join(HERE, 'hono-endpoint.ts'), bodyFile, mode],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /listening on (\S+)/.exec(out);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once('exit', () => {
      reject(new Error('the Hono baseline did not start'));
    });
  });
  return {
    url,
    pid: child.pid ?? 0,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

let relay: RelayProcess | undefined;
let quietRelay: RelayProcess | undefined;
let workerRelay: RelayProcess | undefined;
try {
  const warm = await startWarmRelay();
  relay = warm.relay;
  // Two references, measured in the same interleaved rounds but outside the goals: the same
  // relay with RELAY_LOG_LEVEL=warn (no access-log line for a 200), and a Hono endpoint that
  // reads and parses the request's JSON body before answering (the baseline does not).
  // A third reference: the same relay writing its audit batches on a worker thread
  // (RELAY_AUDIT_WRITER=worker, off by default for its memory).
  const auditWorker = await startWarmRelay([], { RELAY_AUDIT_WRITER: 'worker' });
  workerRelay = auditWorker.relay;
  const quiet = await startWarmRelay([], {
    RELAY_LOG_LEVEL: 'warn',
    RELAY_PORT: String(await freePort()),
  });
  quietRelay = quiet.relay;
  const bodyFile = join(work, 'hit-body.json');
  writeFileSync(bodyFile, warm.hitText);
  const hono = await startHono(bodyFile);
  const honoParsing = await startHono(bodyFile, 'parse');
  const load = (url: string, durationS: number, headers = warm.headers) =>
    runLoad({
      url: `${url}/v1/forge/request`,
      body: relayBody(PATH),
      headers,
      connections: CONNECTIONS,
      durationS,
    });
  const baseline: LoadResult[] = [];
  const relayRuns: LoadResult[] = [];
  const parsingRuns: LoadResult[] = [];
  const quietRuns: LoadResult[] = [];
  const workerRuns: LoadResult[] = [];
  // Server CPU time (user + system, all threads) per answered request, over the measured rounds.
  const cpu = { baselineMs: 0, relayMs: 0, parsingMs: 0, quietMs: 0, workerMs: 0 };
  const measured = async (
    pid: number,
    url: string,
    into: LoadResult[],
    key: keyof typeof cpu,
    headers = warm.headers,
  ) => {
    const before = readCpuMs(pid);
    into.push(await load(url, DURATION_S, headers));
    cpu[key] += readCpuMs(pid) - before;
  };
  try {
    // Warm every server (JIT, connection pools), then interleave the measured rounds.
    await load(hono.url, 2);
    await load(honoParsing.url, 2);
    await load(relay.url, 2);
    await load(quietRelay.url, 2, quiet.headers);
    await load(workerRelay.url, 2, auditWorker.headers);
    for (let round = 0; round < ROUNDS; round++) {
      await measured(hono.pid, hono.url, baseline, 'baselineMs');
      await measured(relay.pid, relay.url, relayRuns, 'relayMs');
      await measured(honoParsing.pid, honoParsing.url, parsingRuns, 'parsingMs');
      await measured(quietRelay.pid, quietRelay.url, quietRuns, 'quietMs', quiet.headers);
      await measured(workerRelay.pid, workerRelay.url, workerRuns, 'workerMs', auditWorker.headers);
    }
  } finally {
    await hono.stop();
    await honoParsing.stop();
  }
  await quietRelay.stop();
  quietRelay = undefined;
  await workerRelay.stop();
  workerRelay = undefined;
  const failures = [...baseline, ...relayRuns, ...parsingRuns, ...quietRuns, ...workerRuns].reduce(
    (sum, r) => sum + r.failures,
    0,
  );
  const rssAfterLoad = relay.rss();
  await relay.stop();
  relay = undefined;

  // The same load once more under the CPU profiler (figures not used: profiling slows it).
  const profDir = join(work, 'profile');
  const profiled = await startWarmRelay([`--cpu-prof`, `--cpu-prof-dir=${profDir}`]);
  relay = profiled.relay;
  // Its own caller token: the first relay's token would make every profiled request a 401.
  const profiledRun = await load(relay.url, PROFILE_S, profiled.headers);
  if (profiledRun.failures > 0)
    throw new Error(`the profiled run had ${String(profiledRun.failures)} failed requests`);
  await relay.stop();
  relay = undefined;
  const profileFile = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
  // BENCH_PROFILE_OUT=<file> keeps the raw profile (for Chrome DevTools or speedscope).
  const keepProfile = process.env.BENCH_PROFILE_OUT;
  if (profileFile !== undefined && keepProfile !== undefined && keepProfile !== '')
    copyFileSync(join(profDir, profileFile), keepProfile);
  const profile =
    profileFile === undefined
      ? undefined
      : (JSON.parse(readFileSync(join(profDir, profileFile), 'utf8')) as CpuProfile);
  const summary = profile === undefined ? undefined : summarizeProfile(profile);
  const stages = profile === undefined ? undefined : stageShares(profile, HIT_STAGES);
  const total = (runs: LoadResult[]) => runs.reduce((sum, r) => sum + r.total, 0);
  const cpuUs = (ms: number, runs: LoadResult[]) => round((ms * 1000) / total(runs), 1);

  const rps = (runs: LoadResult[]) => median(runs.map((r) => r.requestsPerSecond));
  const p50 = (runs: LoadResult[]) => median(runs.map((r) => r.p50Ms));
  const p99 = (runs: LoadResult[]) => median(runs.map((r) => r.p99Ms));
  reportResult('hit-path', {
    connections: CONNECTIONS,
    rounds: ROUNDS,
    duration_s: DURATION_S,
    body_bytes: Buffer.byteLength(warm.hitText),
    failures,
    baseline: { rps: round(rps(baseline), 0), p50_ms: p50(baseline), p99_ms: p99(baseline) },
    relay: { rps: round(rps(relayRuns), 0), p50_ms: p50(relayRuns), p99_ms: p99(relayRuns) },
    throughput_ratio: round(rps(relayRuns) / rps(baseline), 3),
    p99_ratio: round(p99(relayRuns) / p99(baseline), 2),
    rounds_detail: {
      baseline_rps: baseline.map((r) => round(r.requestsPerSecond, 0)),
      relay_rps: relayRuns.map((r) => round(r.requestsPerSecond, 0)),
    },
    cpu_us_per_request: {
      baseline: cpuUs(cpu.baselineMs, baseline),
      relay: cpuUs(cpu.relayMs, relayRuns),
    },
    references: {
      hono_parsing_body: {
        rps: round(rps(parsingRuns), 0),
        p50_ms: p50(parsingRuns),
        p99_ms: p99(parsingRuns),
        cpu_us_per_request: cpuUs(cpu.parsingMs, parsingRuns),
      },
      relay_without_access_log: {
        rps: round(rps(quietRuns), 0),
        p50_ms: p50(quietRuns),
        p99_ms: p99(quietRuns),
        cpu_us_per_request: cpuUs(cpu.quietMs, quietRuns),
      },
      relay_audit_worker: {
        rps: round(rps(workerRuns), 0),
        p50_ms: p50(workerRuns),
        p99_ms: p99(workerRuns),
        cpu_us_per_request: cpuUs(cpu.workerMs, workerRuns),
      },
    },
    relay_rss_after_load_mb: round(rssAfterLoad / 1048576, 1),
    profile:
      summary === undefined
        ? null
        : {
            samples: summary.samples,
            idle_share: round(summary.idle, 3),
            areas: summary.areas.map((a) => ({ name: a.name, share: round(a.share, 3) })),
            functions: summary.functions.map((f) => ({ name: f.name, share: round(f.share, 3) })),
            load_samples: stages?.samples ?? 0,
            stages: (stages?.stages ?? []).map((s) => ({ name: s.name, share: round(s.share, 3) })),
          },
  });
} finally {
  await relay?.stop();
  await quietRelay?.stop();
  await workerRelay?.stop();
  await sim.close();
  removeDir(work);
}
