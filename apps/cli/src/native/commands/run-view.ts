import { parseGoInt } from '../argv/go-int-option.js';
import type { ServePlan } from '../argv/native-plan.js';
import { delegated, printed, writeExport } from '../export/export-output.js';
import type { JqRunner } from '../export/export-output.js';
import { exportFields } from '../export/json-export-writer.js';
import { formatJsonFieldError, selectJsonFields } from '../export/json-field-catalogue.js';
import { runFieldValue } from '../export/run-export.js';
import type { GoJob } from '../export/run-export.js';
import type { RelayPort } from '../relay-port.js';
import { finishActionsOutcome } from './run-outcome.js';
import {
  EnvelopeLog,
  GET_RUN_FAILED,
  jobsOfAttempt,
  readJob,
  readJobs,
  readWorkflow,
  stopOutcome,
} from './run-reads.js';
import type { ActionsOutcome } from './run-reads.js';
import { RUN_VIEW_NOTED_ROUTES, readViewedRun, runSummary } from './run-view-summary.js';
import type { ServedCommand } from './served-command.js';

/** What `run view` reads besides the port. */
export interface RunViewOptions {
  readonly jq: JqRunner;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The command's clock (ms since the epoch): the summary's fuzzy age. */
  readonly now: number;
}

/** Run ids the relay reads as gh sends them: canonical decimal, exact in JavaScript. */
const RUN_ID = /^[1-9]\d{0,15}$/;

function isOn(flags: ServePlan['flags'], name: string): boolean {
  return flags[name]?.at(-1) === 'true';
}

/**
 * `--attempt` as pflag's `Uint64Var` reads it (Go `strconv.ParseUint(s, 0, 64)`, client rule
 * 12): `0` is no attempt; beyond 2^53−1 no run's attempt (gh runs); not an unsigned integer is
 * gh's flag error (gh runs).
 */
function readAttempt(flags: ServePlan['flags']): number | ActionsOutcome {
  const raw = flags.attempt?.at(-1);
  if (raw === undefined) return 0;
  const value = /^[+-]/.test(raw) ? undefined : parseGoInt(raw);
  if (value === undefined) return delegated('invalid_usage');
  return value > BigInt(Number.MAX_SAFE_INTEGER) ? delegated('unsupported_flag') : Number(value);
}

/**
 * `gh run view` through the relay (cli/cli v2.60.0 `runView`, stdout not a terminal).
 *
 * With `--json fields [--jq expr]`: the run (route run_view, with
 * `exclude_pull_requests=true`), the workflow for `workflowName` (route workflow_view), the
 * jobs for `jobs` (route run_jobs, one page holding them all) — 1, 2 or 3 reads (SPEC.md
 * client rule 10). `--exit-status` and `--verbose` do not change an export (gh returns after
 * writing it). A missing run is gh's `failed to get run: HTTP 404: …` (exit 1).
 *
 * Without `--json`: gh's summary ({@link runSummary}); its PR number comes from a GraphQL
 * `pullRequests(headRefName:)` lookup that the relay replays over REST's PR list.
 *
 * `--job <id>` (the run id, if any, ignored as gh does) reads the job first (route job_view;
 * gh's `failed to get job: HTTP 404: …`) and then its run: an export is the run's, the summary
 * is the job's. `--attempt N` is served when N is the run's current `run_attempt` (gh's
 * header names the attempt, its URL gains `/attempts/N`); another attempt needs
 * `/attempts/N`, which no relay route reads.
 *
 * gh runs instead for: `--log` and `--log-failed` without `--json` (README "run view --log":
 * the run's log zip, which no relay route serves, cannot be rebuilt from job logs provably;
 * with `--json` gh writes the export and returns before the log), `--web`, no run or
 * job id; an unproved export (an integer beyond ±(2^53−1), more than 100 jobs, a body Go
 * decodes differently) is client rule 9's `unsupported_run_export`.
 */
