import type { PoolPolicy } from '@relay/protocol';
import { classify, type RelayQuery } from '@relay/route-classifier';
import { describe, expect, it } from 'vitest';
import { pooledPublicRead } from './pooled-public-read.js';

const POLICY: PoolPolicy = {
  allowed_owners: ['acme'],
  allow_public_repos: true,
  allow_search: true,
  allow_logs: true,
};

function plan(path: string, query?: RelayQuery) {
  const classified = classify({
    method: 'GET',
    path,
    policy: POLICY,
    ...(query === undefined ? {} : { query }),
  });
  if (!classified.ok) throw new Error(`unclassified: ${path}`);
  return pooledPublicRead(classified.value);
}

describe('pooledPublicRead: the forge is asked for public items only', () => {
  it.each([
    [{ q: 'widgets' }, { q: 'widgets is:public' }],
    [
      { q: 'cli tools', sort: 'stars', per_page: '1' },
      { q: 'cli tools is:public', sort: 'stars', per_page: '1' },
    ],
  ])('a repository search %j is sent as %j', (query, sent) => {
    expect(plan('/search/repositories', query)).toEqual({
      kind: 'read',
      query: sent,
      excludedLogin: undefined,
    });
  });

  it.each([
    [undefined, { type: 'public' }],
    [{ type: 'all' }, { type: 'public' }],
    [{ type: 'public' }, { type: 'public' }],
    [
      { type: 'ALL', per_page: '1', page: '7' },
      { type: 'public', per_page: '1', page: '7' },
    ],
    [
      { per_page: '1', page: '7' },
      { per_page: '1', page: '7', type: 'public' },
    ],
  ])('an organization repository list %j is read with %j', (query, sent) => {
    expect(plan('/orgs/acme/repos', query)).toEqual({
      kind: 'read',
      query: sent,
      excludedLogin: undefined,
    });
  });

  it.each(['private', 'internal', 'forks', 'sources', 'member', ''])(
    'an organization repository list of type %j cannot be limited to public items: refused',
    (type) => {
      expect(plan('/orgs/acme/repos', { type })).toEqual({ kind: 'refuse' });
    },
  );

  it('an organization repository list with repeated types is refused', () => {
    expect(plan('/orgs/acme/repos', { type: ['public', 'private'] })).toEqual({ kind: 'refuse' });
  });

  it.each([
    '/users/Carol/repos',
    '/users/Carol/gists',
    '/users/Carol/events',
    '/users/Carol/received_events',
  ])('%s is never read with the account’s own identity', (path) => {
    expect(plan(path, { per_page: '1' })).toEqual({
      kind: 'read',
      query: { per_page: '1' },
      excludedLogin: 'Carol',
    });
  });

  it.each([
    '/orgs/acme/events',
    '/users/carol',
    '/users/carol/followers',
    '/repos/acme/widgets/forks',
    '/repos/acme/widgets/issues',
  ])('%s is read as the caller asked', (path) => {
    expect(plan(path, { per_page: '1' })).toEqual({
      kind: 'read',
      query: { per_page: '1' },
      excludedLogin: undefined,
    });
  });
});
