import { describe, expect, it } from 'vitest';
import { classifyExactHeadMerge } from './merge-exact-head.js';
import { classifyCommandPublication } from './publication-commands.js';
import type { PublicationClassification, PublicationPlan } from './publication-model.js';
import { classifyRawRestPublication } from './publication-raw-rest.js';

/** The plan's argv with `<text N>` / `<snapshot N>` for its holes, and its fields. */
function preview(verdict: PublicationClassification): {
  argv: string[];
  fields: string[];
  assets?: string[];
} {
  if (verdict.kind !== 'modeled') throw new Error(`not modeled: ${JSON.stringify(verdict)}`);
  const plan: PublicationPlan = verdict.plan;
  const argv = plan.parts.map((part) => {
    switch (part.kind) {
      case 'literal':
      case 'fixed':
        return part.value;
      case 'inline':
        return `${part.prefix}<text ${String(part.field)}>`;
      case 'snapshot':
        return `${part.prefix}<snapshot ${String(part.field)}>`;
    }
  });
  const fields = plan.fields.map(({ name, source }) =>
    source.kind === 'inline'
      ? `${name}=${source.value}`
      : source.kind === 'file'
        ? `${name}<${source.path}`
        : `${name}<stdin`,
  );
  return plan.assets.length === 0
    ? { argv, fields }
    : { argv, fields, assets: plan.assets.map((asset) => asset.basename) };
}

