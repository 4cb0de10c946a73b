/**
 * Quota economy: one deterministic multi-agent workload replayed three times against identical
 * simulated forges, counting upstream requests (forge-sim's request log) and quota spent
 * (forge-sim's own rate-limit counters, read through the free GET /rate_limit of every
 * credential used, the anonymous address included):
 *
 * - direct: each agent with its own PAT, no cache;
 * - always-revalidate: a proxy (implemented here) that keeps the last answer and its ETag per
 *   URL and revalidates every read with If-None-Match, with one PAT;
 * - relay: relay-server (in process, on the simulator's clock) with a pool of two PATs.
 *
 * 20 agents, 10 repositories, 30 simulated minutes; the world changes while they poll (issue
 * comments every minute, a push to each pull request every 5 minutes, a new workflow run every
 * 10 minutes). Time is simulated: the relay and the simulator share one injected clock, moved
 * to each event's time, so lifetimes, leases and rate windows behave as in 30 real minutes.
 *
 * Run: pnpm --filter @relay/server bench:quota
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimClock, type ForgeSim } from '@relay/forge-sim';
import { loadServerConfig } from '../src/server-config.js';
import { createSecretReader } from '../src/secret-resolver.js';
import { startServer } from '../src/start-server.js';
import { BENCH_ORG, startBenchSim, type BenchRepo } from './bench-world.js';
import { reportResult, round } from './bench-report.js';
import {
  BENCH_ADMIN_TOKEN,
  BENCH_POOL,
  provisionCaller,
  registerPats,
  relayBody,
  removeDir,
} from './relay-process.js';

const AGENTS = 20;
const REPOS = 10;
const MINUTES = 30;
const T0 = Date.parse('2030-03-01T09:00:00Z');
const S = 1000;

/** One read of the workload. */
interface Read {
  readonly at: number;
  readonly agent: number;
  readonly kind: string;
  /** The path, resolved against the world at read time (issue numbers, run ids). */
  readonly path: (repos: readonly BenchRepo[]) => string;
}

/** A deterministic generator (Park–Miller), so every mode replays the same workload. */
function createRandom(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 48_271) % 2_147_483_647) / 2_147_483_647;
}

/** The workload: per agent, polls and reads on its two repositories at fixed periods. */
function buildWorkload(): Read[] {
  const random = createRandom(12_345);
  const reads: Read[] = [];
  const end = MINUTES * 60 * S;
  for (let agent = 0; agent < AGENTS; agent++) {
    const home = agent % REPOS;
    const second = (agent * 3 + 1) % REPOS;
    const every = (
      kind: string,
      periodS: number,
      path: (r: BenchRepo, pick: number) => string,
      repoIndex: () => number,
    ) => {
      for (let at = Math.floor(random() * periodS * S); at < end; at += periodS * S) {
        const index = repoIndex();
        const pick = random();
        reads.push({
          at,
          agent,
          kind,
          path: (repos) => {
            const repo = repos[index];
            if (repo === undefined) throw new Error('no repo');
            return `/repos/${BENCH_ORG}/${repo.name}${path(repo, pick)}`;
          },
        });
      }
    };
    const homeRepo = () => home;
    const either = () => (random() < 0.7 ? home : second);
    every('pr view (poll)', 60, (r) => `/pulls/${String(r.pull)}`, homeRepo);
    every('run list (poll)', 120, () => '/actions/runs', homeRepo);
    every('run view', 180, (r) => `/actions/runs/${String(r.run)}`, homeRepo);
    every('pr files', 300, (r) => `/pulls/${String(r.pull)}/files`, homeRepo);
    every('pr list', 300, () => '/pulls', either);
    every(
      'issue view',
      90,
      (r, pick) => `/issues/${String(r.issues[Math.floor(pick * r.issues.length)])}`,
      either,
    );
    every('issue list', 600, () => '/issues', either);
    every('repo view', 600, () => '', either);
  }
  return reads.sort((a, b) => a.at - b.at || a.agent - b.agent);
}

