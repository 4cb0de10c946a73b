/**
 * gh v2.60's `pr checks` rows and bytes (pkg/cmd/pr/checks/{aggregate,output}.go): the
 * de-duplication of the head commit's check contexts, the bucket of each state, the counts
 * behind the exit code, the non-TTY table (and its sort, Go's `sort.Slice`), the `--json`
 * fields, the watch header and gh's errors. Pure: the REST reads that fill a
 * {@link CheckContext} live in `checks-rest.ts` and `commands/pr-checks-reads.ts`.
 */
import { sortSliceGo } from './checks-go-sort.js';
import type { GoJsonValue } from './go-json-encoder.js';
import { compareBytes } from './go-json-encoder.js';
import { parseCsvRecord } from './json-field-catalogue.js';
import type { JsonFieldError } from './json-field-catalogue.js';
import { PR_CHECKS_JSON_FIELDS } from './checks-json-fields.js';
import type { PrChecksField } from './checks-json-fields.js';
import { GO_ZERO_TIME, renderTsvTable } from './tsv-table.js';

/**
 * One context of the head commit's status check rollup, as gh's `api.CheckContext` holds it:
 * a check run (`name`, `status`, `conclusion`, times, `detailsUrl`, its Actions workflow run)
 * or a commit status (`context`, `state`, `targetUrl`, `description`; no times). Text gh reads
 * as absent is `''`; a time gh reads as Go's zero time is `undefined`.
 */
export interface CheckContext {
  /** A check run's name (`''` for a status). */
  readonly name: string;
  /** A status's context (`''` for a check run). */
  readonly context: string;
  /** A status's GraphQL state (`SUCCESS`, `FAILURE`, `ERROR`, `PENDING`); `''` for a check run. */
  readonly state: string;
  /** A check run's GraphQL status (`COMPLETED`, `IN_PROGRESS`, …); `''` for a status. */
  readonly status: string;
  /** A check run's GraphQL conclusion (`SUCCESS`, `CANCELLED`, …) or `''`. */
  readonly conclusion: string;
  /** RFC 3339 (`2020-08-27T18:58:46Z`), `undefined` for Go's zero time. */
  readonly startedAt: string | undefined;
  readonly completedAt: string | undefined;
  readonly detailsUrl: string;
  readonly targetUrl: string;
  readonly description: string;
  /** The Actions workflow's name (`checkSuite.workflowRun.workflow.name`), `''` without one. */
  readonly workflow: string;
  /** The Actions run's event (`checkSuite.workflowRun.event`), `''` without one. */
  readonly event: string;
}

/** gh's bucket of a check's state. */
export type CheckBucket = 'pass' | 'fail' | 'pending' | 'skipping' | 'cancel';

/** One row of `pr checks` (gh's `check` struct; its `--json` fields). */
export interface CheckRow {
  readonly name: string;
  readonly state: string;
  readonly startedAt: string | undefined;
  readonly completedAt: string | undefined;
  readonly link: string;
  readonly bucket: CheckBucket;
  readonly event: string;
  readonly workflow: string;
  readonly description: string;
}

/** gh's `checkCounts`: how many rows fell in each bucket. */
export interface CheckCounts {
  readonly failed: number;
  readonly passed: number;
  readonly pending: number;
  readonly skipping: number;
  readonly canceled: number;
}

/** The rows and counts of one acquisition (gh's `aggregateChecks`). */
export interface CheckAggregate {
  readonly rows: readonly CheckRow[];
  readonly counts: CheckCounts;
}

export { PR_CHECKS_JSON_FIELDS } from './checks-json-fields.js';
export type { PrChecksField } from './checks-json-fields.js';

/** Epoch milliseconds of a context time; Go's zero time sorts before every real one. */
function timeValue(time: string | undefined): number {
  return time === undefined ? Number.NEGATIVE_INFINITY : Date.parse(time);
}

/**
 * gh's `eliminateDuplicates`: the contexts sorted by `startedAt` descending (Go's
 * `sort.Slice`, unstable above 12 contexts), then the first of each status `context` and of
 * each check run `name/workflow/event` kept. Does not change `contexts`.
 */
