/**
 * Memory: resident set size of relay-server (its own process, as deployed: SQLite file plus the
 * in-memory LRU front) holding 100,000 cache entries, filled through the real request path
 * (100,000 distinct issue reads, each a miss answered by the simulated forge). The baseline is
 * the same process's RSS measured in the same run once it has started and served one read.
 *
 * Run: pnpm --filter @relay/server bench:memory   (BENCH_QUICK=1 fills 10,000 entries;
 * BENCH_MEMORY_ENTRIES=20000 fills that many, a multiple of 10, for quicker iterations)
 */
import { join } from 'node:path';
import { BENCH_ORG, startBenchSim } from './bench-world.js';
import { QUICK, reportResult, round } from './bench-report.js';
import { provisionCaller, registerPats, relayBody, spawnRelay } from './relay-process.js';

const REPOS = 10;
const ENTRIES = entryCount(process.env.BENCH_MEMORY_ENTRIES, QUICK ? 10_000 : 100_000);
const CONCURRENCY = 16;
const MB = 1_048_576;

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
const relay = await spawnRelay({ sim });
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
  reportResult('cache-memory', {
    entries_requested: ENTRIES,
    misses,
    cache_entries_reported: stats.cache_entries ?? null,
    fill_s: round(fillS, 1),
    baseline_rss_mb: round(baselineRss / MB, 1),
    rss_mb: round(rss / MB, 1),
    ratio: round(rss / baselineRss, 2),
    per_entry_bytes: round((rss - baselineRss) / ENTRIES, 0),
  });
} finally {
  await relay.stop();
  await sim.close();
}