/** The world's changes during the workload, identical in every mode. */
function applyChanges(sim: ForgeSim, repos: BenchRepo[], fromMs: number, toMs: number): void {
  for (let minute = Math.floor(fromMs / 60_000) + 1; minute * 60_000 <= toMs; minute++) {
    const repo = repos[minute % repos.length];
    if (repo === undefined) continue;
    const issue = repo.issues[minute % repo.issues.length] ?? 1;
    sim.world.addIssueComment({
      owner: BENCH_ORG,
      repo: repo.name,
      number: issue,
      body: `Comment at minute ${String(minute)}`,
    });
    if (minute % 5 === 0) {
      for (const r of repos) {
        sim.world.addCommit({
          owner: BENCH_ORG,
          repo: r.name,
          branch: r.head,
          message: `Push at minute ${String(minute)}`,
          files: { 'src/feature.ts': `export const feature = ${String(minute)};\n` },
        });
      }
    }
    if (minute % 10 === 0) {
      for (const r of repos) {
        (r as { run: number }).run = sim.world.addRun({
          owner: BENCH_ORG,
          repo: r.name,
          workflow: 'CI',
          jobs: [{ name: 'test', log: 'ok\n' }],
        }).run.id;
      }
    }
  }
}

/** What one mode spent. */
interface ModeResult {
  readonly reads: number;
  readonly failed: number;
  readonly upstream_requests: number;
  readonly quota: number;
  readonly quota_by_credential: Record<string, number>;
  readonly relay_cache_results?: Record<string, number>;
}

/** Sums `used` over every rate bucket of each credential (anonymous when the token is null). */
async function quotaSpent(
  sim: ForgeSim,
  credentials: Record<string, string | null>,
): Promise<{ total: number; by: Record<string, number> }> {
  const by: Record<string, number> = {};
  let total = 0;
  for (const [name, token] of Object.entries(credentials)) {
    const response = await fetch(`${sim.urls.api}/rate_limit`, {
      headers: token === null ? {} : { authorization: `token ${token}` },
    });
    const body = (await response.json()) as { resources: Record<string, { used: number }> };
    const used = Object.values(body.resources).reduce((sum, r) => sum + r.used, 0);
    by[name] = used;
    total += used;
  }
  return { total, by };
}

