/**
 * Miss overhead: a relay miss (POST /v1/forge/request for an issue nobody read before, so the
 * relay asks the simulated forge) against a direct fetch of the same upstream URL from the
 * same client, with the simulator's latency at 0. Requests run one at a time, interleaved
 * (direct, then relay, per issue), so both see the same machine load.
 *
 * Run: pnpm --filter @relay/server bench:miss   (BENCH_QUICK=1 for a short run)
 */
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { BENCH_ORG, startBenchSim } from './bench-world.js';
import { QUICK, median, quantile, reportResult, round } from './bench-report.js';
import { provisionCaller, registerPats, relayBody, spawnRelay } from './relay-process.js';

const REPOS = 10;
const ISSUES_PER_REPO = QUICK ? 20 : 60;

const { sim, repos } = await startBenchSim({
  rateLimits: 'unlimited',
  repos: REPOS,
  issuesPerRepo: ISSUES_PER_REPO,
});
const relay = await spawnRelay({ sim });
try {
  sim.world.addUser({ login: 'bench-agent' });
  const token = await provisionCaller(relay.url, 'bench-agent');
  await registerPats(relay.url, sim, join(relay.dir, 'secrets'), 2);
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };

  async function viaRelay(path: string): Promise<string | undefined> {
    const response = await fetch(`${relay.url}/v1/forge/request`, {
      method: 'POST',
      headers,
      body: relayBody(path),
    });
    const envelope = (await response.json()) as { status?: number; relay?: { cache?: string } };
    return envelope.status === 200 ? envelope.relay?.cache : `status ${String(response.status)}`;
  }
  async function direct(path: string): Promise<number> {
    const response = await fetch(`${sim.urls.api}${path}`, {
      headers: { accept: 'application/vnd.github+json' },
    });
    await response.arrayBuffer();
    return response.status;
  }

  // Warm-up: the visibility proof of each repository and both connection pools.
  for (const repo of repos) {
    await direct(`/repos/${BENCH_ORG}/${repo.name}`);
    await viaRelay(`/repos/${BENCH_ORG}/${repo.name}`);
  }
  const directMs: number[] = [];
  const relayMs: number[] = [];
  let notMiss = 0;
  for (let i = 0; i < ISSUES_PER_REPO; i++) {
    for (const repo of repos) {
      const path = `/repos/${BENCH_ORG}/${repo.name}/issues/${String(repo.issues[i])}`;
      let t = performance.now();
      if ((await direct(path)) !== 200) throw new Error(`direct read failed: ${path}`);
      directMs.push(performance.now() - t);
      t = performance.now();
      const cache = await viaRelay(path);
      relayMs.push(performance.now() - t);
      if (cache !== 'miss') notMiss++;
    }
  }
  const d = median(directMs);
  const r = median(relayMs);
  reportResult('miss-overhead', {
    reads: relayMs.length,
    not_miss: notMiss,
    direct: { median_ms: round(d, 3), p90_ms: round(quantile(directMs, 0.9), 3) },
    relay: { median_ms: round(r, 3), p90_ms: round(quantile(relayMs, 0.9), 3) },
    overhead_median_ms: round(r - d, 3),
    ratio: round(r / d, 2),
  });
} finally {
  await relay.stop();
  await sim.close();
}
