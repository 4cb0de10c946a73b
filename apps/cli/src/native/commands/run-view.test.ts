import { describe, expect, it } from 'vitest';
import type { JqRunner } from '../export/export-output.js';
import { createFakeRunPort } from './run-fake-port.js';
import type { FakeAnswer } from './run-fake-port.js';
import {
  FAILED_JOB,
  FAILED_JOB_ANNOTATIONS,
  SUCCESSFUL_JOB,
  restRun,
  restWorkflow,
} from './run-fixtures.js';
import { runRunView } from './run-view.js';

const REPO = {
  repo: { host: 'github.com', owner: 'OWNER', name: 'REPO' },
  source: 'flag' as const,
};
const RUN = '/repos/OWNER/REPO/actions/runs/1234';
const JOBS = `${RUN}/jobs`;
const WORKFLOW = '/repos/OWNER/REPO/actions/workflows/123';
const noJq: JqRunner = () => Promise.resolve('missing');
// view_test.go's clock: 2021-02-23 05:50:00, 59 minutes after the test runs started.
const options = { jq: noJq, env: {}, now: Date.parse('2021-02-23T05:50:00Z') };
const FAILED_RUN = restRun(1234, 'completed', 'failure');

const plan = (args: readonly string[], flags: Record<string, readonly string[]> = {}) => ({
  args,
  flags,
  repo: REPO,
});
const answers = (jobs: FakeAnswer = { body: { total_count: 1, jobs: [FAILED_JOB] } }) => ({
  [RUN]: { body: FAILED_RUN, route: 'run_view' },
  [WORKFLOW]: { body: restWorkflow(123, 'CI'), route: 'workflow_view' },
  [JOBS]: { ...jobs, route: 'run_jobs' },
});

