/**
 * Runs, jobs and workflows as REST writes them, built after cli/cli v2.60.0's
 * `pkg/cmd/run/shared/test.go` (`TestRun`, `TestRuns`, `SuccessfulJob`, `FailedJob`,
 * `TestWorkflow`): the facts gh's own tests print. Test support only.
 */

/** `shared.TestRunStartTime`: 2021-02-23 04:51:00 UTC. */
export const TEST_RUN_START = '2021-02-23T04:51:00Z';
/** The start plus 4m34s (`updated_at` of every test run, the tests' `now`). */
export const TEST_RUN_END = '2021-02-23T04:55:34Z';

/** A REST workflow run as `shared.TestRunWithWorkflowAndCommit` describes it. */
export function restRun(
  id: number,
  status: string,
  conclusion: string | null,
  extra: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> {
  return {
    id,
    name: 'CI',
    workflow_id: 123,
    created_at: TEST_RUN_START,
    updated_at: TEST_RUN_END,
    // gh's fixtures leave it zero: StartedTime falls back to created_at.
    run_started_at: '0001-01-01T00:00:00Z',
    status,
    conclusion,
    event: 'push',
    head_branch: 'trunk',
    jobs_url: `https://api.github.com/repos/OWNER/REPO/actions/runs/${String(id)}/jobs`,
    head_commit: { message: 'cool commit' },
    head_sha: '1234567890',
    html_url: `https://github.com/runs/${String(id)}`,
    run_number: id,
    run_attempt: 1,
    display_title: '',
    head_repository: { name: 'REPO', owner: { login: 'OWNER' } },
    ...extra,
  };
}

/** `shared.TestRuns`, in order. */
export const TEST_RUNS = [
  restRun(1, 'completed', 'timed_out'),
  restRun(2, 'in_progress', null),
  restRun(3, 'completed', 'success'),
  restRun(4, 'completed', 'cancelled'),
  restRun(1234, 'completed', 'failure'),
  restRun(6, 'completed', 'neutral'),
  restRun(7, 'completed', 'skipped'),
  restRun(8, 'requested', null),
  restRun(9, 'queued', null),
  restRun(10, 'completed', 'stale'),
];

/** `shared.FailedJob` as REST writes it. */
export const FAILED_JOB = {
  id: 20,
  run_id: 1234,
  status: 'completed',
  conclusion: 'failure',
  name: 'sad job',
  started_at: TEST_RUN_START,
  completed_at: TEST_RUN_END,
  html_url: 'https://github.com/jobs/20',
  steps: [
    {
      name: 'barf the quux',
      status: 'completed',
      conclusion: 'success',
      number: 1,
      started_at: null,
      completed_at: null,
    },
    {
      name: 'quux the barf',
      status: 'completed',
      conclusion: 'failure',
      number: 2,
      started_at: null,
      completed_at: null,
    },
  ],
};

/** A REST workflow (`shared.TestWorkflow` is `{Name: "CI", ID: 123}`). */
export function restWorkflow(
  id: number,
  name: string,
  state = 'active',
  path = `.github/workflows/${name.toLowerCase()}.yml`,
): Record<string, unknown> {
  return { id, node_id: `W_${String(id)}`, name, path, state };
}

/** `shared.SuccessfulJob` as REST writes it. */
export const SUCCESSFUL_JOB = {
  ...FAILED_JOB,
  id: 10,
  run_id: 3,
  conclusion: 'success',
  name: 'cool job',
  html_url: 'https://github.com/jobs/10',
  steps: [
    { name: 'fob the barz', status: 'completed', conclusion: 'success', number: 1 },
    { name: 'barz the fob', status: 'completed', conclusion: 'success', number: 2 },
  ],
};

/** `shared.FailedJobAnnotations` as REST writes them. */
export const FAILED_JOB_ANNOTATIONS = [
  { message: 'the job is sad', path: 'blaze.py', annotation_level: 'failure', start_line: 420 },
];
