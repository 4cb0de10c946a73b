import { describe, expect, it } from 'vitest';
import repoView from './__fixtures__/repo-view.json' with { type: 'json' };
import {
  REPO_VIEW_PUBLIC_FIELDS,
  reduceRepoView,
  reduceResponseBody,
} from './repo-view-reducer.js';

// A token-specific view of the fixture: what a pooled admin token would be shown.
const adminView = {
  ...repoView,
  permissions: { admin: true, maintain: true, push: true, triage: true, pull: true },
  temp_clone_token: 'ABTLWHOULUVAXGTRYU7OC2876QJ2O',
  security_and_analysis: { secret_scanning: { status: 'enabled' } },
  role_name: 'admin',
  custom_properties: { team: 'core' },
  squash_merge_commit_title: 'PR_TITLE',
  allow_update_branch: true,
  owner: { ...repoView.owner, email: 'private@example.com' },
  parent: {
    ...repoView.parent,
    permissions: { admin: true },
    temp_clone_token: 'T',
    parent: { id: 9 },
  },
};
const readerView = {
  ...repoView,
  permissions: { admin: false, push: false, pull: true },
  temp_clone_token: null,
};

describe('reduceRepoView', () => {
  it.each([
    'permissions',
    'temp_clone_token',
    'security_and_analysis',
    'role_name',
    'custom_properties',
    'allow_merge_commit',
    'allow_squash_merge',
    'allow_rebase_merge',
    'allow_auto_merge',
    'allow_update_branch',
    'delete_branch_on_merge',
    'squash_merge_commit_title',
  ])('drops the token-dependent field %s', (field) => {
    expect(reduceRepoView(adminView)).not.toHaveProperty(field);
  });

  it.each([
    'id',
    'full_name',
    'default_branch',
    'visibility',
    'topics',
    'stargazers_count',
    'archived',
  ])('keeps the public field %s', (field) => {
    expect((reduceRepoView(adminView) as Record<string, unknown>)[field]).toEqual(
      (repoView as Record<string, unknown>)[field],
    );
  });

  it('gives every token the same view of a repository', () => {
    expect(reduceRepoView(adminView)).toEqual(reduceRepoView(readerView));
  });

  it('reduces nested accounts, the license and related repositories', () => {
    const reduced = reduceRepoView(adminView) as Record<string, Record<string, unknown>>;
    expect(reduced.owner).not.toHaveProperty('email');
    expect(reduced.owner).toHaveProperty('login', 'octocat');
    expect(reduced.parent).not.toHaveProperty('permissions');
    expect(reduced.parent).not.toHaveProperty('temp_clone_token');
    expect(reduced.parent).not.toHaveProperty('parent');
    expect(reduced.parent).toHaveProperty('full_name', repoView.parent.full_name);
    expect(reduced.license).toEqual(repoView.license);
  });

  it('keeps only listed fields, so an unknown new field is dropped', () => {
    const reduced = reduceRepoView({ ...repoView, brand_new_field: 1 }) as object;
    for (const key of Object.keys(reduced)) expect(REPO_VIEW_PUBLIC_FIELDS).toContain(key);
  });

  it('keeps the fields in the order the forge wrote them, nested objects included', () => {
    // An upstream order unlike the list's: what gh api prints is the forge's order.
    const reversed: Record<string, unknown> = Object.fromEntries(
      Object.entries(adminView)
        .reverse()
        .map(([key, value]) =>
          key === 'owner' || key === 'license'
            ? [key, Object.fromEntries(Object.entries(value as object).reverse())]
            : [key, value],
        ),
    );
    const reduced = reduceRepoView(reversed) as Record<string, Record<string, unknown>>;
    const kept = (source: object, allowed: object) =>
      Object.keys(source).filter((key) => Object.hasOwn(allowed, key));
    const expected = reduceRepoView(adminView) as Record<string, Record<string, unknown>>;
    expect(Object.keys(reduced)).toEqual(kept(reversed, expected));
    expect(Object.keys(reduced)).toEqual(Object.keys(expected).reverse());
    expect(Object.keys(reduced.owner ?? {})).toEqual(Object.keys(expected.owner ?? {}).reverse());
    expect(Object.keys(reduced.license ?? {})).toEqual(
      Object.keys(expected.license ?? {}).reverse(),
    );
  });

  it('never sets a prototype from a __proto__ key of the body', () => {
    const reduced = reduceRepoView(
      JSON.parse('{"__proto__":{"polluted":true},"id":1,"name":"x"}'),
    ) as Record<string, unknown>;
    expect(Object.getPrototypeOf(reduced)).toBe(Object.prototype);
    expect(reduced).toEqual({ id: 1, name: 'x' });
  });

  it('leaves its input and non-object bodies alone', () => {
    const copy = structuredClone(adminView);
    reduceRepoView(adminView);
    expect(adminView).toEqual(copy);
    expect(reduceRepoView(null)).toBeNull();
    expect(reduceRepoView('text')).toBe('text');
  });
});

describe('reduceResponseBody', () => {
  it('reduces successful repo_view answers only', () => {
    expect(reduceResponseBody('repo_view', 200, adminView)).toEqual(reduceRepoView(adminView));
    expect(reduceResponseBody('repo_contributors', 200, adminView)).toBe(adminView);
  });

  it('keeps an error body readable', () => {
    const notFound = { message: 'Not Found', documentation_url: 'https://docs.github.com' };
    expect(reduceResponseBody('repo_view', 404, notFound)).toBe(notFound);
    const moved = { message: 'Moved Permanently', url: 'https://api.github.com/repositories/1' };
    expect(reduceResponseBody('repo_view', 301, moved)).toBe(moved);
  });
});
