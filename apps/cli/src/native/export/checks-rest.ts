/**
 * REST's check runs, combined status and Actions runs read as the GraphQL contexts gh v2.60's
 * `pr checks` queries (`statusCheckRollup.contexts`): each guard accepts only the shapes whose
 * conversion is exact, so that anything else runs gh.
 */
import type { CheckContext } from './checks-export.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A GitHub time as gh decodes it: whole-second RFC 3339 in UTC. */
const GITHUB_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

const isTime = (value: unknown): value is string =>
  typeof value === 'string' && GITHUB_TIME.test(value) && !Number.isNaN(Date.parse(value));
const isTimeOrNull = (value: unknown): value is string | null => value === null || isTime(value);
const isTextOrNull = (value: unknown): value is string | null =>
  value === null || typeof value === 'string';

/** The fields of a REST check run (`GET /repos/{o}/{r}/commits/{sha}/check-runs`) gh needs. */
export interface RestCheckRun {
  readonly id: number;
  readonly name: string;
  readonly status: string;
  readonly conclusion: string | null;
  readonly started_at: string | null;
  readonly completed_at: string | null;
  readonly details_url: string | null;
  readonly check_suite: { readonly id: number } | null;
}

/** Whether `value` is a check run this module converts exactly. */
export function isRestCheckRun(value: unknown): value is RestCheckRun {
  if (!isObject(value)) return false;
  const suite = value.check_suite;
  return (
    typeof value.id === 'number' &&
    typeof value.name === 'string' &&
    typeof value.status === 'string' &&
    /^[a-z_]+$/.test(value.status) &&
    (value.conclusion === null ||
      (typeof value.conclusion === 'string' && /^[a-z_]+$/.test(value.conclusion))) &&
    isTimeOrNull(value.started_at) &&
    isTimeOrNull(value.completed_at) &&
    isTextOrNull(value.details_url) &&
    (suite === null || (isObject(suite) && typeof suite.id === 'number'))
  );
}

/** The fields of a combined status's `statuses` item (`GET …/commits/{sha}/status`). */
export interface RestStatus {
  readonly context: string;
  readonly state: 'error' | 'failure' | 'pending' | 'success';
  readonly target_url: string | null;
  readonly description: string | null;
}

/** Whether `value` is a commit status this module converts exactly. */
export function isRestStatus(value: unknown): value is RestStatus {
  return (
    isObject(value) &&
    typeof value.context === 'string' &&
    value.context !== '' &&
    (value.state === 'error' ||
      value.state === 'failure' ||
      value.state === 'pending' ||
      value.state === 'success') &&
    isTextOrNull(value.target_url) &&
    isTextOrNull(value.description)
  );
}

/** The fields of an Actions run (`GET …/actions/runs?head_sha=`) gh's checks show. */
export interface RestActionsRun {
  readonly check_suite_id: number;
  readonly event: string;
  /** The workflow's name (REST's `name`; the run's own title is `display_title`). */
  readonly name: string;
}

/** Whether `value` is an Actions run with the association this module needs. */
export function isRestActionsRun(value: unknown): value is RestActionsRun {
  return (
    isObject(value) &&
    typeof value.check_suite_id === 'number' &&
    typeof value.event === 'string' &&
    typeof value.name === 'string'
  );
}

/** A check suite's Actions run as gh reads it: `workflowRun.workflow.name` and `.event`. */
export interface WorkflowRunAssociation {
  readonly workflow: string;
  readonly event: string;
}

/** Check suite id → its Actions run (the first listed run of each suite). */
export function associateRuns(
  runs: readonly RestActionsRun[],
): ReadonlyMap<number, WorkflowRunAssociation> {
  const bySuite = new Map<number, WorkflowRunAssociation>();
  for (const run of runs) {
    if (!bySuite.has(run.check_suite_id)) {
      bySuite.set(run.check_suite_id, { workflow: run.name, event: run.event });
    }
  }
  return bySuite;
}

/**
 * A REST check run as gh's CheckRun context: upper-case status and conclusion (GraphQL's
 * enums), `null` text as `''`, `null` times as Go's zero time, and its suite's Actions run
 * (none: `''` workflow and event, as a suite without a workflow run).
 */
export function toCheckRunContext(
  run: RestCheckRun,
  runs: ReadonlyMap<number, WorkflowRunAssociation>,
): CheckContext {
  const association = run.check_suite === null ? undefined : runs.get(run.check_suite.id);
  return {
    name: run.name,
    context: '',
    state: '',
    status: run.status.toUpperCase(),
    conclusion: (run.conclusion ?? '').toUpperCase(),
    startedAt: run.started_at ?? undefined,
    completedAt: run.completed_at ?? undefined,
    detailsUrl: run.details_url ?? '',
    targetUrl: '',
    description: '',
    workflow: association?.workflow ?? '',
    event: association?.event ?? '',
  };
}

/** A combined-status item as gh's StatusContext context (no times: gh reads none). */
export function toStatusContext(status: RestStatus): CheckContext {
  return {
    name: '',
    context: status.context,
    state: status.state.toUpperCase(),
    status: '',
    conclusion: '',
    startedAt: undefined,
    completedAt: undefined,
    detailsUrl: '',
    targetUrl: status.target_url ?? '',
    description: status.description ?? '',
    workflow: '',
    event: '',
  };
}

/**
 * Whether telling check runs apart needs their Actions runs: gh keeps one check run per
 * `name/workflow/event`, so only runs sharing a name need the association (or `--json`
 * asking for `workflow` or `event`).
 */
export function needsRunAssociation(runs: readonly RestCheckRun[]): boolean {
  const names = new Set<string>();
  for (const run of runs) {
    if (names.has(run.name)) return true;
    names.add(run.name);
  }
  return false;
}

/**
 * The rollup's context order as the relay rebuilds it (GraphQL's order is undocumented):
 * check runs by id ascending (creation order), then the combined status's statuses in the
 * order REST lists them.
 */
export function toCheckContexts(
  checkRuns: readonly RestCheckRun[],
  statuses: readonly RestStatus[],
  runs: ReadonlyMap<number, WorkflowRunAssociation>,
): CheckContext[] {
  const ordered = [...checkRuns].sort((a, b) => a.id - b.id);
  return [...ordered.map((run) => toCheckRunContext(run, runs)), ...statuses.map(toStatusContext)];
}
