/**
 * The upstream governor under a burst (issue 27 item 8): many callers send distinct cacheable
 * misses as fast as their callers' concurrency allows, through relay-server as deployed (the built
 * `dist/main.js`, its own process) with a pool of PAT identities, against forge-sim enforcing
 * GitHub's documented limits — the primary ones (5,000 an hour per user, 60 an hour anonymous)
 * and the secondary ones (100 requests in flight and 900 points a minute per credential, answered
 * with the secondary-limit 403 and a Retry-After). The same burst runs twice in the same run, each
 * on a fresh simulator and a fresh relay:
 *
 * - governor on: the relay's defaults (80 in flight, 720 points a minute per identity, a wait of
 *   at most 2 s, the per-caller bound of 8);
 * - governor off: the governor's limits opened (as the other benchmarks run it).
 *
 * Reported per arm: the forge's secondary-limit answers (its request log), the identities cooling
 * down when the burst ends (health), the reads served in the first minute against the configured
 * pace of the pool (identities × points a minute), how every read was answered (status and reason),
 * health's quota forecast, and two waits: the dispatch delay of each served miss (the forge's
 * arrival of its upstream request minus the caller's send, both on this process's clock — the
 * governor's queue wait plus the relay's own work before dispatch, which the off arm measures
 * alone) and the wait before each 424. The counts do not depend on the machine's load; the waits
 * do.
 *
 * Run: pnpm --filter @relay/server bench:burst (BENCH_QUICK=1: one identity, 1,000 reads)
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { poolHealthSchema, type PoolHealth } from '@relay/protocol';
import { BENCH_ORG, startBenchSim } from './bench-world.js';
import { QUICK, quantile, reportResult, round } from './bench-report.js';
import {
  BENCH_POOL,
  provisionCaller,
  registerPats,
  relayBody,
  spawnRelay,
} from './relay-process.js';

const REPOS = 10;
/** Pooled PAT identities. */
const IDENTITIES = QUICK ? 1 : 3;
/** Distinct misses of the burst, spread over {@link REPOS} repositories. */
const READS = QUICK ? 1_000 : 3_000;
const CALLERS = QUICK ? 5 : 20;
/** The relay's default per-caller bound (RELAY_MAX_CALLER_CONCURRENCY): each caller's workers. */
const CALLER_CONCURRENCY = 8;
/** The governor's default pace per identity (RELAY_GOVERNOR_POINTS_PER_MINUTE). */
const PACE_PER_IDENTITY = 720;
const MINUTE_MS = 60_000;

/** The governor's arm: the relay's defaults, or its limits opened. */
type Arm = 'on' | 'off';

/** The bearer token of the relay's /metrics (the governor's event counts). */
const METRICS_TOKEN = 'bench-metrics-token-0123456789';

const ARM_ENV: Record<Arm, Record<string, string | undefined>> = {
  on: {
    RELAY_GOVERNOR_MAX_IN_FLIGHT: undefined,
    RELAY_GOVERNOR_POINTS_PER_MINUTE: undefined,
    RELAY_MAX_CALLER_CONCURRENCY: undefined,
    RELAY_METRICS_TOKEN: METRICS_TOKEN,
  },
  off: { RELAY_MAX_CALLER_CONCURRENCY: undefined, RELAY_METRICS_TOKEN: METRICS_TOKEN },
};

/**
 * The governor's events by kind (`queued`, `refused`, `slowed`, `restored`), summed over senders,
 * from the relay's `relay_governor_events_total`.
 */
