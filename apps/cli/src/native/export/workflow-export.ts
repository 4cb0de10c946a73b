import type { GoJsonValue } from './go-json-encoder.js';
import type { JsonField } from './json-field-catalogue.js';
import { formatRunDuration, runTitle } from './run-export.js';
import type { GoWorkflow, NamedRun } from './run-export.js';
import { renderTsvTable } from './tsv-table.js';

/** A field of `gh workflow list --json`. */
export type WorkflowField = JsonField<'workflow list'>;

/**
 * Go's `path.Base`: the last element of a slash-separated path, trailing slashes dropped;
 * `.` for an empty path, `/` for slashes only (gh's `Workflow.Base`).
 */
export function goPathBase(path: string): string {
  if (path === '') return '.';
  const trimmed = path.replace(/\/+$/, '');
  if (trimmed === '') return '/';
  const slash = trimmed.lastIndexOf('/');
  return slash < 0 ? trimmed : trimmed.slice(slash + 1);
}

/** `gh workflow list`'s table without a terminal: name, state, id. */
export function renderWorkflowListTable(workflows: readonly GoWorkflow[]): string {
  return renderTsvTable(workflows.map((w) => [w.name, w.state, String(w.id)]));
}

/** One field of gh's `Workflow.ExportData` (`cmdutil.StructExportData`; a Go map). */
export function workflowFieldValue(workflow: GoWorkflow, field: WorkflowField): GoJsonValue {
  switch (field) {
    case 'id':
      return workflow.id;
    case 'name':
      return workflow.name;
    case 'path':
      return workflow.path;
    case 'state':
      return workflow.state;
  }
}

/** What `gh workflow view` prints about a workflow: it and its first page of runs. */
export interface WorkflowInfo {
  readonly workflow: GoWorkflow;
  /** `total_count` of the workflow's runs. */
  readonly totalCount: number;
  /** The recent runs (at most 5), each named after the workflow. */
  readonly runs: readonly NamedRun[];
}

/**
 * `gh workflow view <workflow>` without a terminal (cli/cli v2.60.0 `viewWorkflowInfo`, raw):
 * `<name> - <file>`, `ID: <id>`, a blank line, `Total runs <n>`, `Recent runs` and the runs
 * table (status, conclusion, title, workflow, branch, event, elapsed, id) when there are runs,
 * a blank line, then the `gh run list --workflow` hint (when there are runs) and the `--yaml`
 * hint.
 *
 * @param nowMillis - the command's clock, for unfinished runs' elapsed time
 */
export function renderWorkflowInfo(info: WorkflowInfo, nowMillis: number): string {
  const { workflow, totalCount, runs } = info;
  const file = goPathBase(workflow.path);
  let out = `${workflow.name} - ${file}\nID: ${String(workflow.id)}\n\n`;
  out += `Total runs ${String(totalCount)}\n`;
  if (totalCount !== 0) out += 'Recent runs\n';
  out += renderTsvTable(
    runs.map(({ run, workflowName }) => [
      run.status,
      run.conclusion,
      runTitle(run),
      workflowName,
      run.headBranch,
      run.event,
      formatRunDuration(run, nowMillis),
      String(run.id),
    ]),
  );
  out += '\n';
  if (totalCount !== 0) {
    out += `To see more runs for this workflow, try: gh run list --workflow ${file}\n`;
  }
  out += `To see the YAML for this workflow, try: gh workflow view ${file} --yaml\n`;
  return out;
}

/**
 * `gh workflow view --yaml` without a terminal (`viewWorkflowContent`, raw): the file as
 * decoded, and a newline when it does not end in one.
 */
export function renderWorkflowYaml(yaml: string): string {
  return yaml.endsWith('\n') ? yaml : `${yaml}\n`;
}

/** gh's error when the contents API has no such file (`viewWorkflowContent`, exit 1). */
export function formatWorkflowFileNotFound(file: string, ref: string | undefined): string {
  return ref === undefined
    ? `could not find workflow file ${file}, try specifying a branch or tag using \`--ref\`\n`
    : `could not find workflow file ${file} on ${ref}, try specifying a different ref\n`;
}
