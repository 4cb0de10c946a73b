/**
 * Quota economy: deterministic multi-agent workloads, each replayed three times against
 * identical simulated forges, counting upstream requests (forge-sim's request log) and quota
 * spent (forge-sim's own rate-limit counters, read through the free GET /rate_limit of every
 * credential used, the anonymous address included):
 *
 * - direct: each agent with its own PAT, no cache;
 * - always-revalidate: a proxy (implemented here) that keeps the last answer and its ETag per
 *   URL and revalidates every read with If-None-Match, with one PAT;
 * - relay: relay-server (in process, on the simulator's clock) with a pool of two PATs.
 *
 * Both workloads: 20 agents, 10 repositories, 30 simulated minutes.
 *
 * - `minute_poll`: agents poll their PR every minute, the run list every 2 min, and read runs,
 *   PR files, PR and issue lists, issues and repositories at fixed periods, while the world
 *   changes (issue comments every minute, a push to each pull request every 5 minutes, a new
 *   workflow run every 10 minutes).
 * - `watch`: each agent owns a pull request and alternates between a work phase (reads of
 *   issues, its PR, lists, runs, the repository) and watching the CI run its push started, with
 *   `gh pr checks --watch` (every 10 s, gh's default) or `gh run watch` (every 3 s, gh's
 *   default), while the run's jobs and steps advance; issue comments every minute as well.
 *   Every interval and duration is listed in {@link WATCH} with its source or assumption.
 *
 * Time is simulated: the relay and the simulator share one injected clock, moved to each
 * read's time, so lifetimes, leases and rate windows behave as in 30 real minutes.
 *
 * Run: pnpm --filter @relay/server bench:quota (BENCH_QUOTA_WORKLOAD=minute_poll|watch for one)
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createSimClock,
  type CheckRunRecord,
  type ForgeSim,
  type JobRecord,
  type LoggedRequest,
  type RunRecord,
} from '@relay/forge-sim';
import { resolveLifetime } from '@relay/cache';
import { classify } from '@relay/route-classifier';
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
const END = MINUTES * 60 * S;

/** What the replay created that later reads and changes refer to (one per mode). */
interface ReplayState {
  readonly sim: ForgeSim;
  readonly repos: BenchRepo[];
  /** The CI run each agent's push started, by `agent/cycle`. */
  readonly cycles: Map<string, CycleRecords>;
}

/** One read of a workload. */
interface Read {
  readonly at: number;
  readonly agent: number;
  /** Order among one agent's reads at the same time. */
  readonly seq: number;
  readonly kind: string;
  /** The path, resolved against the world at read time (issue numbers, run ids, SHAs). */
  readonly path: (state: ReplayState) => string;
}

/** One change of the world, applied before every read at or after `at`. */
interface Change {
  readonly at: number;
  readonly apply: (state: ReplayState) => void;
}

/** A replayable workload: its reads and the world's changes, identical in every mode. */
interface Workload {
  readonly name: 'minute_poll' | 'watch' | 'burst';
  readonly pullsPerRepo: number;
  readonly reads: Read[];
  readonly changes: Change[];
}

/** A deterministic generator (Park–Miller), so every mode replays the same workload. */
function createRandom(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 48_271) % 2_147_483_647) / 2_147_483_647;
}

function repoPath(state: ReplayState, index: number, suffix: string): string {
  const repo = state.repos[index];
  if (repo === undefined) throw new Error('no repo');
  return `/repos/${BENCH_ORG}/${repo.name}${suffix}`;
}

function repoOf(state: ReplayState, index: number): BenchRepo {
  const repo = state.repos[index];
  if (repo === undefined) throw new Error('no repo');
  return repo;
}

function sortReads(reads: Read[]): Read[] {
  return reads.sort((a, b) => a.at - b.at || a.agent - b.agent || a.seq - b.seq);
}

/** A comment on one of the issues every minute (other people's activity), in both workloads. */
function minuteComments(changes: Change[]): void {
  for (let minute = 1; minute * 60 * S <= END; minute++) {
    changes.push({
      at: minute * 60 * S,
      apply: ({ sim, repos }) => {
        const repo = repos[minute % repos.length];
        if (repo === undefined) return;
        sim.world.addIssueComment({
          owner: BENCH_ORG,
          repo: repo.name,
          number: repo.issues[minute % repo.issues.length] ?? 1,
          body: `Comment at minute ${String(minute)}`,
        });
      },
    });
  }
}

