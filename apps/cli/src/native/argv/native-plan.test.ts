import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SERVED_COMMAND_FLAGS } from './gh-command-table.js';
import { DELEGATE_REASONS, needsGitRemotes, planNativeInvocation } from './native-plan.js';
import type { DelegateReason, NativePlanContext } from './native-plan.js';
import { GH_USAGE_FAILURES } from './gh-command-checks.js';
import type { GhUsageFailureCode } from './gh-command-checks.js';
import {
  RUN_LIST_USAGE,
  RUN_VIEW_USAGE,
  RUN_WATCH_USAGE,
  WORKFLOW_VIEW_USAGE,
} from './__fixtures__/gh-usages.js';

const PIPE: NativePlanContext = {
  env: {},
  stdoutIsTTY: false,
  gitRemotes: [{ name: 'origin', fetchUrl: 'git@github.com:acme/widgets.git' }],
};
const ACME = { repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, source: 'flag' };

describe('planNativeInvocation: served shapes', () => {
  it('serves pr view with -R', () => {
    expect(planNativeInvocation(['pr', 'view', '1', '-R', 'acme/widgets'], PIPE)).toEqual({
      kind: 'serve',
      command: 'pr view',
      args: ['1'],
      flags: { repo: ['acme/widgets'] },
      repo: ACME,
    });
  });

  it('serves repeated --json and takes the repository from the git remotes', () => {
    expect(
      planNativeInvocation(['issue', 'list', '--json', 'number', '--json=title', '-L', '5'], PIPE),
    ).toEqual({
      kind: 'serve',
      command: 'issue list',
      args: [],
      flags: { json: ['number', 'title'], limit: ['5'] },
      repo: { ...ACME, source: 'git_remote' },
    });
  });

  it('hands api its argv untouched (its own planner decides, rule 7)', () => {
    expect(planNativeInvocation(['api', 'repos/o/r', '--web', '--', '-x'], PIPE)).toEqual({
      kind: 'serve',
      command: 'api',
      args: ['repos/o/r', '--web', '--', '-x'],
      flags: {},
      repo: undefined,
    });
  });

  it.each<[string[], NativePlanContext['env'], string]>([
    [['pr', 'list'], { GH_REPO: 'acme/widgets' }, 'pr list'],
    [['pr', 'diff', '7', '--patch', '--color', 'never', '-R', 'acme/widgets'], {}, 'pr diff'],
    [['issue', 'view', '3', '--json', 'title', '-q', '.title'], {}, 'issue view'],
    [['repo', 'view', 'acme/widgets', '--json', 'name'], {}, 'repo view'],
    [['repo', 'view', 'https://github.com/acme/widgets'], {}, 'repo view'],
    [['repo', 'view'], { GH_REPO: 'other/ignored' }, 'repo view'],
    [['release', 'list', '--exclude-drafts', '-O', 'asc'], {}, 'release list'],
    [['release', 'view', 'v1.0.0'], {}, 'release view'],
    [['label', 'list', '--sort', 'name'], {}, 'label list'],
    [['pr', 'list', '-s', 'MERGED', '-L', '1_0'], {}, 'pr list'],
    [['pr', 'view', '--', '-5'], {}, 'pr view'],
    [['pr', 'list', '--web=false'], {}, 'pr list'],
    [['pr', 'list'], { GH_HOST: 'GitHub.com' }, 'pr list'],
    [['label', 'list', '-R', 'acme/.github'], {}, 'label list'],
    [['repo', 'view', 'a-b/x_y.z'], {}, 'repo view'],
  ])('serves %j (env %j)', (argv, env, command) => {
    const plan = planNativeInvocation(argv, { ...PIPE, env });
    expect(plan).toMatchObject({ kind: 'serve', command });
  });

  it.each([
    ['pr', 'view'],
    ['pr', 'diff'],
  ])(
    '%s %s of a PR URL serves without any repository (gh’s finder reads the URL’s)',
    (group, verb) => {
      const argv = [group, verb, 'https://github.com/acme/widgets/pull/3'];
      expect(planNativeInvocation(argv, { ...PIPE, gitRemotes: [] })).toEqual({
        kind: 'serve',
        command: `${group} ${verb}`,
        args: ['https://github.com/acme/widgets/pull/3'],
        flags: {},
        repo: undefined,
      });
    },
  );

  it('repo view ignores GH_REPO and reads the remotes', () => {
    const plan = planNativeInvocation(['repo', 'view'], { ...PIPE, env: { GH_REPO: 'o/x' } });
    expect(plan).toMatchObject({ repo: { repo: { owner: 'acme' }, source: 'git_remote' } });
  });
});

