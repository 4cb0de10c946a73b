import { describe, expect, it } from 'vitest';
import { CliError } from '../../cli-error.js';
import type { JqRunner } from '../export/export-output.js';
import {
  HEAD_SHA,
  REPO,
  checksWorld,
  createChecksFakePort,
  restActionsRun,
  restCheckRun,
  restStatus,
} from './pr-checks-fake-port.js';
import type { ChecksFakePort, ChecksWorld } from './pr-checks-fake-port.js';
import { runPrChecks } from './pr-checks.js';
import type { PrChecksOptions } from './pr-checks.js';

const SELECTION = {
  repo: { host: 'github.com', owner: 'acme', name: 'widgets' },
  source: 'flag' as const,
};
const plan = (args: string[], flags: Record<string, string[]> = {}) => ({
  args,
  flags,
  repo: SELECTION,
});

/** Options with a fake clock (`slept`) and captured watch output (`written`). */
function setUp(onSleep?: (ms: number, port: ChecksFakePort) => void, jq?: JqRunner) {
  const slept: number[] = [];
  const written: string[] = [];
  let port: ChecksFakePort | undefined;
  const options: PrChecksOptions = {
    jq: jq ?? (() => Promise.resolve('missing')),
    env: {},
    sleep: (ms) => {
      slept.push(ms);
      if (onSleep !== undefined && port !== undefined) onSleep(ms, port);
      return Promise.resolve();
    },
    write: (text) => {
      written.push(text);
    },
  };
  return {
    slept,
    written,
    options,
    bind: (world: ChecksWorld) => {
      port = createChecksFakePort(world);
      return port;
    },
  };
}

type RunSeed = Omit<Parameters<typeof restCheckRun>[0], 'id' | 'name'>;
const run = (name: string, id: number, extra: RunSeed = {}) => restCheckRun({ id, name, ...extra });

/**
 * gh v2.60's `Test_checksRun` non-TTY cases (pkg/cmd/pr/checks/checks_test.go), their GraphQL
 * fixtures rewritten as the REST answers the relay reads (check runs in the fixture's order
 * by id, statuses in the combined status); expected bytes and exit codes are gh's.
 */
const GH_CASES = [
  {
    name: 'some failing',
    world: checksWorld({
      checkRuns: [
        run('cool tests', 1),
        run('sad tests', 2, { conclusion: 'failure' }),
        run('slow tests', 3, { status: 'in_progress', conclusion: null }),
      ],
    }),
    stdout:
      'sad tests\tfail\t1m26s\tsweet link\t\ncool tests\tpass\t1m26s\tsweet link\t\nslow tests\tpending\t1m26s\tsweet link\t\n',
    code: 1,
  },
  {
    name: 'some pending',
    world: checksWorld({
      checkRuns: [
        run('cool tests', 1),
        run('rad tests', 2),
        run('slow tests', 3, { status: 'in_progress', conclusion: null }),
        run('sad tests', 4, { conclusion: 'cancelled' }),
      ],
    }),
    stdout:
      'cool tests\tpass\t1m26s\tsweet link\t\nrad tests\tpass\t1m26s\tsweet link\t\nslow tests\tpending\t1m26s\tsweet link\t\nsad tests\tfail\t1m26s\tsweet link\t\n',
    code: 8,
  },
  {
    name: 'all passing',
    world: checksWorld({
      checkRuns: [run('cool tests', 1), run('rad tests', 2), run('awesome tests', 3)],
    }),
    stdout:
      'awesome tests\tpass\t1m26s\tsweet link\t\ncool tests\tpass\t1m26s\tsweet link\t\nrad tests\tpass\t1m26s\tsweet link\t\n',
    code: 0,
  },
  {
    name: 'with statuses',
    world: checksWorld({
      checkRuns: [run('cool tests', 1), run('rad tests', 2)],
      statuses: [restStatus({ context: 'a status', state: 'failure' })],
    }),
    stdout:
      'a status\tfail\t0\tsweet link\t\ncool tests\tpass\t1m26s\tsweet link\t\nrad tests\tpass\t1m26s\tsweet link\t\n',
    code: 1,
  },
  {
    name: 'some skipped',
    world: checksWorld({
      checkRuns: [
        run('cool tests', 1),
        run('rad tests', 2, { conclusion: 'skipped' }),
        run('skip tests', 3, { conclusion: 'skipped' }),
      ],
    }),
    stdout:
      'cool tests\tpass\t1m26s\tsweet link\t\nrad tests\tskipping\t1m26s\tsweet link\t\nskip tests\tskipping\t1m26s\tsweet link\t\n',
    code: 0,
  },
  {
    // gh's TTY case "some cancelled" (same order); a cancelled check alone exits 0.
    name: 'some cancelled',
    world: checksWorld({
      checkRuns: [
        run('cool tests', 1),
        run('sad tests', 2, { conclusion: 'cancelled' }),
        run('awesome tests', 3),
      ],
    }),
    stdout:
      'cool tests\tpass\t1m26s\tsweet link\t\nsad tests\tfail\t1m26s\tsweet link\t\nawesome tests\tpass\t1m26s\tsweet link\t\n',
    code: 0,
  },
  {
    // gh's "events": two runs of one name in one workflow, by pull_request and by push, both
    // kept (REST has no check-run description: gh's fixture's descriptions are left out).
    name: 'events',
    world: checksWorld({
      checkRuns: [run('cool tests', 1, { suite: 901 }), run('cool tests', 2, { suite: 902 })],
      actionsRuns: [
        restActionsRun({ suite: 901, event: 'pull_request', workflow: 'tests' }),
        restActionsRun({ suite: 902, event: 'push', workflow: 'tests' }),
      ],
    }),
    stdout: 'cool tests\tpass\t1m26s\tsweet link\t\ncool tests\tpass\t1m26s\tsweet link\t\n',
    code: 0,
  },
];

