import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildCli, runBinary, startRelayStack } from './relay-stack.js';
import type { BuiltCli, RelayStack } from './relay-stack.js';

/**
 * gh's own flag and argument errors through the BUILT binary, logged in against relay-server
 * and @relay/forge-sim: `relay native` prints gh v2.60's exact stderr and exits 1 itself, with
 * neither a forge request nor a run of the native gh (a recording fake here). The expected
 * texts are gh's bytes (checked against gh 2.23, whose wording and usage of these commands are
 * the same).
 */

/** gh's usage of `pr list` (printed after its flag errors). */
const PR_LIST_USAGE = [
  'Usage:  gh pr list [flags]',
  '',
  'Flags:',
  '      --app string        Filter by GitHub App author',
  '  -a, --assignee string   Filter by assignee',
  '  -A, --author string     Filter by author',
  '  -B, --base string       Filter by base branch',
  '  -d, --draft             Filter by draft state',
  '  -H, --head string       Filter by head branch',
  '  -q, --jq expression     Filter JSON output using a jq expression',
  '      --json fields       Output JSON with the specified fields',
  '  -l, --label strings     Filter by label',
  '  -L, --limit int         Maximum number of items to fetch (default 30)',
  '  -S, --search query      Search pull requests with query',
  '  -s, --state string      Filter by state: {open|closed|merged|all} (default "open")',
  '  -t, --template string   Format JSON output using a Go template; see "gh help formatting"',
  '  -w, --web               List pull requests in the web browser',
  '  ',
  '',
].join('\n');

/** gh's usage of `label list`. */
const LABEL_LIST_USAGE = [
  'Usage:  gh label list [flags]',
  '',
  'Flags:',
  '  -q, --jq expression     Filter JSON output using a jq expression',
  '      --json fields       Output JSON with the specified fields',
  '  -L, --limit int         Maximum number of labels to fetch (default 30)',
  '      --order string      Order of labels returned: {asc|desc} (default "asc")',
  '  -S, --search string     Search label names and descriptions',
  '      --sort string       Sort fetched labels: {created|name} (default "created")',
  '  -t, --template string   Format JSON output using a Go template; see "gh help formatting"',
  '  -w, --web               List labels in the web browser',
  '  ',
  '',
].join('\n');

/** gh's usage of `run view` (v2.60 flags: `--attempt` is a uint64). */
const RUN_VIEW_USAGE = [
  'Usage:  gh run view [<run-id>] [flags]',
  '',
  'Flags:',
  '  -a, --attempt uint      The attempt number of the workflow run',
  '      --exit-status       Exit with non-zero status if run failed',
  '  -j, --job string        View a specific job ID from a run',
  '  -q, --jq expression     Filter JSON output using a jq expression',
  '      --json fields       Output JSON with the specified fields',
  '      --log               View full log for either a run or specific job',
  '      --log-failed        View the log for any failed steps in a run or specific job',
  '  -t, --template string   Format JSON output using a Go template; see "gh help formatting"',
  '  -v, --verbose           Show job steps',
  '  -w, --web               Open run in the browser',
  '  ',
  '',
].join('\n');

/**
 * gh's usage of `run list` (v2.60 flags: pkg/cmd/run/list/list.go; gh 2.23 prints the same
 * layout with fewer flags).
 */
const RUN_LIST_USAGE = [
  'Usage:  gh run list [flags]',
  '',
  'Flags:',
  '  -a, --all               Include disabled workflows',
  '  -b, --branch string     Filter runs by branch',
  '  -c, --commit SHA        Filter runs by the SHA of the commit',
  '      --created date      Filter runs by the date it was created',
  '  -e, --event event       Filter runs by which event triggered the run',
  '  -q, --jq expression     Filter JSON output using a jq expression',
  '      --json fields       Output JSON with the specified fields',
  '  -L, --limit int         Maximum number of runs to fetch (default 20)',
  '  -s, --status string     Filter runs by status: {queued|completed|in_progress|requested|waiting|action_required|cancelled|failure|neutral|skipped|stale|startup_failure|success|timed_out}',
  '  -t, --template string   Format JSON output using a Go template; see "gh help formatting"',
  '  -u, --user string       Filter runs by user who triggered the run',
  '  -w, --workflow string   Filter runs by workflow',
  '  ',
  '',
].join('\n');