describe('planNativeInvocation: delegations', () => {
  it.each<[string[], Partial<NativePlanContext>, DelegateReason]>([
    [[], {}, 'no_command'],
    [['--help'], {}, 'help'],
    [['--version'], {}, 'help'],
    [['help', 'pr'], {}, 'help'],
    [['pr'], {}, 'help'],
    [['pr', '--help'], {}, 'help'],
    [['pr', 'view', '1', '-h'], {}, 'help'],
    [['frobnicate'], {}, 'unknown_command'],
    [['pr', 'frobnicate'], {}, 'unknown_command'],
    [['co', '12'], {}, 'unknown_command'],
    [['pr', 'create', '--fill'], {}, 'write'],
    [['issue', 'comment', '3', '--body', 'hi'], {}, 'write'],
    [['repo', 'clone', 'acme/widgets'], {}, 'write'],
    [['release', 'download', 'v1'], {}, 'write'],
    [['copilot'], {}, 'write'],
    [['pr', 'status'], {}, 'unsupported_command'],
    [['cache', 'list'], {}, 'unsupported_command'],
    [['org', 'list'], {}, 'unsupported_command'],
    [['status'], {}, 'unsupported_command'],
    [['pr', '-R', 'acme/widgets', 'view', '1'], {}, 'unsupported_shape'],
    [['pr', 'view', '1', '--frob'], {}, 'unknown_flag'],
    [['pr', 'view', '1', '-z'], {}, 'unknown_flag'],
    [['repo', 'view', '-R', 'acme/widgets'], {}, 'unknown_flag'],
    [['pr', 'list', '-l', 'a"b'], {}, 'invalid_usage'],
    [['pr', 'list', '--json', 'number', '-l', 'x', '--json', '"'], {}, 'invalid_usage'],
    [['pr', 'list', '-s', 'cloſed'], {}, 'invalid_usage'],
    [['pr', 'list', '-L', 'zéro'], {}, 'invalid_usage'],
    [['pr', 'list', 'été'], {}, 'invalid_usage'],
    [['pr', 'view', '1', '-R', 'https://github.com/acme'], {}, 'invalid_usage'],
    [['issue', 'view', 'https://github.com/acme/widgets/issues/1', '-R', 'x'], {}, 'invalid_usage'],
    [['pr', 'view', '1', '--web'], {}, 'web'],
    [['pr', 'view', '1', '2', '--web', '--help'], {}, 'help'],
    [['pr', 'view', '1', '-h', '--json'], {}, 'help'],
    [['pr', 'list', '--web', '-L', '200'], {}, 'web'],
    [['pr', 'list', '--json', 'number', '-L', '101', '--template', '{{.}}'], {}, 'template'],
    [['pr', 'view', 'x', '-R', 'widgets'], { stdoutIsTTY: true }, 'tty_output'],
    [['pr', 'list', '-dw'], {}, 'web'],
    [['issue', 'view', '1', '--json', 'title', '--template', '{{.title}}'], {}, 'template'],
    [['pr', 'view', '1', '--json', 'title', '-t', '{{.title}}'], {}, 'template'],
    [['pr', 'view', '1', '--comments'], {}, 'unsupported_flag'],
    [['pr', 'diff', '1', '--color=always'], {}, 'color_output'],
    [['pr', 'view', '1'], { stdoutIsTTY: true }, 'tty_output'],
    [['pr', 'view', '1'], { env: { GH_FORCE_TTY: '100' } }, 'tty_output'],
    [['pr', 'view', '1'], { env: { CLICOLOR_FORCE: '1' } }, 'color_output'],
    [['repo', 'view', 'widgets'], {}, 'unsupported_shape'],
    [['pr', 'view', '1'], { gitRemotes: [] }, 'repo_unresolved'],
    [
      ['repo', 'view'],
      { gitRemotes: [{ name: 'origin', fetchUrl: '/srv/x.git' }] },
      'repo_unresolved',
    ],
    [['pr', 'view', '1', '-R', 'ghe.example.com/acme/widgets'], {}, 'other_host'],
    [['pr', 'view', '1'], { env: { GH_HOST: 'ghe.example.com' } }, 'other_host'],
    // gh reads GH_HOST verbatim: with spaces it is no host gh can reach (its request URL fails
    // to parse), also when -R names OWNER/REPO only.
    [['pr', 'view', '1'], { env: { GH_HOST: ' github.com' } }, 'other_host'],
    [['label', 'list', '-R', 'acme/widgets'], { env: { GH_HOST: 'github.com ' } }, 'other_host'],
    [['issue', 'list'], { env: { GH_HOST: '\tgithub.com\n' } }, 'other_host'],
    [['pr', 'list'], { env: { GH_HOST: '   ' } }, 'other_host'],
    // Names no GitHub repository can have, which the relay refuses as paths (400 invalid_path):
    // gh asks for them and prints its own error.
    [['label', 'list', '-R', 'acme/..'], {}, 'unsupported_shape'],
    [['issue', 'list', '-R', 'acme/.'], {}, 'unsupported_shape'],
    [['issue', 'view', '1', '-R', 'acme/wid%67ets'], {}, 'unsupported_shape'],
    [['pr', 'list'], { env: { GH_REPO: 'acme/wid\\x' } }, 'unsupported_shape'],
    [['release', 'list', '-R', 'github.com/../widgets'], {}, 'unsupported_shape'],
    [['repo', 'view', 'acme/wïdgets'], {}, 'unsupported_shape'],
    [['pr', 'view', '1', '-R', 'acme/wid gets'], {}, 'unsupported_shape'],
    [
      ['pr', 'view', '1'],
      { gitRemotes: [{ name: 'origin', fetchUrl: 'git@ghe.example.com:acme/widgets.git' }] },
      'other_host',
    ],
  ])('delegates %j (%j) as %s', (argv, context, reason) => {
    expect(planNativeInvocation(argv, { ...PIPE, ...context })).toEqual({
      kind: 'delegate',
      reason,
    });
  });

  it('CLICOLOR_FORCE=0 is no colour', () => {
    const plan = planNativeInvocation(['pr', 'view', '1'], {
      ...PIPE,
      env: { CLICOLOR_FORCE: '0' },
    });
    expect(plan.kind).toBe('serve');
  });
});

