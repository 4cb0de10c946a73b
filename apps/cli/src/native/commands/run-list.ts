import { RUN_LIST_STATUSES } from '../argv/gh-command-table-actions.js';
import { parseLimitOption } from '../argv/go-int-option.js';
import type { ServePlan } from '../argv/native-plan.js';
import { delegated, printed, writeExport } from '../export/export-output.js';
import type { JqRunner } from '../export/export-output.js';
import type { GoJsonValue } from '../export/go-json-encoder.js';
import { formatJsonFieldError, selectJsonFields } from '../export/json-field-catalogue.js';
import { renderRunListTable, runFieldValue } from '../export/run-export.js';
import type { NamedRun } from '../export/run-export.js';
import type { RelayPort } from '../relay-port.js';
import { EnvelopeLog, nameRuns, readRunsPage, stopOutcome } from './run-reads.js';
import type { ActionsOutcome, RunFilters } from './run-reads.js';
import type { ServedCommand } from './served-command.js';
import { finishActionsOutcome } from './run-outcome.js';
import { ACTIVE_STATES, ALL_STATES, findWorkflow } from './workflow-finder.js';

/** gh's default `run list --limit`. */
export const RUN_LIST_DEFAULT_LIMIT = 20;

/** What `run list` reads besides the port. */
export interface RunListOptions {
  readonly jq: JqRunner;
  /** The environment (rule 8's note variables). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The command's clock (ms since the epoch): elapsed time of unfinished runs. */
  readonly now: number;
}

function lastValue(flags: ServePlan['flags'], name: string): string | undefined {
  const value = flags[name]?.at(-1);
  return value === undefined || value === '' ? undefined : value;
}

/** `--status`: gh's StringEnumFlag (case-insensitive); a spelling not lower-case runs gh. */
function checkStatus(flags: ServePlan['flags']): ActionsOutcome | undefined {
  const status = flags.status?.at(-1);
  if (status === undefined || status === '' || RUN_LIST_STATUSES.includes(status)) return undefined;
  const lower = status.toLowerCase();
  return RUN_LIST_STATUSES.includes(lower)
    ? delegated('unsupported_flag')
    : delegated('invalid_usage');
}

/**
 * `gh run list` through the relay (cli/cli v2.60.0 `listRun`, stdout not a terminal): REST
 * `/actions/runs` (route run_list), or with `--workflow` the workflow (by id/file name, route
 * workflow_view; by name, one page of the workflow list) and `/actions/workflows/{id}/runs`
 * (route workflow_run_list); one page of `--limit` (20, at most 100) runs with
 * `exclude_pull_requests=true` and `--branch`, `--user`, `--status`, `--event`, `--commit` as
 * REST parameters. Workflow names as gh's `preloadWorkflowNames` (the workflow list, plus one
 * read per workflow the list lacks), only when printed. Reads at most 2 with `--workflow`, 111
 * without (SPEC.md client rule 10). No runs: no output (gh's silent NoResultsError), `[]`
 * with `--json`. `--created`, a status not in lower case, a page gh would read past, a body
 * not proved: gh runs (a `--json` export: client rule 9's `unsupported_run_export`).
 */
export async function runRunList(
  port: RelayPort,
  plan: Pick<ServePlan, 'flags' | 'repo'>,
  options: RunListOptions,
): Promise<ActionsOutcome> {
  const { flags } = plan;
  const status = checkStatus(flags);
  if (status !== undefined) return status;
  const selection = selectJsonFields('run list', flags);
  if (!selection.ok) {
    if (selection.error.code === 'invalid_csv') return delegated('invalid_usage');
    return printed('', formatJsonFieldError(selection.error), 1);
  }
  const limit = parseLimitOption(flags.limit, RUN_LIST_DEFAULT_LIMIT);
  if (!limit.ok) return delegated(limit.reason);
  if (flags.created !== undefined) return delegated('unsupported_flag');
  const repo = plan.repo?.repo;
  if (repo === undefined) return delegated('unsupported_shape');
  const selected = selection.value;
  const runExport = selected.kind === 'json';
  const log = new EnvelopeLog();

  const selector = lastValue(flags, 'workflow');
  let workflow: { readonly id: number; readonly name: string } | undefined;
  if (selector !== undefined) {
    const all = flags.all?.at(-1) === 'true';
    const found = await findWorkflow(port, {
      repo,
      selector,
      states: all ? ALL_STATES : ACTIVE_STATES,
      maxPages: 1,
    });
    if (found.kind !== 'ok') return stopOutcome(found, runExport);
    workflow = found.value;
  }
  const filters: RunFilters = {
    ...optional('branch', lastValue(flags, 'branch')),
    ...optional('actor', lastValue(flags, 'user')),
    ...optional('status', lastValue(flags, 'status')),
    ...optional('event', lastValue(flags, 'event')),
    ...optional('headSha', lastValue(flags, 'commit')),
  };
  const page = await readRunsPage(
    port,
    {
      repo,
      ...(workflow === undefined ? {} : { workflowId: workflow.id }),
      filters,
      limit: limit.limit,
    },
    log,
  );
  if (page.kind !== 'ok') return stopOutcome(page, runExport);
  const { runs } = page.value;

  const needsNames = !runExport || selected.fields.includes('workflowName');
  let named: readonly NamedRun[];
  if (workflow !== undefined || !needsNames) {
    const name = workflow?.name ?? '';
    named = runs.map((run) => ({ run, workflowName: name }));
  } else {
    const loaded = await nameRuns(port, repo, runs);
    if (loaded.kind !== 'ok') return stopOutcome(loaded, runExport);
    named = loaded.value;
  }

  const note = log.note(options.env);
  if (selected.kind === 'human') {
    return printed(renderRunListTable(named, options.now), note);
  }
  const rows: GoJsonValue[] = named.map((item) => {
    const row: Record<string, GoJsonValue> = {};
    for (const field of selected.fields) row[field] = runFieldValue(item, field, []);
    return row;
  });
  const outcome = await writeExport(rows, selected.jq, options.jq);
  return outcome.kind === 'done' ? { ...outcome, stderr: `${note}${outcome.stderr}` } : outcome;
}

function optional<K extends keyof RunFilters>(
  key: K,
  value: string | undefined,
): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Partial<Record<K, string>>);
}

/** `gh run list` (SPEC.md `relay native` row; README "run list"). */
export const RUN_LIST_COMMAND: ServedCommand = {
  async run(deps, output, plan, argv) {
    const [{ createSessionRelayPort }, { createJqRunner }] = await Promise.all([
      import('../relay-port.js'),
      import('./served-outcome.js'),
    ]);
    const outcome = await runRunList(createSessionRelayPort(deps), plan, {
      jq: createJqRunner(deps),
      env: deps.env,
      now: deps.now(),
    });
    return finishActionsOutcome(deps, output, argv, outcome);
  },
};
