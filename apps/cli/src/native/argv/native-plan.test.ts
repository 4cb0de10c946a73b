import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SERVED_COMMAND_FLAGS } from './gh-command-table.js';
import { DELEGATE_REASONS, needsGitRemotes, planNativeInvocation } from './native-plan.js';
import type { DelegateReason, NativePlanContext } from './native-plan.js';

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
    [['label', 'list', '--sort', 'name', '-S', 'bug'], {}, 'label list'],
    [['pr', 'view', '--', '-5'], {}, 'pr view'],
    [['pr', 'list', '--web=false'], {}, 'pr list'],
    [['pr', 'list'], { GH_HOST: 'GitHub.com' }, 'pr list'],
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
    [['pr', 'checks', '1'], {}, 'unsupported_command'],
    [['run', 'list'], {}, 'unsupported_command'],
    [['search', 'prs', 'x'], {}, 'unsupported_command'],
    [['status'], {}, 'unsupported_command'],
    [['pr', '-R', 'acme/widgets', 'view', '1'], {}, 'unsupported_shape'],
    [['pr', 'view', '1', '--frob'], {}, 'unknown_flag'],
    [['pr', 'view', '1', '-z'], {}, 'unknown_flag'],
    [['repo', 'view', '-R', 'acme/widgets'], {}, 'unknown_flag'],
    [['pr', 'list', '--limit'], {}, 'invalid_usage'],
    [['pr', 'list', '--web=maybe'], {}, 'invalid_usage'],
    [['pr', 'list', 'extra'], {}, 'invalid_usage'],
    [['issue', 'view'], {}, 'invalid_usage'],
    [['pr', 'view', '1', '2'], {}, 'invalid_usage'],
    [['pr', 'view', '1', '--jq', '.title'], {}, 'invalid_usage'],
    [['pr', 'view', '-R', 'acme/widgets'], {}, 'invalid_usage'],
    [['pr', 'diff', '-R', 'acme/widgets'], {}, 'invalid_usage'],
    [['pr', 'diff', '1', '--color', 'rainbow'], {}, 'invalid_usage'],
    [['pr', 'diff', '1', '--color=Never'], {}, 'invalid_usage'],
    [['pr', 'view', '1', '-R', 'widgets'], {}, 'invalid_usage'],
    [['pr', 'view', '1'], { env: { GH_REPO: 'nope' } }, 'invalid_usage'],
    [['pr', 'view', '1', '--web'], {}, 'web'],
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
      }),
    );
  });

  it('delegates any served command with --web (or -w) as a flag before --', () => {
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
          expect(planNativeInvocation(argv, ctx).kind).toBe('delegate');
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
        if (rest.length === 0) expect(plan).toMatchObject({ kind: 'delegate' });
        else expect(plan).toMatchObject({ kind: 'serve', args: rest });
      }),
    );
  });

  it('delegates every served command on a terminal', () => {
    fc.assert(
      fc.property(command, (path) => {
        const plan = planNativeInvocation([...path, '1'], { ...PIPE, stdoutIsTTY: true });
        expect(plan.kind).toBe('delegate');
      }),
    );
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