describe('gh run view --json through the relay port', () => {
  it.each([
    ['scalar fields', 'databaseId,status,conclusion', 1],
    ['with workflowName', 'workflowName,databaseId', 2],
    ['with jobs', 'jobs', 2],
    ['with jobs and workflowName', 'jobs,workflowName', 3],
  ])('rule 10’s bound: %s reads %i times', async (_name, fields, reads) => {
    const port = createFakeRunPort(answers());
    const outcome = await runRunView(port, plan(['1234'], { json: [fields] }), options);
    expect(outcome).toMatchObject({ kind: 'done', code: 0 });
    expect(port.reads).toHaveLength(reads);
    expect(port.reads[0]).toEqual({ path: RUN, query: { exclude_pull_requests: 'true' } });
  });

  it('the export of gh’s FailedRun and FailedJob: maps with sorted keys, zero step times', async () => {
    const port = createFakeRunPort(answers());
    const outcome = await runRunView(
      port,
      plan(['1234'], { json: ['jobs,workflowName,url,startedAt,createdAt,headSha,event'] }),
      options,
    );
    expect(outcome).toEqual({
      kind: 'done',
      code: 0,
      stdout:
        '{"createdAt":"2021-02-23T04:51:00Z","event":"push","headSha":"1234567890","jobs":[{"completedAt":"2021-02-23T04:55:34Z","conclusion":"failure","databaseId":20,"name":"sad job","startedAt":"2021-02-23T04:51:00Z","status":"completed","steps":[{"completedAt":"0001-01-01T00:00:00Z","conclusion":"success","name":"barf the quux","number":1,"startedAt":"0001-01-01T00:00:00Z","status":"completed"},{"completedAt":"0001-01-01T00:00:00Z","conclusion":"failure","name":"quux the barf","number":2,"startedAt":"0001-01-01T00:00:00Z","status":"completed"}],"url":"https://github.com/jobs/20"}],"startedAt":"0001-01-01T00:00:00Z","url":"https://github.com/runs/1234","workflowName":"CI"}\n',
      stderr: '',
    });
    expect(port.reads[2]).toEqual({ path: JOBS, query: { per_page: '100' } });
  });

  it.each([
    ['total_count above the page', { body: { total_count: 2, jobs: [FAILED_JOB] } }],
    [
      'more than 100 jobs',
      {
        body: {
          total_count: 101,
          jobs: Array.from({ length: 101 }, (_, i) => ({ ...FAILED_JOB, id: i + 1 })),
        },
      },
    ],
    ['no total_count', { body: { jobs: [FAILED_JOB] } }],
    [
      'a job id beyond 2^53−1',
      {
        text: `{"total_count":1,"jobs":[${JSON.stringify(FAILED_JOB).replace('"id":20', '"id":9007199254740993')}]}`,
      },
    ],
  ])('jobs not proved (%s): unsupported_run_export', async (_name, jobs) => {
    const port = createFakeRunPort(answers(jobs));
    expect(await runRunView(port, plan(['1234'], { json: ['jobs'] }), options)).toEqual({
      kind: 'run_export',
    });
  });

  it('a jobs_url naming another run: unproved', async () => {
    const port = createFakeRunPort({
      [RUN]: {
        body: restRun(1234, 'completed', 'failure', {
          jobs_url: 'https://api.github.com/repos/OWNER/REPO/actions/runs/99/jobs',
        }),
      },
    });
    expect(await runRunView(port, plan(['1234'], { json: ['jobs'] }), options)).toEqual({
      kind: 'run_export',
    });
    expect(port.reads).toHaveLength(1);
  });

  it('a run id beyond 2^53−1 in the body text: unsupported_run_export', async () => {
    const port = createFakeRunPort({
      [RUN]: { text: '{"id":1234,"workflow_id":9007199254740992,"status":"completed"}' },
    });
    expect(await runRunView(port, plan(['1234'], { json: ['status'] }), options)).toEqual({
      kind: 'run_export',
    });
  });

  it.each([
    ['--log', { log: ['true'] }],
    ['--log-failed --job', { 'log-failed': ['true'], job: ['20'] }],
  ])('%s with --json: gh writes the export and returns before the log', async (_name, flags) => {
    const port = createFakeRunPort({
      ...answers(),
      '/repos/OWNER/REPO/actions/jobs/20': {
        body: { ...FAILED_JOB, run_id: 1234 },
        route: 'job_view',
      },
    });
    const outcome = await runRunView(
      port,
      plan(['1234'], { ...flags, json: ['databaseId,workflowName'] }),
      options,
    );
    expect(outcome).toEqual({
      kind: 'done',
      code: 0,
      stdout: '{"databaseId":1234,"workflowName":"CI"}\n',
      stderr: '',
    });
  });

  it('a missing run: gh’s `failed to get run: HTTP 404` text, exit 1', async () => {
    const port = createFakeRunPort({
      [RUN]: { status: 404, text: '{"message":"Not Found"}', route: 'run_view' },
    });
    expect(await runRunView(port, plan(['1234'], { json: ['status'] }), options)).toEqual({
      kind: 'done',
      code: 1,
      stdout: '',
      stderr:
        'failed to get run: HTTP 404: Not Found (https://api.github.com/repos/OWNER/REPO/actions/runs/1234?exclude_pull_requests=true)\n',
    });
  });

  it.each([
    ['the export with workflowName', { json: ['workflowName,status'] }],
    ['the summary', {}],
    ['the summary of a job', { job: ['20'] }],
  ])(
    'a run whose workflow is gone (deleted): gh’s GetRun error, exit 1 (%s)',
    async (_name, flags) => {
      const port = createFakeRunPort({
        ...answers(),
        [WORKFLOW]: {
          status: 404,
          text: '{"message":"Not Found","documentation_url":"https://docs.github.com/rest"}',
          route: 'workflow_view',
        },
        '/repos/OWNER/REPO/actions/jobs/20': {
          body: { ...FAILED_JOB, run_id: 1234 },
          route: 'job_view',
        },
      });
      expect(await runRunView(port, plan(['1234'], flags), options)).toEqual({
        kind: 'done',
        code: 1,
        stdout: '',
        stderr:
          'failed to get run: HTTP 404: Not Found (https://api.github.com/repos/OWNER/REPO/actions/workflows/123)\n',
      });
    },
  );

  it('--exit-status and --verbose do not change an export; --attempt 0 is no attempt', async () => {
    const port = createFakeRunPort(answers());
    const outcome = await runRunView(
      port,
      plan(['1234'], {
        json: ['conclusion'],
        'exit-status': ['true'],
        verbose: ['true'],
        attempt: ['0'],
      }),
      options,
    );
    expect(outcome).toEqual({
      kind: 'done',
      code: 0,
      stdout: '{"conclusion":"failure"}\n',
      stderr: '',
    });
  });

  it.each([
    ['--log', [], { log: ['true'] }, 'unsupported_flag'],
    ['--log-failed', [], { 'log-failed': ['true'] }, 'unsupported_flag'],
    ['--attempt -1', [], { attempt: ['-1'], json: ['status'] }, 'invalid_usage'],
    [
      '--attempt beyond 2^53−1',
      [],
      { attempt: ['9007199254740993'], json: ['status'] },
      'unsupported_flag',
    ],
    ['--log --job', [], { log: ['true'], job: ['20'] }, 'unsupported_flag'],
  ])('%s runs gh', async (_name, args, flags, reason) => {
    const port = createFakeRunPort({});
    const ids = args.length === 0 ? ['1234'] : args;
    expect(await runRunView(port, plan(ids, flags), options)).toEqual({ kind: 'delegate', reason });
    expect(port.reads).toHaveLength(0);
  });

  it('no run id without a terminal is gh’s flag error: gh runs', async () => {
    expect(
      await runRunView(createFakeRunPort({}), plan([], { json: ['status'] }), options),
    ).toEqual({ kind: 'delegate', reason: 'invalid_usage' });
  });

  it('unknown --json field: gh’s list of the 17 run view fields, exit 1', async () => {
    const outcome = await runRunView(createFakeRunPort({}), plan(['1'], { json: ['x'] }), options);
    expect(outcome).toMatchObject({ code: 1 });
    const stderr = outcome.kind === 'done' ? outcome.stderr : '';
    expect(stderr.split('\n').slice(2, -1)).toEqual(
      [
        'attempt',
        'conclusion',
        'createdAt',
        'databaseId',
        'displayTitle',
        'event',
        'headBranch',
        'headSha',
        'jobs',
        'name',
        'number',
        'startedAt',
        'status',
        'updatedAt',
        'url',
        'workflowDatabaseId',
        'workflowName',
      ].map((field) => `  ${field}`),
    );
  });

  it('a hit on the run is quiet; a stale run notes route run_view', async () => {
    const stale = createFakeRunPort({
      [RUN]: { body: FAILED_RUN, route: 'run_view', cache: 'stale' },
    });
    const outcome = await runRunView(stale, plan(['1234'], { json: ['status'] }), options);
    expect(outcome).toMatchObject({
      stderr: expect.stringContaining('relay: run_view served stale'),
    });
    const hit = createFakeRunPort({ [RUN]: { body: FAILED_RUN, route: 'run_view', cache: 'hit' } });
    const fresh = await runRunView(hit, plan(['1234'], { json: ['status'] }), {
      ...options,
      env: { RELAY_FRESH: '1' },
    });
    expect(fresh).toMatchObject({ stderr: '' });
  });
});

