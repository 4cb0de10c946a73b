import type { CliDependencies } from '../../cli-dependencies.js';
import { CliError } from '../../cli-error.js';
import { isTransientFallbackReason } from '../../relay-retry-policy.js';
import { parseGoInt } from '../argv/go-int-option.js';
import type { ServePlan } from '../argv/native-plan.js';
import type { GhRepository } from '../argv/repo-selector.js';
import { delegated, printed } from '../export/export-output.js';
import type { CommandOutcome } from '../export/export-output.js';
import type { GoJob, GoRun } from '../export/run-export.js';
import { decodeRestAnnotations, renderWatchBlock } from '../export/run-view-export.js';
import type { GoAnnotation } from '../export/run-view-export.js';
import type { RelayPort } from '../relay-port.js';
import {
  EnvelopeLog,
  GET_RUN_FAILED,
  RUN_NOTED_ROUTES,
  UNPROVED,
  okJsonBody,
  readJobs,
  readRun,
  readWorkflow,
  repoApiPath,
} from './run-reads.js';
import type { ReadStep, ReadStop } from './run-reads.js';
import { readPullForRun } from './run-view-summary.js';
import type { ServedCommand } from './served-command.js';

/** SPEC.md client rule 10 (and Limits): the shortest poll interval, in seconds. */
export const WATCH_FLOOR_SECONDS = 30;
/** SPEC.md client rule 10: the longest poll interval after backing off, in seconds. */
export const WATCH_CEILING_SECONDS = 120;
/** gh's default `run watch --interval`. */
const GH_DEFAULT_INTERVAL = 3;

/** The header of a poll's reads: past the relay cache. */
const FRESH: Readonly<Record<string, string>> = { 'cache-control': 'max-age=0' };

/** The longest `--interval` honoured, in seconds (a longer timer would overflow). */
const LONGEST_INTERVAL_SECONDS = 86_400;

/** Run ids the relay reads as gh sends them. */
const RUN_ID = /^[1-9]\d{0,15}$/;

/** What `run watch` needs besides the port. */
export interface RunWatchOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The clock (ms since the epoch), read at every poll for the fuzzy age. */
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  /** Writes one poll's bytes to stdout as they are ready. */
  readonly write: (text: string) => void;
}

/**
 * The next poll interval (SPEC.md client rule 10): never below 30 s (nor below what
 * `--interval` asks), doubled after a poll that changed nothing up to 120 s, back to the start
 * after a change.
 */
export function nextWatchInterval(current: number, start: number, changed: boolean): number {
  if (changed) return start;
  return Math.min(Math.max(current * 2, start), Math.max(WATCH_CEILING_SECONDS, start));
}

/**
 * A relay fallback before the watch printed anything: a transient one (exhausted after rule 6's
 * retries) fails explicitly, as rule 6 excepts run watch from running gh for those; any other
 * reason (the read must run locally: `repo_not_public`, `route_denied`, …) is rule 5's
 * fallback, gh then watches from the start.
 */
function fallbackBeforeOutput(stop: Extract<ReadStop, { readonly kind: 'fallback' }>) {
  if (isTransientFallbackReason(stop.reason)) throw watchFailure(stop);
  return stop;
}

/** A stop during the watch: a relay failure or an unproved answer ends it with an error. */
function watchFailure(stop: Exclude<ReadStop, { readonly kind: 'error' }>): CliError {
  if (stop.kind === 'fallback') {
    return new CliError('fallback_local', {
      reason: stop.reason,
      message: 'run watch stays on the relay, and the relay asks for a local run: the watch stops.',
    });
  }
  return new CliError('fallback_local', {
    reason: 'unsupported_shape',
    message: 'run watch stopped: the relay answered something gh would read differently.',
  });
}

/**
 * gh's `renderRun` annotation reads (route check_run_annotations), with its cache: a job's
 * annotations are kept once the job is not in progress — and, as gh does, a cached job
 * replaces (does not add to) the annotations gathered so far.
 */
