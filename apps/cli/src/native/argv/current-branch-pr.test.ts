import { describe, expect, it } from 'vitest';
import {
  branchConfigArgs,
  needsRemotes,
  parseBranchConfig,
  parseCurrentBranch,
  selectCurrentBranchPr,
} from './current-branch-pr.js';
import type { BranchConfig, CurrentBranchSelection } from './current-branch-pr.js';
import { parseGitRemoteConfig } from './git-remote-config.js';

describe('the current branch as gh’s finder reads it', () => {
  it.each([
    ['refs/heads/feature\n', 'feature'],
    ['refs/heads/fix/a.b\n', 'fix/a.b'],
    ['', undefined],
  ])('symbolic-ref %j is branch %j', (stdout, branch) => {
    expect(parseCurrentBranch(stdout)).toBe(branch);
  });

  it('quotes the branch as Go’s QuoteMeta in the config regexp', () => {
    expect(branchConfigArgs('fix/a.b+c')).toEqual([
      'config',
      '--get-regexp',
      '^branch\\.fix/a\\.b\\+c\\.(remote|merge)$',
    ]);
  });

  it.each<[string, BranchConfig]>([
    [
      'branch.pr-12.remote origin\nbranch.pr-12.merge refs/pull/12/head\n',
      { remoteName: 'origin', mergeRef: 'refs/pull/12/head' },
    ],
    [
      'branch.x.merge refs/heads/x\nbranch.x.merge refs/pull/7/head\n',
      { mergeRef: 'refs/pull/7/head' },
    ],
    [
      'branch.x.remote git@github.com:hubot/widgets.git\nbranch.x.merge refs/heads/y\n',
      { remoteUrl: 'git@github.com:hubot/widgets.git', mergeRef: 'refs/heads/y' },
    ],
    // A filesystem path is neither a name nor a URL (gh's isFilesystemPath).
    ['branch.x.remote .\nbranch.x.merge refs/heads/main\n', { mergeRef: 'refs/heads/main' }],
    ['branch.x.remote /srv/git/widgets\n', { mergeRef: '' }],
    // Branch names may hold dots: the key's last part decides.
    ['branch.a.b.remote fork\n', { remoteName: 'fork', mergeRef: '' }],
    ['', { mergeRef: '' }],
  ])('config %j is %j', (stdout, config) => {
    expect(parseBranchConfig(stdout)).toEqual(config);
  });

  it('reads the remotes only for a remote given by name', () => {
    expect(needsRemotes({ remoteName: 'origin', mergeRef: '' })).toBe(true);
    expect(needsRemotes({ remoteUrl: 'https://github.com/a/b', mergeRef: '' })).toBe(false);
    expect(needsRemotes({ mergeRef: 'refs/pull/1/head' })).toBe(false);
  });
});

const REMOTES = parseGitRemoteConfig(
  [
    'remote.origin.url https://github.com/acme/widgets.git',
    'remote.fork.url git@github.com:hubot/widgets.git',
    'remote.pushonly.pushurl https://github.com/Octo/widgets',
    'remote.work.url git@github-work:hubot/widgets.git',
    'remote.lab.url https://gitlab.com/hubot/widgets.git',
    'remote.odd.url /srv/git/widgets',
    '',
  ].join('\n'),
);