const PULLS = '/repos/OWNER/REPO/pulls';
const pull = (number: number, ref: string, created: string, owner = 'OWNER', name = 'REPO') => ({
  number,
  created_at: created,
  head: { ref, repo: { name, owner: { login: owner } } },
});

/** The reads of gh's summary of run `id`: run, workflow, jobs, PRs, artifacts, annotations. */
function summaryAnswers(
  id: number,
  run: Record<string, unknown>,
  jobs: readonly Record<string, unknown>[],
  extra: Record<string, FakeAnswer | readonly FakeAnswer[]> = {},
): Record<string, FakeAnswer | readonly FakeAnswer[]> {
  const base = `/repos/OWNER/REPO/actions/runs/${String(id)}`;
  const answers: Record<string, FakeAnswer | readonly FakeAnswer[]> = {
    [base]: { body: run, route: 'run_view' },
    [WORKFLOW]: { body: restWorkflow(123, 'CI'), route: 'workflow_view' },
    [`${base}/jobs`]: { body: { total_count: jobs.length, jobs }, route: 'run_jobs' },
    [`${PULLS}?page=1`]: { body: [], route: 'pr_list' },
    [`${base}/artifacts`]: { body: {}, route: 'run_artifacts' },
  };
  for (const job of jobs) {
    answers[`/repos/OWNER/REPO/check-runs/${String(job.id)}/annotations`] = {
      body: [],
      route: 'check_run_annotations',
    };
  }
  return { ...answers, ...extra };
}