async function readWatchAnnotations(
  port: RelayPort,
  repo: GhRepository,
  jobs: readonly GoJob[],
  cache: Map<number, readonly GoAnnotation[]>,
): Promise<ReadStep<readonly GoAnnotation[]>> {
  let annotations: readonly GoAnnotation[] = [];
  for (const job of jobs) {
    const cached = cache.get(job.id);
    if (cached !== undefined) {
      annotations = cached;
      continue;
    }
    const result = await port.read({
      path: `${repoApiPath(repo)}/check-runs/${String(job.id)}/annotations`,
    });
    if (result.kind === 'fallback') return result;
    let found: readonly GoAnnotation[] = [];
    if (result.envelope.status !== 404) {
      const decoded = decodeRestAnnotations(okJsonBody(result.envelope), job.name);
      if (decoded === undefined) return UNPROVED;
      found = decoded;
    }
    annotations = [...annotations, ...found];
    if (job.status !== 'in_progress') cache.set(job.id, annotations);
  }
  return { kind: 'ok', value: annotations };
}

/** One poll: the run and its jobs and annotations. */
interface Poll {
  readonly run: GoRun;
  readonly jobs: readonly GoJob[];
  readonly annotations: readonly GoAnnotation[];
}

async function poll(
  port: RelayPort,
  repo: GhRepository,
  id: string,
  cache: Map<number, readonly GoAnnotation[]>,
  log: EnvelopeLog,
): Promise<ReadStep<Poll>> {
  // A poll must see progress: every poll reads past the relay cache (max-age=0).
  const run = await readRun(port, repo, id, log, FRESH);
  if (run.kind !== 'ok') return run;
  const jobs = await readJobs(port, repo, run.value, log, FRESH);
  if (jobs.kind !== 'ok') return jobs;
  const annotations = await readWatchAnnotations(port, repo, jobs.value, cache);
  if (annotations.kind !== 'ok') return annotations;
  return {
    kind: 'ok',
    value: { run: run.value, jobs: jobs.value, annotations: annotations.value },
  };
}

/** What changed between polls, for the backoff: statuses and conclusions of run, jobs, steps. */
function pollState(value: Poll): string {
  return JSON.stringify([
    value.run.status,
    value.run.conclusion,
    value.jobs.map((job) => [
      job.id,
      job.status,
      job.conclusion,
      job.steps.map((step) => [step.status, step.conclusion]),
    ]),
    value.annotations.length,
  ]);
}

/**
 * `gh run watch <run-id>` through the relay (cli/cli v2.60.0 `watchRun`, stdout not a
 * terminal), as SPEC.md client rule 10 bounds it: the run and its workflow name (routes
 * run_view, workflow_view); a completed run prints gh's
 * `Run <workflow> (<id>) has already completed with '<conclusion>'`. Otherwise the PR of the
 * branch as `run view` finds it, then polls the run, its jobs (one page holding them all) and
 * annotations, printing each unfinished poll after gh's
 * `Refreshing run status every N seconds. Press Ctrl+C to quit.` line and the last poll
 * bare (no completion line without a terminal). The interval is at least 30 s and at least
 * `--interval`, doubles after a poll that changed nothing up to 120 s, and N names it.
 * `--exit-status`: exit 1 for any conclusion but `success`. The watch stays on the relay: a
 * relay `fallback_local` or an unproved answer ends it with an error (never gh mid-watch);
 * before anything is printed an unproved shape, or a fallback whose reason is not transient
 * (rule 5: the read must run locally), still runs gh, and a transient one fails (rule 6).
 *
 * @throws CliError `fallback_local` when the relay fails during the watch, or with a transient
 *   reason before it
 */
