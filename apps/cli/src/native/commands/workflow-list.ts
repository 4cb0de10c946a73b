import { parseLimitOption } from '../argv/go-int-option.js';
import type { ServePlan } from '../argv/native-plan.js';
import { delegated, printed, writeExport } from '../export/export-output.js';
import type { CommandOutcome, JqRunner } from '../export/export-output.js';
import { exportFields } from '../export/json-export-writer.js';
import { formatJsonFieldError, selectJsonFields } from '../export/json-field-catalogue.js';
import { renderWorkflowListTable, workflowFieldValue } from '../export/workflow-export.js';
import type { RelayPort } from '../relay-port.js';
import { readWorkflowPages, stopOutcome } from './run-reads.js';
import type { ServedCommand } from './served-command.js';

/** gh's default `workflow list --limit`. */
export const WORKFLOW_LIST_DEFAULT_LIMIT = 50;

/**
 * `gh workflow list` through the relay (cli/cli v2.60.0 `listRun`, stdout not a terminal):
 * gh's `GetWorkflows` with the limit (50, at most 100 served: one page of `per_page` the
 * limit; route workflow_list), then disabled workflows dropped unless `--all` (after the
 * limit, as gh does). The table is name, state, id; `--json` the fields of `workflowFields`.
 * No workflow left: no output, exit 0, `--json` included (gh's NoResultsError comes first).
 */
export async function runWorkflowList(
  port: RelayPort,
  plan: Pick<ServePlan, 'flags' | 'repo'>,
  jq: JqRunner,
): Promise<CommandOutcome> {
  const { flags } = plan;
  const selection = selectJsonFields('workflow list', flags);
  if (!selection.ok) {
    if (selection.error.code === 'invalid_csv') return delegated('invalid_usage');
    return printed('', formatJsonFieldError(selection.error), 1);
  }
  const limit = parseLimitOption(flags.limit, WORKFLOW_LIST_DEFAULT_LIMIT);
  if (!limit.ok) return delegated(limit.reason);
  const repo = plan.repo?.repo;
  if (repo === undefined) return delegated('unsupported_shape');
  const read = await readWorkflowPages(port, { repo, limit: limit.limit, maxPages: 1 });
  if (read.kind !== 'ok') {
    const outcome = stopOutcome(read, false);
    return outcome.kind === 'run_export' ? delegated('unsupported_shape') : outcome;
  }
  const all = flags.all?.at(-1) === 'true';
  const workflows = read.value.filter((workflow) => all || workflow.state === 'active');
  if (workflows.length === 0) return printed('');
  const selected = selection.value;
  if (selected.kind === 'human') return printed(renderWorkflowListTable(workflows));
  const rows = workflows.map((workflow) =>
    exportFields(workflow, selected.fields, workflowFieldValue),
  );
  return writeExport(rows, selected.jq, jq);
}

/** `gh workflow list` (SPEC.md `relay native` row; README "workflow list"). */
export const WORKFLOW_LIST_COMMAND: ServedCommand = {
  async run(deps, output, plan, argv) {
    const [{ createSessionRelayPort }, { createJqRunner, finishOutcome }] = await Promise.all([
      import('../relay-port.js'),
      import('./served-outcome.js'),
    ]);
    const outcome = await runWorkflowList(createSessionRelayPort(deps), plan, createJqRunner(deps));
    return finishOutcome(deps, output, argv, outcome);
  },
};