describe('gh run view (the summary) through the relay port', () => {
  it('view_test.go "exit status, failed run": gh’s bytes, exit 1; reads run, workflow, jobs, PRs, artifacts, annotations', async () => {
    const port = createFakeRunPort(
      summaryAnswers(1234, FAILED_RUN, [FAILED_JOB], {
        '/repos/OWNER/REPO/check-runs/20/annotations': { body: FAILED_JOB_ANNOTATIONS },
      }),
    );
    const outcome = await runRunView(port, plan(['1234'], { 'exit-status': ['true'] }), options);
    expect(outcome).toEqual({
      kind: 'done',
      code: 1,
      stdout:
        '\nX trunk CI · 1234\nTriggered via push about 59 minutes ago\n\nJOBS\nX sad job in 4m34s (ID 20)\n  ✓ barf the quux\n  X quux the barf\n\nANNOTATIONS\nX the job is sad\nsad job: blaze.py#420\n\n\nTo see what failed, try: gh run view 1234 --log-failed\nView this run on GitHub: https://github.com/runs/1234\n',
      stderr: '',
    });
    expect(port.reads.map((read) => read.path)).toEqual([
      RUN,
      WORKFLOW,
      JOBS,
      PULLS,
      `${RUN}/artifacts`,
      '/repos/OWNER/REPO/check-runs/20/annotations',
    ]);
    expect(port.reads[3]?.query).toEqual({
      state: 'all',
      sort: 'created',
      direction: 'desc',
      per_page: '100',
      page: '1',
    });
    // Without --exit-status the same bytes exit 0.
    const plain = createFakeRunPort(
      summaryAnswers(1234, FAILED_RUN, [FAILED_JOB], {
        '/repos/OWNER/REPO/check-runs/20/annotations': { body: FAILED_JOB_ANNOTATIONS },
      }),
    );
    expect(await runRunView(plain, plan(['1234']), options)).toMatchObject({ code: 0 });
  });

  it('view_test.go "with artifacts": no jobs, expired badge, the generic job hint', async () => {
    const port = createFakeRunPort(
      summaryAnswers(3, restRun(3, 'completed', 'success'), [], {
        '/repos/OWNER/REPO/actions/runs/3/artifacts': {
          body: {
            total_count: 3,
            artifacts: [
              { name: 'artifact-1', expired: false },
              { name: 'artifact-2', expired: true },
              { name: 'artifact-3', expired: false },
            ],
          },
        },
      }),
    );
    expect(await runRunView(port, plan(['3']), options)).toMatchObject({
      code: 0,
      stdout:
        '\n✓ trunk CI · 3\nTriggered via push about 59 minutes ago\n\nJOBS\n\n\nARTIFACTS\nartifact-1\nartifact-2 (expired)\nartifact-3\n\nFor more information about a job, try: gh run view --job=<job-id>\nView this run on GitHub: https://github.com/runs/3\n',
    });
  });

  it('view_test.go "hide job header, startup_failure": the workflow file issue text', async () => {
    const port = createFakeRunPort(
      summaryAnswers(123, restRun(123, 'completed', 'startup_failure'), []),
    );
    expect(await runRunView(port, plan(['123'], { 'exit-status': ['true'] }), options)).toEqual({
      kind: 'done',
      code: 1,
      stdout:
        '\nX trunk CI · 123\nTriggered via push about 59 minutes ago\n\nX This run likely failed because of a workflow file issue.\n\nFor more information, see: https://github.com/runs/123\n',
      stderr: '',
    });
  });

  it('--verbose lists a successful job’s steps; one job names its id in the hint', async () => {
    const port = createFakeRunPort(
      summaryAnswers(3, restRun(3, 'completed', 'success'), [SUCCESSFUL_JOB]),
    );
    const outcome = await runRunView(port, plan(['3'], { verbose: ['true'] }), options);
    expect(outcome).toMatchObject({
      stdout:
        '\n✓ trunk CI · 3\nTriggered via push about 59 minutes ago\n\nJOBS\n✓ cool job in 4m34s (ID 10)\n  ✓ fob the barz\n  ✓ barz the fob\n\nFor more information about the job, try: gh run view --job=10\nView this run on GitHub: https://github.com/runs/3\n',
    });
  });

  it.each([
    [
      'the newest PR of the branch is the run’s',
      [pull(42, 'trunk', '2021-02-01T00:00:00Z'), pull(7, 'trunk', '2021-01-01T00:00:00Z', 'fork')],
      ' OWNER/REPO#42',
    ],
    [
      'the newest PR of the branch is a fork’s',
      [
        pull(43, 'trunk', '2021-02-02T00:00:00Z', 'fork'),
        pull(42, 'trunk', '2021-02-01T00:00:00Z'),
      ],
      '',
    ],
    ['no PR of the branch', [pull(42, 'main', '2021-02-01T00:00:00Z')], ''],
  ])('PR number (gh’s GraphQL headRefName lookup): %s', async (_name, pulls, suffix) => {
    const port = createFakeRunPort(
      summaryAnswers(3, restRun(3, 'completed', 'success'), [], {
        [`${PULLS}?page=1`]: { body: pulls, route: 'pr_list' },
      }),
    );
    const outcome = await runRunView(port, plan(['3']), options);
    expect(outcome.kind === 'done' && outcome.stdout.split('\n')[1]).toBe(
      `✓ trunk CI${suffix} · 3`,
    );
  });

  it('two PRs of the branch created in the same second (GraphQL’s order unproved) run gh', async () => {
    const port = createFakeRunPort(
      summaryAnswers(3, restRun(3, 'completed', 'success'), [], {
        [`${PULLS}?page=1`]: {
          body: [
            pull(43, 'trunk', '2021-02-01T00:00:00Z', 'fork'),
            pull(42, 'trunk', '2021-02-01T00:00:00Z'),
          ],
        },
      }),
    );
    expect(await runRunView(port, plan(['3']), options)).toEqual({
      kind: 'delegate',
      reason: 'unsupported_shape',
    });
  });

  it('a PR scan past 10 pages, or annotations answering 403, runs gh', async () => {
    const next = { link: `<https://api.github.com${PULLS}?page=2>; rel="next"` };
    const pages: Record<string, FakeAnswer> = {};
    for (let page = 1; page <= 10; page += 1) {
      pages[`${PULLS}?page=${String(page)}`] = {
        body: [pull(page, 'other', '2021-01-01T00:00:00Z')],
        ...next,
      };
    }
    const port = createFakeRunPort(
      summaryAnswers(3, restRun(3, 'completed', 'success'), [], pages),
    );
    expect(await runRunView(port, plan(['3']), options)).toMatchObject({ kind: 'delegate' });
    expect(port.reads.filter((read) => read.path === PULLS)).toHaveLength(10);

    const forbidden = createFakeRunPort(
      summaryAnswers(1234, FAILED_RUN, [FAILED_JOB], {
        '/repos/OWNER/REPO/check-runs/20/annotations': {
          status: 403,
          text: '{"message":"Resource not accessible"}',
        },
      }),
    );
    expect(await runRunView(forbidden, plan(['1234']), options)).toMatchObject({
      kind: 'delegate',
    });
  });

  it('a missing run: gh’s error; a cached PR list notes route pr_list', async () => {
    const missing = createFakeRunPort({ [RUN]: { status: 404, text: '{"message":"Not Found"}' } });
    expect(await runRunView(missing, plan(['1234']), options)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('failed to get run: HTTP 404: Not Found'),
    });
    const stale = createFakeRunPort(
      summaryAnswers(3, restRun(3, 'completed', 'success'), [], {
        [`${PULLS}?page=1`]: { body: [], route: 'pr_list', cache: 'stale' },
      }),
    );
    expect(await runRunView(stale, plan(['3']), options)).toMatchObject({
      code: 0,
      stderr: expect.stringContaining('relay: pr_list served stale'),
    });
  });
});

