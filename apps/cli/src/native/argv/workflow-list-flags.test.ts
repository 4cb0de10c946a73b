import { describe, expect, it } from 'vitest';
import { planNativeInvocation } from './native-plan.js';
import type { NativePlanContext } from './native-plan.js';
import { WORKFLOW_LIST_USAGE } from './__fixtures__/gh-usages.js';

const PIPE: NativePlanContext = {
  env: {},
  stdoutIsTTY: false,
  gitRemotes: [{ name: 'origin', fetchUrl: 'git@github.com:acme/widgets.git' }],
};

/**
 * `gh workflow list`'s own refusals (cli/cli v2.60.0 pkg/cmd/workflow/list/list.go: IntVarP
 * limit default 50, BoolVarP all, cobra.NoArgs, AddJSONFlags over id/name/path/state, and its
 * `RunE` check `invalid limit: N`), printed by relay native as gh prints them.
 */
describe('planNativeInvocation: gh workflow list’s own refusals', () => {
  it.each<[string[], string]>([
    [['workflow', 'list', '--limit', '0'], 'invalid limit: 0'],
    [['workflow', 'ls', '-L', '-3', '--json', 'id'], 'invalid limit: -3'],
    [['workflow', 'list', '-a', '-L0'], 'invalid limit: 0'],
    [
      ['workflow', 'list', '-L', '1.5'],
      'invalid argument "1.5" for "-L, --limit" flag: strconv.ParseInt: parsing "1.5": invalid syntax',
    ],
    [['workflow', 'list', 'ci.yml'], 'unknown command "ci.yml" for "gh workflow list"'],
  ])('prints %j’s refusal with gh’s usage', (argv, message) => {
    expect(planNativeInvocation(argv, PIPE)).toEqual({
      kind: 'fail',
      code: expect.any(String) as unknown,
      exitCode: 1,
      stderr: `${message}\n\n${WORKFLOW_LIST_USAGE}`,
    });
  });

  it.each<[string[], string]>([
    [
      ['workflow', 'list', '--json'],
      'Specify one or more comma-separated fields for `--json`:\n  id\n  name\n  path\n  state\n',
    ],
    [
      ['workflow', 'list', '--json', 'id,bogus'],
      'Unknown JSON field: "bogus"\nAvailable fields:\n  id\n  name\n  path\n  state\n',
    ],
    [['workflow', 'list', '--jq', '.[]'], 'cannot use `--jq` without specifying `--json`\n'],
  ])('prints %j’s JSON flag error without the usage', (argv, stderr) => {
    expect(planNativeInvocation(argv, PIPE)).toMatchObject({ kind: 'fail', exitCode: 1, stderr });
  });

  it.each<[string[], Record<string, string[]>]>([
    [['workflow', 'list', '-L', '0x10', '--all'], { limit: ['0x10'], all: ['true'] }],
    [
      ['workflow', 'ls', '--json', 'id,state', '-q', '.[].id'],
      { json: ['id,state'], jq: ['.[].id'] },
    ],
  ])('serves %j (gh accepts it)', (argv, flags) => {
    expect(planNativeInvocation(argv, PIPE)).toMatchObject({
      kind: 'serve',
      command: 'workflow list',
      flags,
    });
  });
});