export function eliminateDuplicates(contexts: readonly CheckContext[]): CheckContext[] {
  const sorted = [...contexts];
  sortSliceGo(sorted, (a, b) => timeValue(a.startedAt) > timeValue(b.startedAt));
  const seenContexts = new Set<string>();
  const seenChecks = new Set<string>();
  const unique: CheckContext[] = [];
  for (const context of sorted) {
    if (context.context !== '') {
      if (seenContexts.has(context.context)) continue;
      seenContexts.add(context.context);
    } else {
      const key = `${context.name}/${context.workflow}/${context.event}`;
      if (seenChecks.has(key)) continue;
      seenChecks.add(key);
    }
    unique.push(context);
  }
  return unique;
}

/** gh's bucket of a state (anything unlisted, `EXPECTED`, `QUEUED`, `STALE`…, is pending). */
export function bucketOf(state: string): CheckBucket {
  switch (state) {
    case 'SUCCESS':
      return 'pass';
    case 'SKIPPED':
    case 'NEUTRAL':
      return 'skipping';
    case 'ERROR':
    case 'FAILURE':
    case 'TIMED_OUT':
    case 'ACTION_REQUIRED':
      return 'fail';
    case 'CANCELLED':
      return 'cancel';
    default:
      return 'pending';
  }
}

/** gh's `aggregateChecks` without `--required`: de-duplicated rows in that order, and counts. */
export function aggregateChecks(contexts: readonly CheckContext[]): CheckAggregate {
  const counts = { failed: 0, passed: 0, pending: 0, skipping: 0, canceled: 0 };
  const rows = eliminateDuplicates(contexts).map((context): CheckRow => {
    let state = context.state;
    if (state === '') state = context.status === 'COMPLETED' ? context.conclusion : context.status;
    const bucket = bucketOf(state);
    switch (bucket) {
      case 'pass':
        counts.passed += 1;
        break;
      case 'skipping':
        counts.skipping += 1;
        break;
      case 'fail':
        counts.failed += 1;
        break;
      case 'cancel':
        counts.canceled += 1;
        break;
      case 'pending':
        counts.pending += 1;
        break;
    }
    return {
      name: context.name === '' ? context.context : context.name,
      state,
      startedAt: context.startedAt,
      completedAt: context.completedAt,
      link: context.detailsUrl === '' ? context.targetUrl : context.detailsUrl,
      bucket,
      event: context.event,
      workflow: context.workflow,
      description: context.description,
    };
  });
  return { rows, counts };
}

/**
 * gh's exit code after the human or watch output: 1 when a check failed (SilentError), else 8
 * when one is pending (PendingError), else 0 (cancelled alone is 0).
 */
export function checksExitCode(counts: CheckCounts): 0 | 1 | 8 {
  if (counts.failed > 0) return 1;
  if (counts.pending > 0) return 8;
  return 0;
}

const trimZeros = (digits: string): string => digits.replace(/0+$/, '');

/**
 * Go's `time.Duration.String()` of a positive whole number of milliseconds (`1m26s`,
 * `1h0m0s`, `1.5s`, `250ms`).
 */
export function formatGoDuration(ms: number): string {
  if (ms < 1000) return `${String(ms)}ms`;
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor((ms % 3_600_000) / 60_000);
  const rest = ms % 60_000;
  const fraction = trimZeros(String(rest % 1000).padStart(3, '0'));
  const seconds = `${String(Math.floor(rest / 1000))}${fraction === '' ? '' : `.${fraction}`}s`;
  if (hours > 0) return `${String(hours)}h${String(minutes)}m${seconds}`;
  if (minutes > 0) return `${String(minutes)}m${seconds}`;
  return seconds;
}

/** A row's elapsed column: the positive duration between both times, else `''` (gh's `0`). */
function elapsedOf(row: CheckRow): string {
  if (row.startedAt === undefined || row.completedAt === undefined) return '';
  const ms = Date.parse(row.completedAt) - Date.parse(row.startedAt);
  return ms > 0 ? formatGoDuration(ms) : '';
}

/**
 * gh's `printTable` order (Go's `sort.Slice`, in place, as gh does — the watch mode sorts the
 * sorted rows a second time): `fail` first; rows of one bucket by name, then link; any other
 * pair of buckets compares equal, so the input order decides among them.
 */
