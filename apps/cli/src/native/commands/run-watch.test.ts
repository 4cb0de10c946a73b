import { describe, expect, it } from 'vitest';
import { CliError } from '../../cli-error.js';
import { createFakeRunPort } from './run-fake-port.js';
import type { FakeAnswer } from './run-fake-port.js';
import {
  FAILED_JOB,
  FAILED_JOB_ANNOTATIONS,
  SUCCESSFUL_JOB,
  restRun,
  restWorkflow,
} from './run-fixtures.js';
import { nextWatchInterval, runRunWatch } from './run-watch.js';

const REPO = {
  repo: { host: 'github.com', owner: 'OWNER', name: 'REPO' },
  source: 'flag' as const,
};
const RUN = '/repos/OWNER/REPO/actions/runs/2';
const JOBS = `${RUN}/jobs`;
const WORKFLOW = '/repos/OWNER/REPO/actions/workflows/123';
const PULLS = '/repos/OWNER/REPO/pulls';
const ANNOTATIONS_20 = '/repos/OWNER/REPO/check-runs/20/annotations';
const NOW = Date.parse('2021-02-23T05:50:00Z');

const plan = (flags: Record<string, readonly string[]> = {}, args: readonly string[] = ['2']) => ({
  args,
  flags,
  repo: REPO,
});

/** A watch harness: the writes, the sleeps, the options. */
function harness() {
  const writes: string[] = [];
  const sleeps: number[] = [];
  return {
    writes,
    sleeps,
    options: {
      env: {},
      now: () => NOW,
      sleep: (ms: number) => {
        sleeps.push(ms);
        return Promise.resolve();
      },
      write: (text: string) => {
        writes.push(text);
      },
    },
  };
}

const running = { body: restRun(2, 'in_progress', null), route: 'run_view' };
const jobsOf = (jobs: readonly unknown[]): FakeAnswer => ({
  body: { total_count: jobs.length, jobs },
  route: 'run_jobs',
});
const base = {
  [WORKFLOW]: { body: restWorkflow(123, 'CI'), route: 'workflow_view' },
  [`${PULLS}?page=1`]: { body: [], route: 'pr_list' },
};

