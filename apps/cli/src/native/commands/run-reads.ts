import type { FallbackReason, RelayEnvelope } from '@relay/protocol';
import { findNextLink } from '../../gh-api-output.js';
import type { GhRepository } from '../argv/repo-selector.js';
import { sanitizeJson } from '../export/ascii-sanitizer.js';
import type { CommandOutcome } from '../export/export-output.js';
import { delegated, printed } from '../export/export-output.js';
import { decodeRestJob, decodeRestRun, decodeRestWorkflow } from '../export/run-export.js';
import type { GoJob, GoRun, GoWorkflow, NamedRun } from '../export/run-export.js';
import type { RelayPort } from '../relay-port.js';
import { formatGhHttpErrorText } from './gh-http-error.js';
import { cacheNoteOptions, formatCacheNote } from './relay-cache-note.js';

/** The run routes whose cached answers the Actions commands note (SPEC.md client rule 8). */
export const RUN_NOTED_ROUTES: readonly string[] = [
  'run_list',
  'run_view',
  'run_jobs',
  'workflow_run_list',
];

/**
 * How a read step of an Actions command ended when it did not give its value:
 * - `fallback` — the relay asked for a local run;
 * - `unproved` — an answer this client cannot prove gh reads the same way (a forge error gh
 *   words through paths not modelled, a body Go decodes differently, an integer beyond
 *   ±(2^53−1), more pages than SPEC.md client rule 10 bounds): gh runs (for a `--json` run
 *   export, client rule 9's `unsupported_run_export` under RELAY_NO_FALLBACK=1);
 * - `error` — gh's own error text (exit 1).
 */
export type ReadStop =
  | { readonly kind: 'fallback'; readonly reason: FallbackReason }
  | { readonly kind: 'unproved' }
  | { readonly kind: 'error'; readonly stderr: string };

/** A read step's value, or why the command stops. */
export type ReadStep<T> = { readonly kind: 'ok'; readonly value: T } | ReadStop;

/** What an Actions command ends with: a {@link CommandOutcome}, or rule 9's run-export hand-off. */
export type ActionsOutcome =
  | CommandOutcome
  /** A `--json` run export the relay cannot prove: gh runs (unsupported_run_export). */
  | { readonly kind: 'run_export' };

/** The prefix of gh's `GetRun` errors (`run view`, `run watch`): `failed to get run: `. */
export const GET_RUN_FAILED = 'failed to get run: ';

/** The prefix of gh's `GetRuns` errors (`run list`): `failed to get runs: `. */
export const GET_RUNS_FAILED = 'failed to get runs: ';

/** The unproved stop. */
export const UNPROVED: ReadStop = { kind: 'unproved' };

/**
 * A stop as the command's outcome: an unproved `--json` run export is rule 9's hand-off, any
 * other unproved shape runs gh.
 *
 * @param runExport - whether the command is a `--json` run export
 */
export function stopOutcome(stop: ReadStop, runExport: boolean): ActionsOutcome {
  switch (stop.kind) {
    case 'fallback':
      return stop;
    case 'error':
      return printed('', stop.stderr, 1);
    case 'unproved':
      return runExport ? { kind: 'run_export' } : delegated('unsupported_shape');
  }
}

/** A repository's REST path prefix (`/repos/OWNER/REPO`). */
export function repoApiPath(repo: GhRepository): string {
  return `/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.name)}`;
}

/** The API URL gh names in an error (`https://api.github.com/repos/OWNER/REPO/…`). */
export function ghApiUrl(repo: GhRepository, rest: string): string {
  return `https://api.github.com/repos/${repo.owner}/${repo.name}${rest}`;
}

/** The relay's answers an Actions command collects for rule 8's cache note. */
export class EnvelopeLog {
  readonly #envelopes: RelayEnvelope[] = [];

  /** @param routes - the route kinds the note covers (default {@link RUN_NOTED_ROUTES}) */
  constructor(private readonly routes: readonly string[] = RUN_NOTED_ROUTES) {}

  /** Records one answer. */
  add(envelope: RelayEnvelope): void {
    this.#envelopes.push(envelope);
  }

