import { describe, expect, it } from 'vitest';
import type { JqRunner } from '../export/export-output.js';
import { createFakeRunPort } from './run-fake-port.js';
import type { FakeAnswer } from './run-fake-port.js';
import { TEST_RUNS, TEST_RUN_END, restRun, restWorkflow } from './run-fixtures.js';
import { runRunList } from './run-list.js';

const REPO = {
  repo: { host: 'github.com', owner: 'OWNER', name: 'REPO' },
  source: 'flag' as const,
};
const RUNS = '/repos/OWNER/REPO/actions/runs';
const WORKFLOWS = '/repos/OWNER/REPO/actions/workflows';
const NOW = Date.parse(TEST_RUN_END);
const noJq: JqRunner = () => Promise.resolve('missing');
const options = { jq: noJq, env: {}, now: NOW };

const runsPage = (runs: readonly unknown[], extra: Partial<FakeAnswer> = {}): FakeAnswer => ({
  body: { total_count: runs.length, workflow_runs: runs },
  ...extra,
});
const workflowsPage = (workflows: readonly unknown[]): FakeAnswer => ({
  body: { total_count: workflows.length, workflows },
  route: 'workflow_list',
});

const plan = (flags: Record<string, readonly string[]> = {}) => ({ flags, repo: REPO });

