import { hasEscapeDependentControl } from './release-export.js';
import {
  MAX_GO_DURATION_NANOS,
  MAX_GO_DURATION_TEXT,
  formatGoSeconds,
  hasUnsafeInteger,
  runStartedTime,
} from './run-export.js';
import type { GoJob, GoRun } from './run-export.js';
import type { GoTime } from './release-export.js';

/** One check-run annotation after gh's `shared.Annotation` decoding. */
export interface GoAnnotation {
  readonly jobName: string;
  readonly message: string;
  readonly path: string;
  readonly level: string;
  readonly startLine: number;
}

/** One artifact after gh's `shared.Artifact` decoding (the fields `run view` prints). */
export interface GoArtifact {
  readonly name: string;
  readonly expired: boolean;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const stringOf = (value: unknown): string | undefined =>
  value === undefined || value === null ? '' : typeof value === 'string' ? value : undefined;

/**
 * Decodes a (sanitized) `/check-runs/{id}/annotations` answer into gh's annotations of `job`;
 * `undefined` when Go would decode it differently or fail (a `null` item panics gh).
 */
export function decodeRestAnnotations(
  value: unknown,
  jobName: string,
): readonly GoAnnotation[] | undefined {
  if (!Array.isArray(value) || hasUnsafeInteger(value) || hasEscapeDependentControl(value)) {
    return undefined;
  }
  const out: GoAnnotation[] = [];
  for (const item of value as unknown[]) {
    if (!isRecord(item)) return undefined;
    const message = stringOf(item.message);
    const path = stringOf(item.path);
    const level = stringOf(item.annotation_level);
    const line = item.start_line ?? 0;
    if (message === undefined || path === undefined || level === undefined) return undefined;
    if (typeof line !== 'number' || !Number.isSafeInteger(line)) return undefined;
    out.push({ jobName, message, path, level, startLine: line });
  }
  return out;
}

/** Decodes one page of `/actions/runs/{id}/artifacts` (`{artifacts: […]}`); `undefined` as above. */
export function decodeRestArtifacts(value: unknown): readonly GoArtifact[] | undefined {
  if (!isRecord(value) || hasUnsafeInteger(value) || hasEscapeDependentControl(value)) {
    return undefined;
  }
  const items = value.artifacts ?? [];
  if (!Array.isArray(items)) return undefined;
  const out: GoArtifact[] = [];
  for (const item of items as unknown[]) {
    if (!isRecord(item)) return undefined;
    const name = stringOf(item.name);
    const expired = item.expired ?? false;
    if (name === undefined || typeof expired !== 'boolean') return undefined;
    out.push({ name, expired });
  }
  return out;
}

/** gh's `IsFailureState`: the conclusions `--exit-status` fails on. */
export function isFailureState(conclusion: string): boolean {
  return ['action_required', 'failure', 'startup_failure', 'timed_out'].includes(conclusion);
}

/** gh's `shared.Symbol` without colour: `✓`, `-` (skipped, neutral), `X`, or `*` unfinished. */
export function runSymbol(status: string, conclusion: string): string {
  if (status !== 'completed') return '*';
  if (conclusion === 'success') return '✓';
  if (conclusion === 'skipped' || conclusion === 'neutral') return '-';
  return 'X';
}

/** {@link MAX_GO_DURATION_NANOS} in milliseconds (a double: the fuzzy age's units only). */
const MAX_GO_DURATION_MILLIS = Number(MAX_GO_DURATION_NANOS) / 1_000_000;

/**
 * go-gh's `text.RelativeTimeAgo(now, then)` (gh's `FuzzyAgo`): `less than a minute ago`,
 * `about N minute(s)/hour(s)/day(s)/month(s)/year(s) ago`, truncating each unit. Its `Sub`
 * saturates at about 292 years (a run started at Go's zero time: `about 292 years ago`).
 */
export function formatFuzzyAgo(nowMillis: number, thenMillis: number): string {
  const ago = Math.min(nowMillis - thenMillis, MAX_GO_DURATION_MILLIS);
  const minute = 60_000;
  const hour = 60 * minute;
  const day = 24 * hour;
  const about = (amount: number, unit: string) =>
    `about ${String(amount)} ${unit}${amount === 1 ? '' : 's'} ago`;
  if (ago < minute) return 'less than a minute ago';
  if (ago < hour) return about(Math.trunc(ago / minute), 'minute');
  if (ago < day) return about(Math.trunc(ago / hour), 'hour');
  if (ago < 30 * day) return about(Math.trunc(Math.trunc(ago / hour) / 24), 'day');
  if (ago < 365 * day) return about(Math.trunc(Math.trunc(ago / hour) / 24 / 30), 'month');
  return about(Math.trunc(ago / hour / 24 / 365), 'year');
}

/** A Go time in epoch milliseconds, and whether it holds a fraction of a second. */
function toMillis(time: GoTime): { readonly millis: number; readonly fraction: boolean } {
  const match = /^(.*?)(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.exec(time.json);
  const millis = Date.parse(`${match?.[1] ?? ''}${match?.[3] ?? 'Z'}`);
  return { millis, fraction: match?.[2] !== undefined };
}

/**
 * A job's ` in <duration>` (gh's `RenderJobs`: `completed_at − started_at` as
 * `Duration.String()`, nothing when negative); `undefined` for a fraction of a second, which
 * this module does not print as Go does. Go's `Sub` saturates at about 292 years either way:
 * a zero completion (unfinished) is far in the past (negative: nothing), a zero start of a
 * finished job far before it ({@link MAX_GO_DURATION_TEXT}).
 */
export function formatJobElapsed(job: GoJob): string | undefined {
  const start = toMillis(job.startedAt);
  const end = toMillis(job.completedAt);
  if (start.fraction || end.fraction) return undefined;
  const elapsed = BigInt(end.millis - start.millis);
  if (elapsed < 0n) return '';
  if (elapsed * 1_000_000n > MAX_GO_DURATION_NANOS) return ` in ${MAX_GO_DURATION_TEXT}`;
  return ` in ${formatGoSeconds(elapsed / 1000n)}`;
}

/** What gh's `run view <id>` prints, gathered. */
export interface RunSummary {
  readonly run: GoRun;
  readonly workflowName: string;
  /** The PR of the run's head branch (gh's `PullRequestForRun`), if any. */
  readonly prNumber: number | undefined;
  /** `OWNER/REPO` as gh names the base repository. */
  readonly repoFullName: string;
  /** `--attempt` (0: none; above 0, gh's header names it). */
  readonly attempt?: number;
  readonly jobs: readonly GoJob[];
  readonly annotations: readonly GoAnnotation[];
  readonly artifacts: readonly GoArtifact[];
  /** `--verbose`: every job's steps. */
  readonly verbose: boolean;
}

/** What gh's `run view --job <id>` prints, gathered (no artifacts: gh reads none). */
export type JobSummary = Omit<RunSummary, 'jobs' | 'artifacts' | 'verbose'> & {
  /** The job `--job` names. */
  readonly job: GoJob;
};

/** The bytes and the `--exit-status` verdict of a summary. */
export interface RenderedRunSummary {
  readonly text: string;
  /** Whether `--exit-status` exits 1 (gh's SilentError). */
  readonly failed: boolean;
}

/**
 * The start of both summaries: a blank line, the header, a blank line; and gh's workflow-file
 * issue text (its end) for a startup failure or a failed run without jobs.
 */
function summaryStart(
  summary: RunHeaderInput,
  jobCount: number,
  nowMillis: number,
): { readonly text: string; readonly ended: boolean } {
  const { run } = summary;
  const text = `\n${renderRunHeader(summary, nowMillis)}\n\n`;
  if ((jobCount === 0 && run.conclusion === 'failure') || run.conclusion === 'startup_failure') {
    const issue = 'X This run likely failed because of a workflow file issue.\n\n';
    return { text: `${text}${issue}For more information, see: ${run.url}\n`, ended: true };
  }
  return { text, ended: false };
}

/**
 * `gh run view <id>` without a terminal (cli/cli v2.60.0 `runView`, no `--job`): a blank line,
 * `RenderRunHeader` (`<symbol> <branch> <workflow>[ OWNER/REPO#PR] · <id>[ (Attempt #N)]`,
 * `Triggered via <event> <fuzzy age>`), then the workflow-file-issue text for a failed run
 * without jobs or a startup failure, else `JOBS` with `RenderJobs` (steps when `--verbose` or
 * the job failed), `ANNOTATIONS`, `ARTIFACTS` (` (expired)`), the hint line and
 * `View this run on GitHub: <url>`. `undefined` when a job's duration has a fraction of a
 * second.
 *
 * @param nowMillis - the command's clock, for the fuzzy age
 */
export function renderRunSummary(
  summary: RunSummary,
  nowMillis: number,
): RenderedRunSummary | undefined {
  const { run, jobs } = summary;
  const start = summaryStart(summary, jobs.length, nowMillis);
  if (start.ended) return { text: start.text, failed: true };
  const rendered = renderJobLines(jobs, summary.verbose);
  if (rendered === undefined) return undefined;
  let out = `${start.text}JOBS\n${rendered}${renderAnnotations(summary.annotations)}`;
  if (summary.artifacts.length > 0) {
    out += '\nARTIFACTS\n';
    for (const artifact of summary.artifacts) {
      out += `${artifact.name}${artifact.expired ? ' (expired)' : ''}\n`;
    }
  }
  out += '\n';
  const [only] = jobs;
  if (isFailureState(run.conclusion)) {
    out += `To see what failed, try: gh run view ${String(run.id)} --log-failed\n`;
  } else if (jobs.length === 1 && only !== undefined) {
    out += `For more information about the job, try: gh run view --job=${String(only.id)}\n`;
  } else {
    out += 'For more information about a job, try: gh run view --job=<job-id>\n';
  }
  out += `View this run on GitHub: ${run.url}\n`;
  return { text: out, failed: isFailureState(run.conclusion) };
}

/**
 * `gh run view --job <id>` without a terminal (cli/cli v2.60.0 `runView` with a selected
 * job): the header of the job's run, the workflow-file-issue text for a startup failure
 * (the job counts as the run's one job), else the job with every step (`RenderJobs` verbose,
 * no `JOBS` title), its `ANNOTATIONS`, the log hint (`--log-failed` for a failed job) and
 * `View this run on GitHub: <url>`; `--exit-status` fails on the job's conclusion.
 * `undefined` as {@link renderRunSummary}.
 */
export function renderJobSummary(
  summary: JobSummary,
  nowMillis: number,
): RenderedRunSummary | undefined {
  const { job } = summary;
  const start = summaryStart(summary, 1, nowMillis);
  if (start.ended) return { text: start.text, failed: true };
  const rendered = renderJobLines([job], true);
  if (rendered === undefined) return undefined;
  const id = String(job.id);
  const failed = isFailureState(job.conclusion);
  const hint = failed
    ? `To see the logs for the failed steps, try: gh run view --log-failed --job=${id}\n`
    : `To see the full job log, try: gh run view --log --job=${id}\n`;
  return {
    text:
      `${start.text}${rendered}${renderAnnotations(summary.annotations)}\n${hint}` +
      `View this run on GitHub: ${summary.run.url}\n`,
    failed,
  };
}

/** The run, as {@link renderRunHeader} needs it. */
export type RunHeaderInput = Pick<
  RunSummary,
  'run' | 'workflowName' | 'prNumber' | 'repoFullName' | 'attempt'
>;

/**
 * gh's `RenderRunHeader` without colour:
 * `<symbol> <branch> <workflow>[ OWNER/REPO#PR] · <id>[ (Attempt #N)]` and
 * `Triggered via <event> <fuzzy age>` (no trailing newline).
 */
export function renderRunHeader(input: RunHeaderInput, nowMillis: number): string {
  const { run } = input;
  const pr = input.prNumber === undefined ? '' : ` ${input.repoFullName}#${String(input.prNumber)}`;
  const attempt = input.attempt ?? 0;
  const label = attempt > 0 ? ` (Attempt #${String(attempt)})` : '';
  const ago = formatFuzzyAgo(nowMillis, toMillis(runStartedTime(run)).millis);
  return (
    `${runSymbol(run.status, run.conclusion)} ${run.headBranch} ${input.workflowName}${pr} · ${String(run.id)}${label}\n` +
    `Triggered via ${run.event} ${ago}`
  );
}

/**
 * gh's `RenderJobs` and its line break: each job (`<symbol> <name>[ in <duration>] (ID <id>)`)
 * with its steps when `verbose` or the job failed; `undefined` when a job's duration has a
 * fraction of a second.
 */
function renderJobLines(jobs: readonly GoJob[], verbose: boolean): string | undefined {
  const lines: string[] = [];
  for (const job of jobs) {
    const elapsed = formatJobElapsed(job);
    if (elapsed === undefined) return undefined;
    lines.push(
      `${runSymbol(job.status, job.conclusion)} ${job.name}${elapsed} (ID ${String(job.id)})`,
    );
    if (verbose || isFailureState(job.conclusion)) {
      for (const step of job.steps) {
        lines.push(`  ${runSymbol(step.status, step.conclusion)} ${step.name}`);
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

/** `ANNOTATIONS` with gh's `RenderAnnotations` after a blank line; `''` when there are none. */
function renderAnnotations(annotations: readonly GoAnnotation[]): string {
  if (annotations.length === 0) return '';
  const rendered = annotations.map((a) => {
    const symbol = a.level === 'failure' ? 'X' : a.level === 'warning' ? '!' : '-';
    return `${symbol} ${a.message}\n${a.jobName}: ${a.path}#${String(a.startLine)}\n`;
  });
  return `\nANNOTATIONS\n${rendered.join('\n')}\n`;
}

/**
 * One poll of gh's `run watch` (`renderRun`): the header, a blank line, then — when the run
 * has jobs — `JOBS` with every job's steps and `ANNOTATIONS`. `undefined` as
 * {@link renderRunSummary}.
 */
export function renderWatchBlock(
  input: RunHeaderInput & {
    readonly jobs: readonly GoJob[];
    readonly annotations: readonly GoAnnotation[];
  },
  nowMillis: number,
): string | undefined {
  const header = `${renderRunHeader(input, nowMillis)}\n\n`;
  if (input.jobs.length === 0) return header;
  const lines = renderJobLines(input.jobs, true);
  return lines === undefined
    ? undefined
    : `${header}JOBS\n${lines}${renderAnnotations(input.annotations)}`;
}