describe('classifyCommandPublication: the modeled gh commands (client rule 16)', () => {
  it.each<[string, string[], ReturnType<typeof preview>]>([
    [
      'issue create with title and body',
      ['issue', 'create', '-R', 'acme/widgets', '--title', 'T', '--body', 'B', '-l', 'bug'],
      {
        argv: [
          'issue',
          'create',
          '-R',
          'acme/widgets',
          '--title=<text 0>',
          '--body-file=<snapshot 1>',
          '-l',
          'bug',
        ],
        fields: ['title=T', 'body=B'],
      },
    ],
    [
      'issue create with -t and a body file',
      ['issue', 'create', '-tT', '-F', 'notes.md'],
      {
        argv: ['issue', 'create', '--title=<text 0>', '--body-file=<snapshot 1>'],
        fields: ['title=T', 'body<notes.md'],
      },
    ],
    [
      'issue create reading the body from stdin',
      ['issue', 'create', '--title=T', '--body-file', '-'],
      {
        argv: ['issue', 'create', '--title=<text 0>', '--body-file=<snapshot 1>'],
        fields: ['title=T', 'body<stdin'],
      },
    ],
    [
      'issue edit of two issues, labels only',
      ['issue', 'edit', '3', '4', '--add-label', 'bug', '--remove-milestone'],
      {
        argv: ['issue', 'edit', '--add-label', 'bug', '--remove-milestone', '--', '3', '4'],
        fields: [],
      },
    ],
    [
      'issue comment',
      ['issue', 'comment', '3', '--body', 'hi', '--edit-last'],
      {
        argv: ['issue', 'comment', '--body-file=<snapshot 0>', '--edit-last', '--', '3'],
        fields: ['body=hi'],
      },
    ],
    [
      'pr create',
      ['pr', 'create', '-t', 'T', '-b', 'B', '--draft', '-B', 'main', '-H', 'feature'],
      {
        argv: [
          'pr',
          'create',
          '--title=<text 0>',
          '--body-file=<snapshot 1>',
          '--draft',
          '-B',
          'main',
          '-H',
          'feature',
        ],
        fields: ['title=T', 'body=B'],
      },
    ],
    [
      'pr edit of the current branch',
      ['pr', 'edit', '--title', 'T'],
      { argv: ['pr', 'edit', '--title=<text 0>'], fields: ['title=T'] },
    ],
    [
      'pr comment',
      ['pr', 'comment', '7', '-b', 'hi'],
      { argv: ['pr', 'comment', '--body-file=<snapshot 0>', '--', '7'], fields: ['body=hi'] },
    ],
    [
      'pr review approving without a body',
      ['pr', 'review', '7', '--approve'],
      { argv: ['pr', 'review', '--approve', '--', '7'], fields: [] },
    ],
    [
      'pr review requesting changes',
      ['pr', 'review', '-r', '-b', 'fix it'],
      { argv: ['pr', 'review', '-r', '--body-file=<snapshot 0>'], fields: ['body=fix it'] },
    ],
    [
      'release create as a draft of an existing tag, with assets and a label',
      [
        'release',
        'create',
        'v1',
        'dist/app.tgz',
        'dist/app.zip#Zip label',
        '--draft',
        '--verify-tag',
        '-n',
        'N',
        '-t',
        'T',
      ],
      {
        argv: [
          'release',
          'create',
          '--draft',
          '--verify-tag',
          '--notes-file=<snapshot 0>',
          '--title=<text 1>',
          '--',
          'v1',
          'dist/app.tgz',
          'dist/app.zip#<text 2>',
        ],
        fields: ['notes=N', 'title=T', 'asset label=Zip label'],
        assets: ['app.tgz', 'app.zip'],
      },
    ],
    [
      'release edit publishing a draft',
      ['release', 'edit', 'v1', '--draft=false', '--notes-file', 'n.md'],
      {
        argv: ['release', 'edit', '--draft=false', '--notes-file=<snapshot 0>', '--', 'v1'],
        fields: ['notes<n.md'],
      },
    ],
    [
      'release upload',
      ['release', 'upload', 'v1', 'a.tgz', '--clobber'],
      {
        argv: ['release', 'upload', '--clobber', '--', 'v1', 'a.tgz'],
        fields: [],
        assets: ['a.tgz'],
      },
    ],
  ])('%s', (_name, argv, expected) => {
    expect(preview(classifyCommandPublication(argv))).toEqual(expected);
  });

  it.each<[string, string[]]>([
    ['--editor', ['issue', 'create', '--title', 'T', '--body', 'B', '--editor']],
    ['--web', ['issue', 'comment', '3', '--web']],
    ['--template', ['issue', 'create', '-t', 'T', '-b', 'B', '--template', 'bug']],
    ['--fill', ['pr', 'create', '--fill']],
    ['--recover', ['pr', 'create', '-t', 'T', '-b', 'B', '--recover', 'x.json']],
    ['no body (gh prompts)', ['issue', 'create', '--title', 'T']],
    ['no title', ['pr', 'create', '--body', 'B']],
    ['both body forms', ['issue', 'comment', '3', '-b', 'x', '-F', 'y']],
    ['two bodies', ['issue', 'comment', '3', '-b', 'x', '-b', 'y']],
    ['a comment without its issue', ['issue', 'comment', '--body', 'x']],
    ['an edit with no flag (interactive)', ['pr', 'edit', '3']],
    ['a review with no action (interactive)', ['pr', 'review', '3', '-b', 'x']],
    ['a review with two actions', ['pr', 'review', '3', '--approve', '--comment', '-b', 'x']],
    ['an unknown flag', ['issue', 'create', '-t', 'T', '-b', 'B', '--frob']],
    ['combined short booleans', ['pr', 'review', '-ac']],
    ['help', ['issue', 'create', '--help']],
    ['a value flag last', ['issue', 'create', '-t', 'T', '--body']],
    ['a boolean spelled 1', ['pr', 'create', '-t', 'T', '-b', 'B', '--draft=1']],
    ['an alias', ['issue', 'new', '-t', 'T', '-b', 'B']],
    ['a global flag first', ['-R', 'acme/widgets', 'issue', 'create', '-t', 'T', '-b', 'B']],
    ['a read', ['issue', 'view', '3']],
  ])('not modeled: %s', (_name, argv) => {
    expect(classifyCommandPublication(argv)).toEqual({ kind: 'unmodeled' });
  });

  it.each<[string, string[], string]>([
    [
      'no --draft',
      ['release', 'create', 'v1', '--verify-tag', '-n', 'N'],
      'release_create_requires_draft_and_verify_tag',
    ],
    [
      'no --verify-tag',
      ['release', 'create', 'v1', '-d', '-n', 'N'],
      'release_create_requires_draft_and_verify_tag',
    ],
    [
      '--draft=false',
      ['release', 'create', 'v1', '--draft', '--draft=false', '--verify-tag'],
      'release_create_requires_draft_and_verify_tag',
    ],
    [
      'an unknown flag',
      ['release', 'create', 'v1', '--draft', '--verify-tag', '--frob'],
      'release_create_shape',
    ],
    [
      'no tag (gh prompts)',
      ['release', 'create', '--draft', '--verify-tag'],
      'release_create_shape',
    ],
    [
      "--notes-from-tag (gh appends the local tag's annotation, unseen)",
      ['release', 'create', 'v1', '--draft', '--verify-tag', '--notes-from-tag'],
      'release_create_shape',
    ],
    [
      '--notes-from-tag beside --notes',
      ['release', 'create', 'v1', '--draft', '--verify-tag', '-n', 'N', '--notes-from-tag'],
      'release_create_shape',
    ],
  ])('release create is refused: %s', (_name, argv, code) => {
    expect(classifyCommandPublication(argv)).toEqual({ kind: 'refused', code });
  });

  it.each([[['release', 'create', '--help']], [['release', 'create', 'v1', '-h']]])(
    'release create %j (help) is not refused: unmodeled',
    (argv) => {
      expect(classifyCommandPublication(argv)).toEqual({ kind: 'unmodeled' });
    },
  );
});

