import type { GoJsonValue } from './go-json-encoder.js';
import type { JsonField } from './json-field-catalogue.js';
import { decodeGoTime, hasEscapeDependentControl } from './release-export.js';
import type { GoTime } from './release-export.js';
import { GO_ZERO_TIME, renderTsvTable } from './tsv-table.js';

/** A field of `gh run view --json` (the `run list` fields and `jobs`). */
export type RunField = JsonField<'run view'>;

/** Go's zero `time.Time` as gh holds it. */
export const ZERO_GO_TIME: GoTime = { seconds: GO_ZERO_TIME, json: GO_ZERO_TIME };

/** One step of a job after gh's `shared.Step` decoding. */
export interface GoStep {
  readonly name: string;
  readonly status: string;
  readonly conclusion: string;
  readonly number: number;
  readonly startedAt: GoTime;
  readonly completedAt: GoTime;
}

/** A REST job after gh's `shared.Job` decoding (`null` strings are `""`, times zero). */
export interface GoJob {
  readonly id: number;
  readonly status: string;
  readonly conclusion: string;
  readonly name: string;
  readonly steps: readonly GoStep[];
  readonly startedAt: GoTime;
  readonly completedAt: GoTime;
  readonly url: string;
  readonly runId: number;
  /**
   * `run_attempt` (not in gh's `shared.Job`): the relay's proof that a job of `/runs/{id}/jobs`
   * is one of the attempt gh reads (`--attempt`); 0 when absent or not an unsigned integer.
   */
  readonly runAttempt?: number;
}

/**
 * A REST workflow run after gh's `shared.Run` decoding (cli/cli v2.60.0
 * pkg/cmd/run/shared/shared.go): `null` strings are `""`, `null` times Go's zero time, a
 * missing `head_commit` an empty message.
 */
export interface GoRun {
  readonly name: string;
  readonly displayTitle: string;
  readonly createdAt: GoTime;
  readonly updatedAt: GoTime;
  readonly startedAt: GoTime;
  readonly status: string;
  readonly conclusion: string;
  readonly event: string;
  readonly id: number;
  readonly workflowId: number;
  readonly number: number;
  readonly attempt: number;
  readonly headBranch: string;
  readonly jobsUrl: string;
  readonly headCommitMessage: string;
  readonly headSha: string;
  readonly url: string;
  /** `head_repository.owner.login` (`""` when absent), for gh's PR lookup. */
  readonly headRepositoryOwner: string;
  /** `head_repository.name` (`""` when absent). */
  readonly headRepositoryName: string;
}

/** A workflow after gh's `workflow/shared.Workflow` decoding. */
export interface GoWorkflow {
  readonly name: string;
  readonly id: number;
  readonly path: string;
  readonly state: string;
}

type Decoded<T> = { readonly ok: true; readonly value: T } | { readonly ok: false };

const refused = { ok: false } as const;
const ok = <T>(value: T): Decoded<T> => ({ ok: true, value });

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function goString(value: unknown): Decoded<string> {
  if (value === undefined || value === null) return ok('');
  return typeof value === 'string' ? ok(value) : refused;
}

/** An `int64`/`int`: any integer JavaScript holds exactly (others: {@link hasUnsafeInteger}). */
function goInt(value: unknown): Decoded<number> {
  if (value === undefined || value === null) return ok(0);
  return typeof value === 'number' && Number.isSafeInteger(value) ? ok(value) : refused;
}

function goUint(value: unknown): Decoded<number> {
  const decoded = goInt(value);
  return decoded.ok && decoded.value < 0 ? refused : decoded;
}

function goTime(value: unknown): Decoded<GoTime> {
  if (value === undefined || value === null) return ok(ZERO_GO_TIME);
  if (typeof value !== 'string') return refused;
  const time = decodeGoTime(value);
  return time === undefined ? refused : ok(time);
}

function all<T extends Record<string, Decoded<unknown>>>(
  members: T,
): { [K in keyof T]: T[K] extends Decoded<infer V> ? V : never } | undefined {
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(members)) {
    if (!member.ok) return undefined;
    out[key] = member.value;
  }
  return out as { [K in keyof T]: T[K] extends Decoded<infer V> ? V : never };
}

/**
 * Whether a relayed JSON value holds an integer beyond ±(2^53−1) (SPEC.md client rule 9:
 * such a run export falls back with `unsupported_run_export`). The relay parses forge JSON
 * with `JSON.parse` and relays the double, so the digits GitHub wrote are gone — but rounding
 * to a double is monotonic and 2^53−1 is exact, so an integer literal beyond the bound is
 * still a double beyond it, and one within it is exact: the test on the parsed value is
 * exact for every integer literal.
 */
export function hasUnsafeInteger(value: unknown): boolean {
  if (typeof value === 'number') return Number.isInteger(value) && !Number.isSafeInteger(value);
  if (Array.isArray(value)) return value.some((item) => hasUnsafeInteger(item));
  if (isRecord(value)) return Object.values(value).some((item) => hasUnsafeInteger(item));
  return false;
}