describe('selectCurrentBranchPr (gh v2.60 parseCurrentBranch)', () => {
  it.each<[string, string, string, CurrentBranchSelection, string?]>([
    [
      'gh pr checkout’s merge ref names the PR',
      'pr-12',
      'branch.pr-12.merge refs/pull/12/head\n',
      { kind: 'number', number: 12 },
    ],
    [
      'the last merge line wins',
      'x',
      'branch.x.merge refs/heads/x\nbranch.x.merge refs/pull/7/head\n',
      { kind: 'number', number: 7 },
    ],
    [
      'a refs/pull/N/merge ref is a branch ref like any other',
      'x',
      'branch.x.merge refs/pull/12/merge\n',
      { kind: 'branch', selector: 'x' },
    ],
    [
      'refs/pull/0/head is not modelled',
      'x',
      'branch.x.merge refs/pull/0/head\n',
      { kind: 'unmodelled' },
    ],
    ['no configuration: the branch itself', 'feature', '', { kind: 'branch', selector: 'feature' }],
    [
      'a merge ref without a remote does not rename',
      'feature',
      'branch.feature.merge refs/heads/other\n',
      { kind: 'branch', selector: 'feature' },
    ],
    [
      'the base owner’s remote by name: merge ref renames, no owner prefix',
      'local',
      'branch.local.remote origin\nbranch.local.merge refs/heads/feature\n',
      { kind: 'branch', selector: 'feature' },
    ],
    [
      'the owner compares case-insensitively',
      'local',
      'branch.local.remote origin\nbranch.local.merge refs/heads/feature\n',
      { kind: 'branch', selector: 'feature' },
      'ACME',
    ],
    [
      'a fork’s remote by name: owner:branch',
      'local',
      'branch.local.remote fork\nbranch.local.merge refs/heads/feature\n',
      { kind: 'branch', selector: 'hubot:feature' },
    ],
    [
      'a remote by name with only a push URL',
      'f',
      'branch.f.remote pushonly\n',
      { kind: 'branch', selector: 'Octo:f' },
    ],
    [
      'a remote given by URL (scp-like)',
      'f',
      'branch.f.remote git@github.com:hubot/widgets.git\nbranch.f.merge refs/heads/g\n',
      { kind: 'branch', selector: 'hubot:g' },
    ],
    [
      'a remote given by URL on any host (gh’s FromURL)',
      'f',
      'branch.f.remote https://gitlab.com/octo/widgets\n',
      { kind: 'branch', selector: 'octo:f' },
    ],
    [
      'a remote URL that is not a merge ref of a branch keeps the name',
      'f',
      'branch.f.remote https://github.com/hubot/w\nbranch.f.merge refs/tags/v1\n',
      { kind: 'branch', selector: 'hubot:f' },
    ],
    [
      'a remote name git does not have: no owner',
      'f',
      'branch.f.remote gone\nbranch.f.merge refs/heads/g\n',
      { kind: 'branch', selector: 'f' },
    ],
    [
      'a filesystem remote: no owner',
      'f',
      'branch.f.remote .\nbranch.f.merge refs/heads/main\n',
      { kind: 'branch', selector: 'f' },
    ],
    [
      'an ssh host alias (gh may translate it) is not modelled',
      'f',
      'branch.f.remote work\n',
      { kind: 'unmodelled' },
    ],
    [
      'a remote on another host is not modelled (gh keeps only known hosts)',
      'f',
      'branch.f.remote lab\n',
      { kind: 'unmodelled' },
    ],
    [
      'a remote whose URL names no repository is not modelled',
      'f',
      'branch.f.remote odd\n',
      { kind: 'unmodelled' },
    ],
    [
      'an upper-case scheme is scp-like to gh: not modelled',
      'f',
      'branch.f.remote HTTPS://github.com/a/b\n',
      { kind: 'unmodelled' },
    ],
    [
      '`http:a/b` is a URL without a host to gh: not modelled',
      'f',
      'branch.f.remote http:a/b\n',
      { kind: 'unmodelled' },
    ],
    [
      'an empty renamed branch is not modelled',
      'f',
      'branch.f.remote fork\nbranch.f.merge refs/heads/\n',
      { kind: 'unmodelled' },
    ],
  ])('%s', (_name, branch, config, expected, baseOwner = 'acme') => {
    expect(
      selectCurrentBranchPr({
        branch,
        config: parseBranchConfig(config),
        remotes: REMOTES,
        baseOwner,
      }),
    ).toEqual(expected);
  });
});