/** gh's usage of `run watch` (the same in v2.60 and 2.23). */
const RUN_WATCH_USAGE = [
  'Usage:  gh run watch <run-id> [flags]',
  '',
  'Flags:',
  '      --exit-status    Exit with non-zero status if run fails',
  '  -i, --interval int   Refresh interval in seconds (default 3)',
  '  ',
  '',
].join('\n');

/** gh's usage of `workflow view` (the same in v2.60 and 2.23). */
const WORKFLOW_VIEW_USAGE = [
  'Usage:  gh workflow view [<workflow-id> | <workflow-name> | <filename>] [flags]',
  '',
  'Flags:',
  "  -r, --ref string   The branch or tag name which contains the version of the workflow file you'd like to view",
  '  -w, --web          Open workflow in the browser',
  '  -y, --yaml         View the workflow yaml file',
  '  ',
  '',
].join('\n');

/** `issue list --json`'s field list (gh's api.IssueFields, byte-sorted). */
const ISSUE_FIELDS = [
  'assignees',
  'author',
  'body',
  'closed',
  'closedAt',
  'comments',
  'createdAt',
  'id',
  'isPinned',
  'labels',
  'milestone',
  'number',
  'projectCards',
  'projectItems',
  'reactionGroups',
  'state',
  'stateReason',
  'title',
  'updatedAt',
  'url',
];

let cli: BuiltCli;
let stack: RelayStack;
let fakeGhDir: string;

/** A native gh that only records that it ran (its argv, one per line). */
function writeFakeGh(dir: string): string {
  const path = join(dir, 'fake-gh');
  writeFileSync(
    path,
    ['#!/bin/sh', `printf '%s\\n' "$@" > "${dir}/native-argv"`, 'exit 3', ''].join('\n'),
  );
  chmodSync(path, 0o755);
  return path;
}

beforeAll(async () => {
  cli = await buildCli('relay-flag-errors-cli');
  stack = await startRelayStack({
    bin: cli.bin,
    env: (dir) => {
      fakeGhDir = dir;
      return { RELAY_NATIVE_CLI: writeFakeGh(dir) };
    },
  });
}, 120_000);
afterAll(async () => {
  await stack.close();
  cli.remove();
});

