import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildCli, runBinary, startRelayStack } from './relay-stack.js';
import type { BuiltCli, RelayStack } from './relay-stack.js';
import {
  LABEL_LIST_USAGE,
  PR_LIST_USAGE,
  RUN_LIST_USAGE,
  RUN_VIEW_USAGE,
  RUN_WATCH_USAGE,
  WORKFLOW_LIST_USAGE,
  WORKFLOW_VIEW_USAGE,
} from '../src/native/argv/__fixtures__/gh-usages.js';

/**
 * gh's own flag and argument errors through the BUILT binary, logged in against relay-server
 * and @relay/forge-sim: `relay native` prints gh v2.60's exact stderr and exits 1 itself, with
 * neither a forge request nor a run of the native gh (a recording fake here). The expected
 * texts are gh's bytes (checked against gh 2.23, whose wording and usage of these commands are
 * the same).
 */

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
      'a malformed -R for run list (gh v2.60 prefixes the base-repo error)',
      ['run', 'list', '-R', 'widgets'],
      'failed to determine base repo: expected the "[HOST/]OWNER/REPO" format, got "widgets"\n',
    ],
    [
      'a malformed -R for run view --json',
      ['run', 'view', '5', '--json', 'name', '-R', 'a/b/c/d'],
      'failed to determine base repo: expected the "[HOST/]OWNER/REPO" format, got "a/b/c/d"\n',
    ],
    [
      'a malformed -R for run watch',
      ['run', 'watch', '5', '-R', 'acme/'],
      'failed to determine base repo: expected the "[HOST/]OWNER/REPO" format, got "acme/"\n',
    ],
    [
      'a malformed -R for workflow list (unprefixed, as gh v2.60)',
      ['workflow', 'list', '-R', 'widgets'],
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
      'workflow list --limit below 1',
      ['workflow', 'ls', '-L', '0', '-R', 'acme/widgets'],
      `invalid limit: 0\n\n${WORKFLOW_LIST_USAGE}`,
    ],
    [
      'workflow list bare --json (the field list, no usage)',
      ['workflow', 'list', '-R', 'acme/widgets', '--json'],
      'Specify one or more comma-separated fields for `--json`:\n  id\n  name\n  path\n  state\n',
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
