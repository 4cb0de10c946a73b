import type { GhRepository } from '../argv/repo-selector.js';
import { delegated, printed } from '../export/export-output.js';
import type { CommandOutcome } from '../export/export-output.js';
import type { GoJob, GoRun } from '../export/run-export.js';
import {
  decodeRestAnnotations,
  decodeRestArtifacts,
  renderJobSummary,
  renderRunSummary,
} from '../export/run-view-export.js';
import type { GoAnnotation, GoArtifact } from '../export/run-view-export.js';
import { findNextLink } from '../../gh-api-output.js';
import type { RelayPort } from '../relay-port.js';
import {
  EnvelopeLog,
  GET_RUN_FAILED,
  RUN_NOTED_ROUTES,
  UNPROVED,
  jobsOfAttempt,
  okJsonBody,
  readJobs,
  readRun,
  readWorkflow,
  repoApiPath,
  runOfAttempt,
  stopOutcome,
} from './run-reads.js';
import type { ActionsOutcome, ReadStep } from './run-reads.js';

/** The most pages of pull requests or artifacts read (SPEC.md client rule 10: 10 of 100). */
const MAX_PAGES = 10;

/** What the summary reads besides the port. */
export interface RunSummaryOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The command's clock (ms since the epoch). */
  readonly now: number;
  readonly verbose: boolean;
  readonly exitStatus: boolean;
  /** `--attempt` (0: none): served only when it is the run's current attempt. */
  readonly attempt: number;
  /** The job `--job` named, read first (its run is `id`). */
  readonly job?: GoJob;
  /** The answers read before (the job's), for rule 8's note; a new log when absent. */
  readonly log?: EnvelopeLog;
}

/** The routes whose cached answers `run view` notes (rule 8). */
export const RUN_VIEW_NOTED_ROUTES: readonly string[] = [
  ...RUN_NOTED_ROUTES,
  'job_view',
  'pr_list',
];

/**
 * The run `run view` shows (gh's `GetRun(…, attempt)`, route run_view): the run, or for
 * `--attempt N` the run of its current attempt N ({@link runOfAttempt}); another attempt runs
 * gh (`unsupported_flag`: no relay route reads `/attempts/N`). A missing run with an attempt
 * is unproved (gh names the attempt's URL in its error).
 */
export async function readViewedRun(
  port: RelayPort,
  repo: GhRepository,
  id: string,
  attempt: number,
  log: EnvelopeLog,
): Promise<ReadStep<GoRun> | Extract<CommandOutcome, { readonly kind: 'delegate' }>> {
  const run = await readRun(port, repo, id, log);
  if (run.kind !== 'ok') return attempt > 0 && run.kind === 'error' ? UNPROVED : run;
  const viewed = runOfAttempt(run.value, attempt);
  if (viewed === 'other') return { kind: 'delegate', reason: 'unsupported_flag' };
  return viewed === undefined ? UNPROVED : { kind: 'ok', value: viewed };
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A pull request of REST's list, as gh's PR lookup needs it. */
interface ListedPull {
  readonly number: number;
  readonly headRef: string;
  readonly createdAt: string;
  readonly headOwner: string;
  readonly headName: string;
}

function toListedPull(value: unknown): ListedPull | undefined {
  if (!isRecord(value) || !isRecord(value.head)) return undefined;
  const { number, created_at: createdAt } = value;
  const { ref, repo } = value.head;
  if (typeof number !== 'number' || !Number.isSafeInteger(number)) return undefined;
  if (typeof createdAt !== 'string' || typeof ref !== 'string') return undefined;
  if (repo !== null && repo !== undefined && !isRecord(repo)) return undefined;
  const owner = isRecord(repo) && isRecord(repo.owner) ? repo.owner.login : '';
  const name = isRecord(repo) ? repo.name : '';
  if (typeof owner !== 'string' || typeof name !== 'string') return undefined;
  return { number, headRef: ref, createdAt, headOwner: owner, headName: name };
}

/**
 * gh's `PullRequestForRun` through REST: gh asks GraphQL for the newest PR of the repository
 * whose head branch is the run's (`pullRequests(headRefName:, first: 1, orderBy: CREATED_AT
 * DESC)`, every state, every head repository) and shows its number only when its head
 * repository is the run's. REST has no head-branch filter across forks, so every PR is read
 * newest first (`state=all`, `sort=created`, route pr_list) until the first with that head
 * branch: at most 10 pages, else unproved; two such PRs created in the same second (their
 * GraphQL order is unproved) are unproved too. `undefined` is no number.
 */
export async function readPullForRun(
  port: RelayPort,
  repo: GhRepository,
  run: GoRun,
  log: EnvelopeLog,
): Promise<ReadStep<number | undefined>> {
  let match: ListedPull | undefined;
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const result = await port.read({
      path: `${repoApiPath(repo)}/pulls`,
      query: {
        state: 'all',
        sort: 'created',
        direction: 'desc',
        per_page: '100',
        page: String(page),
      },
    });
    if (result.kind === 'fallback') return result;
    log.add(result.envelope);
    const body = okJsonBody(result.envelope);
    if (!Array.isArray(body)) return UNPROVED;
    for (const item of body as unknown[]) {
      const pull = toListedPull(item);
      if (pull === undefined) return UNPROVED;
      if (match !== undefined) {
        // Past the match: only a same-second PR could still matter.
        if (pull.createdAt !== match.createdAt) return { kind: 'ok', value: numberOf(match, run) };
        if (pull.headRef === run.headBranch) return UNPROVED;
        continue;
      }
      if (pull.headRef === run.headBranch) match = pull;
    }
    if (findNextLink(result.envelope.headers.link) === undefined) {
      return { kind: 'ok', value: match === undefined ? undefined : numberOf(match, run) };
    }
  }
  return UNPROVED;
}

