import { describe, expect, it } from 'vitest';
import { planNativeInvocation } from './native-plan.js';
import type { NativePlanContext } from './native-plan.js';

/**
 * gh v2.60's own refusals of `pr checks` and the search commands, printed by the planner
 * (issue 21: they used to run gh). The usage blocks are written here from gh's flag
 * declarations (pkg/cmd/pr/checks/checks.go, pkg/cmd/search/code/code.go; pflag sorts the
 * flags, pads the column, reads a backquoted word of the usage as the value's name and shows
 * non-zero defaults), not from the relay's renderer.
 */
const PIPE: NativePlanContext = {
  env: {},
  stdoutIsTTY: false,
  gitRemotes: [{ name: 'origin', fetchUrl: 'git@github.com:acme/widgets.git' }],
};

const PR_CHECKS_USAGE = [
  'Usage:  gh pr checks [<number> | <url> | <branch>] [flags]',
  '',
  'Flags:',
  '      --fail-fast          Exit watch mode on first check failure',
  '  -i, --interval --watch   Refresh interval in seconds when using --watch flag (default 10)',
  '  -q, --jq expression      Filter JSON output using a jq expression',
  '      --json fields        Output JSON with the specified fields',
  '      --required           Only show checks that are required',
  '  -t, --template string    Format JSON output using a Go template; see "gh help formatting"',
  '      --watch              Watch checks until they finish',
  '  -w, --web                Open the web browser to show details about checks',
  '  ',
  '',
].join('\n');

const SEARCH_CODE_USAGE = [
  'Usage:  gh search code <query> [flags]',
  '',
  'Flags:',
  '      --extension string   Filter on file extension',
  '      --filename string    Filter on filename',
  '  -q, --jq expression      Filter JSON output using a jq expression',
  '      --json fields        Output JSON with the specified fields',
  '      --language string    Filter results by language',
  '  -L, --limit int          Maximum number of code results to fetch (default 30)',
  '      --match strings      Restrict search to file contents or file path: {file|path}',
  '      --owner strings      Filter on owner',
  '  -R, --repo strings       Filter on repository',
  '      --size string        Filter on size range, in kilobytes',
  '  -t, --template string    Format JSON output using a Go template; see "gh help formatting"',
  '  -w, --web                Open the search query in the web browser',
  '  ',
  '',
].join('\n');

const fail = (stderr: string) => ({ kind: 'fail', code: expect.any(String), exitCode: 1, stderr });

describe('pr checks: gh’s own refusals, in gh’s order', () => {
  it.each<[string[], string]>([
    [['-R', 'acme/widgets'], 'argument required when using the `--repo` flag'],
    [
      ['-R', 'acme/widgets', '--fail-fast', '--interval', '5'],
      'argument required when using the `--repo` flag',
    ],
    [['7', '--fail-fast'], 'cannot use `--fail-fast` flag without `--watch` flag'],
    [['7', '--fail-fast', '--interval=5'], 'cannot use `--fail-fast` flag without `--watch` flag'],
    [['7', '--watch=false', '--fail-fast'], 'cannot use `--fail-fast` flag without `--watch` flag'],
    // pflag's Changed: the default value given explicitly still counts.
    [['7', '-i', '10'], 'cannot use `--interval` flag without `--watch` flag'],
    [['7', '--fail-fast=false', '-i', '0'], 'cannot use `--interval` flag without `--watch` flag'],
    // time.ParseDuration(fmt.Sprintf("%ds", n)) overflows past 1<<63 / time.Second.
    [
      ['7', '--watch', '-i', '9223372037'],
      'could not parse `--interval` flag: time: invalid duration "9223372037s"',
    ],
    [
      ['7', '--watch', '--interval=-9223372037'],
      'could not parse `--interval` flag: time: invalid duration "-9223372037s"',
    ],
    [
      ['7', '--watch', '--interval', '0x7fffffffff'],
      'could not parse `--interval` flag: time: invalid duration "549755813887s"',
    ],
    [
      ['7', '--interval', 'soon'],
      'invalid argument "soon" for "-i, --interval" flag: strconv.ParseInt: parsing "soon": invalid syntax',
    ],
  ])('pr checks %j', (args, message) => {
    expect(planNativeInvocation(['pr', 'checks', ...args], PIPE)).toEqual(
      fail(`${message}\n\n${PR_CHECKS_USAGE}`),
    );
  });

  it.each<[string[], string]>([
    [['7', '8'], 'accepts at most 1 arg(s), received 2\n'],
    [['7', '--jq', '.[]'], 'cannot use `--jq` without specifying `--json`\n'],
    [['7', '--template', 'x'], 'cannot use `--template` without specifying `--json`\n'],
    [['7', '--json', 'name', '--web'], 'cannot use `--web` with `--json`\n'],
    [
      ['7', '--json', 'name,nope'],
      'Unknown JSON field: "nope"\nAvailable fields:\n  bucket\n  completedAt\n  description\n  event\n  link\n  name\n  startedAt\n  state\n  workflow\n',
    ],
    [
      ['7', '--json'],
      'Specify one or more comma-separated fields for `--json`:\n  bucket\n  completedAt\n  description\n  event\n  link\n  name\n  startedAt\n  state\n  workflow\n',
    ],
  ])('pr checks %j: gh’s error without the usage', (args, stderr) => {
    expect(planNativeInvocation(['pr', 'checks', ...args], PIPE)).toEqual(fail(stderr));
  });

  it.each<string[]>([
    ['7', '--watch', '--fail-fast', '-i', '9223372036'],
    ['7', '--watch', '--interval=-9223372036'],
    ['7', '--json', ''],
    ['7', '--json', 'name', '--jq', '.[].name'],
    ['7', '--watch', '-i', '0'],
  ])('pr checks %j passes gh’s checks', (...args) => {
    expect(planNativeInvocation(['pr', 'checks', ...args], PIPE)).toMatchObject({
      kind: 'serve',
      command: 'pr checks',
    });
  });
});

