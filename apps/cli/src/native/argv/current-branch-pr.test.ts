import { describe, expect, it } from 'vitest';
import {
  branchConfigArgs,
  parseCurrentBranch,
  pullNumberOfBranchConfig,
} from './current-branch-pr.js';

describe('the current branch’s PR as gh’s finder reads it', () => {
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

  it.each([
    ['branch.pr-12.remote origin\nbranch.pr-12.merge refs/pull/12/head\n', 12],
    ['branch.x.merge refs/heads/x\nbranch.x.merge refs/pull/7/head\n', 7],
    ['branch.x.merge refs/pull/7/head\nbranch.x.merge refs/heads/x\n', undefined],
    ['branch.x.merge refs/heads/x\n', undefined],
    ['branch.x.merge refs/pull/0/head\n', undefined],
    ['branch.x.merge refs/pull/12/merge\n', undefined],
    ['', undefined],
  ])('config %j names PR %j', (stdout, number) => {
    expect(pullNumberOfBranchConfig(stdout)).toBe(number);
  });
});
