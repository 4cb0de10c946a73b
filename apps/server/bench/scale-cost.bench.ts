/**
 * What sharing costs (issue 25 item 5): the cache-hit and cache-miss cost of one relay-server
 * whose state is shared through Redis (RELAY_REDIS_URL: coordinator, cache, pace, proofs,
 * coalescing) against the same relay on the in-process implementations, in the same run, on the
 * same PostgreSQL; the embedded default (SQLite, in-process) is measured alongside as the
 * reference a single-machine deployment gets.
 *
 * - Hit: autocannon, 50 connections, on one warm URL; throughput and p50/p99, interleaved round
 *   by round over the three set-ups.
 * - Miss: distinct issues read one at a time (each a miss: the relay asks forge-sim, in a process
 *   of its own with latency 0), interleaved issue by issue over the set-ups; median and p99.
 *
 * Needs PostgreSQL and Redis (RELAY_TEST_POSTGRES_URL / RELAY_TEST_REDIS_URL, else the machine's
 * own at their standard ports).
 *
 * Run: pnpm --filter @relay/server bench:scale   (BENCH_QUICK=1 for a short run)
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { BENCH_ORG } from './bench-world.js';
import { QUICK, median, quantile, reportResult, round } from './bench-report.js';
import { runLoad, type LoadResult } from './load-generator.js';
import {
  provisionCaller,
  registerPatTokens,
  relayBody,
  spawnRelay,
  type RelayProcess,
} from './relay-process.js';
import { startSimProcess } from './sim-process.js';

const POSTGRES_URL =
  process.env.RELAY_TEST_POSTGRES_URL?.trim() ?? 'postgres://root@127.0.0.1:5432/test';
const REDIS_URL = process.env.RELAY_TEST_REDIS_URL?.trim() ?? 'redis://127.0.0.1:6379';
const CONNECTIONS = 50;
const ROUNDS = QUICK ? 1 : 3;
const DURATION_S = QUICK ? 3 : 8;
const REPOS = 10;
const ISSUES_PER_REPO = QUICK ? 15 : 50;
const HIT_PATH = `/repos/${BENCH_ORG}/repo-0/issues/1`;

/** One set-up under test. */
interface Setup {
  readonly name: 'embedded' | 'postgres' | 'postgres_redis';
  readonly label: string;
  relay: RelayProcess | undefined;
  token: string;
  readonly hits: LoadResult[];
  /** Statuses and codes of the hit load's non-2xx answers, from the relay's access log. */
  readonly failures: string[];
  readonly missMs: number[];
}

