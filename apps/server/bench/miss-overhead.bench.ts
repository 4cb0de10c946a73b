/**
 * Miss overhead: a relay miss (POST /v1/forge/request for an issue nobody read before, so the
 * relay asks the simulated forge) against a direct fetch of the same upstream URL from the
 * same client, with the simulator's latency at 0. Requests run one at a time, interleaved
 * (direct, then relay, per issue), so both see the same machine load. The simulator runs in a
 * process of its own (`sim-process.ts`), as the forge is a host of its own: both arms then
 * cross a process boundary to reach it, and the relay's extra hop (client → relay) is what it
 * adds.
 *
 * Run: pnpm --filter @relay/server bench:miss   (BENCH_QUICK=1 for a short run)
 */
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { BENCH_ORG } from './bench-world.js';
import { QUICK, median, quantile, reportResult, round } from './bench-report.js';
import { provisionCaller, registerPatTokens, relayBody, spawnRelay } from './relay-process.js';
import { startSimProcess } from './sim-process.js';

const REPOS = 10;
const ISSUES_PER_REPO = QUICK ? 20 : 60;

const sim = await startSimProcess({
  rateLimits: 'unlimited',
  repos: REPOS,
  issuesPerRepo: ISSUES_PER_REPO,
  users: ['bench-agent'],
  pats: 2,
});
const { repos } = sim;
const relay = await spawnRelay({ sim });
try {
  const token = await provisionCaller(relay.url, 'bench-agent');
  await registerPatTokens(relay.url, join(relay.dir, 'secrets'), sim.pats);
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
  // The hop alone: a round trip to the relay that does no work (its discovery document).
  async function hop(): Promise<void> {
    const response = await fetch(`${relay.url}/.well-known/relay`);
    await response.arrayBuffer();
  }
  await hop();
  const directMs: number[] = [];
  const relayMs: number[] = [];
  const hopMs: number[] = [];
  let notMiss = 0;
  // The relay's CPU time over the whole loop, read outside every timed window.
  const cpuBefore = relay.cpuMs();
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
      t = performance.now();
      await hop();
      hopMs.push(performance.now() - t);
    }
  }
  const relayCpuMs = relay.cpuMs() - cpuBefore;
  const d = median(directMs);
  const r = median(relayMs);
  reportResult('miss-overhead', {
    reads: relayMs.length,
    not_miss: notMiss,
    direct: { median_ms: round(d, 3), p90_ms: round(quantile(directMs, 0.9), 3) },
    relay: { median_ms: round(r, 3), p90_ms: round(quantile(relayMs, 0.9), 3) },
    overhead_median_ms: round(r - d, 3),
    ratio: round(r / d, 2),
    hop_median_ms: round(median(hopMs), 3),
    relay_cpu_ms_per_miss: round(relayCpuMs / relayMs.length, 3),
  });
} finally {
  await relay.stop();
  await sim.stop();
}
