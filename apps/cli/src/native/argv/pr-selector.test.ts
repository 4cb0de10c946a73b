import { describe, expect, it } from 'vitest';
import { parsePrSelector } from './pr-selector.js';
import type { PrSelector } from './pr-selector.js';

const widgets = (number: number): PrSelector => ({
  kind: 'url',
  repo: { host: 'github.com', owner: 'acme', name: 'widgets' },
  number,
});

describe('parsePrSelector', () => {
  it.each<[string | undefined, PrSelector]>([
    [undefined, { kind: 'current_branch' }],
    ['', { kind: 'current_branch' }],
    ['12', { kind: 'number', number: 12 }],
    ['#12', { kind: 'number', number: 12 }],
    ['007', { kind: 'number', number: 7 }],
    ['0', { kind: 'unmodelled' }],
    ['+12', { kind: 'unmodelled' }],
    ['-3', { kind: 'unmodelled' }],
    ['1234567890123456', { kind: 'unmodelled' }],
    ['https://github.com/acme/widgets/pull/3', widgets(3)],
    ['https://github.com/acme/widgets/pull/3/files', widgets(3)],
    ['http://www.github.com/acme/widgets/pull/3?w=1#top', widgets(3)],
    ['HTTPS://GitHub.com:443/acme/widgets/pull/3', widgets(3)],
    [
      'https://ghe.example.com/acme/widgets/pull/3',
      { kind: 'url', repo: { host: 'ghe.example.com', owner: 'acme', name: 'widgets' }, number: 3 },
    ],
    ['https://github.com/acme/widgets/pull/3abc', { kind: 'unmodelled' }],
    ['https://github.com/acme/widgets/issues/3', { kind: 'unmodelled' }],
    ['https://github.com/acme/../widgets/pull/3', { kind: 'unmodelled' }],
    ['https://github.com/ac%6De/widgets/pull/3', { kind: 'unmodelled' }],
    ['https:feature', { kind: 'unmodelled' }],
    ['feature/login', { kind: 'branch', branch: 'feature/login' }],
    ['octo:feature', { kind: 'branch', branch: 'octo:feature' }],
    ['12a', { kind: 'branch', branch: '12a' }],
  ])('%j → %j', (argument, expected) => {
    expect(parsePrSelector(argument)).toEqual(expected);
  });
});
