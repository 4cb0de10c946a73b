/**
 * Memory: resident set size of relay-server (its own process, as deployed: SQLite file plus the
 * in-memory LRU front) holding 100,000 cache entries, filled through the real request path
 * (100,000 distinct issue reads, each a miss answered by the simulated forge). The baseline is
 * the same process's RSS measured in the same run once it has started and served one read.
 *
 * The process runs with the node flags of its bin (`#!/usr/bin/env -S node …`, see
 * relay-process.ts). Besides RSS, the result splits it from /proc: anonymous memory (V8's heap,
 * malloc) against file-backed pages (mostly the node binary's code), the glibc main arena (`[heap]`,
 * where SQLite's page cache lives) and the peak (VmHWM).
 *
 * BENCH_MEMORY_PROBE=1 is a separate diagnostic run: the relay also loads a probe (`--import`)
 * that reports V8's view when the fill ends (heap spaces, external memory, collections by kind
 * and their time, and the heap used after a forced full collection). The probe changes what it
 * measures a little; the figures of a run without it are the ones to quote.
 *
 * Run: pnpm --filter @relay/server bench:memory   (BENCH_QUICK=1 fills 10,000 entries;
 * BENCH_MEMORY_ENTRIES=20000 fills that many, a multiple of 10, for quicker iterations)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_ORG, startBenchSim } from './bench-world.js';
import { QUICK, reportResult, round } from './bench-report.js';
import {
  provisionCaller,
  registerPats,
  relayBody,
  shebangNodeFlags,
  spawnRelay,
} from './relay-process.js';

const REPOS = 10;
const ENTRIES = entryCount(process.env.BENCH_MEMORY_ENTRIES, QUICK ? 10_000 : 100_000);
const CONCURRENCY = 16;
const MB = 1_048_576;
const PROBE = process.env.BENCH_MEMORY_PROBE === '1';
const PROBE_FILE = 'memory-probe.json';

/**
 * The probe of BENCH_MEMORY_PROBE=1, loaded into the relay with `--import`: on SIGUSR2 it writes
 * PROBE_FILE (in the relay's working directory) with V8's figures, then those after a full
 * collection (`gc` obtained through `--expose-gc` set at run time, in a new context).
 */
const PROBE_SOURCE = `
import v8 from 'node:v8';
import vm from 'node:vm';
import { writeFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
const MB = 1048576;
const kinds = { 1: 'minor', 4: 'major', 8: 'incremental', 16: 'weak_callbacks' };
const gcs = {};
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const g = (gcs[kinds[e.detail.kind] ?? e.detail.kind] ??= { count: 0, ms: 0 });
    g.count++; g.ms += e.duration;
  }
}).observe({ entryTypes: ['gc'] });
const view = () => {
  const m = process.memoryUsage();
  const spaces = {};
  for (const s of v8.getHeapSpaceStatistics())
    if (s.space_size > 0) spaces[s.space_name] = { size_mb: s.space_size / MB, used_mb: s.space_used_size / MB };
  return { heap_total_mb: m.heapTotal / MB, heap_used_mb: m.heapUsed / MB, external_mb: m.external / MB, array_buffers_mb: m.arrayBuffers / MB, spaces };
};
process.on('SIGUSR2', () => {
  const atFill = view();
  const cpu = process.cpuUsage();
  v8.setFlagsFromString('--expose-gc');
  vm.runInNewContext('gc')();
  const afterFullGc = view();
  writeFileSync('${PROBE_FILE}', JSON.stringify({ cpu_s: (cpu.user + cpu.system) / 1e6, gcs, at_fill: atFill, after_full_gc: afterFullGc }));
});
`;

/** RSS split from /proc/<pid>/smaps: anonymous, file-backed, glibc's main arena; in bytes. */
function rssBreakdown(pid: number): { anon: number; file: number; mallocMainArena: number } {
  let anon = 0;
  let rss = 0;
  let mallocMainArena = 0;
  let inMainArena = false;
  for (const line of readFileSync(`/proc/${String(pid)}/smaps`, 'utf8').split('\n')) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping !== null) {
      inMainArena = mapping[1] === '[heap]';
      continue;
    }
    const field = /^(Rss|Anonymous):\s+(\d+) kB/.exec(line);
    if (field === null) continue;
    const bytes = Number(field[2]) * 1024;
    if (field[1] === 'Anonymous') anon += bytes;
    else {
      rss += bytes;
      if (inMainArena) mallocMainArena += bytes;
    }
  }
  return { anon, file: rss - anon, mallocMainArena };
}