describe('search: gh’s own refusals, in gh’s order', () => {
  it.each<[string[], string]>([
    [[], 'specify search keywords or flags'],
    [['-L', '0'], '`--limit` must be between 1 and 1000'],
    [['x', '--limit', '1001'], '`--limit` must be between 1 and 1000'],
    [['x', '--limit=-1'], '`--limit` must be between 1 and 1000'],
    [['x', '-L', '0x3e9'], '`--limit` must be between 1 and 1000'],
    [['x', '-R', 'acme/widgets', '-L', '2000'], '`--limit` must be between 1 and 1000'],
  ])('search code %j', (args, message) => {
    expect(planNativeInvocation(['search', 'code', ...args], PIPE)).toEqual(
      fail(`${message}\n\n${SEARCH_CODE_USAGE}`),
    );
  });

  it.each<[string, string[], string]>([
    ['issues', [], 'specify search keywords or flags'],
    ['prs', [], 'specify search keywords or flags'],
    ['repos', [], 'specify search keywords or flags'],
    ['commits', [], 'specify search keywords or flags'],
    ['issues', ['x', '-L', '0'], '`--limit` must be between 1 and 1000'],
    ['repos', ['x', '-L', '1001'], '`--limit` must be between 1 and 1000'],
    ['commits', ['x', '-L', '-5'], '`--limit` must be between 1 and 1000'],
    // The limit is checked before --author with --app.
    ['prs', ['--author', 'a', '--app', 'b', '-L', '0'], '`--limit` must be between 1 and 1000'],
    ['issues', ['--author', 'a', '--app', 'b'], 'specify only `--author` or `--app`'],
    ['prs', ['x', '--author=', '--app='], 'specify only `--author` or `--app`'],
  ])('search %s %j', (kind, args, message) => {
    const plan = planNativeInvocation(['search', kind, ...args], PIPE);
    expect(plan).toMatchObject({ kind: 'fail', exitCode: 1 });
    const { stderr } = plan as { stderr: string };
    expect(stderr.startsWith(`${message}\n\nUsage:  gh search ${kind} [<query>] [flags]\n\n`)).toBe(
      true,
    );
    expect(stderr).toMatch(/\n {2}-w, --web +Open the search query in the web browser\n {2}\n$/);
  });

  it.each<[string, string[]]>([
    // Any flag given (even false or empty) is a flag for cobra's NFlag: no keyword needed.
    ['issues', ['--include-prs=false']],
    ['repos', ['--json', 'name']],
    ['commits', ['-R', '']],
    ['issues', ['x', '-L', '1000']],
    ['code', ['x', '-L', '1']],
  ])('search %s %j passes gh’s checks', (kind, args) => {
    expect(planNativeInvocation(['search', kind, ...args], PIPE)).toMatchObject({
      kind: 'serve',
      command: `search ${kind}`,
    });
  });
});