/** Whether a decoded body is one this module proves gh decodes the same way. */
function isProvable(value: unknown): value is Readonly<Record<string, unknown>> {
  return isRecord(value) && !hasEscapeDependentControl(value) && !hasUnsafeInteger(value);
}

/**
 * Decodes a (sanitized) REST workflow run into gh's `shared.Run`; `undefined` when Go's
 * decoder would refuse it or the result is unproved (an integer beyond ±(2^53−1), a
 * backspace or form feed whose escape the relayed body no longer shows).
 */
export function decodeRestRun(value: unknown): GoRun | undefined {
  if (!isProvable(value)) return undefined;
  const commit = value.head_commit;
  if (commit !== undefined && commit !== null && !isRecord(commit)) return undefined;
  const head = value.head_repository;
  if (head !== undefined && head !== null && !isRecord(head)) return undefined;
  const owner = isRecord(head) ? head.owner : undefined;
  if (owner !== undefined && owner !== null && !isRecord(owner)) return undefined;
  return all({
    name: goString(value.name),
    displayTitle: goString(value.display_title),
    createdAt: goTime(value.created_at),
    updatedAt: goTime(value.updated_at),
    startedAt: goTime(value.run_started_at),
    status: goString(value.status),
    conclusion: goString(value.conclusion),
    event: goString(value.event),
    id: goInt(value.id),
    workflowId: goInt(value.workflow_id),
    number: goInt(value.run_number),
    attempt: goUint(value.run_attempt),
    headBranch: goString(value.head_branch),
    jobsUrl: goString(value.jobs_url),
    headCommitMessage: goString(isRecord(commit) ? commit.message : undefined),
    headSha: goString(value.head_sha),
    url: goString(value.html_url),
    headRepositoryOwner: goString(isRecord(owner) ? owner.login : undefined),
    headRepositoryName: goString(isRecord(head) ? head.name : undefined),
  });
}

function decodeStep(value: unknown): GoStep | undefined {
  if (!isRecord(value)) return undefined;
  return all({
    name: goString(value.name),
    status: goString(value.status),
    conclusion: goString(value.conclusion),
    number: goInt(value.number),
    startedAt: goTime(value.started_at),
    completedAt: goTime(value.completed_at),
  });
}

/** Decodes a (sanitized) REST job into gh's `shared.Job`; `undefined` as {@link decodeRestRun}. */
export function decodeRestJob(value: unknown): GoJob | undefined {
  if (!isProvable(value)) return undefined;
  const rawSteps = value.steps;
  if (rawSteps !== undefined && rawSteps !== null && !Array.isArray(rawSteps)) return undefined;
  const steps: GoStep[] = [];
  for (const item of (rawSteps ?? []) as unknown[]) {
    const step = decodeStep(item);
    if (step === undefined) return undefined;
    steps.push(step);
  }
  const scalars = all({
    id: goInt(value.id),
    status: goString(value.status),
    conclusion: goString(value.conclusion),
    name: goString(value.name),
    startedAt: goTime(value.started_at),
    completedAt: goTime(value.completed_at),
    url: goString(value.html_url),
    runId: goInt(value.run_id),
  });
  if (scalars === undefined) return undefined;
  const attempt = value.run_attempt;
  const runAttempt = typeof attempt === 'number' && Number.isSafeInteger(attempt) ? attempt : 0;
  return { ...scalars, steps, runAttempt };
}

/** Decodes a (sanitized) REST workflow into gh's `Workflow`; `undefined` as {@link decodeRestRun}. */
export function decodeRestWorkflow(value: unknown): GoWorkflow | undefined {
  if (!isProvable(value)) return undefined;
  return all({
    name: goString(value.name),
    id: goInt(value.id),
    path: goString(value.path),
    state: goString(value.state),
  });
}

/** Whether a Go time is the zero instant (`time.Time.IsZero`). */
function isZeroTime(time: GoTime): boolean {
  return time.json === GO_ZERO_TIME;
}

/** gh's `Run.StartedTime`: `run_started_at`, or `created_at` when it is zero. */
export function runStartedTime(run: GoRun): GoTime {
  return isZeroTime(run.startedAt) ? run.createdAt : run.startedAt;
}

/** gh's `Run.Title`: the display title, else the first line of the head commit message. */
export function runTitle(run: GoRun): string {
  if (run.displayTitle !== '') return run.displayTitle;
  return run.headCommitMessage.split('\n')[0] ?? '';
}