describe('relay native prints gh’s flag and argument errors itself', () => {
  const nativeArgv = () => join(fakeGhDir, 'native-argv');
  beforeEach(() => {
    rmSync(nativeArgv(), { force: true });
  });

  it.each<[string, string[], string]>([
    [
      '--limit below 1 (a flag error with the usage)',
      ['pr', 'list', '--limit', '0', '-R', 'acme/widgets'],
      `invalid value for --limit: 0\n\n${PR_LIST_USAGE}`,
    ],
    [
      'a value pflag cannot read, even with --web',
      ['pr', 'list', '-L', 'abc', '--web', '-R', 'acme/widgets'],
      `invalid argument "abc" for "-L, --limit" flag: strconv.ParseInt: parsing "abc": invalid syntax\n\n${PR_LIST_USAGE}`,
    ],
    [
      'a short value flag last',
      ['pr', 'list', '-R', 'acme/widgets', '-dL'],
      `flag needs an argument: 'L' in -L\n\n${PR_LIST_USAGE}`,
    ],
    [
      'an argument cobra.NoArgs refuses',
      ['label', 'list', 'bug', '-R', 'acme/widgets'],
      `unknown command "bug" for "gh label list"\n\n${LABEL_LIST_USAGE}`,
    ],
    [
      'bare --json (the field list, no usage)',
      ['issue', 'list', '-R', 'acme/widgets', '--json'],
      `Specify one or more comma-separated fields for \`--json\`:\n  ${ISSUE_FIELDS.join('\n  ')}\n`,
    ],
    [
      '--jq without --json',
      ['pr', 'view', '1', '-R', 'acme/widgets', '--jq', '.title'],
      'cannot use `--jq` without specifying `--json`\n',
    ],
    [
      'too many arguments',
      ['pr', 'view', '1', '2', '-R', 'acme/widgets'],
      'accepts at most 1 arg(s), received 2\n',
    ],
    [
      'a malformed -R',
      ['release', 'view', 'v1.0.0', '-R', 'widgets'],
      'expected the "[HOST/]OWNER/REPO" format, got "widgets"\n',
    ],
    [
      'run view without a run or job id (stdout not a terminal: gh cannot prompt)',
      ['run', 'view', '-R', 'acme/widgets'],
      `run or job ID required when not running interactively\n\n${RUN_VIEW_USAGE}`,
    ],
    [
      'run view --log with --log-failed',
      ['run', 'view', '1', '--log', '--log-failed', '-R', 'acme/widgets'],
      `specify only one of --log or --log-failed\n\n${RUN_VIEW_USAGE}`,
    ],
    [
      'run list --limit below 1',
      ['run', 'list', '-L', '0', '-R', 'acme/widgets'],
      `invalid limit: 0\n\n${RUN_LIST_USAGE}`,
    ],
    [
      'run list --status outside gh’s statuses',
      ['run', 'ls', '--status', 'bogus', '-R', 'acme/widgets'],
      `invalid argument "bogus" for "-s, --status" flag: valid values are {queued|completed|in_progress|requested|waiting|action_required|cancelled|failure|neutral|skipped|stale|startup_failure|success|timed_out}\n\n${RUN_LIST_USAGE}`,
    ],
    [
      'run list with an argument (cobra.NoArgs)',
      ['run', 'list', 'ci', '-R', 'acme/widgets'],
      `unknown command "ci" for "gh run list"\n\n${RUN_LIST_USAGE}`,
    ],
    [
      'run watch without a run id (stdout not a terminal: gh cannot prompt)',
      ['run', 'watch', '-R', 'acme/widgets', '--exit-status'],
      `run ID required when not running interactively\n\n${RUN_WATCH_USAGE}`,
    ],
    [
      'run watch --interval that is not an integer',
      ['run', 'watch', '5', '-i', 'x', '-R', 'acme/widgets'],
      `invalid argument "x" for "-i, --interval" flag: strconv.ParseInt: parsing "x": invalid syntax\n\n${RUN_WATCH_USAGE}`,
    ],
    [
      'workflow view without a workflow (stdout not a terminal)',
      ['workflow', 'view', '-R', 'acme/widgets'],
      `workflow argument required when not running interactively\n\n${WORKFLOW_VIEW_USAGE}`,
    ],
    [
      'workflow view --ref without --yaml',
      ['workflow', 'view', 'ci.yml', '--ref', 'main', '-R', 'acme/widgets'],
      `\`--yaml\` required when specifying \`--ref\`\n\n${WORKFLOW_VIEW_USAGE}`,
    ],
    [
      'workflow view with two arguments',
      ['workflow', 'view', 'a', 'b', '-R', 'acme/widgets'],
      'accepts at most 1 arg(s), received 2\n',
    ],
    [
      'an argument through gh’s alias names the command',
      ['label', 'ls', 'bug', '-R', 'acme/widgets'],
      `unknown command "bug" for "gh label list"\n\n${LABEL_LIST_USAGE}`,
    ],
  ])('%s', async (_name, argv, stderr) => {
    const before = stack.sim.requests.count();
    const result = await runBinary(cli.bin, ['native', ...argv], stack.env, stack.dir);
    expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
      code: 1,
      stdout: '',
      stderr,
    });
    expect(existsSync(nativeArgv())).toBe(false);
    expect(stack.sim.requests.count()).toBe(before);
  });

  it('still hands gh a valid --limit above 100 (one page is the relay’s bound)', async () => {
    const argv = ['pr', 'list', '-L', '200', '-R', 'acme/widgets'];
    const result = await runBinary(cli.bin, ['native', ...argv], stack.env, stack.dir);
    expect(result.code).toBe(3);
    expect(result.stderr).toBe('relay: running the native gh (reason unsupported_flag)\n');
    expect(readFileSync(nativeArgv(), 'utf8')).toBe(argv.map((arg) => `${arg}\n`).join(''));
  });
});