export function sortChecksTable(rows: CheckRow[]): void {
  sortSliceGo(rows, (a, b) => {
    if (a.bucket === b.bucket) {
      // Go compares strings by their UTF-8 bytes (JavaScript's `<` by UTF-16 code units, which
      // puts a character above U+FFFF before U+E000…U+FFFF).
      if (a.name === b.name) return compareBytes(a.link, b.link) < 0;
      return compareBytes(a.name, b.name) < 0;
    }
    return a.bucket === 'fail' || (a.bucket === 'pending' && (b.bucket as string) === 'success');
  });
}

/**
 * The non-TTY table of gh's `printTable` for rows already in table order: `name`, bucket
 * (`cancel` printed `fail`), elapsed (`0` when unknown), link, description.
 */
export function renderChecksTable(rows: readonly CheckRow[]): string {
  return renderTsvTable(
    rows.map((row) => {
      const elapsed = elapsedOf(row);
      return [
        row.name,
        row.bucket === 'cancel' ? 'fail' : row.bucket,
        elapsed === '' ? '0' : elapsed,
        row.link,
        row.description,
      ];
    }),
  );
}

/**
 * The line gh prints before each refresh of `--watch` while checks are pending (bold is
 * plain without colour; `Println` adds a second newline): `%v` of the interval's seconds.
 */
export function formatWatchHeader(intervalSeconds: number): string {
  return `Refreshing checks status every ${String(intervalSeconds)} seconds. Press Ctrl+C to quit.\n\n`;
}

/** gh's error for a head commit without any check or status (exit 1). */
export function formatNoChecks(headRef: string): string {
  return `no checks reported on the '${headRef}' branch\n`;
}

/** A row's value of one `--json` field (Go's zero time for a missing time). */
export function checkFieldValue(row: CheckRow, field: PrChecksField): GoJsonValue {
  if (field === 'startedAt') return row.startedAt ?? GO_ZERO_TIME;
  if (field === 'completedAt') return row.completedAt ?? GO_ZERO_TIME;
  return row[field];
}

/** `--json` data: one map per row holding only the requested fields (keys sorted on output). */
export function checksJsonData(
  rows: readonly CheckRow[],
  fields: readonly PrChecksField[],
): GoJsonValue {
  return rows.map((row) => {
    const out: Record<string, GoJsonValue> = {};
    for (const field of fields) out[field] = checkFieldValue(row, field);
    return out;
  });
}

/** What `--json`/`--jq` select for `pr checks`. */
export type ChecksJsonSelection =
  | { readonly kind: 'human' }
  | {
      readonly kind: 'json';
      readonly fields: readonly PrChecksField[];
      readonly jq: string | undefined;
    };

const isChecksField = (field: string): field is PrChecksField =>
  (PR_CHECKS_JSON_FIELDS as readonly string[]).includes(field);

/**
 * Reads `--json` (CSV records, appended and de-duplicated in first-occurrence order) and the
 * last `--jq` against gh's `prCheckFields`, as `cmdutil.AddJSONFlags` checks them.
 */
export function selectChecksJsonFields(flags: Readonly<Record<string, readonly string[]>>):
  | { readonly ok: true; readonly value: ChecksJsonSelection }
  | {
      readonly ok: false;
      readonly error: JsonFieldError;
    } {
  const jq = flags.jq?.at(-1);
  if (flags.json === undefined) {
    return jq === undefined
      ? { ok: true, value: { kind: 'human' } }
      : { ok: false, error: { code: 'jq_without_json' } };
  }
  const available = [...PR_CHECKS_JSON_FIELDS].sort(compareBytes);
  const fields: PrChecksField[] = [];
  for (const occurrence of flags.json) {
    const record = parseCsvRecord(occurrence);
    if (record === undefined) return { ok: false, error: { code: 'invalid_csv' } };
    for (const field of record) {
      if (!isChecksField(field))
        return { ok: false, error: { code: 'unknown_field', field, available } };
      if (!fields.includes(field)) fields.push(field);
    }
  }
  // `--json ""` (or only commas) selects no field: gh prints an empty object per check.
  return { ok: true, value: { kind: 'json', fields, jq } };
}