describe('runPrChecks: gh’s non-TTY output and exit codes', () => {
  it.each(GH_CASES)('$name', async ({ world, stdout, code }) => {
    const { options, bind } = setUp();
    const outcome = await runPrChecks(bind(world), plan(['7']), options);
    expect(outcome).toEqual({ kind: 'done', stdout, stderr: '', code });
  });

  it.each([
    { states: ['success'], code: 0 },
    { states: ['success', 'cancelled'], code: 0 },
    { states: ['success', 'skipped', 'neutral'], code: 0 },
    { states: ['success', 'in_progress'], code: 8 },
    { states: ['queued', 'cancelled'], code: 8 },
    { states: ['failure', 'in_progress'], code: 1 },
    { states: ['timed_out'], code: 1 },
    { states: ['action_required'], code: 1 },
    // gh's fail list has no STARTUP_FAILURE: a pending bucket.
    { states: ['startup_failure'], code: 8 },
    { states: ['stale'], code: 8 },
  ])('exits $code for check runs $states', async ({ states, code }) => {
    const checkRuns = states.map((state, index) =>
      ['in_progress', 'queued'].includes(state)
        ? run(`c${String(index)}`, index + 1, { status: state, conclusion: null })
        : run(`c${String(index)}`, index + 1, { conclusion: state }),
    );
    const { options, bind } = setUp();
    const outcome = await runPrChecks(bind(checksWorld({ checkRuns })), plan(['7']), options);
    expect(outcome.kind === 'done' ? outcome.code : outcome.kind).toBe(code);
  });

  it.each([
    { state: 'error', bucket: 'fail', code: 1 },
    { state: 'failure', bucket: 'fail', code: 1 },
    { state: 'pending', bucket: 'pending', code: 8 },
    { state: 'success', bucket: 'pass', code: 0 },
  ])('a status $state is $bucket (exit $code), elapsed 0, its description last', async (row) => {
    const { options, bind } = setUp();
    const world = checksWorld({
      statuses: [restStatus({ context: 'ci/x', state: row.state, description: 'tabs ok' })],
    });
    expect(await runPrChecks(bind(world), plan(['7']), options)).toEqual({
      kind: 'done',
      stdout: `ci/x\t${row.bucket}\t0\tsweet link\ttabs ok\n`,
      stderr: '',
      code: row.code,
    });
  });

  it('prints gh’s no-checks error for a head without checks, exit 1, in 3 reads', async () => {
    const { options, bind } = setUp();
    const port = bind(checksWorld({}));
    expect(await runPrChecks(port, plan(['7']), options)).toEqual({
      kind: 'done',
      stdout: '',
      stderr: "no checks reported on the 'trunk' branch\n",
      code: 1,
    });
    expect(port.reads.map((read) => read.path)).toEqual([
      `${REPO}/pulls/7`,
      `${REPO}/commits/${HEAD_SHA}/check-runs`,
      `${REPO}/commits/${HEAD_SHA}/status`,
    ]);
  });

  it('sends max-age=60 on the PR head read and reads every check run (filter=all)', async () => {
    const { options, bind } = setUp();
    const port = bind(checksWorld({ checkRuns: [run('a', 1)] }));
    await runPrChecks(port, plan(['7']), options);
    expect(port.reads[0]?.headers).toEqual({ 'cache-control': 'max-age=60' });
    expect(port.reads[1]?.query).toEqual({ filter: 'all', per_page: '100' });
    expect(port.reads[1]?.headers).toBeUndefined();
  });

  it('finds a branch’s PR with one max-age=60 lookup whose head it uses (no PR read)', async () => {
    const { options, bind } = setUp();
    const port = bind(checksWorld({ checkRuns: [run('a', 1)] }));
    const outcome = await runPrChecks(port, plan(['trunk']), options);
    expect(outcome).toMatchObject({ kind: 'done', code: 0 });
    expect(port.reads[0]).toMatchObject({
      path: `${REPO}/pulls`,
      headers: { 'cache-control': 'max-age=60' },
    });
    expect(port.reads.filter((read) => read.path === `${REPO}/pulls/7`)).toEqual([]);
  });

  it('prints gh’s GraphQL error for a PR the repository lacks', async () => {
    const { options, bind } = setUp();
    const outcome = await runPrChecks(
      bind(checksWorld({ pullExists: false })),
      plan(['7']),
      options,
    );
    expect(outcome).toEqual({
      kind: 'done',
      stdout: '',
      stderr:
        'GraphQL: Could not resolve to a PullRequest with the number of 7. (repository.pullRequest)\n',
      code: 1,
    });
  });

  it('adds the rule 8 cache note when a read was a cache hit; stdout unchanged', async () => {
    const { options, bind } = setUp();
    const world = checksWorld({ checkRuns: [run('a', 1)], cache: 'hit' });
    const outcome = await runPrChecks(bind(world), plan(['7']), options);
    expect(outcome).toMatchObject({
      stdout: 'a\tpass\t1m26s\tsweet link\t\n',
      stderr: expect.stringMatching(/^relay: pr_view served from the relay cache \(hit/) as unknown,
    });
  });

  it('hands a relay fallback back (gh runs) before anything is printed', async () => {
    const { options, bind } = setUp();
    const world = checksWorld({ fallbackPaths: [`${REPO}/commits/${HEAD_SHA}/status`] });
    expect(await runPrChecks(bind(world), plan(['7']), options)).toEqual({
      kind: 'fallback',
      reason: 'forge_rate_limited',
    });
  });
});

describe('runPrChecks: flags', () => {
  it.each([
    { flags: { required: ['true'] }, reason: 'unsupported_flag' },
    { flags: { 'fail-fast': ['true'] }, reason: 'invalid_usage' },
    { flags: { interval: ['5'] }, reason: 'invalid_usage' },
    { flags: { watch: ['true'], interval: ['5x'] }, reason: 'invalid_usage' },
    { flags: { watch: ['true'], interval: ['1000000'] }, reason: 'invalid_usage' },
    { flags: { jq: ['.'] }, reason: 'invalid_usage' },
  ])('runs gh for $flags ($reason), reading nothing', async ({ flags, reason }) => {
    const { options, bind } = setUp();
    const port = bind(checksWorld({ checkRuns: [run('a', 1)] }));
    expect(await runPrChecks(port, plan(['7'], flags), options)).toEqual({
      kind: 'delegate',
      reason,
    });
    expect(port.reads).toEqual([]);
  });

  it('runs gh for -R without an argument (gh’s flag error)', async () => {
    const { options, bind } = setUp();
    expect(
      await runPrChecks(bind(checksWorld({})), plan([], { repo: ['acme/widgets'] }), options),
    ).toEqual({ kind: 'delegate', reason: 'invalid_usage' });
  });

  it('prints gh’s unknown-field error with the sorted field list, exit 1', async () => {
    const { options, bind } = setUp();
    const outcome = await runPrChecks(
      bind(checksWorld({})),
      plan(['7'], { json: ['nope'] }),
      options,
    );
    expect(outcome).toEqual({
      kind: 'done',
      stdout: '',
      stderr:
        'Unknown JSON field: "nope"\nAvailable fields:\n  bucket\n  completedAt\n  description\n  event\n  link\n  name\n  startedAt\n  state\n  workflow\n',
      code: 1,
    });
  });
});

describe('runPrChecks --json', () => {
  it('exports the de-duplicated rows (not table order), exit 0 even with a failure', async () => {
    const { options, bind } = setUp();
    const world = checksWorld({
      checkRuns: [
        run('build', 1, {
          startedAt: '2020-08-27T18:00:00Z',
          completedAt: null,
          status: 'in_progress',
          conclusion: null,
        }),
        run('lint', 2, { conclusion: 'failure', suite: 901 }),
      ],
      statuses: [restStatus({ context: 'ci/x', state: 'success', description: 'ok' })],
      actionsRuns: [restActionsRun({ suite: 901, event: 'pull_request', workflow: 'CI' })],
    });
    const port = bind(world);
    const fields = 'name,state,startedAt,completedAt,link,bucket,event,workflow,description';
    const outcome = await runPrChecks(port, plan(['7'], { json: [fields] }), options);
    const lines = [
      '{"bucket":"fail","completedAt":"2020-08-27T19:00:12Z","description":"","event":"pull_request","link":"sweet link","name":"lint","startedAt":"2020-08-27T18:58:46Z","state":"FAILURE","workflow":"CI"}',
      '{"bucket":"pending","completedAt":"0001-01-01T00:00:00Z","description":"","event":"","link":"sweet link","name":"build","startedAt":"2020-08-27T18:00:00Z","state":"IN_PROGRESS","workflow":""}',
      '{"bucket":"pass","completedAt":"0001-01-01T00:00:00Z","description":"ok","event":"","link":"sweet link","name":"ci/x","startedAt":"0001-01-01T00:00:00Z","state":"SUCCESS","workflow":""}',
    ];
    expect(outcome).toEqual({
      kind: 'done',
      stdout: `[${lines.join(',')}]\n`,
      stderr: '',
      code: 0,
    });
    expect(port.reads.some((read) => read.path === `${REPO}/actions/runs`)).toBe(true);
  });

  it('--json "" (no field): an empty object per check, as gh’s exporter writes them', async () => {
    const { options, bind } = setUp();
    const port = bind(
      checksWorld({ checkRuns: [run('a', 1), run('b', 2, { conclusion: 'failure' })] }),
    );
    expect(await runPrChecks(port, plan(['7'], { json: [''] }), options)).toEqual({
      kind: 'done',
      stdout: '[{},{}]\n',
      stderr: '',
      code: 0,
    });
  });

  it('reads no Actions runs when no field needs them and names are distinct', async () => {
    const { options, bind } = setUp();
    const port = bind(checksWorld({ checkRuns: [run('a', 1), run('b', 2)] }));
    await runPrChecks(port, plan(['7'], { json: ['name,bucket'] }), options);
    expect(port.reads.map((read) => read.path)).not.toContain(`${REPO}/actions/runs`);
  });

  it('exits 1 with gh’s no-checks message on an empty result', async () => {
    const { options, bind } = setUp();
    const outcome = await runPrChecks(
      bind(checksWorld({})),
      plan(['7'], { json: ['name'] }),
      options,
    );
    expect(outcome).toEqual({
      kind: 'done',
      stdout: '',
      stderr: "no checks reported on the 'trunk' branch\n",
      code: 1,
    });
  });

  it('keeps the newest run of a name (gh’s eliminateDuplicates by startedAt)', async () => {
    const { options, bind } = setUp();
    const world = checksWorld({
      checkRuns: [
        run('lint', 1, { conclusion: 'failure', startedAt: '2022-01-01T01:01:01Z' }),
        run('lint', 2, { startedAt: '2022-02-02T02:02:02Z', completedAt: '2022-02-02T02:03:02Z' }),
      ],
    });
    const outcome = await runPrChecks(bind(world), plan(['7'], { json: ['name,state'] }), options);
    expect(outcome).toMatchObject({ stdout: '[{"name":"lint","state":"SUCCESS"}]\n', code: 0 });
  });
});

/** `n` check runs with distinct names (ids 1…n), passing. */
const manyRuns = (n: number) =>
  Array.from({ length: n }, (_, index) =>
    run(`check ${String(index).padStart(4, '0')}`, index + 1),
  );

describe('runPrChecks: rule 10 bounds (logical relay reads)', () => {
  it('reads at most 21 times without Actions associations (1,000 runs, 1,000 statuses)', async () => {
    const { options, bind } = setUp();
    const statuses = Array.from({ length: 1000 }, (_, index) =>
      restStatus({ context: `s${String(index)}`, state: 'success' }),
    );
    const port = bind(checksWorld({ checkRuns: manyRuns(1000), statuses }));
    const outcome = await runPrChecks(port, plan(['7']), options);
    expect(outcome).toMatchObject({ kind: 'done', code: 0 });
    expect(port.reads).toHaveLength(21);
  });

  it('reads at most 31 (≤ 41) times with the Actions association', async () => {
    const { options, bind } = setUp();
    const checkRuns = [...manyRuns(999), run('check 0000', 5000, { suite: 901 })];
    const statuses = Array.from({ length: 1000 }, (_, index) =>
      restStatus({ context: `s${String(index)}`, state: 'success' }),
    );
    const actionsRuns = Array.from({ length: 1000 }, (_, index) =>
      restActionsRun({ suite: 1000 + index, event: 'push', workflow: 'CI' }),
    );
    const port = bind(checksWorld({ checkRuns, statuses, actionsRuns }));
    await runPrChecks(port, plan(['7']), options);
    expect(port.reads).toHaveLength(31);
    expect(port.reads.length).toBeLessThanOrEqual(41);
  });

  it.each([
    { what: 'check runs', world: { checkRuns: manyRuns(1001) } },
    {
      what: 'statuses',
      world: {
        statuses: Array.from({ length: 1001 }, (_, index) =>
          restStatus({ context: `s${String(index)}`, state: 'success' }),
        ),
      },
    },
  ])('runs gh when the $what exceed 10 pages of 100', async ({ world }) => {
    const { options, bind } = setUp();
    const port = bind(checksWorld(world));
    expect(await runPrChecks(port, plan(['7']), options)).toEqual({
      kind: 'delegate',
      reason: 'unsupported_shape',
    });
    expect(port.reads.length).toBeLessThanOrEqual(21);
  });

  it('runs gh for a check run whose shape it cannot prove (a fractional time)', async () => {
    const { options, bind } = setUp();
    const world = checksWorld({
      checkRuns: [run('a', 1, { startedAt: '2020-08-27T18:58:46.5Z' })],
    });
    expect(await runPrChecks(bind(world), plan(['7']), options)).toEqual({
      kind: 'delegate',
      reason: 'unsupported_shape',
    });
  });
});

const PENDING = checksWorld({
  checkRuns: [run('build', 1, { status: 'in_progress', conclusion: null, completedAt: null })],
});
const PASSED = checksWorld({ checkRuns: [run('build', 1)] });
const FAILED_AND_PENDING = checksWorld({
  checkRuns: [
    run('build', 1, { status: 'in_progress', conclusion: null, completedAt: null }),
    run('lint', 2, { conclusion: 'failure' }),
  ],
});
const HEADER = 'Refreshing checks status every 10 seconds. Press Ctrl+C to quit.\n\n';

describe('runPrChecks --watch (fake clock)', () => {
  it('prints gh’s non-TTY loop: header + table while pending, the final table twice', async () => {
    const setup = setUp((_ms, port) => {
      port.world = PASSED;
    });
    const port = setup.bind(PENDING);
    const outcome = await runPrChecks(port, plan(['7'], { watch: ['true'] }), setup.options);
    expect(outcome).toEqual({ kind: 'done', stdout: '', stderr: '', code: 0 });
    expect(setup.written.join('')).toBe(
      `${HEADER}build\tpending\t0\tsweet link\t\n` +
        'build\tpass\t1m26s\tsweet link\t\nbuild\tpass\t1m26s\tsweet link\t\n',
    );
  });

  it('floors the interval at 30 s and backs off to 120 s while nothing changes', async () => {
    let polls = 0;
    const setup = setUp((_ms, port) => {
      polls += 1;
      if (polls === 5) port.world = PASSED;
    });
    const port = setup.bind(PENDING);
    await runPrChecks(port, plan(['7'], { watch: ['true'] }), setup.options);
    expect(setup.slept).toEqual([30_000, 60_000, 120_000, 120_000, 120_000]);
  });

  it('goes back to the floor when the checks change, and keeps a longer --interval', async () => {
    const worlds = [FAILED_AND_PENDING, PENDING, PENDING, PASSED];
    const setup = setUp((_ms, port) => {
      port.world = worlds.shift() ?? PASSED;
    });
    const port = setup.bind(PENDING);
    await runPrChecks(port, plan(['7'], { watch: ['true'], interval: ['45'] }), setup.options);
    // changed, changed, unchanged, then passed
    expect(setup.slept).toEqual([45_000, 45_000, 45_000, 90_000]);
    expect(setup.written[0]).toBe(
      'Refreshing checks status every 45 seconds. Press Ctrl+C to quit.\n\n',
    );
  });

  it('confirms a terminal state by re-reading every page with max-age=0', async () => {
    const setup = setUp((_ms, port) => {
      port.world = PASSED;
    });
    const port = setup.bind(PENDING);
    await runPrChecks(port, plan(['7'], { watch: ['true'] }), setup.options);
    const fresh = port.reads.filter((read) => read.headers?.['cache-control'] === 'max-age=0');
    expect(fresh.map((read) => read.path)).toEqual([
      `${REPO}/pulls/7`,
      `${REPO}/commits/${HEAD_SHA}/check-runs`,
      `${REPO}/commits/${HEAD_SHA}/status`,
    ]);
    expect(port.reads.at(-1)?.headers).toEqual({ 'cache-control': 'max-age=0' });
  });

  it('keeps watching when the confirmation is no longer terminal', async () => {
    let reads = 0;
    const setup = setUp((_ms, port) => {
      reads += 1;
      port.world = PASSED;
    });
    const port = setup.bind(PASSED);
    // The first (cached) answer says passed; the fresh one still pending.
    const original = port.read.bind(port);
    port.read = (request) => {
      const fresh = request.headers?.['cache-control'] === 'max-age=0';
      if (fresh && reads === 0) port.world = PENDING;
      return original(request);
    };
    const outcome = await runPrChecks(port, plan(['7'], { watch: ['true'] }), setup.options);
    expect(outcome).toMatchObject({ code: 0 });
    expect(setup.slept).toEqual([30_000]);
    expect(setup.written[0]).toBe(HEADER);
  });

  it('stops at the first failure with --fail-fast (exit 1, pending left)', async () => {
    const setup = setUp();
    const port = setup.bind(FAILED_AND_PENDING);
    const outcome = await runPrChecks(
      port,
      plan(['7'], { watch: ['true'], 'fail-fast': ['true'] }),
      setup.options,
    );
    expect(outcome).toMatchObject({ code: 1 });
    expect(setup.slept).toEqual([]);
    const table = 'lint\tfail\t1m26s\tsweet link\t\nbuild\tpending\t0\tsweet link\t\n';
    expect(setup.written.join('')).toBe(`${HEADER}${table}${table}`);
  });

  it('stops with an error when the relay cannot serve a refresh (no gh mid-watch)', async () => {
    const setup = setUp((_ms, port) => {
      port.world = { ...PENDING, fallbackPaths: [`${REPO}/commits/${HEAD_SHA}/check-runs`] };
    });
    const port = setup.bind(PENDING);
    const error = await runPrChecks(port, plan(['7'], { watch: ['true'] }), setup.options).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(CliError);
    expect(error).toMatchObject({ code: 'fallback_local', reason: 'forge_rate_limited' });
    expect(setup.written).toEqual([HEADER, 'build\tpending\t0\tsweet link\t\n']);
  });

  it('lets a relay failure thrown by the port end the watch', async () => {
    const setup = setUp();
    const port = setup.bind(PENDING);
    const original = port.read.bind(port);
    let count = 0;
    port.read = (request) => {
      count += 1;
      if (count > 3) return Promise.reject(new CliError('relay_unreachable'));
      return original(request);
    };
    await expect(
      runPrChecks(port, plan(['7'], { watch: ['true'] }), setup.options),
    ).rejects.toMatchObject({ code: 'relay_unreachable' });
  });

  it('ends with gh’s no-checks error when a refresh finds none', async () => {
    const setup = setUp((_ms, port) => {
      port.world = checksWorld({});
    });
    const outcome = await runPrChecks(
      setup.bind(PENDING),
      plan(['7'], { watch: ['true'] }),
      setup.options,
    );
    expect(outcome).toEqual({
      kind: 'done',
      stdout: '',
      stderr: "no checks reported on the 'trunk' branch\n",
      code: 1,
    });
  });

  it('--json with --watch exports once (gh returns before watching)', async () => {
    const setup = setUp();
    const outcome = await runPrChecks(
      setup.bind(PENDING),
      plan(['7'], { watch: ['true'], json: ['name,bucket'] }),
      setup.options,
    );
    expect(outcome).toEqual({
      kind: 'done',
      stdout: '[{"bucket":"pending","name":"build"}]\n',
      stderr: '',
      code: 0,
    });
    expect(setup.slept).toEqual([]);
  });
});
