import { describe, expect, it } from 'vitest';
import { parseGitUrl, parseRepoSelector, selectRepository } from './repo-selector.js';
import type { GitRemote } from './repo-selector.js';

const gh = (owner: string, name: string, host = 'github.com') => ({ host, owner, name });

describe('parseRepoSelector: -R and GH_REPO values', () => {
  it.each<[string, Record<string, string>, ReturnType<typeof gh> | undefined]>([
    ['acme/widgets', {}, gh('acme', 'widgets')],
    ['acme/widgets', { GH_HOST: 'ghe.example.com' }, gh('acme', 'widgets', 'ghe.example.com')],
    // GH_HOST is read verbatim, as gh's config reads it (` github.com` is not github.com).
    ['acme/widgets', { GH_HOST: ' github.com' }, gh('acme', 'widgets', ' github.com')],
    ['github.com/acme/widgets', {}, gh('acme', 'widgets')],
    ['GitHub.com/acme/widgets', {}, gh('acme', 'widgets')],
    ['ghe.example.com/acme/widgets', {}, gh('acme', 'widgets', 'ghe.example.com')],
    ['https://github.com/acme/widgets', {}, gh('acme', 'widgets')],
    ['https://www.github.com/acme/widgets.git', {}, gh('acme', 'widgets')],
    ['https://github.com/acme/widgets/', {}, gh('acme', 'widgets')],
    ['git@github.com:acme/widgets.git', {}, gh('acme', 'widgets')],
    ['ssh://git@ssh.github.com:443/acme/widgets.git', {}, gh('acme', 'widgets')],
    ['widgets', {}, undefined],
    ['acme/', {}, undefined],
    ['/widgets', {}, undefined],
    ['a/b/c/d', {}, undefined],
    ['https://github.com/acme/widgets/pulls', {}, undefined],
    ['https://github.com/acme', {}, undefined],
  ])('%s (env %j)', (value, env, expected) => {
    expect(parseRepoSelector(value, env)).toEqual(expected);
  });

  it.each([
    ['git://github.com/acme/widgets.git', gh('acme', 'widgets')],
    ['https://token@github.com/acme/widgets', gh('acme', 'widgets')],
    ['github.com:acme/widgets', gh('acme', 'widgets')],
    ['not a url', undefined],
    ['https://', undefined],
  ])('parseGitUrl(%s)', (url, expected) => {
    expect(parseGitUrl(url)).toEqual(expected);
  });
});

const remote = (name: string, fetchUrl?: string, extra: Partial<GitRemote> = {}): GitRemote => ({
  name,
  ...(fetchUrl === undefined ? {} : { fetchUrl }),
  ...extra,
});

describe('selectRepository: gh order', () => {
  const origin = remote('origin', 'git@github.com:me/widgets.git');
  const upstream = remote('upstream', 'https://github.com/acme/widgets.git');
  const remotes = [origin, upstream];

  it.each<[string, Parameters<typeof selectRepository>[0], unknown]>([
    [
      '-R wins over GH_REPO and remotes',
      { flag: 'one/two', env: { GH_REPO: 'three/four' }, remotes },
      { ok: true, value: { repo: gh('one', 'two'), source: 'flag' } },
    ],
    [
      'GH_REPO wins over remotes',
      { env: { GH_REPO: 'three/four' }, remotes },
      { ok: true, value: { repo: gh('three', 'four'), source: 'GH_REPO' } },
    ],
    [
      'an empty -R falls through to GH_REPO',
      { flag: '', env: { GH_REPO: 'three/four' }, remotes },
      { ok: true, value: { repo: gh('three', 'four'), source: 'GH_REPO' } },
    ],
    [
      'upstream ranks before origin',
      { env: {}, remotes },
      { ok: true, value: { repo: gh('acme', 'widgets'), source: 'git_remote' } },
    ],
    [
      'github ranks before origin, which ranks before others',
      {
        env: {},
        remotes: [
          remote('fork', 'https://github.com/x/y'),
          remote('origin', 'https://github.com/o/r'),
          remote('GitHub', 'https://github.com/g/h'),
        ],
      },
      { ok: true, value: { repo: gh('g', 'h'), source: 'git_remote' } },
    ],
    [
      'ties keep git order',
      {
        env: {},
        remotes: [remote('b', 'https://github.com/b/b'), remote('a', 'https://github.com/a/a')],
      },
      { ok: true, value: { repo: gh('b', 'b'), source: 'git_remote' } },
    ],
    [
      'a gh-resolved base remote wins',
      {
        env: {},
        remotes: [upstream, { ...origin, resolved: 'base' }],
      },
      { ok: true, value: { repo: gh('me', 'widgets'), source: 'git_remote' } },
    ],
    [
      "a gh-resolved OWNER/REPO names the repository on that remote's host",
      { env: {}, remotes: [{ ...origin, resolved: 'acme/gadgets' }] },
      { ok: true, value: { repo: gh('acme', 'gadgets'), source: 'git_remote' } },
    ],
    [
      'the push URL serves when the fetch URL names no repository',
      {
        env: {},
        remotes: [remote('origin', '/srv/mirror.git', { pushUrl: 'git@github.com:o/r.git' })],
      },
      { ok: true, value: { repo: gh('o', 'r'), source: 'git_remote' } },
    ],
    [
      'GH_HOST keeps only remotes on that host',
      {
        env: { GH_HOST: 'ghe.example.com' },
        remotes: [...remotes, remote('corp', 'https://ghe.example.com/c/d')],
      },
      { ok: true, value: { repo: gh('c', 'd', 'ghe.example.com'), source: 'git_remote' } },
    ],
    [
      'GH_HOST with no remote on that host',
      { env: { GH_HOST: 'ghe.example.com' }, remotes },
      { ok: false, error: { code: 'no_matching_remote', host: 'ghe.example.com' } },
    ],
    ['no remotes', { env: {}, remotes: [] }, { ok: false, error: { code: 'no_git_remotes' } }],
    [
      'remotes naming no repository',
      { env: {}, remotes: [remote('origin', '/srv/repo.git')] },
      { ok: false, error: { code: 'no_git_remotes' } },
    ],
    [
      'a malformed -R',
      { flag: 'widgets', env: {}, remotes },
      { ok: false, error: { code: 'invalid_repo', value: 'widgets' } },
    ],
    [
      'a malformed GH_REPO',
      { env: { GH_REPO: 'a/b/c/d' }, remotes },
      { ok: false, error: { code: 'invalid_repo', value: 'a/b/c/d' } },
    ],
  ])('%s', (_name, input, expected) => {
    expect(selectRepository(input)).toEqual(expected);
  });
});