describe('classifyRawRestPublication: allowlisted gh api writes', () => {
  it.each<[string, string[], ReturnType<typeof preview>]>([
    [
      'an issue comment',
      ['api', '-X', 'POST', 'repos/acme/widgets/issues/3/comments', '-f', 'body=hi'],
      {
        argv: [
          'api',
          '--method',
          'POST',
          'repos/acme/widgets/issues/3/comments',
          '-F',
          'body=@<snapshot 0>',
        ],
        fields: ['field body=hi'],
      },
    ],
    [
      'an issue create with POST implied and a body file',
      ['api', '/repos/acme/widgets/issues', '-f', 'title=T', '-F', 'body=@b.md', '--silent'],
      {
        argv: [
          'api',
          '--method',
          'POST',
          '/repos/acme/widgets/issues',
          '--silent',
          '-F',
          'title=@<snapshot 0>',
          '-F',
          'body=@<snapshot 1>',
        ],
        fields: ['field title=T', 'field body<b.md'],
      },
    ],
    [
      'an issue edit',
      [
        'api',
        '--method=PATCH',
        'repos/acme/widgets/issues/3',
        '-f',
        'title=T',
        '--raw-field',
        'body=B',
      ],
      {
        argv: [
          'api',
          '--method',
          'PATCH',
          'repos/acme/widgets/issues/3',
          '-F',
          'title=@<snapshot 0>',
          '-F',
          'body=@<snapshot 1>',
        ],
        fields: ['field title=T', 'field body=B'],
      },
    ],
    [
      'a review with its event',
      [
        'api',
        '-XPOST',
        'repos/acme/widgets/pulls/9/reviews',
        '-f',
        'event=APPROVE',
        '-F',
        'body=@-',
      ],
      {
        argv: [
          'api',
          '--method',
          'POST',
          'repos/acme/widgets/pulls/9/reviews',
          '-f',
          'event=APPROVE',
          '-F',
          'body=@<snapshot 0>',
        ],
        fields: ['field body<stdin'],
      },
    ],
  ])('%s', (_name, argv, expected) => {
    expect(preview(classifyRawRestPublication(argv))).toEqual(expected);
  });

  it.each<[string, string[]]>([
    ['a read', ['api', 'repos/acme/widgets/issues/3']],
    [
      'placeholders',
      ['api', '-X', 'POST', 'repos/{owner}/{repo}/issues/3/comments', '-f', 'body=x'],
    ],
    [
      'an unknown field',
      ['api', '-X', 'POST', 'repos/acme/widgets/issues', '-f', 'title=T', '-f', 'labels[]=x'],
    ],
    [
      'a typed text field',
      ['api', '-X', 'POST', 'repos/acme/widgets/issues/3/comments', '-F', 'body=1'],
    ],
    [
      'a repeated field',
      ['api', '-X', 'POST', 'repos/acme/widgets/issues/3/comments', '-f', 'body=x', '-f', 'body=y'],
    ],
    [
      'a missing required field',
      ['api', '-X', 'POST', 'repos/acme/widgets/issues', '-f', 'body=B'],
    ],
    [
      'a wrong method',
      ['api', '-X', 'PUT', 'repos/acme/widgets/issues/3/comments', '-f', 'body=x'],
    ],
    [
      'a lower-case method',
      ['api', '-X', 'post', 'repos/acme/widgets/issues/3/comments', '-f', 'body=x'],
    ],
    ['--input', ['api', '-X', 'POST', 'repos/acme/widgets/issues/3/comments', '--input', 'b.json']],
    [
      '--hostname',
      [
        'api',
        '--hostname',
        'ghe.example',
        '-X',
        'POST',
        'repos/acme/widgets/issues/3/comments',
        '-f',
        'body=x',
      ],
    ],
    [
      'an event outside the enum',
      ['api', 'repos/acme/widgets/pulls/9/reviews', '-f', 'event=DISMISS'],
    ],
    ['an unlisted endpoint', ['api', '-X', 'DELETE', 'repos/acme/widgets']],
  ])('not modeled: %s', (_name, argv) => {
    expect(classifyRawRestPublication(argv)).toEqual({ kind: 'unmodeled' });
  });
});

