import type { ServePlan } from '../argv/native-plan.js';
import { delegated, printed } from '../export/export-output.js';
import type { CommandOutcome } from '../export/export-output.js';
import type { GhRepository } from '../argv/repo-selector.js';
import { decodeReadme } from '../export/repo-export.js';
import type { GoWorkflow } from '../export/run-export.js';
import {
  formatWorkflowFileNotFound,
  goPathBase,
  renderWorkflowInfo,
  renderWorkflowYaml,
} from '../export/workflow-export.js';
import type { RelayPort } from '../relay-port.js';
import { EnvelopeLog, okJsonBody, readRunsPage, repoApiPath, stopOutcome } from './run-reads.js';
import type { ServedCommand } from './served-command.js';
import { ACTIVE_STATES, findWorkflow } from './workflow-finder.js';

/** The runs gh's `workflow view` shows (`GetRuns(…, 5)`). */
export const WORKFLOW_VIEW_RUNS = 5;

/** What `workflow view` reads besides the port. */
export interface WorkflowViewOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The command's clock (ms since the epoch): elapsed time of unfinished runs. */
  readonly now: number;
}

/**
 * `gh workflow view <id | name | file>` through the relay (cli/cli v2.60.0
 * `viewWorkflowInfo`, stdout not a terminal): the workflow as gh's `ResolveWorkflow` finds it
 * among active workflows (by id or file name one read, route workflow_view; by name the
 * workflow list, at most 10 pages; none or several is gh's error, exit 1), then one page of
 * its 5 latest runs (route workflow_run_list) with the payload's `total_count`. `--yaml`
 * prints the workflow file instead (`--ref` picks the branch or tag; route contents);
 * `--ref` without `--yaml` (gh's flag error), `--web` and no argument run gh.
 */
export async function runWorkflowView(
  port: RelayPort,
  plan: Pick<ServePlan, 'args' | 'flags' | 'repo'>,
  options: WorkflowViewOptions,
): Promise<CommandOutcome> {
  const { flags } = plan;
  const yaml = flags.yaml?.at(-1) === 'true';
  const rawRef = flags.ref?.at(-1);
  const ref = rawRef === '' ? undefined : rawRef;
  if (!yaml && ref !== undefined) return delegated('invalid_usage');
  const [selector] = plan.args;
  const repo = plan.repo?.repo;
  if (selector === undefined || repo === undefined) return delegated('unsupported_shape');
  const found = await findWorkflow(port, {
    repo,
    selector,
    states: ACTIVE_STATES,
    maxPages: 10,
  });
  if (found.kind !== 'ok') return asCommandOutcome(stopOutcome(found, false));
  const workflow = found.value;
  if (yaml) return readWorkflowYaml(port, repo, workflow, ref);
  const log = new EnvelopeLog();
  const page = await readRunsPage(
    port,
    { repo, workflowId: workflow.id, filters: {}, limit: WORKFLOW_VIEW_RUNS },
    log,
  );
  if (page.kind !== 'ok') return asCommandOutcome(stopOutcome(page, false));
  const runs = page.value.runs.map((run) => ({ run, workflowName: workflow.name }));
  const text = renderWorkflowInfo(
    { workflow, totalCount: page.value.totalCount, runs },
    options.now,
  );
  return printed(text, log.note(options.env));
}

/** Workflow paths the relay reads as gh builds them (no escaping, no dot segment). */
const PLAIN_PATH = /^[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/;

function isPlainPath(path: string): boolean {
  return PLAIN_PATH.test(path) && !path.split('/').some((part) => part === '.' || part === '..');
}

/**
 * gh's `GetWorkflowContent` (route contents): `/contents/<path>[?ref=]`, the `content`
 * base64-decoded and byte-sanitized as go-gh does; a 404 is gh's `could not find workflow
 * file` error (exit 1). A path needing escapes, content that is not UTF-8, or another answer
 * runs gh.
 */
async function readWorkflowYaml(
  port: RelayPort,
  repo: GhRepository,
  workflow: GoWorkflow,
  ref: string | undefined,
): Promise<CommandOutcome> {
  if (!isPlainPath(workflow.path)) return delegated('unsupported_shape');
  const result = await port.read({
    path: `${repoApiPath(repo)}/contents/${workflow.path}`,
    ...(ref === undefined ? {} : { query: { ref } }),
  });
  if (result.kind === 'fallback') return result;
  const { envelope } = result;
  if (envelope.status === 404) {
    return printed('', formatWorkflowFileNotFound(goPathBase(workflow.path), ref), 1);
  }
  const body = okJsonBody(envelope);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return delegated('unsupported_shape');
  }
  const content = (body as Record<string, unknown>).content ?? '';
  if (typeof content !== 'string') return delegated('unsupported_shape');
  const text = decodeReadme(content);
  return text === undefined ? delegated('unsupported_shape') : printed(renderWorkflowYaml(text));
}

function asCommandOutcome(outcome: ReturnType<typeof stopOutcome>): CommandOutcome {
  return outcome.kind === 'run_export' ? delegated('unsupported_shape') : outcome;
}

/** `gh workflow view` (SPEC.md `relay native` row; README "workflow view"). */
export const WORKFLOW_VIEW_COMMAND: ServedCommand = {
  async run(deps, output, plan, argv) {
    const [{ createSessionRelayPort }, { finishOutcome }] = await Promise.all([
      import('../relay-port.js'),
      import('./served-outcome.js'),
    ]);
    const outcome = await runWorkflowView(createSessionRelayPort(deps), plan, {
      env: deps.env,
      now: deps.now(),
    });
    return finishOutcome(deps, output, argv, outcome);
  },
};