describe('gh run list through the relay port', () => {
  it('list_test.go "default arguments nontty": gh’s table, 2 reads (runs, workflow names)', async () => {
    const port = createFakeRunPort({
      [RUNS]: runsPage(TEST_RUNS),
      [`${WORKFLOWS}?page=1`]: workflowsPage([restWorkflow(123, 'CI')]),
    });
    const outcome = await runRunList(port, plan(), options);
    expect(outcome).toEqual({
      kind: 'done',
      code: 0,
      stdout: [
        'completed\ttimed_out\tcool commit\tCI\ttrunk\tpush\t1\t4m34s\t2021-02-23T04:51:00Z',
        'in_progress\t\tcool commit\tCI\ttrunk\tpush\t2\t4m34s\t2021-02-23T04:51:00Z',
        'completed\tsuccess\tcool commit\tCI\ttrunk\tpush\t3\t4m34s\t2021-02-23T04:51:00Z',
        'completed\tcancelled\tcool commit\tCI\ttrunk\tpush\t4\t4m34s\t2021-02-23T04:51:00Z',
        'completed\tfailure\tcool commit\tCI\ttrunk\tpush\t1234\t4m34s\t2021-02-23T04:51:00Z',
        'completed\tneutral\tcool commit\tCI\ttrunk\tpush\t6\t4m34s\t2021-02-23T04:51:00Z',
        'completed\tskipped\tcool commit\tCI\ttrunk\tpush\t7\t4m34s\t2021-02-23T04:51:00Z',
        'requested\t\tcool commit\tCI\ttrunk\tpush\t8\t4m34s\t2021-02-23T04:51:00Z',
        'queued\t\tcool commit\tCI\ttrunk\tpush\t9\t4m34s\t2021-02-23T04:51:00Z',
        'completed\tstale\tcool commit\tCI\ttrunk\tpush\t10\t4m34s\t2021-02-23T04:51:00Z',
        '',
      ].join('\n'),
      stderr: '',
    });
    expect(port.reads).toEqual([
      { path: RUNS, query: { per_page: '20', exclude_pull_requests: 'true' } },
      { path: WORKFLOWS, query: { per_page: '100', page: '1' } },
    ]);
  });

  it.each([
    ['display title wins', { display_title: 'Release 1.0' }, 'Release 1.0'],
    ['first line of the head commit', { head_commit: { message: 'one\ntwo' } }, 'one'],
    ['no head commit: empty', { head_commit: null }, ''],
  ])('title: %s', async (_name, extra, title) => {
    const port = createFakeRunPort({
      [RUNS]: runsPage([restRun(5, 'completed', 'success', extra)]),
      [`${WORKFLOWS}?page=1`]: workflowsPage([restWorkflow(123, 'CI')]),
    });
    const outcome = await runRunList(port, plan(), options);
    expect(outcome.kind === 'done' && outcome.stdout.split('\t')[2]).toBe(title);
  });

  it.each([
    ['completed: to updated_at', restRun(5, 'completed', 'success'), '4m34s'],
    [
      'started_at wins over created_at; an hour and more',
      restRun(5, 'completed', 'success', {
        run_started_at: '2021-02-23T03:00:00Z',
        updated_at: '2021-02-23T04:00:01.5Z',
      }),
      '1h0m2s',
    ],
    [
      'unfinished: to now',
      restRun(5, 'in_progress', null, { created_at: '2021-02-23T04:55:00Z' }),
      '34s',
    ],
    [
      'negative: 0s',
      restRun(5, 'completed', 'success', { updated_at: '2021-02-23T04:00:00Z' }),
      '0s',
    ],
  ])('elapsed (Go Duration.Round(time.Second).String()): %s', async (_name, run, elapsed) => {
    const port = createFakeRunPort({
      [RUNS]: runsPage([run]),
      [`${WORKFLOWS}?page=1`]: workflowsPage([restWorkflow(123, 'CI')]),
    });
    const outcome = await runRunList(port, plan(), options);
    expect(outcome.kind === 'done' && outcome.stdout.split('\t')[7]).toBe(elapsed);
  });

  it('--json without workflowName: one read, gh’s map keys sorted, zero times kept', async () => {
    const port = createFakeRunPort({ [RUNS]: runsPage([TEST_RUNS[1]]) });
    const outcome = await runRunList(
      port,
      plan({ json: ['status,conclusion,startedAt,databaseId,number,attempt'], limit: ['5'] }),
      options,
    );
    expect(outcome).toEqual({
      kind: 'done',
      code: 0,
      stdout:
        '[{"attempt":1,"conclusion":"","databaseId":2,"number":2,"startedAt":"0001-01-01T00:00:00Z","status":"in_progress"}]\n',
      stderr: '',
    });
    expect(port.reads).toEqual([
      { path: RUNS, query: { per_page: '5', exclude_pull_requests: 'true' } },
    ]);
  });

  it('filters are REST parameters as gh sends them; --workflow by file: 2 reads', async () => {
    const port = createFakeRunPort({
      [`${WORKFLOWS}/ci.yml`]: { body: restWorkflow(123, 'CI'), route: 'workflow_view' },
      [`${WORKFLOWS}/123/runs`]: runsPage([TEST_RUNS[0]], { route: 'workflow_run_list' }),
    });
    const outcome = await runRunList(
      port,
      plan({
        workflow: ['ci.yml'],
        branch: ['trunk'],
        user: ['monalisa'],
        status: ['completed'],
        event: ['push'],
        commit: ['1234567890'],
        json: ['workflowName,databaseId'],
      }),
      options,
    );
    expect(outcome).toMatchObject({ stdout: '[{"databaseId":1,"workflowName":"CI"}]\n' });
    expect(port.reads).toEqual([
      { path: `${WORKFLOWS}/ci.yml` },
      {
        path: `${WORKFLOWS}/123/runs`,
        query: {
          per_page: '20',
          exclude_pull_requests: 'true',
          branch: 'trunk',
          actor: 'monalisa',
          status: 'completed',
          event: 'push',
          head_sha: '1234567890',
        },
      },
    ]);
  });

  it('--workflow by name: one page of workflows, case-folded, active only unless --all', async () => {
    const workflows = workflowsPage([
      restWorkflow(1, 'Lint', 'disabled_inactivity', '.github/workflows/lint.yml'),
      restWorkflow(2, 'Build', 'active'),
    ]);
    const answers = {
      [`${WORKFLOWS}?page=1`]: workflows,
      [`${WORKFLOWS}/1/runs`]: runsPage([restRun(7, 'completed', 'success', { workflow_id: 1 })]),
    };
    const inactive = await runRunList(
      createFakeRunPort(answers),
      plan({ workflow: ['lint'] }),
      options,
    );
    expect(inactive).toEqual({
      kind: 'done',
      code: 1,
      stdout: '',
      stderr: 'could not find any workflows named lint\n',
    });
    const port = createFakeRunPort(answers);
    const all = await runRunList(port, plan({ workflow: ['LINT'], all: ['true'] }), options);
    expect(all).toMatchObject({ code: 0, stdout: expect.stringContaining('\tLint\ttrunk\t') });
    expect(port.reads).toHaveLength(2);
  });

  it('--workflow naming two workflows: gh’s error without a prompt', async () => {
    const port = createFakeRunPort({
      [`${WORKFLOWS}?page=1`]: workflowsPage([
        restWorkflow(1, 'CI', 'active', '.github/workflows/a.yml'),
        restWorkflow(2, 'ci', 'active', '.github/workflows/b.yaml'),
      ]),
    });
    const outcome = await runRunList(port, plan({ workflow: ['Ci'] }), options);
    expect(outcome).toMatchObject({
      code: 1,
      stderr: 'could not resolve to a unique workflow; found: a.yml b.yaml\n',
    });
  });

  it('--workflow by id that REST does not have: gh’s HTTP 404 text', async () => {
    const port = createFakeRunPort({
      [`${WORKFLOWS}/9`]: {
        status: 404,
        text: '{"message":"Not Found","documentation_url":"https://docs.github.com"}',
        route: 'workflow_view',
      },
    });
    const outcome = await runRunList(port, plan({ workflow: ['9'] }), options);
    expect(outcome).toEqual({
      kind: 'done',
      code: 1,
      stdout: '',
      stderr: 'HTTP 404: Not Found (https://api.github.com/repos/OWNER/REPO/actions/workflows/9)\n',
    });
  });

  it('--workflow by name over more than one page of workflows is past rule 10’s bound of 2', async () => {
    const full = Array.from({ length: 100 }, (_, i) => restWorkflow(i + 1, `W${String(i)}`));
    const port = createFakeRunPort({ [`${WORKFLOWS}?page=1`]: workflowsPage(full) });
    expect(await runRunList(port, plan({ workflow: ['nope'] }), options)).toEqual({
      kind: 'delegate',
      reason: 'unsupported_shape',
    });
    expect(port.reads).toHaveLength(1);
    const json = createFakeRunPort({ [`${WORKFLOWS}?page=1`]: workflowsPage(full) });
    expect(await runRunList(json, plan({ workflow: ['nope'], json: ['name'] }), options)).toEqual({
      kind: 'run_export',
    });
  });

  it('unfiltered list with names: at most 111 reads (1 runs page, 10 workflow pages, 100 lookups)', async () => {
    const listed = Array.from({ length: 999 }, (_, i) => restWorkflow(1000 + i, `W${String(i)}`));
    const answers: Record<string, FakeAnswer> = {};
    for (let page = 0; page < 10; page += 1) {
      answers[`${WORKFLOWS}?page=${String(page + 1)}`] = workflowsPage(
        listed.slice(page * 100, page * 100 + 100),
      );
    }
    // 100 runs of 100 workflows the list lacks (deleted): one lookup each.
    const runs = Array.from({ length: 100 }, (_, i) =>
      restRun(i + 1, 'completed', 'success', { workflow_id: 5000 + i }),
    );
    answers[RUNS] = runsPage(runs);
    for (let i = 0; i < 100; i += 1) {
      answers[`${WORKFLOWS}/${String(5000 + i)}`] = {
        body: restWorkflow(5000 + i, `Deleted ${String(i)}`, 'deleted'),
        route: 'workflow_view',
      };
    }
    const port = createFakeRunPort(answers);
    const outcome = await runRunList(port, plan({ limit: ['100'] }), options);
    expect(outcome).toMatchObject({ code: 0 });
    expect(outcome.kind === 'done' && outcome.stdout.split('\n')[99]).toContain(
      '\tDeleted 99\ttrunk\t',
    );
    expect(port.reads).toHaveLength(111);

    // A tenth full page would make gh read an eleventh: unproved.
    const more = Array.from({ length: 1000 }, (_, i) => restWorkflow(1000 + i, `W${String(i)}`));
    for (let page = 0; page < 10; page += 1) {
      answers[`${WORKFLOWS}?page=${String(page + 1)}`] = workflowsPage(
        more.slice(page * 100, page * 100 + 100),
      );
    }
    const over = createFakeRunPort(answers);
    expect(await runRunList(over, plan({ limit: ['100'] }), options)).toEqual({
      kind: 'delegate',
      reason: 'unsupported_shape',
    });
    expect(over.reads).toHaveLength(11);
  });

  it.each([
    ['the table', {}],
    ['an export with workflowName', { json: ['databaseId,workflowName'] }],
  ])(
    'a run whose workflow REST no longer has (404): gh’s GetRuns error, exit 1 (%s)',
    async (_name, flags) => {
      const port = createFakeRunPort({
        [RUNS]: runsPage([
          restRun(1, 'completed', 'success', { workflow_id: 123 }),
          restRun(2, 'completed', 'success', { workflow_id: 77 }),
        ]),
        [`${WORKFLOWS}?page=1`]: workflowsPage([restWorkflow(123, 'CI')]),
        [`${WORKFLOWS}/77`]: {
          status: 404,
          text: '{"message":"Not Found","documentation_url":"https://docs.github.com/rest"}',
          route: 'workflow_view',
        },
      });
      expect(await runRunList(port, plan(flags), options)).toEqual({
        kind: 'done',
        code: 1,
        stdout: '',
        stderr:
          'failed to get runs: HTTP 404: Not Found (https://api.github.com/repos/OWNER/REPO/actions/workflows/77)\n',
      });
      expect(port.reads).toHaveLength(3);
    },
  );

  it('a workflow id read once per deleted workflow, however many runs name it', async () => {
    const port = createFakeRunPort({
      [RUNS]: runsPage([
        restRun(1, 'completed', 'success', { workflow_id: 77 }),
        restRun(2, 'completed', 'success', { workflow_id: 77 }),
      ]),
      [`${WORKFLOWS}?page=1`]: workflowsPage([]),
      [`${WORKFLOWS}/77`]: { body: restWorkflow(77, 'Old'), route: 'workflow_view' },
    });
    const outcome = await runRunList(port, plan(), options);
    expect(outcome).toMatchObject({ code: 0 });
    expect(port.reads).toHaveLength(3);
  });

  it.each([
    [
      'an id beyond 2^53−1 (read from the body text)',
      `{"total_count":1,"workflow_runs":[{"id":9007199254740993,"status":"completed"}]}`,
    ],
    [
      'a workflow id beyond −(2^53−1)',
      `{"total_count":1,"workflow_runs":[{"id":1,"workflow_id":-9007199254740993}]}`,
    ],
    [
      'an unrelated integer beyond 2^53',
      `{"total_count":1,"workflow_runs":[{"id":1,"repository":{"id":18014398509481984}}]}`,
    ],
  ])('client rule 9: %s falls back with unsupported_run_export', async (_name, text) => {
    const port = createFakeRunPort({ [RUNS]: { text } });
    expect(await runRunList(port, plan({ json: ['databaseId'] }), options)).toEqual({
      kind: 'run_export',
    });
    const human = createFakeRunPort({ [RUNS]: { text } });
    expect(await runRunList(human, plan(), options)).toEqual({
      kind: 'delegate',
      reason: 'unsupported_shape',
    });
  });

  it('2^53−1 itself is exact and served', async () => {
    const port = createFakeRunPort({
      [RUNS]: {
        text: '{"total_count":1,"workflow_runs":[{"id":9007199254740991,"status":"queued"}]}',
      },
    });
    expect(await runRunList(port, plan({ json: ['databaseId'] }), options)).toMatchObject({
      stdout: '[{"databaseId":9007199254740991}]\n',
    });
  });

  it('a page shorter than the limit with a next link: gh would read on, unproved', async () => {
    const port = createFakeRunPort({
      [RUNS]: runsPage([TEST_RUNS[0]], {
        link: `<https://api.github.com${RUNS}?page=2>; rel="next"`,
      }),
    });
    expect(await runRunList(port, plan({ json: ['status'] }), options)).toEqual({
      kind: 'run_export',
    });
  });

  it.each([
    [{ status: ['COMPLETED'] }, { kind: 'delegate', reason: 'unsupported_flag' }],
    [{ status: ['bogus'] }, { kind: 'delegate', reason: 'invalid_usage' }],
    [{ limit: ['0'] }, { kind: 'delegate', reason: 'invalid_usage' }],
    [{ limit: ['101'] }, { kind: 'delegate', reason: 'unsupported_flag' }],
    [{ created: ['>2024-01-01'] }, { kind: 'delegate', reason: 'unsupported_flag' }],
    [{ json: ['bogus'] }, { kind: 'done', code: 1, stdout: '' }],
  ])('shape %o', async (flags, expected) => {
    const port = createFakeRunPort({});
    expect(await runRunList(port, plan(flags), options)).toMatchObject(expected);
    expect(port.reads).toHaveLength(0);
  });

  it('no runs: no output (gh’s silent NoResultsError), `[]` with --json, no name reads', async () => {
    const empty = () => createFakeRunPort({ [RUNS]: runsPage([]) });
    expect(await runRunList(empty(), plan(), options)).toEqual({
      kind: 'done',
      code: 0,
      stdout: '',
      stderr: '',
    });
    const port = empty();
    expect(await runRunList(port, plan({ json: ['workflowName'] }), options)).toMatchObject({
      stdout: '[]\n',
    });
    expect(port.reads).toHaveLength(1);
  });

  it('client rule 8: a stale run list adds the cache note on stderr, stdout unchanged', async () => {
    const port = createFakeRunPort({ [RUNS]: runsPage([TEST_RUNS[0]], { cache: 'stale' }) });
    const outcome = await runRunList(port, plan({ json: ['databaseId'] }), options);
    expect(outcome).toMatchObject({
      stdout: '[{"databaseId":1}]\n',
      stderr: expect.stringMatching(
        /^relay: run_list served stale from the relay cache .*unsafe for live decisions\n$/,
      ),
    });
    const quiet = createFakeRunPort({ [RUNS]: runsPage([TEST_RUNS[0]], { cache: 'stale' }) });
    const silenced = await runRunList(quiet, plan({ json: ['databaseId'] }), {
      ...options,
      env: { RELAY_QUIET_CACHE: '1' },
    });
    expect(silenced).toMatchObject({ stderr: '' });
  });
});