function numberOf(pull: ListedPull, run: GoRun): number | undefined {
  return pull.headOwner === run.headRepositoryOwner && pull.headName === run.headRepositoryName
    ? pull.number
    : undefined;
}

/** gh's `ListArtifacts` (route run_artifacts): every page of `per_page=100`, at most 10. */
async function readArtifacts(
  port: RelayPort,
  repo: GhRepository,
  run: GoRun,
): Promise<ReadStep<readonly GoArtifact[]>> {
  const artifacts: GoArtifact[] = [];
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const result = await port.read({
      path: `${repoApiPath(repo)}/actions/runs/${String(run.id)}/artifacts`,
      query: page === 1 ? { per_page: '100' } : { per_page: '100', page: String(page) },
    });
    if (result.kind === 'fallback') return result;
    const decoded = decodeRestArtifacts(okJsonBody(result.envelope));
    if (decoded === undefined) return UNPROVED;
    artifacts.push(...decoded);
    if (findNextLink(result.envelope.headers.link) === undefined) {
      return { kind: 'ok', value: artifacts };
    }
  }
  return UNPROVED;
}

/**
 * gh's `GetAnnotations` for each job (route check_run_annotations, one request each, REST's
 * default page): 404 is none; a 403 (gh prints a permissions note for the user's token, which
 * the relay's identity does not share) and other answers are unproved.
 */
async function readAnnotations(
  port: RelayPort,
  repo: GhRepository,
  jobs: readonly GoJob[],
): Promise<ReadStep<readonly GoAnnotation[]>> {
  const annotations: GoAnnotation[] = [];
  for (const job of jobs) {
    const result = await port.read({
      path: `${repoApiPath(repo)}/check-runs/${String(job.id)}/annotations`,
    });
    if (result.kind === 'fallback') return result;
    if (result.envelope.status === 404) continue;
    const decoded = decodeRestAnnotations(okJsonBody(result.envelope), job.name);
    if (decoded === undefined) return UNPROVED;
    annotations.push(...decoded);
  }
  return { kind: 'ok', value: annotations };
}

/**
 * `gh run view <run-id>` without `--json` (stdout not a terminal): the run, its workflow, its
 * jobs (one page holding them all), the PR of its branch ({@link readPullForRun}), its
 * artifacts and each job's annotations, printed as gh's summary; `--exit-status` exits 1 for
 * a failed run. With `--job` (the job already read): the run, its workflow, the PR and the
 * job's annotations, printed as gh's job summary (no jobs list, no artifacts: gh reads
 * neither). `--attempt N` serves the run's current attempt only. Anything unproved runs gh.
 */
export async function runSummary(
  port: RelayPort,
  repo: GhRepository,
  id: string,
  options: RunSummaryOptions,
): Promise<ActionsOutcome> {
  const { attempt, job } = options;
  const log = options.log ?? new EnvelopeLog(RUN_VIEW_NOTED_ROUTES);
  const run = await readViewedRun(port, repo, id, attempt, log);
  if (run.kind === 'delegate') return run;
  if (run.kind !== 'ok') return stopOutcome(run, false);
  // gh's GetRun reads the run's workflow: a missing one (deleted) fails the command.
  const workflow = await readWorkflow(port, repo, String(run.value.workflowId), GET_RUN_FAILED);
  if (workflow.kind !== 'ok') return stopOutcome(workflow, false);
  const jobs =
    job === undefined
      ? jobsOfAttempt(await readJobs(port, repo, run.value, log), attempt)
      : { kind: 'ok' as const, value: [job] };
  if (jobs.kind !== 'ok') return stopOutcome(jobs, false);
  const pr = await readPullForRun(port, repo, run.value, log);
  if (pr.kind !== 'ok') return stopOutcome(pr, false);
  const artifacts =
    job === undefined
      ? await readArtifacts(port, repo, run.value)
      : { kind: 'ok' as const, value: [] };
  if (artifacts.kind !== 'ok') return stopOutcome(artifacts, false);
  const annotations = await readAnnotations(port, repo, jobs.value);
  if (annotations.kind !== 'ok') return stopOutcome(annotations, false);
  const header = {
    run: run.value,
    workflowName: workflow.value.name,
    prNumber: pr.value,
    repoFullName: `${repo.owner}/${repo.name}`,
    attempt,
    annotations: annotations.value,
  };
  const rendered =
    job === undefined
      ? renderRunSummary(
          { ...header, jobs: jobs.value, artifacts: artifacts.value, verbose: options.verbose },
          options.now,
        )
      : renderJobSummary({ ...header, job }, options.now);
  if (rendered === undefined) return delegated('unsupported_shape');
  return printed(
    rendered.text,
    log.note(options.env),
    options.exitStatus && rendered.failed ? 1 : 0,
  );
}
