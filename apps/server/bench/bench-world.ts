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
  /** The first open pull request's number. */
  readonly pull: number;
  /** The head branch of the first open pull request. */
  readonly head: string;
  /** Every open pull request (the first is `pull` on `head`), one head branch each. */
  readonly pulls: readonly { readonly number: number; readonly head: string }[];
  /** The workflow run id on the default branch. */
  readonly run: number;
}

/** Options of {@link seedBenchWorld}. */
export interface BenchWorldOptions {
  readonly repos: number;
  readonly issuesPerRepo: number;
  /** Open pull requests per repository, each on its own branch. Default 1. */
  readonly pullsPerRepo?: number;
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
    const pulls: { number: number; head: string }[] = [];
    for (let p = 0; p < (options.pullsPerRepo ?? 1); p++) {
      const head = p === 0 ? 'feature/work' : `feature/work-${String(p + 1)}`;
      const file = p === 0 ? 'src/feature.ts' : `src/feature-${String(p + 1)}.ts`;
      world.addBranch({ owner: BENCH_ORG, repo: name, name: head });
      world.addCommit({
        owner: BENCH_ORG,
        repo: name,
        branch: head,
        message: 'Start the feature',
        files: { [file]: 'export const feature = 1;\n' },
      });
      const title = p === 0 ? 'Add the feature' : `Add feature ${String(p + 1)}`;
      pulls.push({
        number: world.addPull({ owner: BENCH_ORG, repo: name, title, head }).pull.number,
        head,
      });
    }
    const first = pulls[0];
    if (first === undefined) throw new Error('pullsPerRepo must be at least 1');
    const run = world.addRun({
      owner: BENCH_ORG,
      repo: name,
      workflow: 'CI',
      jobs: [{ name: 'test', log: 'all tests passed\n' }],
    }).run.id;
    repos.push({ name, issues, pull: first.number, head: first.head, pulls, run });
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
  /** GitHub's documented secondary limits (100 in flight, 900 a minute per credential). */
  readonly secondaryLimits?: boolean;
  readonly clock?: SimClock;
}

/** Starts forge-sim on loopback with the benchmark world. */
export async function startBenchSim(
  options: BenchSimOptions,
): Promise<{ sim: ForgeSim; repos: BenchRepo[] }> {
  const sim = await createForgeSim({
    rateLimits: options.rateLimits === 'github' ? GITHUB_RATE_LIMITS : UNLIMITED_RATE_LIMITS,
    ...(options.secondaryLimits === true ? { secondaryLimits: true } : {}),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  const repos = seedBenchWorld(sim.world, options);
  return { sim, repos };
}

/** A PAT the simulator issued to a pooled login. */
export interface PatToken {
  readonly login: string;
  readonly token: string;
}

/**
 * Issues `count` PATs for the pooled logins `bench-pat-1` …, each made a member of the
 * benchmark organization.
 */
export function issueBenchPats(sim: ForgeSim, count: number): PatToken[] {
  const pats: PatToken[] = [];
  for (let n = 1; n <= count; n++) {
    const login = `bench-pat-${String(n)}`;
    sim.world.addOrgMember(BENCH_ORG, login);
    pats.push({ login, token: sim.tokens.addPat({ login }).token });
  }
  return pats;
}
