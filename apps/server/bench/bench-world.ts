/**
 * The simulated forge of the server benchmarks: an organization with ten public repositories,
 * each with issues, an open pull request, a workflow run, and two PATs for the relay's pool.
 */
import {
  GITHUB_RATE_LIMITS,
  createForgeSim,
  type ForgeSim,
  type ForgeWorld,
  type RateLimitTable,
  type SimClock,
} from '@relay/forge-sim';

/** The organization that owns every benchmark repository. */
export const BENCH_ORG = 'bench-org';

/** What {@link seedBenchWorld} created in one repository. */
export interface BenchRepo {
  readonly name: string;
  /** Issue numbers (plain issues, not the pull request). */
  readonly issues: number[];
  /** The open pull request's number. */
  readonly pull: number;
  /** The head branch of the open pull request. */
  readonly head: string;
  /** The workflow run id on the default branch. */
  readonly run: number;
}

/** Options of {@link seedBenchWorld}. */
export interface BenchWorldOptions {
  readonly repos: number;
  readonly issuesPerRepo: number;
}

/** Seeds the benchmark organization and its repositories; returns what it created. */
export function seedBenchWorld(world: ForgeWorld, options: BenchWorldOptions): BenchRepo[] {
  world.addOrg({
    login: BENCH_ORG,
    members: [{ login: 'bench-admin', public: true, role: 'admin' }],
  });
  const repos: BenchRepo[] = [];
  for (let r = 0; r < options.repos; r++) {
    const name = `repo-${String(r)}`;
    world.addRepo({
      owner: BENCH_ORG,
      name,
      description: `Benchmark repository ${String(r)}`,
      files: { 'README.md': `# ${name}\n`, 'src/index.ts': 'export const answer = 42;\n' },
    });
    const issues: number[] = [];
    for (let i = 0; i < options.issuesPerRepo; i++) {
      issues.push(
        world.addIssue({
          owner: BENCH_ORG,
          repo: name,
          title: `Issue ${String(i)} of ${name}`,
          body: 'Steps to reproduce, expected and actual behaviour, as most issues have them.',
          labels: [],
        }).number,
      );
    }
    const head = 'feature/work';
    world.addBranch({ owner: BENCH_ORG, repo: name, name: head });
    world.addCommit({
      owner: BENCH_ORG,
      repo: name,
      branch: head,
      message: 'Start the feature',
      files: { 'src/feature.ts': 'export const feature = 1;\n' },
    });
    const pull = world.addPull({ owner: BENCH_ORG, repo: name, title: 'Add the feature', head })
      .pull.number;
    const run = world.addRun({
      owner: BENCH_ORG,
      repo: name,
      workflow: 'CI',
      jobs: [{ name: 'test', log: 'all tests passed\n' }],
    }).run.id;
    repos.push({ name, issues, pull, head, run });
  }
  return repos;
}

const UNLIMITED = { limit: 1_000_000_000, windowMs: 3_600_000 };

/** Rate limits too high to matter: throughput and latency benchmarks never hit them. */
export const UNLIMITED_RATE_LIMITS: RateLimitTable = {
  anonymous: mapBuckets(GITHUB_RATE_LIMITS.anonymous),
  pat: mapBuckets(GITHUB_RATE_LIMITS.pat),
  installation: mapBuckets(GITHUB_RATE_LIMITS.installation),
};

function mapBuckets<T extends object>(buckets: T): Record<keyof T, typeof UNLIMITED> {
  return Object.fromEntries(Object.keys(buckets).map((k) => [k, UNLIMITED])) as Record<
    keyof T,
    typeof UNLIMITED
  >;
}

/** Options of {@link startBenchSim}. */
export interface BenchSimOptions extends BenchWorldOptions {
  /** GitHub's real limits (quota benchmark) or none (latency benchmarks). */
  readonly rateLimits: 'github' | 'unlimited';
  readonly clock?: SimClock;
}

/** Starts forge-sim on loopback with the benchmark world. */
export async function startBenchSim(
  options: BenchSimOptions,
): Promise<{ sim: ForgeSim; repos: BenchRepo[] }> {
  const sim = await createForgeSim({
    rateLimits: options.rateLimits === 'github' ? GITHUB_RATE_LIMITS : UNLIMITED_RATE_LIMITS,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  const repos = seedBenchWorld(sim.world, options);
  return { sim, repos };
}