async function replay(
  mode: 'direct' | 'revalidate' | 'relay',
  workload: readonly Read[],
): Promise<ModeResult> {
  const clock = createSimClock({ start: T0 });
  const { sim, repos } = await startBenchSim({
    rateLimits: 'github',
    repos: REPOS,
    issuesPerRepo: 20,
    clock,
  });
  const dir = mkdtempSync(join(tmpdir(), 'relay-bench-quota-'));
  const closers: (() => Promise<void>)[] = [() => sim.close()];
  try {
    let read: (agent: number, path: string) => Promise<boolean>;
    const cacheResults: Record<string, number> = {};
    const credentials: Record<string, string | null> = { anonymous: null };
    if (mode === 'direct') {
      const tokens: string[] = [];
      for (let agent = 0; agent < AGENTS; agent++) {
        const login = `agent-${String(agent)}`;
        sim.world.addOrgMember(BENCH_ORG, login);
        const { token } = sim.tokens.addPat({ login });
        tokens.push(token);
        credentials[login] = token;
      }
      read = async (agent, path) => {
        const response = await fetch(`${sim.urls.api}${path}`, {
          headers: { authorization: `token ${tokens[agent] ?? ''}` },
        });
        await response.arrayBuffer();
        return response.status === 200;
      };
    } else if (mode === 'revalidate') {
      sim.world.addOrgMember(BENCH_ORG, 'proxy-reader');
      const { token } = sim.tokens.addPat({ login: 'proxy-reader' });
      credentials['proxy-reader'] = token;
      const stored = new Map<string, { etag: string; body: ArrayBuffer }>();
      read = async (_agent, path) => {
        const previous = stored.get(path);
        const response = await fetch(`${sim.urls.api}${path}`, {
          headers: {
            authorization: `token ${token}`,
            ...(previous === undefined ? {} : { 'if-none-match': previous.etag }),
          },
        });
        const body = await response.arrayBuffer();
        if (response.status === 304 && previous !== undefined) return true;
        const etag = response.headers.get('etag');
        if (response.status === 200 && etag !== null) stored.set(path, { etag, body });
        return response.status === 200;
      };
    } else {
      const secretsDir = join(dir, 'secrets');
      mkdirSync(secretsDir);
      const config = loadServerConfig({
        RELAY_HOST: '127.0.0.1',
        RELAY_PORT: '0',
        RELAY_DATABASE: join(dir, 'relay.db'),
        RELAY_ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
        RELAY_FORGE_API_URL: sim.urls.api,
        RELAY_FORGE_WEB_URL: sim.urls.web,
        RELAY_FORGE_RAW_URL: sim.urls.raw,
        RELAY_FORGE_LOG_HOSTS: new URL(sim.urls.log).hostname,
        DEFAULT_ALLOWED_OWNERS: BENCH_ORG,
        DEFAULT_LOGIN_POOL: BENCH_POOL,
      });
      if (!config.ok) throw new Error(`configuration: ${config.error.variable}`);
      const server = await startServer(config.value, {
        now: () => clock.now(),
        readSecret: createSecretReader({ secretsDir, env: {} }),
      });
      closers.unshift(() => server.close());
      const tokens: string[] = [];
      for (let agent = 0; agent < AGENTS; agent++) {
        const login = `agent-${String(agent)}`;
        sim.world.addUser({ login });
        tokens.push(await provisionCaller(server.url, login));
      }
      await registerPats(server.url, sim, secretsDir, 2);
      for (let n = 1; n <= 2; n++) {
        const { token } = sim.tokens.addPat({ login: `bench-pat-${String(n)}` });
        writeFileSync(join(secretsDir, `check_${String(n)}`), token);
        credentials[`bench-pat-${String(n)}`] = token;
      }
      read = async (agent, path) => {
        const response = await fetch(`${server.url}/v1/forge/request`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${tokens[agent] ?? ''}`,
          },
          body: relayBody(path),
        });
        const envelope = (await response.json()) as {
          status?: number;
          relay?: { cache?: string };
        };
        const result = envelope.relay?.cache ?? `http ${String(response.status)}`;
        cacheResults[result] = (cacheResults[result] ?? 0) + 1;
        return response.status === 200 && envelope.status === 200;
      };
    }

    // Setup traffic (provisioning) is not part of the workload.
    sim.rateLimits.reset();
    sim.requests.clear();
    let failed = 0;
    let last = 0;
    for (const item of workload) {
      applyChanges(sim, repos, last, item.at);
      last = item.at;
      clock.set(T0 + item.at);
      if (!(await read(item.agent, item.path(repos)))) failed++;
    }
    const upstream = sim.requests.entries.length;
    if (process.env.BENCH_DEBUG === '1') {
      const by: Record<string, number> = {};
      for (const e of sim.requests.entries) {
        const key = `${e.credential} ${String(e.status)} ${e.path.replace(/\d+/g, 'N')}`;
        by[key] = (by[key] ?? 0) + 1;
      }
      console.error(mode, by);
    }
    const quota = await quotaSpent(sim, credentials);
    return {
      reads: workload.length,
      failed,
      upstream_requests: upstream,
      quota: quota.total,
      quota_by_credential: quota.by,
      ...(mode === 'relay' ? { relay_cache_results: cacheResults } : {}),
    };
  } finally {
    for (const close of closers) await close();
    removeDir(dir);
  }
}

const workload = buildWorkload();
const kinds: Record<string, number> = {};
for (const item of workload) kinds[item.kind] = (kinds[item.kind] ?? 0) + 1;
const direct = await replay('direct', workload);
const revalidate = await replay('revalidate', workload);
const relay = await replay('relay', workload);
reportResult('quota-economy', {
  agents: AGENTS,
  repositories: REPOS,
  simulated_minutes: MINUTES,
  reads: workload.length,
  mix: kinds,
  direct,
  revalidate,
  relay,
  relay_vs_direct_quota: round(relay.quota / direct.quota, 3),
  revalidate_vs_relay_quota: round(revalidate.quota / relay.quota, 2),
  relay_vs_direct_requests: round(relay.upstream_requests / direct.upstream_requests, 3),
  revalidate_vs_relay_requests: round(revalidate.upstream_requests / relay.upstream_requests, 2),
});
