import { describe, expect, it } from 'vitest';
import { needsGitRemotes, planNativeInvocation } from './native-plan.js';

const REMOTES = [{ name: 'origin', url: 'https://github.com/acme/widgets.git' }];
const context = (env: Record<string, string> = {}, stdoutIsTTY = false) => ({
  env,
  stdoutIsTTY,
  gitRemotes: REMOTES,
});

describe('the planner and the search and gist reads', () => {
  it.each([
    [['search', 'issues', 'crash', '-R', 'acme/widgets'], 'search issues'],
    [['search', 'prs', 'fix', '--repo=acme/widgets', '--state', 'open'], 'search prs'],
    [['search', 'repos', 'cli'], 'search repos'],
    [['search', 'code', 'map', '-R', 'acme/widgets'], 'search code'],
    [['search', 'commits', 'fix', '-R', 'acme/widgets', '-L', '5'], 'search commits'],
    [['gist', 'view', '1234', '--files'], 'gist view'],
    [['gist', 'list', '--public', '-L', '5'], 'gist list'],
  ])('%j is served with no repository selected (-R is a filter)', (argv, command) => {
    const plan = planNativeInvocation(argv, context({ GH_REPO: 'other/repo' }));
    expect(plan).toMatchObject({ kind: 'serve', command, repo: undefined });
    expect(needsGitRemotes(argv, { env: {}, stdoutIsTTY: false })).toBe(false);
  });

  it('keeps every -R occurrence for the filter', () => {
    const plan = planNativeInvocation(
      ['search', 'issues', 'x', '-R', 'a/b', '--repo', 'c/d,e/f'],
      context(),
    );
    expect(plan).toMatchObject({ kind: 'serve', flags: { repo: ['a/b', 'c/d,e/f'] } });
  });

  it.each([
    [['search', 'issues', 'x', '--web'], 'web'],
    [['search', 'issues', 'x', '--template', '{{.}}', '--json', 'number'], 'template'],
    [['gist', 'view', '1234', '-w'], 'web'],
  ])('%j runs gh (%s)', (argv, reason) => {
    expect(planNativeInvocation(argv, context())).toEqual({ kind: 'delegate', reason });
  });

  it('a terminal runs gh', () => {
    expect(planNativeInvocation(['search', 'repos', 'cli'], context({}, true))).toEqual({
      kind: 'delegate',
      reason: 'tty_output',
    });
  });

  it('prints gh’s own refusal of an unknown --json field', () => {
    const plan = planNativeInvocation(['search', 'commits', 'x', '--json', 'nope'], context());
    expect(plan).toMatchObject({ kind: 'fail', code: 'unknown_json_field' });
  });

  it('prints gh’s flag error with gh v2.60’s usage of the command', () => {
    const plan = planNativeInvocation(['search', 'code', 'x', '--limit', 'abc'], context());
    const flags = [
      ['      --extension string', 'Filter on file extension'],
      ['      --filename string', 'Filter on filename'],
      ['  -q, --jq expression', 'Filter JSON output using a jq expression'],
      ['      --json fields', 'Output JSON with the specified fields'],
      ['      --language string', 'Filter results by language'],
      ['  -L, --limit int', 'Maximum number of code results to fetch (default 30)'],
      ['      --match strings', 'Restrict search to file contents or file path: {file|path}'],
      ['      --owner strings', 'Filter on owner'],
      ['  -R, --repo strings', 'Filter on repository'],
      ['      --size string', 'Filter on size range, in kilobytes'],
      [
        '  -t, --template string',
        'Format JSON output using a Go template; see "gh help formatting"',
      ],
      ['  -w, --web', 'Open the search query in the web browser'],
    ].map(([head = '', usage = '']) => `${head.padEnd(27)}${usage}\n`);
    expect(plan).toEqual({
      kind: 'fail',
      code: 'invalid_value',
      exitCode: 1,
      stderr: `invalid argument "abc" for "-L, --limit" flag: strconv.ParseInt: parsing "abc": invalid syntax\n\nUsage:  gh search code <query> [flags]\n\nFlags:\n${flags.join('')}  \n`,
    });
  });
});