describe('gh run watch through the relay port (client rule 10)', () => {
  it('watch_test.go "exit status respected" without a terminal: each poll after the refresh line, the last bare, exit 1', async () => {
    const port = createFakeRunPort({
      ...base,
      [RUN]: [running, running, { body: restRun(2, 'completed', 'failure') }],
      [JOBS]: [jobsOf([]), jobsOf([FAILED_JOB])],
      [ANNOTATIONS_20]: { body: FAILED_JOB_ANNOTATIONS },
    });
    const { writes, sleeps, options } = harness();
    const outcome = await runRunWatch(port, plan({ 'exit-status': ['true'] }), options);
    expect(writes).toEqual([
      'Refreshing run status every 30 seconds. Press Ctrl+C to quit.\n\n* trunk CI · 2\nTriggered via push about 59 minutes ago\n\n',
    ]);
    expect(outcome).toEqual({
      kind: 'done',
      code: 1,
      stdout:
        'X trunk CI · 2\nTriggered via push about 59 minutes ago\n\nJOBS\nX sad job in 4m34s (ID 20)\n  ✓ barf the quux\n  X quux the barf\n\nANNOTATIONS\nX the job is sad\nsad job: blaze.py#420\n\n',
      stderr: '',
    });
    expect(sleeps).toEqual([30_000]);
    // Every poll reads past the relay cache.
    const polls = port.reads.filter((read) => read.path === RUN || read.path === JOBS).slice(1);
    expect(polls.every((read) => read.headers?.['cache-control'] === 'max-age=0')).toBe(true);
  });

  it('the interval floors at 30 s, doubles while nothing changes up to 120 s, resets on a change', async () => {
    const inProgressJob = {
      ...SUCCESSFUL_JOB,
      id: 10,
      run_id: 2,
      status: 'in_progress',
      conclusion: null,
      completed_at: null,
    };
    const port = createFakeRunPort({
      ...base,
      [RUN]: [
        running,
        running,
        running,
        running,
        running,
        running,
        { body: restRun(2, 'completed', 'success') },
      ],
      [JOBS]: [
        jobsOf([inProgressJob]),
        jobsOf([inProgressJob]),
        jobsOf([inProgressJob]),
        jobsOf([inProgressJob]),
        jobsOf([SUCCESSFUL_JOB]),
        jobsOf([SUCCESSFUL_JOB]),
      ],
      '/repos/OWNER/REPO/check-runs/10/annotations': [
        { body: [] },
        { body: [] },
        { body: [] },
        { body: [] },
        { body: [] },
      ],
    });
    const { writes, sleeps, options } = harness();
    const outcome = await runRunWatch(
      port,
      plan({ interval: ['3'], 'exit-status': ['true'] }),
      options,
    );
    expect(sleeps).toEqual([30_000, 60_000, 120_000, 120_000, 30_000]);
    expect(writes.map((text) => text.split('\n')[0])).toEqual(
      [30, 60, 120, 120, 30].map(
        (n) => `Refreshing run status every ${String(n)} seconds. Press Ctrl+C to quit.`,
      ),
    );
    expect(outcome).toMatchObject({ code: 0 });
  });

  it.each([
    [{ interval: ['45'] }, 45_000],
    [{ interval: ['0'] }, 30_000],
    [{ interval: ['-5'] }, 30_000],
  ])('--interval %o: the first sleep is %i ms', async (flags, first) => {
    const port = createFakeRunPort({
      ...base,
      [RUN]: [running, running, { body: restRun(2, 'completed', 'success') }],
      [JOBS]: [jobsOf([]), jobsOf([])],
    });
    const { sleeps, options } = harness();
    await runRunWatch(port, plan(flags), options);
    expect(sleeps).toEqual([first]);
  });

  it.each([
    [30, 30, false, 60],
    [60, 30, false, 120],
    [120, 30, false, 120],
    [120, 30, true, 30],
    [200, 200, false, 200],
  ])('nextWatchInterval(%i, start %i, changed %s) = %i', (current, start, changed, next) => {
    expect(nextWatchInterval(current, start, changed)).toBe(next);
  });

  it('a completed run: gh’s `has already completed` line; --exit-status exits 1 unless success', async () => {
    const done = (conclusion: string) =>
      createFakeRunPort({ ...base, [RUN]: { body: restRun(2, 'completed', conclusion) } });
    const { options } = harness();
    expect(
      await runRunWatch(done('cancelled'), plan({ 'exit-status': ['true'] }), options),
    ).toEqual({
      kind: 'done',
      code: 1,
      stdout: "Run CI (2) has already completed with 'cancelled'\n",
      stderr: '',
    });
    const port = done('success');
    expect(await runRunWatch(port, plan({ 'exit-status': ['true'] }), options)).toMatchObject({
      code: 0,
    });
    expect(port.reads).toHaveLength(2);
  });

  it('a run whose workflow is gone (deleted): gh’s GetRun error before any poll, exit 1', async () => {
    const port = createFakeRunPort({
      [RUN]: running,
      [WORKFLOW]: {
        status: 404,
        text: '{"message":"Not Found","documentation_url":"https://docs.github.com/rest"}',
        route: 'workflow_view',
      },
    });
    const { writes, options } = harness();
    expect(await runRunWatch(port, plan({ 'exit-status': ['true'] }), options)).toEqual({
      kind: 'done',
      code: 1,
      stdout: '',
      stderr:
        'failed to get run: HTTP 404: Not Found (https://api.github.com/repos/OWNER/REPO/actions/workflows/123)\n',
    });
    expect(writes).toEqual([]);
    expect(port.reads).toHaveLength(2);
  });

  it('a run gone during the watch: gh’s `failed to get run` error after the polls printed, exit 1', async () => {
    const gone = {
      status: 404,
      text: '{"message":"Not Found","documentation_url":"https://docs.github.com/rest"}',
      route: 'run_view',
    };
    const port = createFakeRunPort({
      ...base,
      [RUN]: [running, running, gone],
      [JOBS]: [jobsOf([])],
    });
    const { writes, options } = harness();
    expect(await runRunWatch(port, plan(), options)).toEqual({
      kind: 'done',
      code: 1,
      stdout: '',
      stderr:
        'failed to get run: HTTP 404: Not Found (https://api.github.com/repos/OWNER/REPO/actions/runs/2?exclude_pull_requests=true)\n',
    });
    expect(writes).toHaveLength(1);
  });

  it('a relay fallback during the watch stops it with an error (never gh mid-watch)', async () => {
    const port = createFakeRunPort({
      ...base,
      [RUN]: [running, running, { fallback: 'forge_rate_limited' }],
      [JOBS]: [jobsOf([])],
    });
    const { writes, options } = harness();
    const error = await runRunWatch(port, plan(), options).catch((caught: unknown) => caught);
    // Once a poll is printed, even a reason that is not transient stops the watch.
    const late = createFakeRunPort({
      ...base,
      [RUN]: [running, running, { fallback: 'repo_not_public' }],
      [JOBS]: [jobsOf([])],
    });
    await expect(runRunWatch(late, plan(), harness().options)).rejects.toMatchObject({
      code: 'fallback_local',
      reason: 'repo_not_public',
    });
    expect(error).toBeInstanceOf(CliError);
    expect(error).toMatchObject({ code: 'fallback_local', reason: 'forge_rate_limited' });
    expect(writes).toHaveLength(1);

    const atStart = createFakeRunPort({ [RUN]: { fallback: 'identity_pool_depleted' } });
    await expect(runRunWatch(atStart, plan(), options)).rejects.toMatchObject({
      code: 'fallback_local',
      reason: 'identity_pool_depleted',
    });
  });

  it.each<[string, Record<string, FakeAnswer | readonly FakeAnswer[]>]>([
    ['the run', { [RUN]: { fallback: 'repo_not_public' } }],
    ['the workflow', { [RUN]: running, [WORKFLOW]: { fallback: 'route_denied' } }],
    [
      'the PR of the branch',
      {
        [RUN]: running,
        [WORKFLOW]: base[WORKFLOW],
        [`${PULLS}?page=1`]: { fallback: 'route_denied' },
      },
    ],
    ['the first poll', { ...base, [RUN]: [running, { fallback: 'repo_not_public' }] }],
  ])(
    'a fallback that is not transient before anything is printed (%s): rule 5’s local run',
    async (_name, answers) => {
      const { writes, options } = harness();
      const outcome = await runRunWatch(createFakeRunPort(answers), plan(), options);
      expect(outcome).toMatchObject({ kind: 'fallback' });
      expect(writes).toEqual([]);
    },
  );

  it('an unproved answer runs gh before anything is printed, and stops the watch after', async () => {
    const tooMany = { body: { total_count: 101, jobs: [] } };
    const before = createFakeRunPort({ ...base, [RUN]: [running, running], [JOBS]: [tooMany] });
    const { options } = harness();
    expect(await runRunWatch(before, plan(), options)).toEqual({
      kind: 'delegate',
      reason: 'unsupported_shape',
    });
    const after = createFakeRunPort({
      ...base,
      [RUN]: [running, running, running],
      [JOBS]: [jobsOf([]), tooMany],
    });
    await expect(runRunWatch(after, plan(), harness().options)).rejects.toMatchObject({
      code: 'fallback_local',
      reason: 'unsupported_shape',
    });
  });

  it.each([
    [[], {}, 'invalid_usage'],
    [['2'], { interval: ['x'] }, 'invalid_usage'],
    [['02'], {}, 'unsupported_shape'],
  ])('argv %o %o runs gh', async (args, flags, reason) => {
    const port = createFakeRunPort({});
    expect(await runRunWatch(port, plan(flags, args), harness().options)).toEqual({
      kind: 'delegate',
      reason,
    });
  });
});