async function governorEvents(url: string): Promise<Record<string, number>> {
  const response = await fetch(`${url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const events: Record<string, number> = {};
  for (const line of (await response.text()).split('\n')) {
    const match = /^relay_governor_events_total\{[^}]*event="(\w+)"[^}]*\} (\d+)$/.exec(line);
    if (match?.[1] !== undefined) events[match[1]] = (events[match[1]] ?? 0) + Number(match[2]);
  }
  return events;
}

/** One read of the burst, as its caller saw it. */
interface Answered {
  readonly path: string;
  readonly sentAt: number;
  readonly answeredAt: number;
  readonly status: number;
  /** The relay's status and the envelope's cache result, or the error's reason or code. */
  readonly outcome: string;
  /** A pooled identity served it (the envelope's `identity`). */
  readonly pooled: boolean;
}

/** What one arm measured. */
interface ArmResult {
  readonly reads: number;
  readonly burst_s: number;
  readonly forge_secondary_limit_answers: number;
  readonly forge_api_requests: number;
  readonly forge_api_requests_by_credential: Record<string, number>;
  readonly identities_cooling_down: number;
  /** The governor's events (`queued`: a request waited for headroom; `refused`: it gave up). */
  readonly governor_events: Record<string, number>;
  readonly served: number;
  readonly served_first_minute: number;
  readonly served_first_minute_pooled: number;
  readonly outcomes: Record<string, number>;
  readonly dispatch_delay_ms: { readonly p50: number; readonly p99: number; readonly n: number };
  readonly wait_before_424_ms: { readonly p50: number; readonly p99: number; readonly n: number };
  /** Health's forecast of the core bucket when the burst ended. */
  readonly quota_core: NonNullable<PoolHealth['quota']>[string] | null;
}

function tally(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

function percentiles(values: readonly number[]) {
  return {
    p50: round(quantile(values, 0.5), 1),
    p99: round(quantile(values, 0.99), 1),
    n: values.length,
  };
}

async function runArm(arm: Arm): Promise<ArmResult> {
  const { sim, repos } = await startBenchSim({
    rateLimits: 'github',
    secondaryLimits: true,
    repos: REPOS,
    issuesPerRepo: READS / REPOS,
  });
  const relay = await spawnRelay({ sim, env: ARM_ENV[arm] });
  try {
    // Callers first (their provisioning reads go anonymous: no pooled identity yet), then the
    // pool; the setup's traffic is then forgotten by the forge's limits and its request log.
    const tokens: string[] = [];
    for (let c = 0; c < CALLERS; c++) {
      const login = `bench-caller-${String(c)}`;
      sim.world.addUser({ login });
      tokens.push(await provisionCaller(relay.url, login));
    }
    await registerPats(relay.url, sim, join(relay.dir, 'secrets'), IDENTITIES);
    sim.rateLimits.reset();
    sim.requests.clear();

    const paths: string[] = [];
    for (let i = 0; i < READS / REPOS; i++) {
      for (const repo of repos) {
        paths.push(`/repos/${BENCH_ORG}/${repo.name}/issues/${String(repo.issues[i])}`);
      }
    }
    const answered: Answered[] = [];
    const start = Date.now();
    await Promise.all(
      tokens.map(async (token, caller) => {
        const share = paths.filter((_, i) => i % CALLERS === caller);
        let next = 0;
        const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
        await Promise.all(
          Array.from({ length: CALLER_CONCURRENCY }, async () => {
            for (let path = share[next++]; path !== undefined; path = share[next++]) {
              const sentAt = Date.now();
              const response = await fetch(`${relay.url}/v1/forge/request`, {
                method: 'POST',
                headers,
                body: relayBody(path),
              });
              const body = (await response.json()) as {
                status?: number;
                identity?: unknown;
                relay?: { cache?: string };
                error?: { code?: string; reason?: string };
              };
              // `200 miss`, `200 stale`, `200 miss (forge 404)`, `424 relay_overloaded`, …
              const detail =
                response.status === 200
                  ? `${body.relay?.cache ?? '?'}${body.status === 200 ? '' : ` (forge ${String(body.status)})`}`
                  : (body.error?.reason ?? body.error?.code ?? '?');
              answered.push({
                path,
                sentAt,
                answeredAt: Date.now(),
                status: response.status,
                outcome: `${String(response.status)} ${detail}`,
                pooled: response.status === 200 && body.identity !== null,
              });
            }
          }),
        );
      }),
    );
    const burstMs = Date.now() - start;
    const healthResponse = await fetch(`${relay.url}/v1/pools/${BENCH_POOL}/health`, {
      headers: { authorization: `Bearer ${tokens[0] ?? ''}` },
    });
    const health = poolHealthSchema.parse(await healthResponse.json());

    const api = sim.requests.find({ host: 'api' });
    const arrival = new Map<string, number>();
    for (const entry of api) if (!arrival.has(entry.path)) arrival.set(entry.path, entry.at);
    const served = answered.filter((a) => a.status === 200);
    const firstMinute = served.filter((a) => a.answeredAt - start <= MINUTE_MS);
    const dispatch = served.flatMap((a) => {
      const at = arrival.get(a.path);
      return at === undefined ? [] : [at - a.sentAt];
    });
    const refusedWaits = answered
      .filter((a) => a.status === 424)
      .map((a) => a.answeredAt - a.sentAt);
    return {
      reads: answered.length,
      burst_s: round(burstMs / 1000, 1),
      forge_secondary_limit_answers: api.filter((e) => e.fault === 'secondary_limit').length,
      forge_api_requests: api.length,
      forge_api_requests_by_credential: tally(api.map((e) => e.credential)),
      identities_cooling_down: health.identities_cooling_down,
      governor_events: await governorEvents(relay.url),
      served: served.length,
      served_first_minute: firstMinute.length,
      served_first_minute_pooled: firstMinute.filter((a) => a.pooled).length,
      outcomes: tally(answered.map((a) => a.outcome)),
      dispatch_delay_ms: percentiles(dispatch),
      wait_before_424_ms: percentiles(refusedWaits),
      quota_core: health.quota?.core ?? null,
    };
  } finally {
    await relay.stop();
    await sim.close();
  }
}

const on = await runArm('on');
const off = await runArm('off');
const pace = IDENTITIES * PACE_PER_IDENTITY;
reportResult('governor-burst', {
  reads: READS,
  callers: CALLERS,
  caller_concurrency: CALLER_CONCURRENCY,
  identities: IDENTITIES,
  repositories: REPOS,
  forge_secondary_limits: { max_concurrent: 100, points_per_minute: 900 },
  governor_defaults: { max_in_flight: 80, points_per_minute: PACE_PER_IDENTITY, max_wait_ms: 2000 },
  configured_pace_per_minute: pace,
  on,
  off,
  served_first_minute_vs_pace: round(on.served_first_minute_pooled / pace, 3),
  dispatch_delay_p50_on_vs_off: round(on.dispatch_delay_ms.p50 / off.dispatch_delay_ms.p50, 2),
  load_average: loadavg().map((l) => round(l, 2)),
});
