import { ROUTE_KINDS } from '@relay/protocol';
import { describe, expect, it } from 'vitest';
import { classify } from './route-classifier.js';
import { ROUTE_TABLE } from './route-table.js';
import { ROUTE_VISIBILITY, visibilityOf, type VisibilityClass } from './route-visibility.js';

const CLASSES: readonly VisibilityClass[] = [
  'repository',
  'anonymous_only',
  'filtered',
  'public_profile',
  'public_metadata',
];

describe('ROUTE_VISIBILITY', () => {
  it.each(ROUTE_KINDS.map((kind) => [kind]))('declares a visibility class for %s', (kind) => {
    const visibility = ROUTE_VISIBILITY[kind] as (typeof ROUTE_VISIBILITY)[typeof kind] | undefined;
    expect(visibility, `${kind} has no visibility class`).toBeDefined();
    expect(CLASSES).toContain(visibility?.class);
  });

  it('declares nothing for a kind that does not exist', () => {
    expect(Object.keys(ROUTE_VISIBILITY).sort()).toEqual([...ROUTE_KINDS].sort());
  });

  it.each(ROUTE_TABLE.map((route) => [route.kind, route]))(
    '%s: the class agrees with the route table (scope and token-free mode)',
    (kind, route) => {
      const { class: visibilityClass } = visibilityOf(kind);
      // Every route of a repository is proved public first (repository or anonymous-only).
      const proved = visibilityClass === 'repository' || visibilityClass === 'anonymous_only';
      const searchWithRepo = ['search_issues', 'search_code', 'search_commits'].includes(kind);
      expect(proved).toBe(route.scope === 'repo' || searchWithRepo);
      // Anonymous-only routes never reach a pooled identity, and only they are declared so.
      expect(visibilityClass === 'anonymous_only').toBe(route.tokenFree === 'anonymous_only');
    },
  );

  it.each([
    ['user_repo_list', 'repository'],
    ['org_repo_list', 'repository'],
    ['search_repositories', 'repository'],
    ['fork_list', 'repository'],
    ['user_gist_list', 'gist'],
    ['gist_view', 'gist'],
    ['user_event_list', 'event'],
    ['user_received_event_list', 'event'],
    ['org_event_list', 'event'],
    ['repo_event_list', 'event'],
    ['network_event_list', 'event'],
  ] as const)('%s filters its items by the %s rule', (kind, rule) => {
    expect(visibilityOf(kind).items).toBe(rule);
  });

  it('gives no owner-level or ownerless collection that can list private items a pass', () => {
    const unfiltered = ROUTE_TABLE.filter(
      (route) => route.scope !== 'repo' && visibilityOf(route.kind).class === 'filtered',
    ).filter((route) => visibilityOf(route.kind).items === undefined);
    expect(unfiltered).toEqual([]);
  });
});

describe('classify carries the visibility class', () => {
  const policy = { allow_search: false, allow_logs: true };

  it('copies the declared class onto the classified route', () => {
    const result = classify({ method: 'GET', path: '/orgs/acme/repos', policy });
    expect(result.ok && result.value.visibility).toEqual({
      class: 'filtered',
      items: 'repository',
    });
  });

  it('classifies the token-free issue-search shape as anonymous-only', () => {
    const result = classify({
      method: 'GET',
      path: '/search/issues',
      query: { q: 'repo:acme/widgets bug' },
      policy,
    });
    expect(result.ok && result.value.visibility.class).toBe('anonymous_only');
    expect(result.ok && result.value.tokenFree.mode).toBe('anonymous_only');
  });

  it('keeps issue search a repository route when the pool allows search', () => {
    const result = classify({
      method: 'GET',
      path: '/search/issues',
      query: { q: 'repo:acme/widgets bug' },
      policy: { ...policy, allow_search: true },
    });
    expect(result.ok && result.value.visibility.class).toBe('repository');
  });

  it('reads GET /user anonymously until the anonymous quota is exhausted (rule 6)', () => {
    const result = classify({ method: 'GET', path: '/user', callerLogin: 'alice', policy });
    expect(result.ok && result.value.tokenFree.mode).toBe('anonymous_until_exhausted');
    expect(result.ok && result.value.visibility.class).toBe('public_profile');
    const direct = classify({ method: 'GET', path: '/users/alice', policy });
    expect(direct.ok && direct.value.tokenFree.mode).toBe('anonymous_first');
  });
});
