import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ForgeSim } from '@relay/forge-sim';
import { buildCli, runBinary, startRelayStack } from './relay-stack.js';
import type { BuiltCli, RelayStack, RelayStackOptions } from './relay-stack.js';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `relay native pr checks` through the BUILT binary against relay-server and forge-sim on
 * loopback: gh v2.60's non-TTY table of the check runs and statuses forge-sim holds for the
 * PR's head (rows in gh's order, exit 0/8/1), `--json` with the Actions workflow and event,
 * `--watch` on a finished head (the final table twice), gh's no-checks error, and
 * `--required` handed to gh.
 */
let cli: BuiltCli;

beforeAll(async () => {
  cli = await buildCli('relay-native-pr-checks-cli');
}, 120_000);
afterAll(() => {
  cli.remove();
});

/** A fake gh that records its argv and exits 7. */
function writeFakeGh(dir: string): string {
  const path = join(dir, 'fake-gh');
  writeFileSync(path, `#!/bin/sh\nprintf '%s\\n' "$@" > "${dir}/native-argv"\nexit 7\n`);
  chmodSync(path, 0o755);
  return path;
}

async function withStack(
  seed: RelayStackOptions['seed'],
  body: (stack: RelayStack) => Promise<void>,
): Promise<void> {
  const stack = await startRelayStack({
    bin: cli.bin,
    env: (path) => ({ RELAY_NATIVE_CLI: writeFakeGh(path) }),
    ...(seed === undefined ? {} : { seed }),
  });
  try {
    await body(stack);
  } finally {
    await stack.close();
  }
}

async function relay(stack: RelayStack, args: readonly string[]) {
  return runBinary(cli.bin, ['native', ...args], { HOME: stack.dir, ...stack.env }, stack.dir);
}

async function jsonOf(url: string): Promise<Record<string, unknown>> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

interface SimRun {
  readonly name: string;
  readonly details_url: string;
  readonly conclusion: string | null;
}
interface SimStatus {
  readonly context: string;
  readonly target_url: string | null;
  readonly description: string | null;
}