export async function runRunWatch(
  port: RelayPort,
  plan: Pick<ServePlan, 'args' | 'flags' | 'repo'>,
  options: RunWatchOptions,
): Promise<CommandOutcome> {
  const { flags } = plan;
  const [id] = plan.args;
  if (id === undefined) return delegated('invalid_usage');
  const rawInterval = flags.interval?.at(-1);
  const interval =
    rawInterval === undefined ? BigInt(GH_DEFAULT_INTERVAL) : parseGoInt(rawInterval);
  if (interval === undefined) return delegated('invalid_usage');
  if (!RUN_ID.test(id)) return delegated('unsupported_shape');
  const repo = plan.repo?.repo;
  if (repo === undefined) return delegated('unsupported_shape');
  const exitStatus = flags['exit-status']?.at(-1) === 'true';
  const asked =
    interval > BigInt(LONGEST_INTERVAL_SECONDS) ? LONGEST_INTERVAL_SECONDS : Number(interval);
  const start = Math.max(WATCH_FLOOR_SECONDS, asked);
  const log = new EnvelopeLog([...RUN_NOTED_ROUTES, 'pr_list']);

  const first = await readRun(port, repo, id, log);
  if (first.kind === 'fallback') return fallbackBeforeOutput(first);
  if (first.kind === 'error') return printed('', first.stderr, 1);
  if (first.kind !== 'ok') return delegated('unsupported_shape');
  const workflow = await readWorkflow(port, repo, String(first.value.workflowId), GET_RUN_FAILED);
  if (workflow.kind === 'fallback') return fallbackBeforeOutput(workflow);
  // gh's GetRun reads the run's workflow: a missing one (deleted) fails the command.
  if (workflow.kind === 'error') return printed('', workflow.stderr, 1);
  if (workflow.kind !== 'ok') return delegated('unsupported_shape');
  const name = workflow.value.name;
  if (first.value.status === 'completed') {
    const { conclusion } = first.value;
    return printed(
      `Run ${name} (${String(first.value.id)}) has already completed with '${conclusion}'\n`,
      log.note(options.env),
      exitStatus && conclusion !== 'success' ? 1 : 0,
    );
  }
  const pr = await readPullForRun(port, repo, first.value, log);
  if (pr.kind === 'fallback') return fallbackBeforeOutput(pr);
  if (pr.kind !== 'ok') return delegated('unsupported_shape');

  const cache = new Map<number, readonly GoAnnotation[]>();
  let seconds = start;
  let previous: string | undefined;
  let printedAny = false;
  for (;;) {
    const current = await poll(port, repo, id, cache, log);
    if (current.kind !== 'ok') {
      // gh's renderRun error (the run gone: `failed to get run: HTTP 404: …`) ends the watch
      // after what it printed, exit 1.
      if (current.kind === 'error') return printed('', current.stderr, 1);
      if (!printedAny && current.kind === 'unproved') return delegated('unsupported_shape');
      if (!printedAny && current.kind === 'fallback') return fallbackBeforeOutput(current);
      throw watchFailure(current);
    }
    const block = renderWatchBlock(
      {
        run: current.value.run,
        workflowName: name,
        prNumber: pr.value,
        repoFullName: `${repo.owner}/${repo.name}`,
        jobs: current.value.jobs,
        annotations: current.value.annotations,
      },
      options.now(),
    );
    if (block === undefined) {
      if (!printedAny) return delegated('unsupported_shape');
      throw watchFailure({ kind: 'unproved' });
    }
    const { run } = current.value;
    if (run.status === 'completed') {
      const code = exitStatus && run.conclusion !== 'success' ? 1 : 0;
      return printed(block, log.note(options.env), code);
    }
    const state = pollState(current.value);
    if (previous !== undefined) seconds = nextWatchInterval(seconds, start, state !== previous);
    previous = state;
    options.write(
      `Refreshing run status every ${String(seconds)} seconds. Press Ctrl+C to quit.\n\n${block}`,
    );
    printedAny = true;
    await options.sleep(seconds * 1000);
  }
}

/** `gh run watch` (SPEC.md client rule 10; README "run watch"). */
export const RUN_WATCH_COMMAND: ServedCommand = {
  async run(deps: CliDependencies, output, plan, argv) {
    const [{ createSessionRelayPort }, { finishOutcome }] = await Promise.all([
      import('../relay-port.js'),
      import('./served-outcome.js'),
    ]);
    const outcome = await runRunWatch(createSessionRelayPort(deps), plan, {
      env: deps.env,
      now: () => deps.now(),
      sleep: (ms) => deps.sleep(ms),
      write: (text) => output.stdout.write(text),
    });
    return finishOutcome(deps, output, argv, outcome);
  },
};