const JOB_10 = '/repos/OWNER/REPO/actions/jobs/10';
const RUN_3 = '/repos/OWNER/REPO/actions/runs/3';

describe('gh run view --job through the relay port', () => {
  it('view_test.go "noninteractive with job": gh’s bytes; reads job, run, workflow, PRs, the job’s annotations', async () => {
    const port = createFakeRunPort(
      summaryAnswers(3, restRun(3, 'completed', 'success'), [SUCCESSFUL_JOB], {
        [JOB_10]: { body: SUCCESSFUL_JOB, route: 'job_view' },
      }),
    );
    const outcome = await runRunView(port, plan([], { job: ['10'] }), options);
    expect(outcome).toEqual({
      kind: 'done',
      code: 0,
      stdout:
        '\n✓ trunk CI · 3\nTriggered via push about 59 minutes ago\n\n✓ cool job in 4m34s (ID 10)\n  ✓ fob the barz\n  ✓ barz the fob\n\nTo see the full job log, try: gh run view --log --job=10\nView this run on GitHub: https://github.com/runs/3\n',
      stderr: '',
    });
    // gh reads neither the run's jobs nor its artifacts for a job.
    expect(port.reads.map((read) => read.path)).toEqual([
      JOB_10,
      RUN_3,
      WORKFLOW,
      PULLS,
      '/repos/OWNER/REPO/check-runs/10/annotations',
    ]);
  });

  it('a failed job: its steps, annotations, the --log-failed hint; --exit-status fails on the job', async () => {
    const answers = summaryAnswers(1234, restRun(1234, 'completed', 'success'), [FAILED_JOB], {
      '/repos/OWNER/REPO/actions/jobs/20': { body: FAILED_JOB, route: 'job_view' },
      '/repos/OWNER/REPO/check-runs/20/annotations': { body: FAILED_JOB_ANNOTATIONS },
    });
    // The run id beside --job is ignored, as gh ignores it.
    const outcome = await runRunView(
      createFakeRunPort(answers),
      plan(['99'], { job: ['20'], 'exit-status': ['true'] }),
      options,
    );
    expect(outcome).toEqual({
      kind: 'done',
      code: 1,
      stdout:
        '\n✓ trunk CI · 1234\nTriggered via push about 59 minutes ago\n\nX sad job in 4m34s (ID 20)\n  ✓ barf the quux\n  X quux the barf\n\nANNOTATIONS\nX the job is sad\nsad job: blaze.py#420\n\n\nTo see the logs for the failed steps, try: gh run view --log-failed --job=20\nView this run on GitHub: https://github.com/runs/1234\n',
      stderr: '',
    });
    const plain = await runRunView(createFakeRunPort(answers), plan([], { job: ['20'] }), options);
    expect(plain).toMatchObject({ code: 0 });
  });

  it('the job’s run failed at start-up: the workflow file issue text', async () => {
    const port = createFakeRunPort(
      summaryAnswers(3, restRun(3, 'completed', 'startup_failure'), [SUCCESSFUL_JOB], {
        [JOB_10]: { body: SUCCESSFUL_JOB },
      }),
    );
    expect(
      await runRunView(port, plan([], { job: ['10'], 'exit-status': ['true'] }), options),
    ).toMatchObject({
      code: 1,
      stdout:
        '\nX trunk CI · 3\nTriggered via push about 59 minutes ago\n\nX This run likely failed because of a workflow file issue.\n\nFor more information, see: https://github.com/runs/3\n',
    });
  });

  it('--json exports the job’s run (view_test.go: every job of the run with `jobs`): job, run, jobs', async () => {
    const port = createFakeRunPort(
      summaryAnswers(3, restRun(3, 'completed', 'success'), [SUCCESSFUL_JOB, FAILED_JOB], {
        [JOB_10]: { body: SUCCESSFUL_JOB, route: 'job_view' },
      }),
    );
    const outcome = await runRunView(
      port,
      plan([], { job: ['10'], json: ['databaseId,jobs'] }),
      options,
    );
    const exported = JSON.parse(outcome.kind === 'done' ? outcome.stdout : '{}') as {
      databaseId: number;
      jobs: { databaseId: number }[];
    };
    expect(exported.databaseId).toBe(3);
    expect(exported.jobs.map((job) => job.databaseId)).toEqual([10, 20]);
    expect(port.reads.map((read) => read.path)).toEqual([JOB_10, RUN_3, `${RUN_3}/jobs`]);
    const bare = createFakeRunPort({
      [JOB_10]: { body: SUCCESSFUL_JOB },
      [RUN_3]: { body: restRun(3, 'completed', 'success') },
    });
    expect(
      await runRunView(bare, plan([], { job: ['10'], json: ['databaseId'] }), options),
    ).toEqual({ kind: 'done', code: 0, stdout: '{"databaseId":3}\n', stderr: '' });
  });

  it('a missing job: gh’s `failed to get job: HTTP 404` text, exit 1, one read', async () => {
    for (const flags of [{ job: ['77'] }, { job: ['77'], json: ['status'] }]) {
      const port = createFakeRunPort({
        '/repos/OWNER/REPO/actions/jobs/77': {
          status: 404,
          text: '{"message":"Not Found"}',
          route: 'job_view',
        },
      });
      expect(await runRunView(port, plan([], flags), options)).toEqual({
        kind: 'done',
        code: 1,
        stdout: '',
        stderr:
          'failed to get job: HTTP 404: Not Found (https://api.github.com/repos/OWNER/REPO/actions/jobs/77)\n',
      });
      expect(port.reads).toHaveLength(1);
    }
  });

  it.each([
    ['a job id that is not canonical decimal', '010', {}],
    ['an answer naming another job', '10', { [JOB_10]: { body: { ...SUCCESSFUL_JOB, id: 11 } } }],
    ['a job without its run', '10', { [JOB_10]: { body: { ...SUCCESSFUL_JOB, run_id: null } } }],
  ])('%s: gh runs (an export: unsupported_run_export)', async (_name, id, answers) => {
    const human = await runRunView(createFakeRunPort(answers), plan([], { job: [id] }), options);
    expect(human).toEqual({ kind: 'delegate', reason: 'unsupported_shape' });
    const exported = await runRunView(
      createFakeRunPort(answers),
      plan([], { job: [id], json: ['status'] }),
      options,
    );
    expect(exported).toEqual({ kind: 'run_export' });
  });
});

