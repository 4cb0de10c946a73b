import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ForgeSim } from '@relay/forge-sim';
import { buildCli, runBinary, startRelayStack } from './relay-stack.js';
import type { BuiltCli, RelayStack } from './relay-stack.js';

/**
 * `relay native run list`, `run view --json`, `workflow list` and `workflow view` end to end:
 * the BUILT binary against relay-server and @relay/forge-sim on loopback (routes run_list,
 * run_view, run_jobs, workflow_list, workflow_view, workflow_run_list), compared with what
 * forge-sim answers directly.
 */
let cli: BuiltCli;
const relay = async (args: readonly string[], env: Record<string, string>) => {
  const { stdoutBytes: _bytes, ...text } = await runBinary(cli.bin, args, env);
  return text;
};

beforeAll(async () => {
  cli = await buildCli('relay-native-run-cli');
}, 120_000);
afterAll(() => {
  cli.remove();
});

interface RestRun {
  id: number;
  status: string;
  conclusion: string | null;
  display_title: string;
  head_branch: string;
  event: string;
  run_started_at: string;
  workflow_id: number;
  run_number: number;
  html_url: string;
}
interface RestJob {
  id: number;
  name: string;
  status: string;
  conclusion: string | null;
  started_at: string;
  completed_at: string | null;
  html_url: string;
  steps: { name: string; number: number; status: string; conclusion: string | null }[];
}