describe('planNativeInvocation: gh’s own flag and argument errors, printed without gh', () => {
  it.each<[string[], Partial<NativePlanContext>, GhUsageFailureCode]>([
    [['pr', 'list', '--limit'], {}, 'missing_value'],
    [['pr', 'list', '--web', '-dL'], {}, 'missing_value'],
    [['pr', 'list', '--web=maybe'], {}, 'invalid_value'],
    [['pr', 'list', '-L', 'ten', '--web'], {}, 'invalid_value'],
    [['pr', 'list', '-s', 'draft'], {}, 'invalid_value'],
    [['pr', 'diff', '1', '--color', 'rainbow'], {}, 'invalid_value'],
    [['release', 'list', '-O', 'up'], {}, 'invalid_value'],
    [['label', 'list', '--sort', 'size'], {}, 'invalid_value'],
    [['pr', 'list', '--limit', 'x', '--help'], {}, 'invalid_value'],
    [['issue', 'list', '--json'], {}, 'missing_json_fields'],
    [['pr', 'list', 'extra'], {}, 'arguments'],
    [['pr', 'list', 'extra', '--web'], {}, 'arguments'],
    [['label', 'list', 'extra'], {}, 'arguments'],
    [['issue', 'view'], {}, 'arguments'],
    [['pr', 'view', '1', '2', '--jq', '.x'], {}, 'arguments'],
    [['pr', 'view', '1', '--jq', '.title'], {}, 'jq_without_json'],
    [['pr', 'view', '1', '--template', '{{.}}'], {}, 'template_without_json'],
    [['pr', 'view', '1', '--jq', '.', '--template', '{{.}}'], {}, 'jq_without_json'],
    [['pr', 'view', '1', '--json', 'title', '--web=false'], {}, 'json_with_web'],
    [['pr', 'view', '1', '--json', 'title,bogus', '-t', '{{.}}'], {}, 'unknown_json_field'],
    [['pr', 'list', '--json', 'bogus', '--limit', '0'], {}, 'unknown_json_field'],
    [['pr', 'list', '--limit', '0', '--web'], {}, 'invalid_limit'],
    [['issue', 'list', '-L', '-0x5'], { stdoutIsTTY: true }, 'invalid_limit'],
    [['label', 'list', '-L', '0', '-S', 'bug', '--sort', 'name'], {}, 'invalid_limit'],
    [['pr', 'list', '--author', 'a', '--app', ''], {}, 'author_with_app'],
    [['label', 'list', '-S', 'bug', '--order', 'asc'], {}, 'search_with_order'],
    [['gist', 'list', '--limit', '0', '--public'], {}, 'invalid_limit'],
    [['gist', 'list', 'extra'], {}, 'arguments'],
    [['gist', 'list', '--include-content', '--filter='], {}, 'include_content_without_filter'],
    [['pr', 'view', '-R', 'acme/widgets'], {}, 'repo_without_argument'],
    [['pr', 'diff', '-R', 'acme/widgets', '--web'], {}, 'repo_without_argument'],
    [['pr', 'diff', '1', '--color=Never'], {}, 'unsupported_color'],
    [['pr', 'view', '1', '-R', 'widgets'], {}, 'invalid_repo'],
    [['pr', 'view', '1'], { env: { GH_REPO: 'nope' } }, 'invalid_repo'],
    [['pr', 'list', '-R', 'a/b/c/d'], {}, 'invalid_repo'],
    [['issue', 'view', '#3', '-R', 'a//b'], {}, 'invalid_repo'],
    [['repo', 'view', 'a/b/c/d'], {}, 'invalid_repo'],
    [['run', 'view'], {}, 'run_or_job_required'],
    [['run', 'view', '--job='], {}, 'run_or_job_required'],
    [['run', 'view', '--web', '--log'], {}, 'run_or_job_required'],
    [['run', 'view', '--job', '7', '--web', '--log'], {}, 'web_with_log'],
    [['run', 'view', '1', '--web', '--log', '--log-failed'], {}, 'web_with_log'],
    [['run', 'view', '1', '--log', '--log-failed'], {}, 'log_with_log_failed'],
    [['run', 'view', '1', '--log', '--log-failed'], { stdoutIsTTY: true }, 'log_with_log_failed'],
    [['run', 'view', '--log-failed', '--log'], {}, 'run_or_job_required'],
    [['run', 'view', '1', '2'], {}, 'arguments'],
    [['run', 'view', '--json', 'bogus'], {}, 'unknown_json_field'],
    [['run', 'view', '1', '--json', 'status', '--web'], {}, 'json_with_web'],
    [['run', 'view', '1', '--jq', '.status'], {}, 'jq_without_json'],
    [['run', 'view', '1', '--attempt', '-1'], {}, 'invalid_value'],
    [['run', 'view', '1', '-a', '18446744073709551616'], {}, 'invalid_value'],
    [['run', 'view', '1', '--attempt'], {}, 'missing_value'],
    [['pr', 'ls', 'extra'], {}, 'arguments'],
    [['gist', 'ls', '--include-content'], {}, 'include_content_without_filter'],
  ])('%j (%j) fails with %s', (argv, context, code) => {
    const plan = planNativeInvocation(argv, { ...PIPE, ...context });
    expect(plan).toMatchObject({ kind: 'fail', code, exitCode: 1 });
  });

  it('prints gh’s flag error, a blank line and gh’s usage of the command', () => {
    const plan = planNativeInvocation(['pr', 'diff', '1', '--color=x'], PIPE);
    expect(plan).toEqual({
      kind: 'fail',
      code: 'invalid_value',
      exitCode: 1,
      stderr: [
        'invalid argument "x" for "--color" flag: valid values are {always|never|auto}',
        '',
        'Usage:  gh pr diff [<number> | <url> | <branch>] [flags]',
        '',
        'Flags:',
        '      --color string   Use color in diff output: {always|never|auto} (default "auto")',
        '      --name-only      Display only names of changed files',
        '      --patch          Display diff in patch format',
        '  -w, --web            Open the pull request diff in the browser',
        '  ',
        '',
      ].join('\n'),
    });
  });

  it.each<[string[], NativePlanContext['env'], string]>([
    [['pr', 'view', '1', '2'], {}, 'accepts at most 1 arg(s), received 2\n'],
    [['issue', 'view', '1', '2'], {}, 'accepts 1 arg(s), received 2\n'],
    [['pr', 'list', '--json', 'number', '-w'], {}, 'cannot use `--web` with `--json`\n'],
    [['pr', 'diff', '1', '--color', 'ALWAYS'], {}, 'unsupported color "ALWAYS"\n'],
    [
      ['release', 'view', 'v1'],
      { GH_REPO: 'acme/widgets/x/y' },
      'expected the "[HOST/]OWNER/REPO" format, got "acme/widgets/x/y"\n',
    ],
    [
      ['run', 'list'],
      { GH_REPO: 'widgets' },
      'failed to determine base repo: expected the "[HOST/]OWNER/REPO" format, got "widgets"\n',
    ],
    [
      ['run', 'view', '--job', '7', '-R', 'a//b'],
      {},
      'failed to determine base repo: expected the "[HOST/]OWNER/REPO" format, got "a//b"\n',
    ],
    [
      ['run', 'watch', '5', '-R', 'a/b/c/d'],
      {},
      'failed to determine base repo: expected the "[HOST/]OWNER/REPO" format, got "a/b/c/d"\n',
    ],
    [
      ['workflow', 'view', 'ci.yml'],
      { GH_REPO: 'widgets' },
      'expected the "[HOST/]OWNER/REPO" format, got "widgets"\n',
    ],
    [
      ['repo', 'view', 'acme//widgets'],
      {},
      'argument error: expected the "[HOST/]OWNER/REPO" format, got "acme//widgets"\n',
    ],
  ])('prints %j (env %j) as gh does, without the usage', (argv, env, stderr) => {
    expect(planNativeInvocation(argv, { ...PIPE, env })).toEqual({
      kind: 'fail',
      code: expect.any(String) as unknown,
      exitCode: 1,
      stderr,
    });
  });

  it.each<[string[], string]>([
    [['run', 'view'], 'run or job ID required when not running interactively'],
    [
      ['run', 'view', '-R', 'acme/widgets', '--exit-status'],
      'run or job ID required when not running interactively',
    ],
    [['run', 'view', '-j', '9', '--web', '--log'], 'specify only one of --web or --log'],
    [['run', 'view', '5', '--log-failed', '--log'], 'specify only one of --log or --log-failed'],
    [
      ['run', 'view', '5', '-a', 'two'],
      'invalid argument "two" for "-a, --attempt" flag: strconv.ParseUint: parsing "two": invalid syntax',
    ],
    [
      ['run', 'view', '5', '--attempt=+1'],
      'invalid argument "+1" for "-a, --attempt" flag: strconv.ParseUint: parsing "+1": invalid syntax',
    ],
    [
      ['run', 'view', '5', '--attempt', '0x1_0000_0000_0000_0000'],
      'invalid argument "0x1_0000_0000_0000_0000" for "-a, --attempt" flag: strconv.ParseUint: parsing "0x1_0000_0000_0000_0000": value out of range',
    ],
  ])('prints run view’s %j refusal with gh’s usage', (argv, message) => {
    expect(planNativeInvocation(argv, PIPE)).toEqual({
      kind: 'fail',
      code: expect.any(String) as unknown,
      exitCode: 1,
      stderr: `${message}\n\n${RUN_VIEW_USAGE}`,
    });
  });

  it.each<[string[], string]>([
    [['run', 'list', '--limit', '0'], 'invalid limit: 0'],
    [['run', 'ls', '-L', '-3', '--json', 'status'], 'invalid limit: -3'],
    [
      ['run', 'list', '-L', '1.5'],
      'invalid argument "1.5" for "-L, --limit" flag: strconv.ParseInt: parsing "1.5": invalid syntax',
    ],
    [
      ['run', 'list', '-s', 'done'],
      'invalid argument "done" for "-s, --status" flag: valid values are {queued|completed|in_progress|requested|waiting|action_required|cancelled|failure|neutral|skipped|stale|startup_failure|success|timed_out}',
    ],
    [['run', 'list', 'extra'], 'unknown command "extra" for "gh run list"'],
  ])('prints run list’s %j refusal with gh’s usage', (argv, message) => {
    expect(planNativeInvocation(argv, PIPE)).toEqual({
      kind: 'fail',
      code: expect.any(String) as unknown,
      exitCode: 1,
      stderr: `${message}\n\n${RUN_LIST_USAGE}`,
    });
  });

  it.each<[string[], string, string]>([
    [['run', 'watch'], 'run ID required when not running interactively', RUN_WATCH_USAGE],
    [
      ['workflow', 'view'],
      'workflow argument required when not running interactively',
      WORKFLOW_VIEW_USAGE,
    ],
    [
      ['workflow', 'view', 'ci.yml', '-r', 'main'],
      '`--yaml` required when specifying `--ref`',
      WORKFLOW_VIEW_USAGE,
    ],
    [
      ['workflow', 'view', 'ci.yml', '-r', 'main', '--yaml=false'],
      '`--yaml` required when specifying `--ref`',
      WORKFLOW_VIEW_USAGE,
    ],
  ])('prints %j as gh does without a terminal, with the usage', (argv, message, usage) => {
    expect(planNativeInvocation(argv, PIPE)).toEqual({
      kind: 'fail',
      code: expect.any(String) as unknown,
      exitCode: 1,
      stderr: `${message}\n\n${usage}`,
    });
  });

  it.each<[string[], string, string[]]>([
    [['run', 'watch', '5', '6'], 'run watch', ['5', '6']],
    [['workflow', 'view', 'ci.yml', '-r', ''], 'workflow view', ['ci.yml']],
    [['workflow', 'view', 'ci.yml', '-y', '-r', 'main'], 'workflow view', ['ci.yml']],
  ])('serves %j (gh accepts it)', (argv, command, args) => {
    expect(planNativeInvocation(argv, PIPE)).toMatchObject({ kind: 'serve', command, args });
  });

  it.each<[string[], Record<string, string[]>]>([
    [['run', 'list', '-s', 'COMPLETED'], { status: ['COMPLETED'] }],
    [['run', 'list', '-L', '0x10', '-b', 'main'], { limit: ['0x10'], branch: ['main'] }],
  ])('serves run list %j (gh accepts the value)', (argv, flags) => {
    expect(planNativeInvocation(argv, PIPE)).toMatchObject({
      kind: 'serve',
      command: 'run list',
      flags,
    });
  });

  it.each<[string[], Partial<NativePlanContext>]>([
    [['run', 'view'], { stdoutIsTTY: true }],
    [['run', 'view', '--log', '--log-failed'], { env: { GH_FORCE_TTY: '1' } }],
  ])('leaves %j on a terminal to gh (gh prompts for the run)', (argv, context) => {
    expect(planNativeInvocation(argv, { ...PIPE, ...context })).toEqual({
      kind: 'delegate',
      reason: 'tty_output',
    });
  });

  it('serves run view with --attempt in Go’s unsigned syntax', () => {
    expect(planNativeInvocation(['run', 'view', '5', '-a', '0x2'], PIPE)).toMatchObject({
      kind: 'serve',
      command: 'run view',
      flags: { attempt: ['0x2'] },
    });
  });

  it('lists the fields of a bare --json, byte-sorted (no usage)', () => {
    const plan = planNativeInvocation(['release', 'list', '--json'], PIPE);
    expect(plan).toMatchObject({
      kind: 'fail',
      stderr:
        'Specify one or more comma-separated fields for `--json`:\n  createdAt\n  isDraft\n  isLatest\n  isPrerelease\n  name\n  publishedAt\n  tagName\n',
    });
  });

  it('serves a PR URL whatever -R says (gh’s finder never reads it)', () => {
    const argv = ['pr', 'view', 'https://github.com/acme/widgets/pull/3', '-R', 'widgets'];
    expect(planNativeInvocation(argv, PIPE)).toMatchObject({ kind: 'serve', repo: undefined });
  });

  it('never reads the git remotes for a command line gh refuses', () => {
    expect(needsGitRemotes(['pr', 'list', '-L', '0'], { env: {}, stdoutIsTTY: false })).toBe(false);
  });
});