/** gh's SuccessfulRun and SuccessfulJob of a run on its third attempt. */
const RUN_3_ATTEMPT_3 = restRun(3, 'completed', 'success', { run_attempt: 3 });
const JOB_ATTEMPT_3 = { ...SUCCESSFUL_JOB, run_attempt: 3 };

describe('gh run view --attempt N through the relay port (N the run’s current attempt)', () => {
  it('view_test.go "exit status, successful run, with attempt": the attempt in the header and the URL', async () => {
    const port = createFakeRunPort(summaryAnswers(3, RUN_3_ATTEMPT_3, [JOB_ATTEMPT_3]));
    const outcome = await runRunView(
      port,
      plan(['3'], { attempt: ['3'], 'exit-status': ['true'] }),
      options,
    );
    expect(outcome).toEqual({
      kind: 'done',
      code: 0,
      stdout:
        '\n✓ trunk CI · 3 (Attempt #3)\nTriggered via push about 59 minutes ago\n\nJOBS\n✓ cool job in 4m34s (ID 10)\n\nFor more information about the job, try: gh run view --job=10\nView this run on GitHub: https://github.com/runs/3/attempts/3\n',
      stderr: '',
    });
    // The run's own jobs: run_jobs' default filter=latest is the latest attempt's.
    expect(port.reads[2]).toEqual({ path: `${RUN_3}/jobs`, query: { per_page: '100' } });
  });

  it('view_test.go "associate with PR with attempt" and "with artifacts and attempt"', async () => {
    const withPr = createFakeRunPort(
      summaryAnswers(3, RUN_3_ATTEMPT_3, [JOB_ATTEMPT_3], {
        [`${PULLS}?page=1`]: { body: [pull(2898, 'trunk', '2021-02-01T00:00:00Z')] },
      }),
    );
    const pr = await runRunView(withPr, plan(['3'], { attempt: ['0x3'] }), options);
    expect(pr.kind === 'done' && pr.stdout.split('\n')[1]).toBe(
      '✓ trunk CI OWNER/REPO#2898 · 3 (Attempt #3)',
    );
    const artifacts = createFakeRunPort(
      summaryAnswers(3, RUN_3_ATTEMPT_3, [], {
        [`${RUN_3}/artifacts`]: {
          body: {
            artifacts: [
              { name: 'artifact-1', expired: false },
              { name: 'artifact-2', expired: true },
              { name: 'artifact-3', expired: false },
            ],
          },
        },
      }),
    );
    expect(await runRunView(artifacts, plan(['3'], { attempt: ['3'] }), options)).toMatchObject({
      stdout:
        '\n✓ trunk CI · 3 (Attempt #3)\nTriggered via push about 59 minutes ago\n\nJOBS\n\n\nARTIFACTS\nartifact-1\nartifact-2 (expired)\nartifact-3\n\nFor more information about a job, try: gh run view --job=<job-id>\nView this run on GitHub: https://github.com/runs/3/attempts/3\n',
    });
  });

  it('--json: `attempt`, gh’s attempt URL and the attempt’s jobs', async () => {
    const port = createFakeRunPort(summaryAnswers(3, RUN_3_ATTEMPT_3, [JOB_ATTEMPT_3]));
    const outcome = await runRunView(
      port,
      plan(['3'], { attempt: ['3'], json: ['attempt,url,jobs'] }),
      options,
    );
    expect(outcome).toMatchObject({ kind: 'done', code: 0 });
    const exported = JSON.parse(outcome.kind === 'done' ? outcome.stdout : '{}') as {
      attempt: number;
      url: string;
      jobs: { databaseId: number }[];
    };
    expect(exported.attempt).toBe(3);
    expect(exported.url).toBe('https://github.com/runs/3/attempts/3');
    expect(exported.jobs.map((job) => job.databaseId)).toEqual([10]);
  });

  it('--job with --attempt: the job’s run at that attempt', async () => {
    const port = createFakeRunPort(
      summaryAnswers(3, RUN_3_ATTEMPT_3, [JOB_ATTEMPT_3], { [JOB_10]: { body: JOB_ATTEMPT_3 } }),
    );
    const outcome = await runRunView(port, plan([], { job: ['10'], attempt: ['3'] }), options);
    expect(outcome).toMatchObject({ code: 0 });
    expect(outcome.kind === 'done' && outcome.stdout).toContain('✓ trunk CI · 3 (Attempt #3)\n');
    expect(outcome.kind === 'done' && outcome.stdout).toContain(
      'View this run on GitHub: https://github.com/runs/3/attempts/3\n',
    );
  });

  it('another attempt runs gh after the one run read (no relay route reads /attempts/N)', async () => {
    for (const flags of [{ attempt: ['2'] }, { attempt: ['4'], json: ['status'] }]) {
      const port = createFakeRunPort(summaryAnswers(3, RUN_3_ATTEMPT_3, [JOB_ATTEMPT_3]));
      expect(await runRunView(port, plan(['3'], flags), options)).toEqual({
        kind: 'delegate',
        reason: 'unsupported_flag',
      });
      expect(port.reads).toHaveLength(1);
    }
  });

  it.each([
    [
      'a job of another attempt (a rerun between the reads)',
      summaryAnswers(3, RUN_3_ATTEMPT_3, [{ ...SUCCESSFUL_JOB, run_attempt: 4 }]),
    ],
    ['a job without run_attempt', summaryAnswers(3, RUN_3_ATTEMPT_3, [SUCCESSFUL_JOB])],
    [
      'an html_url with a query (Go’s JoinPath not modelled)',
      summaryAnswers(3, { ...RUN_3_ATTEMPT_3, html_url: 'https://github.com/runs/3?x=1' }, [
        JOB_ATTEMPT_3,
      ]),
    ],
    [
      'a missing run (gh names the attempt’s URL)',
      { [RUN_3]: { status: 404, text: '{"message":"Not Found"}' } },
    ],
  ])('%s: unproved', async (_name, answers) => {
    const human = await runRunView(
      createFakeRunPort(answers),
      plan(['3'], { attempt: ['3'] }),
      options,
    );
    expect(human).toEqual({ kind: 'delegate', reason: 'unsupported_shape' });
    const exported = await runRunView(
      createFakeRunPort(answers),
      plan(['3'], { attempt: ['3'], json: ['jobs,url'] }),
      options,
    );
    expect(exported).toEqual({ kind: 'run_export' });
  });
});
