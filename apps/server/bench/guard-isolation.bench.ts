/**
 * Guard isolation: the worst-case string-rewrite check must not stall the server. relay-server
 * runs as deployed (the built `dist/main.js`, its own process) with 128 of the most expensive
 * rules the rule language admits (`.{1,1000}[@][A-Z]{n}`: about half a second of re2js per
 * rule over 15 KB), and callers keep posting relay reads whose query value is 15 KB of text that
 * almost matches them (four at a time). Meanwhile a health check (`GET /v1/pools/:pool/health`,
 * authenticated, reads the database) is sent one at a time; its latency is compared with the
 * same health checks on the idle server (the baseline, measured first in the same run).
 *
 * Run: pnpm --filter @relay/server bench:guard   (BENCH_QUICK=1 for a short run)
 */
import { performance } from 'node:perf_hooks';
import { QUICK, median, quantile, reportResult, round } from './bench-report.js';
import {
  BENCH_ADMIN_TOKEN,
  BENCH_POOL,
  provisionCaller,
  relayBody,
  spawnRelay,
} from './relay-process.js';
import { startSimProcess } from './sim-process.js';

const RULES = 128;
const VALUE_BYTES = 15_000;
const GUARDED_CONCURRENCY = 4;
const LOAD_SECONDS = QUICK ? 6 : 20;
const BASELINE_CHECKS = QUICK ? 50 : 200;

const sim = await startSimProcess({
  rateLimits: 'unlimited',
  repos: 1,
  issuesPerRepo: 1,
  users: ['bench-agent'],
  pats: 1,
});
const relay = await spawnRelay({ sim }).catch(async (error: unknown) => {
  await sim.stop();
  throw error;
});
try {
  const token = await provisionCaller(relay.url, 'bench-agent');
  const rules = Array.from({ length: RULES }, (_, index) => ({
    pattern: `.{1,1000}[@][A-Z]{${String(index + 1)}}`,
    replacement: '',
  }));
  const put = await fetch(`${relay.url}/v1/admin/string-rewrites`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${BENCH_ADMIN_TOKEN}` },
    body: JSON.stringify({ schema_version: 1, expected_revision: 1, rules }),
  });
  if (put.status !== 200) throw new Error(`policy PUT answered ${String(put.status)}`);
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };

  /** One health check; its latency in ms. */
  async function health(): Promise<number> {
    const started = performance.now();
    const response = await fetch(`${relay.url}/v1/pools/${BENCH_POOL}/health`, { headers });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`health answered ${String(response.status)}`);
    return performance.now() - started;
  }

  // Warm-up, then the baseline: the same health checks with nothing else running.
  for (let i = 0; i < 20; i++) await health();
  const baseline: number[] = [];
  for (let i = 0; i < BASELINE_CHECKS; i++) baseline.push(await health());

  // The load: worst-case guarded reads, four at a time, for LOAD_SECONDS.
  const value = 'abcdefg1-@'.repeat(VALUE_BYTES / 10);
  const outcomes = new Map<string, number>();
  const guardedMs: number[] = [];
  const until = performance.now() + LOAD_SECONDS * 1000;
  async function guardedLoop(): Promise<void> {
    while (performance.now() < until) {
      const started = performance.now();
      const response = await fetch(`${relay.url}/v1/forge/request`, {
        method: 'POST',
        headers,
        body: relayBody('/search/repositories', { query: { q: value } }),
      });
      const body = (await response.json()) as { error?: { code?: string; reason?: string } };
      guardedMs.push(performance.now() - started);
      const key = `${String(response.status)} ${body.error?.reason ?? body.error?.code ?? 'envelope'}`;
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    }
  }
  const underLoad: number[] = [];
  async function healthLoop(): Promise<void> {
    while (performance.now() < until) {
      underLoad.push(await health());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  const cpuBefore = relay.cpuMs();
  await Promise.all([
    ...Array.from({ length: GUARDED_CONCURRENCY }, () => guardedLoop()),
    healthLoop(),
  ]);
  const cpuMs = relay.cpuMs() - cpuBefore;

  const summary = (values: readonly number[]) => ({
    checks: values.length,
    median_ms: round(median(values)),
    p99_ms: round(quantile(values, 0.99)),
    max_ms: round(Math.max(...values)),
  });
  const loaded = summary(underLoad);
  const result = {
    rules: RULES,
    value_bytes: VALUE_BYTES,
    guarded_concurrency: GUARDED_CONCURRENCY,
    load_seconds: LOAD_SECONDS,
    baseline: summary(baseline),
    under_load: loaded,
    p99_ratio: round(loaded.p99_ms / Math.max(0.001, quantile(baseline, 0.99))),
    guarded: {
      requests: guardedMs.length,
      median_ms: round(median(guardedMs)),
      outcomes: Object.fromEntries([...outcomes].sort()),
    },
    relay_cpu_s: round(cpuMs / 1000),
    goal_max_ms: 100,
    met: loaded.max_ms <= 100,
  };
  reportResult('guard-isolation', result);
} finally {
  await relay.stop();
  await sim.stop();
}