describe('planNativeInvocation: properties', () => {
  const served = Object.keys(SERVED_COMMAND_FLAGS).filter((name) => name !== 'api');
  const command = fc.constantFrom(...served).map((name) => name.split(' '));
  const token = fc.oneof(
    fc.constantFrom('-R', 'acme/widgets', '--json', 'title', '-L', '5', '-q', '.x', '1', '-'),
    fc.string(),
  );
  const context = fc.record({
    env: fc.record({ GH_REPO: fc.constantFrom('acme/widgets', '') }, { requiredKeys: [] }),
    stdoutIsTTY: fc.boolean(),
    gitRemotes: fc.constant(PIPE.gitRemotes),
  });

  it('never throws, and every delegation carries a known reason', () => {
    fc.assert(
      fc.property(fc.array(token), context, (argv, ctx) => {
        const plan = planNativeInvocation(argv, ctx);
        if (plan.kind === 'delegate') expect(DELEGATE_REASONS).toContain(plan.reason);
        if (plan.kind === 'fail') {
          expect(GH_USAGE_FAILURES).toContain(plan.code);
          expect(plan.stderr.endsWith('\n')).toBe(true);
        }
      }),
    );
  });

  it('prints the same flag or argument error whether or not stdout is a terminal', () => {
    fc.assert(
      fc.property(command, fc.array(token), (path, rest) => {
        const argv = [...path, ...rest];
        const piped = planNativeInvocation(argv, PIPE);
        // A repository gh refuses, and a missing run, job or workflow (gh prompts on a
        // terminal), differ.
        fc.pre(
          piped.kind === 'fail' &&
            piped.code !== 'invalid_repo' &&
            piped.code !== 'run_or_job_required' &&
            piped.code !== 'run_id_required' &&
            piped.code !== 'workflow_required',
        );
        expect(planNativeInvocation(argv, { ...PIPE, stdoutIsTTY: true })).toEqual(piped);
      }),
    );
  });

  it('never serves a served command with --web (or -w) as a flag before --', () => {
    fc.assert(
      fc.property(
        command,
        fc.array(token),
        fc.constantFrom('--web', '-w', '--web=true'),
        fc.array(token),
        fc.array(fc.string()),
        context,
        (path, before, web, after, rest, ctx) => {
          // --web is a flag (not a value) when the token before it does not take a value.
          fc.pre(!['-R', '--json', '-L', '-q'].includes(before[before.length - 1] ?? ''));
          fc.pre(!before.includes('--'));
          const argv = [...path, ...before, web, ...after, '--', ...rest];
          // gh's own flag and argument errors come first; otherwise gh opens the browser.
          expect(planNativeInvocation(argv, ctx).kind).not.toBe('serve');
        },
      ),
    );
  });

  it('keeps tokens after -- positional: a served plan lists them last, in order', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 1 }), (rest) => {
        const plan = planNativeInvocation(
          ['pr', 'view', '-R', 'acme/widgets', '--', ...rest],
          PIPE,
        );
        if (rest.length === 0) {
          expect(plan).toMatchObject({ kind: 'fail', code: 'repo_without_argument' });
        } else expect(plan).toMatchObject({ kind: 'serve', args: rest });
      }),
    );
  });

  it('never serves a command on a terminal (gh’s own errors are the same there)', () => {
    fc.assert(
      fc.property(command, (path) => {
        const plan = planNativeInvocation([...path, '1'], { ...PIPE, stdoutIsTTY: true });
        expect(plan.kind).not.toBe('serve');
      }),
    );
  });
});