/** The PR's head and what forge-sim lists on it, read from forge-sim directly. */
async function headChecks(sim: ForgeSim, pullNumber: number) {
  const api = `${sim.urls.api}/repos/acme/widgets`;
  const pull = await jsonOf(`${api}/pulls/${String(pullNumber)}`);
  const sha = (pull.head as { sha: string }).sha;
  const runs = (await jsonOf(`${api}/commits/${sha}/check-runs?per_page=100`))
    .check_runs as SimRun[];
  const statuses = (await jsonOf(`${api}/commits/${sha}/status`)).statuses as SimStatus[];
  return { runs, statuses };
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

describe('relay native pr checks (built binary) against relay-server and forge-sim', () => {
  it('prints gh’s table of the head’s check runs and statuses (all pass: by name), exit 0', async () => {
    await withStack(undefined, async (stack) => {
      const n = String(stack.ids.pullNumber);
      const { runs, statuses } = await headChecks(stack.sim, stack.ids.pullNumber);
      expect(runs.length).toBeGreaterThan(1);
      // forge-sim starts and completes a seeded run in the same instant: elapsed prints 0.
      const lines = [
        ...runs.map((run) => [run.name, `${run.name}\tpass\t0\t${run.details_url}\t\n`]),
        ...statuses.map((status) => [
          status.context,
          `${status.context}\tpass\t0\t${status.target_url ?? ''}\t${status.description ?? ''}\n`,
        ]),
      ].sort((a, b) => byName(a[0] ?? '', b[0] ?? ''));
      const result = await relay(stack, ['pr', 'checks', n, '-R', 'acme/widgets']);
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe(lines.map((line) => line[1]).join(''));
      expect(result.code).toBe(0);

      // --watch on a finished head: no header, the table twice (gh's non-TTY loop).
      const watched = await relay(stack, ['pr', 'checks', n, '-R', 'acme/widgets', '--watch']);
      expect(watched.stdout).toBe(`${result.stdout}${result.stdout}`);
      expect(watched.code).toBe(0);
    });
  }, 60_000);

  it('--json gives the Actions workflow and event of job check runs; exit 0', async () => {
    await withStack(undefined, async (stack) => {
      const n = String(stack.ids.pullNumber);
      const result = await relay(stack, [
        'pr',
        'checks',
        n,
        '-R',
        'acme/widgets',
        '--json',
        'name,bucket,workflow,event',
      ]);
      expect(result.code).toBe(0);
      const rows = JSON.parse(result.stdout) as Record<string, string>[];
      // forge-sim keeps one check suite per commit, the Actions run's: every check run of
      // the head belongs to it (REST's association, which the relay reads).
      const api = `${stack.sim.urls.api}/repos/acme/widgets`;
      const actions = (await jsonOf(`${api}/actions/runs?head_sha=${stack.ids.headSha}`))
        .workflow_runs as { check_suite_id: number; name: string; event: string }[];
      const suites = (await jsonOf(`${api}/commits/${stack.ids.headSha}/check-runs`))
        .check_runs as { name: string; check_suite: { id: number } }[];
      const expected = suites.map((run) => {
        const owner = actions.find((action) => action.check_suite_id === run.check_suite.id);
        return {
          bucket: 'pass',
          event: owner?.event ?? '',
          name: run.name,
          workflow: owner?.name ?? '',
        };
      });
      expect(expected).toEqual(
        expect.arrayContaining([
          { bucket: 'pass', event: 'pull_request', name: 'build', workflow: 'CI' },
          { bucket: 'pass', event: 'pull_request', name: 'test', workflow: 'CI' },
        ]),
      );
      expect(rows).toHaveLength(expected.length + 1);
      expect(rows).toEqual(
        expect.arrayContaining([
          ...expected,
          { bucket: 'pass', event: '', name: 'ci/legacy', workflow: '' },
        ]),
      );
    });
  }, 60_000);

  it('exits 8 with a pending check and 1 with a failing one (gh’s order: fail first)', async () => {
    await withStack(
      (sim) => {
        sim.world.addCheckRun({
          owner: 'acme',
          repo: 'widgets',
          ref: 'feature/sprockets',
          name: 'deploy',
          status: 'in_progress',
        });
      },
      async (stack) => {
        const n = String(stack.ids.pullNumber);
        const pending = await relay(stack, ['pr', 'checks', n, '-R', 'acme/widgets']);
        expect(pending.code).toBe(8);
        expect(pending.stdout).toMatch(/^deploy\tpending\t0\t\S+\t$/m);
        stack.sim.world.addCheckRun({
          owner: 'acme',
          repo: 'widgets',
          ref: 'feature/sprockets',
          name: 'zz flaky',
          conclusion: 'failure',
        });
        const failing = await relay(stack, [
          'pr',
          'checks',
          n,
          '-R',
          'acme/widgets',
          '--json',
          'name',
        ]);
        // The relay cache (max-age=60 on the head, cached check reads) may still hold the
        // first answer; RELAY_FRESH=1 reads past it.
        expect(failing.code).toBe(0);
        const fresh = await runBinary(
          cli.bin,
          ['native', 'pr', 'checks', n, '-R', 'acme/widgets'],
          { HOME: stack.dir, ...stack.env, RELAY_FRESH: '1' },
          stack.dir,
        );
        expect(fresh.code).toBe(1);
        expect(fresh.stdout.split('\n')[0]).toMatch(/^zz flaky\tfail\t0\t/);
      },
    );
  }, 60_000);

  it('prints gh’s no-checks error for a PR whose head has none (the merged PR)', async () => {
    await withStack(undefined, async (stack) => {
      const n = String(stack.ids.mergedPullNumber);
      const { runs, statuses } = await headChecks(stack.sim, stack.ids.mergedPullNumber);
      expect(runs.length + statuses.length).toBe(0);
      const pull = await jsonOf(`${stack.sim.urls.api}/repos/acme/widgets/pulls/${n}`);
      const ref = (pull.head as { ref: string }).ref;
      const result = await relay(stack, ['pr', 'checks', n, '-R', 'acme/widgets']);
      expect(result).toMatchObject({
        code: 1,
        stdout: '',
        stderr: `no checks reported on the '${ref}' branch\n`,
      });
    });
  }, 60_000);

  it('prints gh’s own refusals itself: no forge request, no native gh', async () => {
    await withStack(undefined, async (stack) => {
      const before = stack.sim.requests.count();
      const cases: [string[], string][] = [
        [
          ['-R', 'acme/widgets'],
          'argument required when using the `--repo` flag\n\nUsage:  gh pr checks ',
        ],
        [
          ['1', '--fail-fast'],
          'cannot use `--fail-fast` flag without `--watch` flag\n\nUsage:  gh pr checks ',
        ],
        [
          ['1', '-i', '5'],
          'cannot use `--interval` flag without `--watch` flag\n\nUsage:  gh pr checks ',
        ],
        [['1', '--json'], 'Specify one or more comma-separated fields for `--json`:\n  bucket\n'],
        [['1', '--jq', '.'], 'cannot use `--jq` without specifying `--json`\n'],
      ];
      for (const [args, start] of cases) {
        const result = await relay(stack, ['pr', 'checks', ...args]);
        expect(result).toMatchObject({ code: 1, stdout: '' });
        expect(result.stderr.startsWith(start)).toBe(true);
      }
      expect(stack.sim.requests.count()).toBe(before);
      expect(existsSync(join(stack.dir, 'native-argv'))).toBe(false);
    });
  }, 60_000);

  it('hands --required to gh (REST cannot prove isRequired)', async () => {
    await withStack(undefined, async (stack) => {
      const n = String(stack.ids.pullNumber);
      const result = await relay(stack, ['pr', 'checks', n, '-R', 'acme/widgets', '--required']);
      expect(result.code).toBe(7);
      expect(readFileSync(join(stack.dir, 'native-argv'), 'utf8')).toBe(
        `pr\nchecks\n${n}\n-R\nacme/widgets\n--required\n`,
      );
    });
  }, 60_000);
});
