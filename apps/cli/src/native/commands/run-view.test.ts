import { describe, expect, it } from 'vitest';
import type { JqRunner } from '../export/export-output.js';
import { createFakeRunPort } from './run-fake-port.js';
import type { FakeAnswer } from './run-fake-port.js';
import { FAILED_JOB, restRun, restWorkflow } from './run-fixtures.js';
import { runRunView } from './run-view.js';

const REPO = {
  repo: { host: 'github.com', owner: 'OWNER', name: 'REPO' },
  source: 'flag' as const,
};
const RUN = '/repos/OWNER/REPO/actions/runs/1234';
const JOBS = `${RUN}/jobs`;
const WORKFLOW = '/repos/OWNER/REPO/actions/workflows/123';
const noJq: JqRunner = () => Promise.resolve('missing');
const options = { jq: noJq, env: {} };
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
    ['the human summary (GraphQL PR lookup)', [], {}, 'unsupported_shape'],
    ['--log', [], { log: ['true'], json: ['status'] }, 'unsupported_flag'],
    ['--log-failed', [], { 'log-failed': ['true'] }, 'unsupported_flag'],
    [
      '--attempt 2 (no attempts route)',
      [],
      { attempt: ['2'], json: ['status'] },
      'unsupported_flag',
    ],
    ['--attempt -1', [], { attempt: ['-1'], json: ['status'] }, 'invalid_usage'],
    ['--job', [], { job: ['20'], json: ['status'] }, 'unsupported_flag'],
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