export async function runRunView(
  port: RelayPort,
  plan: Pick<ServePlan, 'args' | 'flags' | 'repo'>,
  options: RunViewOptions,
): Promise<ActionsOutcome> {
  const { flags } = plan;
  const selection = selectJsonFields('run view', flags);
  if (!selection.ok) {
    if (selection.error.code === 'invalid_csv') return delegated('invalid_usage');
    return printed('', formatJsonFieldError(selection.error), 1);
  }
  const attempt = readAttempt(flags);
  if (typeof attempt !== 'number') return attempt;
  const jobFlag = flags.job?.at(-1);
  const jobId = jobFlag === '' ? undefined : jobFlag;
  const id = jobId ?? plan.args[0];
  if (id === undefined) return delegated('invalid_usage');
  const selected = selection.value;
  // gh writes an export before it looks at --log/--log-failed: only the log itself runs gh.
  const wantsLog = isOn(flags, 'log') || isOn(flags, 'log-failed');
  if (wantsLog && selected.kind === 'human') return delegated('unsupported_flag');
  const repo = plan.repo?.repo;
  if (repo === undefined) return delegated('unsupported_shape');
  const runExport = selected.kind !== 'human';
  if (!RUN_ID.test(id) || !Number.isSafeInteger(Number(id))) {
    return runExport ? { kind: 'run_export' } : delegated('unsupported_shape');
  }
  const log = new EnvelopeLog(RUN_VIEW_NOTED_ROUTES);
  let runId = id;
  let job: GoJob | undefined;
  if (jobId !== undefined) {
    const read = await readJob(port, repo, jobId, log);
    if (read.kind !== 'ok') return stopOutcome(read, runExport);
    job = read.value;
    runId = String(job.runId);
  }
  if (selected.kind === 'human') {
    return runSummary(port, repo, runId, {
      ...options,
      verbose: isOn(flags, 'verbose'),
      exitStatus: isOn(flags, 'exit-status'),
      attempt,
      log,
      ...(job === undefined ? {} : { job }),
    });
  }

  const run = await readViewedRun(port, repo, runId, attempt, log);
  if (run.kind === 'delegate') return run;
  if (run.kind !== 'ok') return stopOutcome(run, true);
  let workflowName = '';
  if (selected.fields.includes('workflowName')) {
    // gh's GetRun reads the run's workflow: a missing one (deleted) fails the command.
    const workflow = await readWorkflow(port, repo, String(run.value.workflowId), GET_RUN_FAILED);
    if (workflow.kind !== 'ok') return stopOutcome(workflow, true);
    workflowName = workflow.value.name;
  }
  let jobs: readonly GoJob[] = [];
  if (selected.fields.includes('jobs')) {
    const read = jobsOfAttempt(await readJobs(port, repo, run.value, log), attempt);
    if (read.kind !== 'ok') return stopOutcome(read, true);
    jobs = read.value;
  }
  const data = exportFields({ run: run.value, workflowName }, selected.fields, (named, field) =>
    runFieldValue(named, field, jobs),
  );
  const outcome = await writeExport(data, selected.jq, options.jq);
  const note = log.note(options.env);
  return outcome.kind === 'done' ? { ...outcome, stderr: `${note}${outcome.stderr}` } : outcome;
}

/** `gh run view` (SPEC.md `relay native` row; README "run view"). */
export const RUN_VIEW_COMMAND: ServedCommand = {
  async run(deps, output, plan, argv) {
    const [{ createSessionRelayPort }, { createJqRunner }] = await Promise.all([
      import('../relay-port.js'),
      import('./served-outcome.js'),
    ]);
    const outcome = await runRunView(createSessionRelayPort(deps), plan, {
      jq: createJqRunner(deps),
      env: deps.env,
      now: deps.now(),
    });
    return finishActionsOutcome(deps, output, argv, outcome);
  },
};