describe('planNativeInvocation: gh v2.60’s `ls` aliases of the served list commands', () => {
  it.each<[string[], string]>([
    [['pr', 'ls', '-R', 'acme/widgets'], 'pr list'],
    [['issue', 'ls', '-R', 'acme/widgets'], 'issue list'],
    [['release', 'ls', '-R', 'acme/widgets'], 'release list'],
    [['label', 'ls', '-R', 'acme/widgets'], 'label list'],
    [['run', 'ls', '-R', 'acme/widgets'], 'run list'],
    [['workflow', 'ls', '-R', 'acme/widgets'], 'workflow list'],
    [['gist', 'ls', '--public'], 'gist list'],
  ])('%j is served as %s', (argv, command) => {
    expect(planNativeInvocation(argv, PIPE)).toMatchObject({ kind: 'serve', command });
  });

  it('names the command, not the alias, in gh’s errors', () => {
    const plan = planNativeInvocation(['label', 'ls', 'extra'], PIPE);
    expect(plan).toMatchObject({ kind: 'fail', code: 'arguments' });
    expect(plan.kind === 'fail' ? plan.stderr.split('\n')[0] : '').toBe(
      'unknown command "extra" for "gh label list"',
    );
  });

  it.each<[string[], DelegateReason]>([
    [['pr', 'lst'], 'unknown_command'],
    [['search', 'ls'], 'unknown_command'],
    [['run', 'ls', '--help'], 'help'],
  ])('%j is not an alias gh serves (%s)', (argv, reason) => {
    expect(planNativeInvocation(argv, PIPE)).toEqual({ kind: 'delegate', reason });
  });
});

describe('needsGitRemotes', () => {
  it.each<[string[], NativePlanContext['env'], boolean]>([
    [['pr', 'view', '1'], {}, true],
    [['pr', 'view', '1', '-R', 'acme/widgets'], {}, false],
    [['pr', 'view', '1'], { GH_REPO: 'acme/widgets' }, false],
    [['repo', 'view'], { GH_REPO: 'acme/widgets' }, true],
    [['repo', 'view', 'acme/widgets'], {}, false],
    [['pr', 'create'], {}, false],
    [['pr', 'view', '1', '--web'], {}, false],
    [['api', 'repos/{owner}/{repo}'], {}, false],
  ])('%j (env %j): %s', (argv, env, expected) => {
    expect(needsGitRemotes(argv, { env, stdoutIsTTY: false })).toBe(expected);
  });
});