  /** Rule 8's note over the run routes read so far (`''` when none was cached). */
  note(env: Readonly<Record<string, string | undefined>>): string {
    return formatCacheNote(this.#envelopes, this.routes, cacheNoteOptions(env));
  }
}

/** The JSON body of a 200 answer, sanitized as gh's client does; `undefined` otherwise. */
export function okJsonBody(envelope: RelayEnvelope): unknown {
  if (envelope.status !== 200 || envelope.body_encoding !== 'json') return undefined;
  return sanitizeJson(envelope.body);
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The filters of gh's `shared.FilterOptions` that `relay native` serves, as REST parameters. */
export interface RunFilters {
  readonly branch?: string;
  readonly actor?: string;
  readonly status?: string;
  readonly event?: string;
  readonly headSha?: string;
}

/** What {@link readRunsPage} reads. */
export interface RunsPageRequest {
  readonly repo: GhRepository;
  /** Runs of this workflow (`/actions/workflows/{id}/runs`, route workflow_run_list). */
  readonly workflowId?: number;
  readonly filters: RunFilters;
  /** gh's limit (1–100): `per_page`, and the run count that ends gh's paging. */
  readonly limit: number;
}

/** The runs of one page with the payload's `total_count`. */
export interface RunsPage {
  readonly totalCount: number;
  readonly runs: readonly GoRun[];
}

/**
 * gh's `shared.GetRuns` read, one page (SPEC.md client rule 10's run bounds): `per_page` the
 * limit, `exclude_pull_requests=true`, the filters. gh stops at a page holding `limit` runs or
 * without a `next` link; a shorter page that has one would make gh read on: unproved.
 */
export async function readRunsPage(
  port: RelayPort,
  request: RunsPageRequest,
  log: EnvelopeLog,
): Promise<ReadStep<RunsPage>> {
  const base = repoApiPath(request.repo);
  const path =
    request.workflowId === undefined
      ? `${base}/actions/runs`
      : `${base}/actions/workflows/${String(request.workflowId)}/runs`;
  const { filters } = request;
  const query: Record<string, string> = {
    per_page: String(request.limit),
    exclude_pull_requests: 'true',
  };
  if (filters.branch !== undefined) query.branch = filters.branch;
  if (filters.actor !== undefined) query.actor = filters.actor;
  if (filters.status !== undefined) query.status = filters.status;
  if (filters.event !== undefined) query.event = filters.event;
  if (filters.headSha !== undefined) query.head_sha = filters.headSha;
  const result = await port.read({ path, query });
  if (result.kind === 'fallback') return result;
  log.add(result.envelope);
  const body = okJsonBody(result.envelope);
  if (!isRecord(body) || !Array.isArray(body.workflow_runs)) return UNPROVED;
  const total = body.total_count;
  if (typeof total !== 'number' || !Number.isSafeInteger(total)) return UNPROVED;
  const runs: GoRun[] = [];
  for (const item of body.workflow_runs as unknown[]) {
    const run = decodeRestRun(item);
    if (run === undefined) return UNPROVED;
    runs.push(run);
  }
  if (runs.length !== request.limit && findNextLink(result.envelope.headers.link) !== undefined) {
    return UNPROVED;
  }
  return { kind: 'ok', value: { totalCount: total, runs } };
}

/** What {@link readWorkflowPages} reads. */
export interface WorkflowPagesRequest {
  readonly repo: GhRepository;
  /** gh's limit: the workflows to collect; 0 for all of them. */
  readonly limit: number;
  /** The most pages read; a further page gh would read makes the set unproved. */
  readonly maxPages: number;
}

/**
 * gh's `workflow/shared.GetWorkflows` (route workflow_list): `per_page` the limit (100 when
 * 0 or above 100), `page=1, 2, …` until `limit` workflows or a page shorter than `per_page`
 * (gh does not follow `Link`).
 */
export async function readWorkflowPages(
  port: RelayPort,
  request: WorkflowPagesRequest,
): Promise<ReadStep<readonly GoWorkflow[]>> {
  const { limit } = request;
  const perPage = limit === 0 || limit > 100 ? 100 : limit;
  const workflows: GoWorkflow[] = [];
  for (let page = 1; ; page += 1) {
    if (limit > 0 && workflows.length === limit) break;
    if (page > request.maxPages) return UNPROVED;
    const result = await port.read({
      path: `${repoApiPath(request.repo)}/actions/workflows`,
      query: { per_page: String(perPage), page: String(page) },
    });
    if (result.kind === 'fallback') return result;
    const body = okJsonBody(result.envelope);
    if (!isRecord(body)) return UNPROVED;
    const items = body.workflows ?? [];
    if (!Array.isArray(items)) return UNPROVED;
    for (const item of items as unknown[]) {
      const workflow = decodeRestWorkflow(item);
      if (workflow === undefined) return UNPROVED;
      if (limit === 0 || workflows.length < limit) workflows.push(workflow);
    }
    if (items.length < perPage) break;
  }
  return { kind: 'ok', value: workflows };
}

/**
 * Reads one workflow by id or file name (gh's `getWorkflowByID`, route workflow_view). A 404
 * is gh's REST error (exit 1, `prefix` before it); other failures are unproved.
 *
 * @param selector - a decimal id or a file name that needs no path escaping
 */
export async function readWorkflow(
  port: RelayPort,
  repo: GhRepository,
  selector: string,
  prefix = '',
): Promise<ReadStep<GoWorkflow>> {
  const rest = `/actions/workflows/${selector}`;
  const result = await port.read({ path: `${repoApiPath(repo)}${rest}` });
  if (result.kind === 'fallback') return result;
  const { envelope } = result;
  if (envelope.status === 404) {
    const text = formatGhHttpErrorText(envelope, ghApiUrl(repo, rest));
    return { kind: 'error', stderr: `${prefix}${text}\n` };
  }
  const workflow = decodeRestWorkflow(okJsonBody(envelope));
  return workflow === undefined ? UNPROVED : { kind: 'ok', value: workflow };
}

/**
 * gh's `preloadWorkflowNames`: every workflow of the repository (at most 10 pages of 100),
 * then `/actions/workflows/{id}` once for each workflow id of a run that the list lacks (a
 * deleted workflow). With one page of at most 100 runs: at most 111 reads with the runs page.
 */
export async function nameRuns(
  port: RelayPort,
  repo: GhRepository,
  runs: readonly GoRun[],
): Promise<ReadStep<readonly NamedRun[]>> {
  if (runs.length === 0) return { kind: 'ok', value: [] };
  const listed = await readWorkflowPages(port, { repo, limit: 0, maxPages: 10 });
  if (listed.kind !== 'ok') return listed;
  const names = new Map<number, string>();
  for (const workflow of listed.value) names.set(workflow.id, workflow.name);
  const named: NamedRun[] = [];
  for (const run of runs) {
    let name = names.get(run.workflowId);
    if (name === undefined) {
      // gh fails the whole list on a workflow it cannot read (a deleted one's 404).
      const workflow = await readWorkflow(port, repo, String(run.workflowId), GET_RUNS_FAILED);
      if (workflow.kind !== 'ok') return workflow;
      name = workflow.value.name;
      names.set(run.workflowId, name);
    }
    named.push({ run, workflowName: name });
  }
  return { kind: 'ok', value: named };
}

/**
 * The run (gh's `shared.GetRun`, route run_view): a 404 is gh's
 * `failed to get run: HTTP 404: …` (exit 1).
 */
export async function readRun(
  port: RelayPort,
  repo: GhRepository,
  id: string,
  log: EnvelopeLog,
  headers?: Readonly<Record<string, string>>,
): Promise<ReadStep<GoRun>> {
  const rest = `/actions/runs/${id}`;
  const result = await port.read({
    path: `${repoApiPath(repo)}${rest}`,
    query: { exclude_pull_requests: 'true' },
    ...(headers === undefined ? {} : { headers }),
  });
  if (result.kind === 'fallback') return result;
  const { envelope } = result;
  log.add(envelope);
  if (envelope.status === 404) {
    const url = ghApiUrl(repo, `${rest}?exclude_pull_requests=true`);
    return {
      kind: 'error',
      stderr: `${GET_RUN_FAILED}${formatGhHttpErrorText(envelope, url)}\n`,
    };
  }
  const run = decodeRestRun(okJsonBody(envelope));
  return run === undefined || String(run.id) !== id ? UNPROVED : { kind: 'ok', value: run };
}

/**
 * The job `--job` names (gh's `shared.GetJob`, route job_view): a 404 is gh's
 * `failed to get job: HTTP 404: …` (exit 1); an answer naming another job is unproved.
 *
 * @param id - the job id as gh sends it (canonical decimal)
 */
export async function readJob(
  port: RelayPort,
  repo: GhRepository,
  id: string,
  log: EnvelopeLog,
): Promise<ReadStep<GoJob>> {
  const rest = `/actions/jobs/${id}`;
  const result = await port.read({ path: `${repoApiPath(repo)}${rest}` });
  if (result.kind === 'fallback') return result;
  const { envelope } = result;
  log.add(envelope);
  if (envelope.status === 404) {
    const text = formatGhHttpErrorText(envelope, ghApiUrl(repo, rest));
    return { kind: 'error', stderr: `failed to get job: ${text}\n` };
  }
  const job = decodeRestJob(okJsonBody(envelope));
  return job === undefined || String(job.id) !== id || job.runId <= 0
    ? UNPROVED
    : { kind: 'ok', value: job };
}

/**
 * The jobs of `--attempt N` when N is the run's current attempt: gh reads
 * `/runs/{id}/attempts/{N}/jobs`, the relay reads `/runs/{id}/jobs`, whose default
 * `filter=latest` lists the latest attempt's jobs (GitHub changelog 2020-03-09, "New filter
 * parameter in workflow jobs API"). Each job must say it is of attempt N (`run_attempt`):
 * a rerun between the two reads, or a job without the field, is unproved.
 */
export function jobsOfAttempt(
  jobs: ReadStep<readonly GoJob[]>,
  attempt: number,
): ReadStep<readonly GoJob[]> {
  if (jobs.kind !== 'ok' || attempt === 0) return jobs;
  return jobs.value.every((job) => job.runAttempt === attempt) ? jobs : UNPROVED;
}

/** An `html_url` Go's `url.JoinPath` extends without cleaning or escaping anything. */
const PLAIN_URL = /^https?:\/\/[A-Za-z0-9.-]+(?::\d+)?(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+$/;

/**
 * The run as gh's `GetRun(…, attempt)` holds it, from the run the relay read
 * (`/runs/{id}`): for `--attempt N` equal to the run's `run_attempt`, the attempt's run is the
 * run itself (gh reads `/runs/{id}/attempts/{N}`, no relay route) with gh's `url` —
 * `url.JoinPath(html_url, "/attempts/N")`. `other` is another attempt (gh runs);
 * `undefined` a `url` whose join this module does not prove (a segment starting with a dot,
 * an escape, a query, a trailing slash). `attempt` 0 is no attempt: the run as read.
 */
export function runOfAttempt(run: GoRun, attempt: number): GoRun | 'other' | undefined {
  if (attempt === 0) return run;
  if (run.attempt !== attempt) return 'other';
  if (!PLAIN_URL.test(run.url)) return undefined;
  return { ...run, url: `${run.url}/attempts/${String(attempt)}` };
}

/**
 * The run's jobs (gh's `shared.GetJobs`, route run_jobs): gh reads the run's `jobs_url` with
 * `per_page=100` and follows `Link`; the relay reads one page and serves it only when it
 * holds every job (`total_count` equal to the page, no next page: SPEC.md client rule 10).
 */
export async function readJobs(
  port: RelayPort,
  repo: GhRepository,
  run: GoRun,
  log: EnvelopeLog,
  headers?: Readonly<Record<string, string>>,
): Promise<ReadStep<readonly GoJob[]>> {
  const path = `${repoApiPath(repo)}/actions/runs/${String(run.id)}/jobs`;
  if (!jobsUrlNames(run.jobsUrl, path)) return UNPROVED;
  const result = await port.read({
    path,
    query: { per_page: '100' },
    ...(headers === undefined ? {} : { headers }),
  });
  if (result.kind === 'fallback') return result;
  log.add(result.envelope);
  const body = okJsonBody(result.envelope);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return UNPROVED;
  const { total_count: total, jobs: listed } = body as Record<string, unknown>;
  // Go decodes a null or missing list as no jobs.
  const items = listed ?? [];
  if (!Array.isArray(items) || total !== items.length || items.length > 100) return UNPROVED;
  const jobs: GoJob[] = [];
  for (const item of items as unknown[]) {
    const job = decodeRestJob(item);
    if (job === undefined) return UNPROVED;
    jobs.push(job);
  }
  return { kind: 'ok', value: jobs };
}

/** Whether the run's `jobs_url` is the jobs path of the same run and repository. */
function jobsUrlNames(jobsUrl: string, path: string): boolean {
  let url: URL;
  try {
    url = new URL(jobsUrl);
  } catch {
    return false;
  }
  return url.search === '' && url.pathname.toLowerCase() === path.toLowerCase();
}