/** A Go time as nanoseconds since the Unix epoch (exact: the fraction is kept to 9 digits). */
function toEpochNanos(time: GoTime): bigint {
  const match = /^(.*?)(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/.exec(time.json);
  const base = match?.[1] ?? '';
  const fraction = (match?.[2] ?? '').padEnd(9, '0');
  const zone = match?.[3] ?? 'Z';
  const millis = Date.parse(`${base}${zone}`);
  return BigInt(millis) * 1_000_000n + BigInt(fraction === '' ? '0' : fraction);
}

const SECOND = 1_000_000_000n;

/** Go's longest `time.Duration` (2^63−1 ns): where `Time.Sub` saturates. */
export const MAX_GO_DURATION_NANOS = (1n << 63n) - 1n;

/** `time.Duration.String()` of {@link MAX_GO_DURATION_NANOS}. */
export const MAX_GO_DURATION_TEXT = '2562047h47m16.854775807s';

/**
 * gh's `Run.Duration(now)` as `time.Duration.String()`: from the start (`StartedTime`) to
 * `updated_at` when completed, else to `now`; negative is `0s`; rounded to whole seconds
 * (halves away from zero, Go's `Round`); `4m34s`, `1h0m5s`, `0s`. Go's `Sub` saturates at
 * about 292 years (a run whose start is Go's zero time), and `Round` keeps that longest
 * duration where rounding up would overflow: {@link MAX_GO_DURATION_TEXT}.
 *
 * @param nowMillis - the command's clock (milliseconds since the epoch)
 */
export function formatRunDuration(run: GoRun, nowMillis: number): string {
  const end =
    run.status === 'completed' ? toEpochNanos(run.updatedAt) : BigInt(nowMillis) * 1_000_000n;
  const elapsed = end - toEpochNanos(runStartedTime(run));
  if (elapsed <= 0n) return '0s';
  const nanos = elapsed > MAX_GO_DURATION_NANOS ? MAX_GO_DURATION_NANOS : elapsed;
  const rest = nanos % SECOND;
  const rounded = rest + rest < SECOND ? nanos - rest : nanos - rest + SECOND;
  if (rounded > MAX_GO_DURATION_NANOS) return MAX_GO_DURATION_TEXT;
  return formatGoSeconds(rounded / SECOND);
}

/** `time.Duration.String()` of a whole number of seconds (`0s`, `45s`, `4m34s`, `2h0m1s`). */
export function formatGoSeconds(seconds: bigint): string {
  const hours = seconds / 3600n;
  const minutes = (seconds % 3600n) / 60n;
  const rest = seconds % 60n;
  if (hours > 0n) return `${String(hours)}h${String(minutes)}m${String(rest)}s`;
  if (minutes > 0n) return `${String(minutes)}m${String(rest)}s`;
  return `${String(rest)}s`;
}

/** One run of a list with the workflow name gh attached to it (its cache column). */
export interface NamedRun {
  readonly run: GoRun;
  readonly workflowName: string;
}

/**
 * `gh run list`'s table without a terminal: `status`, `conclusion`, title, workflow, branch,
 * event, id, elapsed, started (RFC 3339), tab-separated, one row a line.
 */
export function renderRunListTable(runs: readonly NamedRun[], nowMillis: number): string {
  return renderTsvTable(
    runs.map(({ run, workflowName }) => [
      run.status,
      run.conclusion,
      runTitle(run),
      workflowName,
      run.headBranch,
      run.event,
      String(run.id),
      formatRunDuration(run, nowMillis),
      runStartedTime(run).seconds,
    ]),
  );
}

function exportJob(job: GoJob): GoJsonValue {
  return {
    databaseId: job.id,
    status: job.status,
    conclusion: job.conclusion,
    name: job.name,
    steps: job.steps.map((step) => ({
      name: step.name,
      status: step.status,
      conclusion: step.conclusion,
      number: step.number,
      startedAt: step.startedAt.json,
      completedAt: step.completedAt.json,
    })),
    startedAt: job.startedAt.json,
    completedAt: job.completedAt.json,
    url: job.url,
  };
}

/**
 * One field of gh's `Run.ExportData` (a Go map: keys sorted on output): times as Go's
 * `MarshalJSON` (zero `0001-01-01T00:00:00Z`), `status`/`conclusion` the REST strings,
 * `jobs` each job and its steps as maps.
 *
 * @param jobs - the run's jobs (only read for `jobs`)
 */
export function runFieldValue(
  named: NamedRun,
  field: RunField,
  jobs: readonly GoJob[],
): GoJsonValue {
  const { run } = named;
  switch (field) {
    case 'name':
      return run.name;
    case 'displayTitle':
      return run.displayTitle;
    case 'headBranch':
      return run.headBranch;
    case 'headSha':
      return run.headSha;
    case 'createdAt':
      return run.createdAt.json;
    case 'updatedAt':
      return run.updatedAt.json;
    case 'startedAt':
      return run.startedAt.json;
    case 'attempt':
      return run.attempt;
    case 'status':
      return run.status;
    case 'conclusion':
      return run.conclusion;
    case 'event':
      return run.event;
    case 'number':
      return run.number;
    case 'databaseId':
      return run.id;
    case 'workflowDatabaseId':
      return run.workflowId;
    case 'workflowName':
      return named.workflowName;
    case 'url':
      return run.url;
    case 'jobs':
      return jobs.map((job) => exportJob(job));
  }
}
