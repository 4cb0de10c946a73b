import { describe, expect, it } from 'vitest';
import { createFakeDependencies } from '../../../test/cli-harness.js';
import type { ProcessOutput } from '../../cli-dependencies.js';
import type { CurrentBranchSelection } from '../argv/current-branch-pr.js';
import { readCurrentBranchSelection } from './pr-branch-git.js';

const REPO = { host: 'github.com', owner: 'acme', name: 'widgets' };

/** What the fake git answers, by its first two arguments. */
interface FakeGit {
  readonly head: ProcessOutput;
  readonly config?: string;
  readonly remotes?: string;
}

const out = (stdout: string, code = 0, stderr = ''): ProcessOutput => ({
  code,
  stdout: Buffer.from(stdout),
  stderr: Buffer.from(stderr),
});

function gitDeps(git: FakeGit) {
  return createFakeDependencies({
    runProcess: (file, args) => {
      if (file !== 'git') throw new Error(`unexpected ${file}`);
      if (args[0] === 'symbolic-ref') return Promise.resolve(git.head);
      const pattern = args[2] ?? '';
      if (pattern.startsWith('^branch')) {
        return Promise.resolve(git.config === undefined ? out('', 1) : out(git.config));
      }
      if (pattern.startsWith('^remote')) {
        return Promise.resolve(git.remotes === undefined ? out('', 1) : out(git.remotes));
      }
      throw new Error(`unexpected git ${args.join(' ')}`);
    },
  });
}

describe('readCurrentBranchSelection (git through deps.runProcess)', () => {
  it.each<[string, FakeGit, CurrentBranchSelection, number]>([
    [
      'detached HEAD (exit 1, no stderr): gh’s error',
      { head: out('', 1) },
      { kind: 'not_on_branch' },
      1,
    ],
    [
      'not a repository (git says why): gh runs',
      { head: out('', 128, 'fatal: not a git repository\n') },
      { kind: 'unmodelled' },
      1,
    ],
    [
      'no branch configuration: the branch',
      { head: out('refs/heads/feature\n') },
      { kind: 'branch', selector: 'feature' },
      2,
    ],
    [
      'remote by name (a fork) with a refs/heads rename',
      {
        head: out('refs/heads/local\n'),
        config: 'branch.local.remote fork\nbranch.local.merge refs/heads/feature\n',
        remotes:
          'remote.origin.url https://github.com/acme/widgets.git\nremote.fork.url git@github.com:hubot/widgets.git\n',
      },
      { kind: 'branch', selector: 'hubot:feature' },
      3,
    ],
    [
      'remote given by URL: no remote listing',
      {
        head: out('refs/heads/local\n'),
        config:
          'branch.local.remote https://github.com/acme/widgets\nbranch.local.merge refs/heads/feature\n',
      },
      { kind: 'branch', selector: 'feature' },
      2,
    ],
  ])('%s', async (_name, git, expected, gitRuns) => {
    const deps = gitDeps(git);
    expect(await readCurrentBranchSelection(deps, REPO)).toEqual(expected);
    expect(deps.processRuns).toHaveLength(gitRuns);
  });

  it('asks git for the branch’s keys as gh does', async () => {
    const deps = gitDeps({ head: out('refs/heads/fix/a.b\n') });
    await readCurrentBranchSelection(deps, REPO);
    expect(deps.processRuns.map((run) => run.args)).toEqual([
      ['symbolic-ref', '--quiet', 'HEAD'],
      ['config', '--get-regexp', '^branch\\.fix/a\\.b\\.(remote|merge)$'],
    ]);
  });

  it('git that cannot start runs gh', async () => {
    const deps = createFakeDependencies({
      runProcess: () => Promise.reject(new Error('ENOENT')),
    });
    expect(await readCurrentBranchSelection(deps, REPO)).toEqual({ kind: 'unmodelled' });
  });
});