/** The minute-poll workload: per agent, polls and reads on its two repositories at fixed periods. */
function buildMinutePollWorkload(): Workload {
  const random = createRandom(12_345);
  const reads: Read[] = [];
  for (let agent = 0; agent < AGENTS; agent++) {
    const home = agent % REPOS;
    const second = (agent * 3 + 1) % REPOS;
    const every = (
      kind: string,
      periodS: number,
      path: (r: BenchRepo, pick: number) => string,
      repoIndex: () => number,
    ) => {
      for (let at = Math.floor(random() * periodS * S); at < END; at += periodS * S) {
        const index = repoIndex();
        const pick = random();
        reads.push({
          at,
          agent,
          seq: 0,
          kind,
          path: (state) => repoPath(state, index, path(repoOf(state, index), pick)),
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
  const changes: Change[] = [];
  minuteComments(changes);
  for (let minute = 5; minute * 60 * S <= END; minute += 5) {
    changes.push({
      at: minute * 60 * S,
      apply: ({ sim, repos }) => {
        for (const r of repos) {
          sim.world.addCommit({
            owner: BENCH_ORG,
            repo: r.name,
            branch: r.head,
            message: `Push at minute ${String(minute)}`,
            files: { 'src/feature.ts': `export const feature = ${String(minute)};\n` },
          });
        }
        if (minute % 10 !== 0) return;
        for (const r of repos) {
          (r as { run: number }).run = sim.world.addRun({
            owner: BENCH_ORG,
            repo: r.name,
            workflow: 'CI',
            jobs: [{ name: 'test', log: 'ok\n' }],
          }).run.id;
        }
      },
    });
  }
  return {
    name: 'minute_poll',
    pullsPerRepo: 1,
    reads: sortReads(reads),
    // Changes after the last read could not be seen by any mode.
    changes: changes.filter((c) => c.at < END).sort((a, b) => a.at - b.at),
  };
}

/**
 * The watch workload's parameters. Sources: gh's defaults are read from the gh source and
 * manual (cli/cli pkg/cmd/run/watch/watch.go: `defaultInterval int = 3`; gh-pr-checks(1):
 * `-i, --interval` "(default 10)"). Everything else is a stated assumption (see the method
 * section of BENCHMARKS.md), chosen before the first replay and not tuned to the goals.
 */
const WATCH = {
  /** `gh run watch` refresh interval (gh default). */
  runWatchIntervalS: 3,
  /** `gh pr checks --watch` refresh interval (gh default). */
  prChecksIntervalS: 10,
  /** Work phase between pushes: uniform in [min, max] seconds (assumption). */
  workS: [240, 480] as const,
  /** Gap between two work reads: uniform in [min, max] seconds (assumption). */
  workReadGapS: [20, 60] as const,
  /** The agent starts watching this long after its push (assumption). */
  watchDelayS: 5,
  /** A new run waits in the queue: uniform in [min, max] seconds (assumption). */
  queuedS: [5, 20] as const,
  /**
   * The CI workflow: two parallel jobs; each step's duration uniform in [min, max] seconds
   * (assumption: a typical Node project's lint and test jobs, about 1.5 and 3 minutes).
   */
  jobs: [
    {
      name: 'lint',
      steps: [
        ['Set up job', 2, 5],
        ['Checkout', 3, 8],
        ['Install dependencies', 20, 45],
        ['Lint', 15, 40],
        ['Complete job', 1, 3],
      ],
    },
    {
      name: 'test',
      steps: [
        ['Set up job', 2, 5],
        ['Checkout', 3, 8],
        ['Install dependencies', 20, 45],
        ['Build', 20, 40],
        ['Test', 60, 120],
        ['Complete job', 1, 3],
      ],
    },
  ] as const,
  /** Work reads: weights of each kind (assumption). Issue reads: 70 % home repository. */
  workMix: [
    ['issue view', 30],
    ['pr view', 15],
    ['pr files', 15],
    ['pr list', 10],
    ['issue list', 10],
    ['run list', 10],
    ['repo view', 5],
    ['run view', 5],
  ] as const,
} as const;

/** Job and step states at one time of a CI run's precomputed timeline. */
interface RunTimeline {
  readonly pushAt: number;
  readonly startAt: number;
  /** Per job: step boundaries (start of step i = bounds[i], end of the job = last bound). */
  readonly bounds: readonly (readonly number[])[];
  readonly completeAt: number;
}

function jobStatusAt(t: RunTimeline, job: number, at: number): JobRecord['status'] {
  const bounds = t.bounds[job] ?? [];
  if (at < t.startAt) return 'queued';
  return at < (bounds[bounds.length - 1] ?? t.startAt) ? 'in_progress' : 'completed';
}

/** Draws the timeline of the CI run a push starts: its queue time, then each job's steps. */
function drawTimeline(
  pushAt: number,
  uniform: (range: readonly [number, number]) => number,
): RunTimeline {
  const startAt = pushAt + Math.round(uniform(WATCH.queuedS) * S);
  const bounds = WATCH.jobs.map((job) => {
    const b = [startAt];
    for (const [, min, max] of job.steps) {
      b.push(Math.round((b[b.length - 1] ?? startAt) + uniform([min, max]) * S));
    }
    return b;
  });
  const completeAt = Math.max(...bounds.map((b) => b[b.length - 1] ?? startAt));
  return { pushAt, startAt, bounds, completeAt };
}

/** The changes of one CI run: created queued at the push, then every step start and end. */
function runChanges(agent: number, cycle: number, pull: number, t: RunTimeline): Change[] {
  const key = `${String(agent)}/${String(cycle)}`;
  const home = agent % REPOS;
  const changes: Change[] = [
    {
      at: t.pushAt,
      apply: (state) => {
        const repo = repoOf(state, home);
        const head = repo.pulls[pull]?.head;
        if (head === undefined) throw new Error('no pull');
        const commit = state.sim.world.addCommit({
          owner: BENCH_ORG,
          repo: repo.name,
          branch: head,
          message: `Agent ${String(agent)} push ${String(cycle)}`,
          files: { [`src/agent-${String(agent)}.ts`]: `export const push = ${String(cycle)};\n` },
        });
        const { run, jobs } = state.sim.world.addRun({
          owner: BENCH_ORG,
          repo: repo.name,
          workflow: 'CI',
          ref: head,
          event: 'pull_request',
          status: 'queued',
          jobs: WATCH.jobs.map((job) => ({
            name: job.name,
            status: 'queued' as const,
            steps: job.steps.map(([name]) => name),
          })),
        });
        state.cycles.set(key, { run, jobs, sha: commit.sha });
      },
    },
  ];
  const touch = (state: ReplayState, at: number, mutate: (c: CycleRecords) => void) => {
    const cycleRecords = state.cycles.get(key);
    if (cycleRecords === undefined) throw new Error(`no run for ${key}`);
    mutate(cycleRecords);
    const repo = state.sim.world.getRepo(BENCH_ORG, repoOf(state, home).name);
    for (const job of cycleRecords.jobs) {
      const check = repo?.checkRuns.get(job.id);
      if (check === undefined) continue;
      check.status = job.status;
      check.conclusion = job.conclusion as CheckRunRecord['conclusion'];
      check.completedAt = job.completedAt;
    }
    cycleRecords.run.updatedAt = T0 + at;
    state.sim.world.touch();
  };
  changes.push({
    at: t.startAt,
    apply: (state) => {
      touch(state, t.startAt, ({ run }) => {
        run.status = 'in_progress';
      });
    },
  });
  t.bounds.forEach((bounds, j) => {
    bounds.forEach((at, i) => {
      changes.push({
        at,
        apply: (state) => {
          touch(state, at, ({ jobs }) => {
            const job = jobs[j];
            if (job === undefined) return;
            const done = job.steps[i - 1];
            if (done !== undefined) {
              done.status = 'completed';
              done.conclusion = 'success';
            }
            const next = job.steps[i];
            if (next !== undefined) {
              next.status = 'in_progress';
              job.status = 'in_progress';
            } else {
              job.status = 'completed';
              job.conclusion = 'success';
              job.completedAt = T0 + at;
            }
          });
        },
      });
    });
  });
  changes.push({
    at: t.completeAt,
    apply: (state) => {
      touch(state, t.completeAt, ({ run }) => {
        run.status = 'completed';
        run.conclusion = 'success';
      });
    },
  });
  return changes;
}

/** The records of one agent's CI run (mutated as it advances) and the pushed head. */
interface CycleRecords {
  run: RunRecord;
  jobs: JobRecord[];
  sha: string;
}

/**
 * The watch workload: every agent owns one pull request (two per repository) and loops: a work
 * phase of reads, a push that starts a CI run, then watching that run until it completes, with
 * `gh pr checks --watch` and `gh run watch` in turn. The read schedule is fixed in advance from
 * the runs' true timelines (what a direct reader sees), so every mode replays the same reads.
 */
function buildWatchWorkload(): Workload {
  const random = createRandom(67_890);
  const uniform = ([min, max]: readonly [number, number]) => min + random() * (max - min);
  const reads: Read[] = [];
  const changes: Change[] = [];
  minuteComments(changes);
  const totalWeight = WATCH.workMix.reduce((sum, [, w]) => sum + w, 0);
  for (let agent = 0; agent < AGENTS; agent++) {
    const home = agent % REPOS;
    const second = (agent * 3 + 1) % REPOS;
    const pull = Math.floor(agent / REPOS);
    let seq = 0;
    const read = (at: number, kind: string, path: (state: ReplayState) => string) => {
      if (at < END) reads.push({ at: Math.round(at), agent, seq: seq++, kind, path });
    };
    const pullOf = (state: ReplayState) => {
      const number = repoOf(state, home).pulls[pull]?.number;
      if (number === undefined) throw new Error('no pull');
      return number;
    };
    let t = Math.floor(random() * 60) * S;
    for (let cycle = 0; t < END; cycle++) {
      // Work phase.
      const workEnd = t + uniform(WATCH.workS) * S;
      for (let at = t + uniform(WATCH.workReadGapS) * S; at < workEnd;) {
        let pick = random() * totalWeight;
        const kind = WATCH.workMix.find(([, w]) => (pick -= w) < 0)?.[0] ?? 'issue view';
        const index = random() < 0.7 ? home : second;
        const issuePick = random();
        const lastRun = cycle - 1;
        switch (kind) {
          case 'issue view':
            read(at, 'issue view', (s) => {
              const r = repoOf(s, index);
              const issue = r.issues[Math.floor(issuePick * r.issues.length)];
              return repoPath(s, index, `/issues/${String(issue)}`);
            });
            break;
          case 'pr view':
            read(at, 'pr view', (s) => repoPath(s, home, `/pulls/${String(pullOf(s))}`));
            break;
          case 'pr files':
            read(at, 'pr files', (s) => repoPath(s, home, `/pulls/${String(pullOf(s))}/files`));
            break;
          case 'pr list':
            read(at, 'pr list', (s) => repoPath(s, index, '/pulls'));
            break;
          case 'issue list':
            read(at, 'issue list', (s) => repoPath(s, index, '/issues'));
            break;
          case 'run list':
            read(at, 'run list', (s) => repoPath(s, home, '/actions/runs'));
            break;
          case 'repo view':
            read(at, 'repo view', (s) => repoPath(s, index, ''));
            break;
          case 'run view':
            // The agent's last run (or the seeded one before its first push).
            read(at, 'run view', (s) => {
              const id = s.cycles.get(`${String(agent)}/${String(lastRun)}`)?.run.id;
              return repoPath(s, home, `/actions/runs/${String(id ?? repoOf(s, home).run)}`);
            });
            break;
        }
        at += uniform(WATCH.workReadGapS) * S;
      }
      if (workEnd >= END) break;
      // The push starts a CI run; its timeline is drawn now, so every mode sees the same one.
      const pushAt = Math.round(workEnd);
      const timeline = drawTimeline(pushAt, uniform);
      const { completeAt } = timeline;
      changes.push(...runChanges(agent, cycle, pull, timeline));
      // Watching, until the first refresh that shows the run completed.
      const key = `${String(agent)}/${String(cycle)}`;
      const cycleOf = (s: ReplayState) => {
        const c = s.cycles.get(key);
        if (c === undefined) throw new Error(`no run for ${key}`);
        return c;
      };
      const watchAt = pushAt + WATCH.watchDelayS * S;
      if ((agent + cycle) % 2 === 0) {
        // gh pr checks --watch: the PR (its head), then check runs and statuses of the head.
        read(watchAt, 'pr checks: pr view', (s) =>
          repoPath(s, home, `/pulls/${String(pullOf(s))}`),
        );
        let at = watchAt;
        for (;;) {
          read(at, 'pr checks: check runs', (s) =>
            repoPath(s, home, `/commits/${cycleOf(s).sha}/check-runs`),
          );
          read(at, 'pr checks: status', (s) =>
            repoPath(s, home, `/commits/${cycleOf(s).sha}/status`),
          );
          if (at >= completeAt) break;
          at += WATCH.prChecksIntervalS * S;
        }
        t = at + 1 * S;
      } else {
        // gh run list --branch, then gh run watch <id>: the run, its jobs, and the annotations
        // of every job not yet cached (gh caches a job's annotations once it is not in progress).
        read(watchAt, 'run watch: run list', (s) =>
          repoPath(
            s,
            home,
            `/actions/runs?branch=${encodeURIComponent(repoOf(s, home).pulls[pull]?.head ?? '')}`,
          ),
        );
        const cached = new Set<number>();
        let at = watchAt + 1 * S;
        read(at, 'run watch: run view', (s) =>
          repoPath(s, home, `/actions/runs/${String(cycleOf(s).run.id)}`),
        );
        for (;;) {
          read(at, 'run watch: run view', (s) =>
            repoPath(s, home, `/actions/runs/${String(cycleOf(s).run.id)}`),
          );
          read(at, 'run watch: jobs', (s) =>
            repoPath(s, home, `/actions/runs/${String(cycleOf(s).run.id)}/jobs`),
          );
          for (let j = 0; j < WATCH.jobs.length; j++) {
            if (cached.has(j)) continue;
            read(at, 'run watch: annotations', (s) =>
              repoPath(s, home, `/check-runs/${String(cycleOf(s).jobs[j]?.id)}/annotations`),
            );
            if (jobStatusAt(timeline, j, at) !== 'in_progress') cached.add(j);
          }
          if (at >= completeAt) break;
          at += WATCH.runWatchIntervalS * S;
        }
        t = at + WATCH.runWatchIntervalS * S;
      }
    }
  }
  return {
    name: 'watch',
    pullsPerRepo: 2,
    reads: sortReads(reads),
    // Changes after the last read could not be seen by any mode.
    changes: changes.filter((c) => c.at < END).sort((a, b) => a.at - b.at),
  };
}

/**
 * The burst workload's parameters (assumptions, chosen before the first replay and not tuned):
 * a team of agents (a review swarm, or one orchestrator's workers) follows the same few pull
 * requests. Their scheduler wakes them all at the same second, so identical reads arrive at
 * once; a push notification reaches every agent at the same moment too.
 */
const BURST = {
  /** The followed pull requests: the first one of repositories 0, 1 and 2. */
  hotPulls: 3,
  /** Every agent checks every followed PR each minute, all at the same second (assumption). */
  tickS: 60,
  /** A push to one followed PR (in turn) every 4 minutes, starting a CI run (assumption). */
  pushEveryS: 240,
  /** Every agent reacts to a push this long after it, all at once (assumption). */
  reactS: 5,
} as const;

/**
 * The burst workload: every agent follows the same three pull requests. Each minute, at the same
 * second, every agent reads each followed PR, its head's check runs and its head's combined status
 * (`gh pr view` + `gh pr checks`); after each push (every 4 minutes, to one followed PR in turn,
 * starting a CI run that advances step by step as in the watch workload), every agent reads that
 * PR, its files and its conversation at once. Comments elsewhere every minute, as in the others.
 */
function buildBurstWorkload(): Workload {
  const random = createRandom(24_680);
  const uniform = ([min, max]: readonly [number, number]) => min + random() * (max - min);
  const reads: Read[] = [];
  const changes: Change[] = [];
  minuteComments(changes);
  const seqs = new Map<number, number>();
  const read = (at: number, agent: number, kind: string, path: (s: ReplayState) => string) => {
    if (at >= END) return;
    const seq = seqs.get(agent) ?? 0;
    seqs.set(agent, seq + 1);
    reads.push({ at, agent, seq, kind, path });
  };
  /** The followed PR's current head commit, read from the world at read time. */
  const headOf = (s: ReplayState, hot: number) => {
    const repo = repoOf(s, hot);
    const sha = s.sim.world.getRepo(BENCH_ORG, repo.name)?.branches.get(repo.head)?.sha;
    if (sha === undefined) throw new Error('no head');
    return sha;
  };
  for (let at = 30 * S; at < END; at += BURST.tickS * S) {
    for (let agent = 0; agent < AGENTS; agent++) {
      for (let hot = 0; hot < BURST.hotPulls; hot++) {
        read(at, agent, 'pr view', (s) =>
          repoPath(s, hot, `/pulls/${String(repoOf(s, hot).pull)}`),
        );
        read(at, agent, 'check runs', (s) =>
          repoPath(s, hot, `/commits/${headOf(s, hot)}/check-runs`),
        );
        read(at, agent, 'status', (s) => repoPath(s, hot, `/commits/${headOf(s, hot)}/status`));
      }
    }
  }
  for (
    let n = 0, pushAt = BURST.pushEveryS * S;
    pushAt < END;
    n++, pushAt += BURST.pushEveryS * S
  ) {
    const hot = n % BURST.hotPulls;
    // The run of push n belongs to "agent" `hot` (repository `hot`, its first pull request).
    changes.push(...runChanges(hot, n, 0, drawTimeline(pushAt, uniform)));
    const reactAt = pushAt + BURST.reactS * S;
    for (let agent = 0; agent < AGENTS; agent++) {
      read(reactAt, agent, 'push: pr view', (s) =>
        repoPath(s, hot, `/pulls/${String(repoOf(s, hot).pull)}`),
      );
      read(reactAt, agent, 'push: pr files', (s) =>
        repoPath(s, hot, `/pulls/${String(repoOf(s, hot).pull)}/files`),
      );
      read(reactAt, agent, 'push: conversation', (s) =>
        repoPath(s, hot, `/issues/${String(repoOf(s, hot).pull)}/comments`),
      );
    }
  }
  return {
    name: 'burst',
    pullsPerRepo: 1,
    reads: sortReads(reads),
    changes: changes.filter((c) => c.at < END).sort((a, b) => a.at - b.at),
  };
}

/** What one mode spent. */
interface ModeResult {
  readonly reads: number;
  readonly failed: number;
  readonly upstream_requests: number;
  readonly quota: number;
  readonly quota_by_credential: Record<string, number>;
  readonly relay_cache_results?: Record<string, number>;
  /** Relay mode: where its upstream requests and quota went, by the read that caused them. */
  readonly spend_by_read?: Record<string, SpendRow>;
  /** Direct mode: the digest of each read's answer, by read (not reported). */
  readonly contents?: string[];
}

/** Upstream requests and quota of one kind of read, by lane and answer. */
interface SpendRow {
  requests: number;
  quota: number;
  anonymous_200: number;
  anonymous_304: number;
  pooled_200: number;
  pooled_304: number;
  other: number;
}

/** What forge-sim (like GitHub) charges for one request: anonymous always, a 304 with a token never. */
function chargeOf(entry: LoggedRequest): number {
  return entry.credential !== 'anonymous' && entry.status === 304 ? 0 : 1;
}

/**
 * Gives each upstream request of a group of simultaneous reads to the read that caused it: a
 * request for a repository's metadata (`/repos/{owner}/{repo}`) is a visibility probe unless a
 * repository read of the group asked for it; any other request goes to the first read of the
 * group with its path.
 */
function attribute(
  rows: Record<string, SpendRow>,
  group: readonly { readonly item: Read; readonly path: string }[],
  added: readonly LoggedRequest[],
): void {
  const repoViews = new Map<string, number>();
  for (const { path } of group) {
    const bare = path.split('?')[0] ?? path;
    if (/^\/repos\/[^/]+\/[^/]+$/.test(bare)) repoViews.set(bare, (repoViews.get(bare) ?? 0) + 1);
  }
  for (const entry of added) {
    let kind = 'other';
    if (/^\/repos\/[^/]+\/[^/]+$/.test(entry.path)) {
      const left = repoViews.get(entry.path) ?? 0;
      if (left > 0) repoViews.set(entry.path, left - 1);
      kind =
        left > 0
          ? (group.find((g) => g.path === entry.path)?.item.kind ?? kind)
          : 'visibility probe';
    } else {
      kind = group.find((g) => (g.path.split('?')[0] ?? g.path) === entry.path)?.item.kind ?? kind;
    }
    const row = (rows[kind] ??= {
      requests: 0,
      quota: 0,
      anonymous_200: 0,
      anonymous_304: 0,
      pooled_200: 0,
      pooled_304: 0,
      other: 0,
    });
    row.requests++;
    row.quota += chargeOf(entry);
    const lane = entry.credential === 'anonymous' ? 'anonymous' : 'pooled';
    if (entry.status === 200) row[`${lane}_200`]++;
    else if (entry.status === 304) row[`${lane}_304`]++;
    else row.other++;
  }
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
  workload: Workload,
  /** Filled with the path of every read, by read (the paths depend on the replayed world). */
  paths: string[] = [],
): Promise<ModeResult> {
  const clock = createSimClock({ start: T0 });
  const { sim, repos } = await startBenchSim({
    rateLimits: 'github',
    repos: REPOS,
    issuesPerRepo: 20,
    pullsPerRepo: workload.pullsPerRepo,
    clock,
  });
  const state: ReplayState = { sim, repos, cycles: new Map() };
  const dir = mkdtempSync(join(tmpdir(), 'relay-bench-quota-'));
  const closers: (() => Promise<void>)[] = [() => sim.close()];
  try {
    let read: (agent: number, path: string, index: number) => Promise<boolean>;
    /** Direct mode: a digest of every read's answer (the content each read found), by read. */
    const contents: string[] = [];
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
      read = async (agent, path, index) => {
        const response = await fetch(`${sim.urls.api}${path}`, {
          headers: { authorization: `token ${tokens[agent] ?? ''}` },
        });
        const body = Buffer.from(await response.arrayBuffer());
        contents[index] =
          `${String(response.status)} ${createHash('sha256').update(body).digest('hex')}`;
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
        // The relay request carries the query string as an object (SPEC: a path has no '?').
        const [bare, search] = path.split('?');
        const query = Object.fromEntries(new URLSearchParams(search));
        const response = await fetch(`${server.url}/v1/forge/request`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${tokens[agent] ?? ''}`,
          },
          body: relayBody(bare ?? path, search === undefined ? {} : { query }),
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
    let next = 0;
    const notOk: Record<string, number> = {};
    const breakdown: Record<string, SpendRow> = {};
    // Reads at the same time are sent at once (one chain per agent, in the agent's order), so that
    // concurrent identical reads meet in the relay as they would in production.
    for (let first = 0; first < workload.reads.length;) {
      const at = workload.reads[first]?.at ?? 0;
      let last = first;
      while (workload.reads[last + 1]?.at === at) last++;
      for (let change = workload.changes[next]; change !== undefined && change.at <= at;) {
        clock.set(T0 + change.at);
        change.apply(state);
        change = workload.changes[++next];
      }
      clock.set(T0 + at);
      const before = sim.requests.entries.length;
      const group = workload.reads.slice(first, last + 1).map((item, i) => {
        const path = item.path(state);
        paths[first + i] = path;
        return { item, index: first + i, path };
      });
      const chains = new Map<number, typeof group>();
      for (const g of group) chains.set(g.item.agent, [...(chains.get(g.item.agent) ?? []), g]);
      await Promise.all(
        [...chains.values()].map(async (chain) => {
          for (const { item, index, path } of chain) {
            if (!(await read(item.agent, path, index))) {
              failed++;
              notOk[item.kind] = (notOk[item.kind] ?? 0) + 1;
            }
          }
        }),
      );
      const added = sim.requests.entries.slice(before);
      attribute(breakdown, group, added);
      if (process.env.BENCH_TRACE === mode) {
        console.error(
          `${String(at / 1000).padStart(8)} ${group.map((g) => `a${String(g.item.agent)} ${g.item.kind} ${g.path}`).join(', ')} :: ${added.map((e) => `${e.credential} ${String(e.status)} ${e.path}`).join(' | ')}`,
        );
      }
      first = last + 1;
    }
    if (failed > 0) console.error(`${workload.name} ${mode}: failed reads by kind`, notOk);
    const upstream = sim.requests.entries.length;
    const quota = await quotaSpent(sim, credentials);
    return {
      reads: workload.reads.length,
      failed,
      upstream_requests: upstream,
      quota: quota.total,
      quota_by_credential: quota.by,
      ...(mode === 'relay' ? { relay_cache_results: cacheResults, spend_by_read: breakdown } : {}),
      ...(mode === 'direct' ? { contents } : {}),
    };
  } finally {
    for (const close of closers) await close();
    removeDir(dir);
  }
}

/** The cache lifetime SPEC.md gives a read (the relay's lifetime table, by its route kind). */
function lifetimeOf(path: string): number {
  const [bare, search] = path.split('?');
  const route = classify({
    method: 'GET',
    path: bare ?? path,
    query: Object.fromEntries(new URLSearchParams(search)),
    policy: { allow_search: false, allow_logs: true },
  });
  if (!route.ok) throw new Error(`unclassified read ${path}`);
  return resolveLifetime(route.value.kind).freshMs;
}

/**
 * What the workload costs at least, from the content every read of the direct mode found:
 * - `floor`: each distinct URL's first read plus each read that found changed content (what a
 *   reader pays that sees every change and nothing else);
 * - `lifetime_bound`: a per-URL cache with SPEC.md's lifetimes and free revalidation, nothing
 *   else (no visibility probes, no second lane): it asks upstream when its copy is older than
 *   the lifetime (`requests`) and pays when the content changed since (`quota`).
 */
function lowerBounds(workload: Workload, paths: readonly string[], contents: readonly string[]) {
  let floor = 0;
  const floorByRead: Record<string, number> = {};
  const previous = new Map<string, string>();
  const cached = new Map<string, { content: string; at: number }>();
  const bound = { requests: 0, quota: 0 };
  workload.reads.forEach((item, i) => {
    const path = paths[i] ?? '';
    const content = contents[i] ?? '';
    if (previous.get(path) !== content) {
      floor++;
      floorByRead[item.kind] = (floorByRead[item.kind] ?? 0) + 1;
    }
    previous.set(path, content);
    const copy = cached.get(path);
    if (copy !== undefined && item.at - copy.at < lifetimeOf(path)) return;
    bound.requests++;
    if (copy?.content !== content) bound.quota++;
    cached.set(path, { content, at: item.at });
  });
  return {
    floor,
    floor_by_read: floorByRead,
    lifetime_bound: bound,
    distinct_urls: previous.size,
  };
}

/** Replays one workload through the three modes and summarizes it. */
async function measure(workload: Workload): Promise<Record<string, unknown>> {
  const kinds: Record<string, number> = {};
  for (const item of workload.reads) kinds[item.kind] = (kinds[item.kind] ?? 0) + 1;
  const paths: string[] = [];
  const { contents, ...direct } = await replay('direct', workload, paths);
  const revalidate = await replay('revalidate', workload);
  const relay = await replay('relay', workload);
  const bounds = lowerBounds(workload, paths, contents ?? []);
  return {
    reads: workload.reads.length,
    world_changes: workload.changes.length,
    mix: kinds,
    direct,
    revalidate,
    relay,
    ...bounds,
    relay_vs_direct_quota: round(relay.quota / direct.quota, 3),
    revalidate_vs_relay_quota: round(revalidate.quota / relay.quota, 2),
    relay_vs_direct_requests: round(relay.upstream_requests / direct.upstream_requests, 3),
    revalidate_vs_relay_requests: round(revalidate.upstream_requests / relay.upstream_requests, 2),
    // Issue 23 item 3: against what a user could pick instead, and against the floor.
    relay_vs_revalidate_quota: round(relay.quota / revalidate.quota, 3),
    relay_vs_revalidate_requests: round(relay.upstream_requests / revalidate.upstream_requests, 3),
    relay_vs_floor_quota: round(relay.quota / bounds.floor, 3),
  };
}

const only = process.env.BENCH_QUOTA_WORKLOAD;
const workloads = [buildMinutePollWorkload(), buildWatchWorkload(), buildBurstWorkload()].filter(
  (w) => only === undefined || only === '' || w.name === only,
);
const results: Record<string, unknown> = {};
for (const workload of workloads) results[workload.name] = await measure(workload);
reportResult('quota-economy', {
  agents: AGENTS,
  repositories: REPOS,
  simulated_minutes: MINUTES,
  watch_parameters: WATCH,
  ...results,
});