const SHA = '0123456789abcdef0123456789abcdef01234567';

describe('classifyExactHeadMerge: the exact-head squash merge', () => {
  it('converts to the immediate merge endpoint with the subject and body in snapshots', () => {
    const verdict = classifyExactHeadMerge([
      'pr',
      'merge',
      '12',
      '-R',
      'acme/widgets',
      '--squash',
      '--match-head-commit',
      SHA,
      '-t',
      'S',
      '-b',
      'B',
    ]);
    expect(preview(verdict)).toEqual({
      argv: [
        'api',
        '--silent',
        '--method',
        'PUT',
        'repos/acme/widgets/pulls/12/merge',
        '-f',
        'merge_method=squash',
        '-f',
        `sha=${SHA}`,
        '-F',
        'commit_title=@<snapshot 0>',
        '-F',
        'commit_message=@<snapshot 1>',
      ],
      fields: ['subject=S', 'body=B'],
    });
    expect(verdict.kind === 'modeled' && verdict.plan.merge).toBe(true);
  });

  it('takes a pull request URL and a body file', () => {
    expect(
      preview(
        classifyExactHeadMerge([
          'pr',
          'merge',
          'https://github.com/acme/widgets/pull/12',
          '-s',
          `--match-head-commit=${SHA}`,
          '-F',
          '-',
        ]),
      ),
    ).toEqual({
      argv: [
        'api',
        '--silent',
        '--method',
        'PUT',
        'repos/acme/widgets/pulls/12/merge',
        '-f',
        'merge_method=squash',
        '-f',
        `sha=${SHA}`,
        '-F',
        'commit_message=@<snapshot 0>',
      ],
      fields: ['body<stdin'],
    });
  });

  it.each<[string, string[], string]>([
    ['a short sha', ['--match-head-commit', SHA.slice(0, 39)], 'exact_head_merge_sha'],
    ['a 41-digit sha', ['--match-head-commit', `${SHA}0`], 'exact_head_merge_sha'],
    ['an upper-case sha', ['--match-head-commit', SHA.toUpperCase()], 'exact_head_merge_sha'],
    ['two shas', ['--match-head-commit', SHA, '--match-head-commit', SHA], 'exact_head_merge_sha'],
    ['--delete-branch', ['--match-head-commit', SHA, '-d'], 'exact_head_merge_shape'],
    ['--admin', ['--match-head-commit', SHA, '--admin'], 'exact_head_merge_shape'],
    ['--auto', ['--match-head-commit', SHA, '--auto'], 'exact_head_merge_shape'],
    ['--author-email', ['--match-head-commit', SHA, '-A', 'a@b.c'], 'exact_head_merge_shape'],
    [
      'body and body file',
      ['--match-head-commit', SHA, '-b', 'x', '-F', 'y'],
      'exact_head_merge_shape',
    ],
  ])('refuses %s', (_name, extra, code) => {
    expect(
      classifyExactHeadMerge(['pr', 'merge', '12', '-R', 'acme/widgets', '--squash', ...extra]),
    ).toEqual({ kind: 'refused', code });
  });

  it.each<[string, string[]]>([
    ['no repository', ['pr', 'merge', '12', '--squash', '--match-head-commit', SHA]],
    [
      'a branch name',
      ['pr', 'merge', 'feature', '-R', 'acme/widgets', '--squash', '--match-head-commit', SHA],
    ],
    [
      'no pull request',
      ['pr', 'merge', '-R', 'acme/widgets', '--squash', '--match-head-commit', SHA],
    ],
    [
      'an enterprise repository',
      [
        'pr',
        'merge',
        '1',
        '-R',
        'ghe.example/acme/widgets',
        '--squash',
        '--match-head-commit',
        SHA,
      ],
    ],
  ])('refuses an unlocatable pull request: %s', (_name, argv) => {
    expect(classifyExactHeadMerge(argv)).toEqual({
      kind: 'refused',
      code: 'exact_head_merge_repository',
    });
  });

  it.each<[string, string[]]>([
    ['a plain squash', ['pr', 'merge', '12', '--squash']],
    ['an exact-head rebase', ['pr', 'merge', '12', '--rebase', '--match-head-commit', SHA]],
    ['another command', ['pr', 'view', '12']],
  ])('leaves %s unmodeled', (_name, argv) => {
    expect(classifyExactHeadMerge(argv)).toEqual({ kind: 'unmodeled' });
  });
});