/** VmHWM (peak RSS) of a process, in bytes. */
function peakRss(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${String(pid)}/status`, 'utf8'));
  return match?.[1] === undefined ? Number.NaN : Number(match[1]) * 1024;
}

/** Rounds every number of a JSON value to one decimal. */
function roundDeep(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (_key, v: unknown) =>
    typeof v === 'number' ? round(v, 1) : v,
  );
}

function entryCount(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const count = Number(value);
  if (!Number.isInteger(count) || count < REPOS || count % REPOS !== 0) {
    throw new Error(`BENCH_MEMORY_ENTRIES must be a positive multiple of ${String(REPOS)}`);
  }
  return count;
}

const { sim, repos } = await startBenchSim({
  rateLimits: 'unlimited',
  repos: REPOS,
  issuesPerRepo: ENTRIES / REPOS,
});
const probeDir = mkdtempSync(join(tmpdir(), 'relay-bench-memory-'));
const relay = await spawnRelay({
  sim,
  cwd: probeDir,
  nodeFlags: PROBE ? ['--import', `data:text/javascript,${encodeURIComponent(PROBE_SOURCE)}`] : [],
});
try {
  sim.world.addUser({ login: 'bench-agent' });
  const token = await provisionCaller(relay.url, 'bench-agent');
  await registerPats(relay.url, sim, join(relay.dir, 'secrets'), 2);
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  const read = async (path: string) => {
    const response = await fetch(`${relay.url}/v1/forge/request`, {
      method: 'POST',
      headers,
      body: relayBody(path),
    });
    const envelope = (await response.json()) as { relay?: { cache?: string } };
    return envelope.relay?.cache;
  };
  const paths: string[] = [];
  for (const repo of repos) {
    for (const number of repo.issues)
      paths.push(`/repos/${BENCH_ORG}/${repo.name}/issues/${String(number)}`);
  }
  await read(paths[0] ?? '');
  const baselineRss = relay.rss();
  const started = Date.now();
  let next = 1;
  let misses = 1;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < paths.length) {
        const path = paths[next++] ?? '';
        if ((await read(path)) === 'miss') misses++;
      }
    }),
  );
  const fillS = (Date.now() - started) / 1000;
  // Let the audit writer flush, then read the entry count the relay reports.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const statsResponse = await fetch(`${relay.url}/v1/pools/bench/stats?window=30m`, { headers });
  const stats = (await statsResponse.json()) as { cache_entries?: number };
  const rss = relay.rss();
  const breakdown = rssBreakdown(relay.pid);
  let probe: unknown = null;
  if (PROBE) {
    process.kill(relay.pid, 'SIGUSR2');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    probe = roundDeep(JSON.parse(readFileSync(join(probeDir, PROBE_FILE), 'utf8')));
  }
  reportResult('cache-memory', {
    node_flags: shebangNodeFlags(join(import.meta.dirname, '..', 'dist', 'main.js')),
    entries_requested: ENTRIES,
    misses,
    cache_entries_reported: stats.cache_entries ?? null,
    fill_s: round(fillS, 1),
    baseline_rss_mb: round(baselineRss / MB, 1),
    rss_mb: round(rss / MB, 1),
    ratio: round(rss / baselineRss, 2),
    per_entry_bytes: round((rss - baselineRss) / ENTRIES, 0),
    peak_rss_mb: round(peakRss(relay.pid) / MB, 1),
    rss_anonymous_mb: round(breakdown.anon / MB, 1),
    rss_file_backed_mb: round(breakdown.file / MB, 1),
    rss_malloc_main_arena_mb: round(breakdown.mallocMainArena / MB, 1),
    probe,
  });
} finally {
  await relay.stop();
  await sim.close();
  rmSync(probeDir, { recursive: true, force: true });
}
