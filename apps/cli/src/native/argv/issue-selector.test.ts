import { describe, expect, it } from 'vitest';
import { parseIssueSelector } from './issue-selector.js';

describe('parseIssueSelector (gh IssueNumberAndRepoFromArg)', () => {
  it.each([
    ['12', { kind: 'number', number: 12 }],
    ['#12', { kind: 'number', number: 12 }],
    ['007', { kind: 'number', number: 7 }],
    [
      'https://github.com/acme/widgets/issues/3',
      { kind: 'url', repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, number: 3 },
    ],
    [
      'http://www.github.com/acme/widgets/pull/4#issuecomment-1',
      { kind: 'url', repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, number: 4 },
    ],
    ['five', { kind: 'invalid' }],
    ['', { kind: 'invalid' }],
    ['12 ', { kind: 'invalid' }],
    ['0', { kind: 'unmodelled' }],
    ['+12', { kind: 'unmodelled' }],
    ['-3', { kind: 'unmodelled' }],
    ['1234567890123456', { kind: 'unmodelled' }],
    ['https://github.com/acme/widgets/issues', { kind: 'unmodelled' }],
    ['https://github.com/acme/widgets/issues/%31', { kind: 'unmodelled' }],
    ['héllo', { kind: 'unmodelled' }],
  ])('%j', (argument, expected) => {
    expect(parseIssueSelector(argument)).toEqual(expected);
  });
});