async function onPostgres(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * The non-200 answers of a relay's access log so far (`<status> <code>`), each once per line: what
 * the load generator counted as failures. The log is read from the start each time; the caller
 * keeps only what it needs.
 */
function answersOtherThan200(setup: Setup): string[] {
  if (setup.relay === undefined) return [];
  const found: string[] = [];
  for (const line of readFileSync(join(setup.relay.dir, 'relay.log'), 'utf8').split('\n')) {
    const status = /"status":(\d+)/.exec(line)?.[1];
    if (status === undefined || status === '200' || !line.includes('/v1/forge/request')) continue;
    const code = /"error_code":"([a-z_]+)"/.exec(line)?.[1] ?? '';
    const reason = /"reason":"([a-z_]+)"/.exec(line)?.[1] ?? '';
    found.push(`${status} ${code} ${reason}`.replace(/ +/g, ' ').trim());
  }
  return found;
}

const suffix = randomBytes(4).toString('hex');
const schemas = [`relay_bench_pg_${suffix}`, `relay_bench_redis_${suffix}`] as const;
const sim = await startSimProcess({
  rateLimits: 'unlimited',
  repos: REPOS,
  issuesPerRepo: ISSUES_PER_REPO,
  users: ['bench-agent'],
  pats: 2,
});
const setups: Setup[] = [
  {
    name: 'embedded',
    label: 'SQLite, in-process (default)',
    relay: undefined,
    token: '',
    hits: [],
    missMs: [],
    failures: [],
  },
  {
    name: 'postgres',
    label: 'PostgreSQL, in-process state',
    relay: undefined,
    token: '',
    hits: [],
    missMs: [],
    failures: [],
  },
  {
    name: 'postgres_redis',
    label: 'PostgreSQL + Redis (shared)',
    relay: undefined,
    token: '',
    hits: [],
    missMs: [],
    failures: [],
  },
];
try {
  for (const setup of setups) {
    const env: Record<string, string | undefined> =
      setup.name === 'embedded'
        ? {}
        : {
            RELAY_DATABASE: undefined,
            RELAY_DATABASE_URL: POSTGRES_URL,
            RELAY_DATABASE_SCHEMA: setup.name === 'postgres' ? schemas[0] : schemas[1],
            ...(setup.name === 'postgres_redis'
              ? { RELAY_REDIS_URL: REDIS_URL, RELAY_REDIS_PREFIX: `relay-bench-${suffix}:` }
              : {}),
          };
    setup.relay = await spawnRelay({ sim, env });
    setup.token = await provisionCaller(setup.relay.url, 'bench-agent');
    await registerPatTokens(setup.relay.url, join(setup.relay.dir, 'secrets'), sim.pats);
  }

  const urlOf = (setup: Setup): string => {
    if (setup.relay === undefined) throw new Error(`${setup.name}: not started`);
    return `${setup.relay.url}/v1/forge/request`;
  };
  const headersOf = (setup: Setup) => ({
    'content-type': 'application/json',
    authorization: `Bearer ${setup.token}`,
  });
  const read = async (setup: Setup, path: string): Promise<string> => {
    const response = await fetch(urlOf(setup), {
      method: 'POST',
      headers: headersOf(setup),
      body: relayBody(path),
    });
    const envelope = (await response.json()) as { status?: number; relay?: { cache?: string } };
    if (envelope.status !== 200)
      throw new Error(`${setup.name}: ${path} answered ${String(response.status)}`);
    return envelope.relay?.cache ?? 'none';
  };

  // Warm-up: visibility proofs of every repository, connection pools, the hit URL cached.
  for (const setup of setups) {
    for (let r = 0; r < REPOS; r++) await read(setup, `/repos/${BENCH_ORG}/repo-${String(r)}`);
    await read(setup, HIT_PATH);
    await read(setup, HIT_PATH);
  }

  // Misses: every issue but the hit one, interleaved over the set-ups.
  for (let r = 0; r < REPOS; r++) {
    for (let i = 2; i <= ISSUES_PER_REPO; i++) {
      const path = `/repos/${BENCH_ORG}/repo-${String(r)}/issues/${String(i)}`;
      for (const setup of setups) {
        const started = performance.now();
        const cache = await read(setup, path);
        setup.missMs.push(performance.now() - started);
        if (cache !== 'miss') throw new Error(`${setup.name}: ${path} was a ${cache}, not a miss`);
      }
    }
  }

  // Hits: load rounds, interleaved.
  for (let round_ = 0; round_ < ROUNDS; round_++) {
    for (const setup of setups) {
      const result = await runLoad({
        url: urlOf(setup),
        body: relayBody(HIT_PATH),
        headers: headersOf(setup),
        connections: CONNECTIONS,
        durationS: DURATION_S,
      });
      setup.hits.push(result);
    }
  }

  for (const setup of setups) {
    if (setup.hits.some((hit) => hit.failures > 0))
      setup.failures.push(...answersOtherThan200(setup));
  }
  const figuresOf = (setup: Setup) => ({
    hit_failures: Object.fromEntries(
      [...new Set(setup.failures)].map((kind) => [
        kind,
        setup.failures.filter((f) => f === kind).length,
      ]),
    ),
    label: setup.label,
    hit_rps: round(median(setup.hits.map((hit) => hit.requestsPerSecond)), 0),
    hit_p50_ms: round(median(setup.hits.map((hit) => hit.p50Ms))),
    hit_p99_ms: round(median(setup.hits.map((hit) => hit.p99Ms))),
    miss_median_ms: round(median(setup.missMs), 3),
    miss_p99_ms: round(quantile(setup.missMs, 0.99), 3),
  });
  const [embedded, local, shared] = setups.map(figuresOf) as [
    ReturnType<typeof figuresOf>,
    ReturnType<typeof figuresOf>,
    ReturnType<typeof figuresOf>,
  ];
  const figures = { embedded, postgres: local, postgres_redis: shared };
  reportResult('scale-cost', {
    ...figures,
    misses_per_setup: setups[0]?.missMs.length,
    hit_rounds: ROUNDS,
    // Same run, same PostgreSQL: Redis-shared state against in-process state.
    redis_hit_throughput_ratio: round(shared.hit_rps / local.hit_rps, 3),
    redis_hit_p99_ratio: round(shared.hit_p99_ms / local.hit_p99_ms, 3),
    redis_miss_extra_ms: round(shared.miss_median_ms - local.miss_median_ms, 3),
    redis_vs_embedded_hit_throughput_ratio: round(shared.hit_rps / embedded.hit_rps, 3),
  });
} finally {
  await Promise.all(setups.map((setup) => setup.relay?.stop() ?? Promise.resolve()));
  await sim.stop();
  for (const schema of schemas) await onPostgres(`drop schema if exists ${schema} cascade`);
}