describe('relay native run and workflow reads through relay-server and the simulated forge', () => {
  let stack: RelayStack;
  let sim: ForgeSim;
  let env: Record<string, string>;
  let slowRunId = 0;

  beforeEach(async () => {
    stack = await startRelayStack({
      bin: cli.bin,
      env: () => ({ RELAY_NO_FALLBACK: '1' }),
      seed: (forge, clock) => {
        // A run of a second workflow that took 4m34s and failed.
        const { run } = forge.world.addRun({
          owner: 'acme',
          repo: 'widgets',
          workflow: 'Nightly',
          status: 'in_progress',
          event: 'schedule',
          jobs: [{ name: 'slow', steps: ['Set up job', 'Soak'] }],
        });
        clock.advance(274_000);
        forge.world.completeRun('acme', 'widgets', run.id, 'failure');
        slowRunId = run.id;
      },
    });
    ({ sim, env } = stack);
  });
  afterEach(async () => {
    await stack.close();
  });

  const direct = async <T>(path: string): Promise<T> =>
    (await (await fetch(`${sim.urls.api}${path}`)).json()) as T;

  it('run list: gh’s table with workflow names and --json, newest first', async () => {
    const { workflow_runs: runs } = await direct<{ workflow_runs: RestRun[] }>(
      '/repos/acme/widgets/actions/runs?per_page=20',
    );
    const { workflows } = await direct<{ workflows: { id: number; name: string }[] }>(
      '/repos/acme/widgets/actions/workflows',
    );
    const names = new Map(workflows.map((w) => [w.id, w.name]));
    expect(runs.length).toBeGreaterThanOrEqual(2);
    const row = (run: RestRun) =>
      [
        run.status,
        run.conclusion ?? '',
        run.display_title,
        names.get(run.workflow_id),
        run.head_branch,
        run.event,
        String(run.id),
        run.id === slowRunId ? '4m34s' : '0s',
        run.run_started_at,
      ].join('\t') + '\n';

    const table = await relay(['native', 'run', 'list', '-R', 'acme/widgets'], env);
    expect(table).toEqual({ code: 0, stdout: runs.map(row).join(''), stderr: '' });

    const json = await relay(
      [
        'native',
        'run',
        'list',
        '-R',
        'acme/widgets',
        '-L',
        '1',
        '--json',
        'databaseId,workflowName,conclusion',
      ],
      env,
    );
    const [first] = runs;
    expect(json).toEqual({
      code: 0,
      stdout: `[{"conclusion":"${first?.conclusion ?? ''}","databaseId":${String(first?.id)},"workflowName":"${names.get(first?.workflow_id ?? 0) ?? ''}"}]\n`,
      stderr: '',
    });

    const filtered = await relay(
      [
        'native',
        'run',
        'list',
        '-R',
        'acme/widgets',
        '--workflow',
        'nightly',
        '--json',
        'databaseId',
        '--jq',
        '.[].databaseId',
      ],
      env,
    );
    expect(filtered).toEqual({ code: 0, stdout: `${String(slowRunId)}\n`, stderr: '' });

    const none = await relay(
      ['native', 'run', 'list', '-R', 'acme/widgets', '--branch', 'no-such-branch'],
      env,
    );
    expect(none).toEqual({ code: 0, stdout: '', stderr: '' });
  }, 60_000);

  it('run view --json: the run, its workflow name and every job; a missing run is gh’s 404', async () => {
    const jobs = await direct<{ jobs: RestJob[] }>(
      `/repos/acme/widgets/actions/runs/${String(slowRunId)}/jobs`,
    );
    const view = await relay(
      [
        'native',
        'run',
        'view',
        String(slowRunId),
        '-R',
        'acme/widgets',
        '--json',
        'jobs,workflowName,conclusion,databaseId',
      ],
      env,
    );
    const exported = jobs.jobs.map((job) => ({
      completedAt: job.completed_at,
      conclusion: job.conclusion,
      databaseId: job.id,
      name: job.name,
      startedAt: job.started_at,
      status: job.status,
      steps: job.steps.map((step) => ({
        completedAt: job.completed_at,
        // Go decodes a null conclusion as "" (forge-sim leaves the steps' unset).
        conclusion: step.conclusion ?? '',
        name: step.name,
        number: step.number,
        startedAt: job.started_at,
        status: step.status,
      })),
      url: job.html_url,
    }));
    expect(view).toEqual({
      code: 0,
      stdout: `${JSON.stringify({ conclusion: 'failure', databaseId: slowRunId, jobs: exported, workflowName: 'Nightly' })}\n`,
      stderr: '',
    });

    const missing = await relay(
      ['native', 'run', 'view', '1', '-R', 'acme/widgets', '--json', 'status'],
      env,
    );
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe(
      'failed to get run: HTTP 404: Not Found (https://api.github.com/repos/acme/widgets/actions/runs/1?exclude_pull_requests=true)\n',
    );
  }, 60_000);

  it('a run whose workflow was deleted: gh’s GetRun and GetRuns errors, exit 1', async () => {
    const { workflow_id: workflowId } = await direct<RestRun>(
      `/repos/acme/widgets/actions/runs/${String(slowRunId)}`,
    );
    // The workflow file is gone: REST's /actions/workflows/{id} answers 404 under its runs.
    sim.world.getRepo('acme', 'widgets')?.workflows.delete(workflowId);
    const gone = `HTTP 404: Not Found (https://api.github.com/repos/acme/widgets/actions/workflows/${String(workflowId)})\n`;
    const failed = { code: 1, stdout: '', stderr: `failed to get run: ${gone}` };
    const id = String(slowRunId);
    const repo = ['-R', 'acme/widgets'];
    expect(await relay(['native', 'run', 'view', id, ...repo], env)).toEqual(failed);
    expect(
      await relay(['native', 'run', 'view', id, ...repo, '--json', 'workflowName'], env),
    ).toEqual(failed);
    expect(await relay(['native', 'run', 'watch', id, ...repo], env)).toEqual(failed);
    expect(await relay(['native', 'run', 'list', ...repo], env)).toEqual({
      code: 1,
      stdout: '',
      stderr: `failed to get runs: ${gone}`,
    });
  }, 60_000);

  it('run view (the summary): gh’s bytes with the PR of the branch, jobs, artifacts; --exit-status', async () => {
    const { workflow_runs: runs } = await direct<{
      workflow_runs: (RestRun & { html_url: string })[];
    }>('/repos/acme/widgets/actions/runs');
    const demo = runs.find((run) => run.head_branch === 'feature/sprockets');
    expect(demo).toBeDefined();
    const id = String(demo?.id);
    const jobs = await direct<{ jobs: RestJob[] }>(`/repos/acme/widgets/actions/runs/${id}/jobs`);
    const pulls = await direct<{ number: number; head: { ref: string } }[]>(
      '/repos/acme/widgets/pulls?state=all&sort=created&direction=desc',
    );
    const pr = pulls.find((p) => p.head.ref === 'feature/sprockets');
    expect(pr).toBeDefined();
    const view = await relay(['native', 'run', 'view', id, '-R', 'acme/widgets'], env);
    expect(view).toEqual({
      code: 0,
      stdout:
        `\n✓ feature/sprockets CI acme/widgets#${String(pr?.number)} · ${id}\n` +
        'Triggered via pull_request less than a minute ago\n\nJOBS\n' +
        jobs.jobs.map((job) => `✓ ${job.name} in 0s (ID ${String(job.id)})`).join('\n') +
        '\n\nARTIFACTS\ncoverage\n\n' +
        'For more information about a job, try: gh run view --job=<job-id>\n' +
        `View this run on GitHub: ${demo?.html_url ?? ''}\n`,
      stderr: '',
    });

    const slow = runs.find((run) => run.id === slowRunId);
    const [slowJob] = (
      await direct<{ jobs: RestJob[] }>(
        `/repos/acme/widgets/actions/runs/${String(slowRunId)}/jobs`,
      )
    ).jobs;
    const failed = await relay(
      ['native', 'run', 'view', String(slowRunId), '-R', 'acme/widgets', '--exit-status'],
      env,
    );
    expect(failed).toEqual({
      code: 1,
      stdout:
        `\nX main Nightly · ${String(slowRunId)}\nTriggered via schedule less than a minute ago\n\n` +
        `JOBS\nX slow in 4m34s (ID ${String(slowJob?.id)})\n  * Set up job\n  * Soak\n\n` +
        `To see what failed, try: gh run view ${String(slowRunId)} --log-failed\n` +
        `View this run on GitHub: ${slow?.html_url ?? ''}\n`,
      // The second summary reads the same PR list: a relay cache hit, rule 8's note.
      stderr: expect.stringMatching(/^relay: pr_list served from the relay cache \(hit;[^\n]*\n$/),
    });
  }, 60_000);

  it('run view --job and --attempt (the current one): gh’s job summary and attempt header; upstream reads counted', async () => {
    const id = String(slowRunId);
    const slow = await direct<RestRun>(`/repos/acme/widgets/actions/runs/${id}`);
    const [job] = (await direct<{ jobs: RestJob[] }>(`/repos/acme/widgets/actions/runs/${id}/jobs`))
      .jobs;
    const jobId = String(job?.id);
    const jobPath = `/repos/acme/widgets/actions/jobs/${jobId}`;
    sim.requests.clear();
    const viewed = await relay(
      ['native', 'run', 'view', '--job', jobId, '-R', 'acme/widgets', '--exit-status'],
      env,
    );
    expect(viewed).toEqual({
      code: 1,
      stdout:
        `\nX main Nightly · ${id}\nTriggered via schedule less than a minute ago\n\n` +
        `X slow in 4m34s (ID ${jobId})\n  * Set up job\n  * Soak\n\n` +
        `To see the logs for the failed steps, try: gh run view --log-failed --job=${jobId}\n` +
        `View this run on GitHub: ${slow.html_url}\n`,
      stderr: '',
    });
    // The job, its run, the workflow, the PR list, the job's annotations: no jobs list, no
    // artifacts (gh reads neither for a job).
    expect(sim.requests.count({ path: jobPath })).toBe(1);
    expect(sim.requests.count({ path: `/repos/acme/widgets/actions/runs/${id}` })).toBe(1);
    expect(sim.requests.count({ path: `/repos/acme/widgets/actions/runs/${id}/jobs` })).toBe(0);
    expect(sim.requests.count({ path: `/repos/acme/widgets/actions/runs/${id}/artifacts` })).toBe(
      0,
    );
    expect(
      sim.requests.count({ path: `/repos/acme/widgets/check-runs/${jobId}/annotations` }),
    ).toBe(1);

    const exported = await relay(
      ['native', 'run', 'view', '-j', jobId, '-R', 'acme/widgets', '--json', 'databaseId,attempt'],
      env,
    );
    expect(exported).toEqual({
      code: 0,
      stdout: `{"attempt":1,"databaseId":${id}}\n`,
      stderr: expect.stringMatching(/^(relay: [^\n]*\n)*$/) as string,
    });

    const attempt = await relay(
      [
        'native',
        'run',
        'view',
        id,
        '-R',
        'acme/widgets',
        '--attempt',
        '1',
        '--json',
        'url,attempt',
      ],
      env,
    );
    expect(attempt.stdout).toBe(`{"attempt":1,"url":"${slow.html_url}/attempts/1"}\n`);
    const summary = await relay(
      ['native', 'run', 'view', id, '-R', 'acme/widgets', '-a', '1'],
      env,
    );
    expect(summary.code).toBe(0);
    expect(summary.stdout.split('\n').slice(0, 2)).toEqual([
      '',
      `X main Nightly · ${id} (Attempt #1)`,
    ]);
    expect(summary.stdout).toContain(`View this run on GitHub: ${slow.html_url}/attempts/1\n`);

    // Another attempt needs /attempts/N (no relay route); RELAY_NO_FALLBACK=1 refuses gh.
    const other = await relay(['native', 'run', 'view', id, '-R', 'acme/widgets', '-a', '2'], env);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('fallback_local, reason unsupported_flag');
    const missing = await relay(
      ['native', 'run', 'view', '--job', '999999', '-R', 'acme/widgets'],
      env,
    );
    expect(missing).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'failed to get job: HTTP 404: Not Found (https://api.github.com/repos/acme/widgets/actions/jobs/999999)\n',
    });
  }, 60_000);

  it('run view with more than 100 jobs: client rule 9’s unsupported_run_export, the summary and --log run gh', async () => {
    const { run } = sim.world.addRun({
      owner: 'acme',
      repo: 'widgets',
      workflow: 'Matrix',
      jobs: Array.from({ length: 101 }, (_, i) => ({ name: `shard ${String(i)}` })),
    });
    const big = await relay(
      ['native', 'run', 'view', String(run.id), '-R', 'acme/widgets', '--json', 'jobs'],
      env,
    );
    expect(big.code).toBe(1);
    expect(big.stdout).toBe('');
    expect(big.stderr).toContain('(unsupported_run_export)');

    const human = await relay(['native', 'run', 'view', String(run.id), '-R', 'acme/widgets'], env);
    expect(human.code).toBe(1);
    expect(human.stderr).toContain('fallback_local, reason unsupported_shape');
    const log = await relay(
      ['native', 'run', 'view', String(slowRunId), '-R', 'acme/widgets', '--log'],
      env,
    );
    expect(log.code).toBe(1);
    expect(log.stderr).toContain('fallback_local, reason unsupported_flag');
  }, 60_000);

  it('run watch: a finished run’s line; an unfinished one polled every 30 s on the relay until it completes', async () => {
    const done = await relay(
      ['native', 'run', 'watch', String(slowRunId), '-R', 'acme/widgets', '--exit-status'],
      env,
    );
    expect(done).toEqual({
      code: 1,
      stdout: `Run Nightly (${String(slowRunId)}) has already completed with 'failure'\n`,
      stderr: '',
    });

    const { run, jobs } = sim.world.addRun({
      owner: 'acme',
      repo: 'widgets',
      workflow: 'Watched',
      status: 'in_progress',
      jobs: [{ name: 'build', steps: ['Set up job'] }],
    });
    const id = String(run.id);
    const [job] = jobs;
    const header = (symbol: string) =>
      `${symbol} main Watched · ${id}\nTriggered via push less than a minute ago\n\n`;
    const started = Date.now();
    const watching = relay(['native', 'run', 'watch', id, '-R', 'acme/widgets', '-i', '3'], env);
    // The first poll happens at once; the run completes before the second, 30 s later.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    sim.world.completeRun('acme', 'widgets', run.id, 'success');
    const watched = await watching;
    expect(Date.now() - started).toBeGreaterThanOrEqual(30_000);
    expect(watched).toEqual({
      code: 0,
      stdout:
        'Refreshing run status every 30 seconds. Press Ctrl+C to quit.\n\n' +
        `${header('*')}JOBS\n* build (ID ${String(job?.id)})\n  * Set up job\n` +
        `${header('✓')}JOBS\n✓ build in 0s (ID ${String(job?.id)})\n  * Set up job\n`,
      stderr: '',
    });
  }, 90_000);

  it('workflow list and workflow view: gh’s non-TTY bytes', async () => {
    const { workflows } = await direct<{
      workflows: { id: number; name: string; path: string; state: string }[];
    }>('/repos/acme/widgets/actions/workflows');
    const ci = workflows.find((w) => w.name === 'CI');
    const nightly = workflows.find((w) => w.name === 'Nightly');
    expect(ci).toBeDefined();
    const list = await relay(['native', 'workflow', 'list', '-R', 'acme/widgets'], env);
    expect(list).toEqual({
      code: 0,
      stdout: workflows.map((w) => `${w.name}\t${w.state}\t${String(w.id)}\n`).join(''),
      stderr: '',
    });
    const json = await relay(
      ['native', 'workflow', 'list', '-R', 'acme/widgets', '--json', 'name,path'],
      env,
    );
    expect(json.stdout).toBe(
      `${JSON.stringify(workflows.map((w) => ({ name: w.name, path: w.path })))}\n`,
    );

    const { workflow_runs: runs } = await direct<{ workflow_runs: RestRun[] }>(
      `/repos/acme/widgets/actions/workflows/${String(nightly?.id)}/runs`,
    );
    const view = await relay(['native', 'workflow', 'view', 'Nightly', '-R', 'acme/widgets'], env);
    const file = nightly?.path.split('/').at(-1) ?? '';
    expect(view).toEqual({
      code: 0,
      stdout:
        `Nightly - ${file}\nID: ${String(nightly?.id)}\n\nTotal runs ${String(runs.length)}\nRecent runs\n` +
        runs
          .map(
            (run) =>
              `completed\tfailure\t${run.display_title}\tNightly\t${run.head_branch}\tschedule\t4m34s\t${String(run.id)}\n`,
          )
          .join('') +
        `\nTo see more runs for this workflow, try: gh run list --workflow ${file}\n` +
        `To see the YAML for this workflow, try: gh workflow view ${file} --yaml\n`,
      stderr: '',
    });

    // --yaml: the file through the contents API (it ends in a newline); a ref without it is gh's error.
    const contents = await fetch(`${sim.urls.api}/repos/acme/widgets/contents/${ci?.path ?? ''}`);
    const yaml = await relay(
      ['native', 'workflow', 'view', 'ci.yml', '--yaml', '-R', 'acme/widgets'],
      env,
    );
    expect(contents.status).toBe(200);
    const { content } = (await contents.json()) as { content: string };
    expect(yaml).toEqual({
      code: 0,
      stdout: Buffer.from(content, 'base64').toString('utf8'),
      stderr: '',
    });
    const noRef = await relay(
      [
        'native',
        'workflow',
        'view',
        'ci.yml',
        '--yaml',
        '--ref',
        'no-such-ref',
        '-R',
        'acme/widgets',
      ],
      env,
    );
    expect(noRef).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'could not find workflow file ci.yml on no-such-ref, try specifying a different ref\n',
    });

    const missing = await relay(['native', 'workflow', 'view', 'nope', '-R', 'acme/widgets'], env);
    expect(missing).toEqual({
      code: 1,
      stdout: '',
      stderr: 'could not find any workflows named nope\n',
    });
  }, 60_000);
});
