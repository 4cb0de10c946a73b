import type { RouteVisibility } from '@relay/route-classifier';
import { describe, expect, it } from 'vitest';
import { VIEWER_RELATIVE_REPOSITORY_FIELDS, screenAnswer } from './public-only-screen.js';

const repo = (name: string, isPrivate: boolean, extra: Record<string, unknown> = {}) => ({
  id: name.length,
  name,
  full_name: `acme/${name}`,
  private: isPrivate,
  permissions: { admin: true, push: true, pull: true },
  ...extra,
});

function screen(
  visibility: RouteVisibility,
  body: unknown,
  options: { status?: number; headers?: Record<string, string>; pooled?: boolean } = {},
) {
  return screenAnswer({
    visibility,
    status: options.status ?? 200,
    headers: options.headers ?? {},
    body,
    encoding: 'json',
    pooled: options.pooled ?? true,
  });
}

const REPOSITORY: RouteVisibility = { class: 'repository' };
const REPO_LIST: RouteVisibility = { class: 'filtered', items: 'repository' };

describe('screenAnswer: item rules', () => {
  it.each([
    ['repository', [repo('a', false), repo('b', true), { name: 'no flag' }], ['a']],
    [
      'repository',
      [repo('v', false, { visibility: 'internal' }), repo('w', false, { visibility: 'public' })],
      ['w'],
    ],
    ['gist', [{ id: 'g1', public: true }, { id: 'g2', public: false }, { id: 'g3' }], ['g1']],
    [
      'event',
      [
        { id: 'e1', public: true, repo: { name: 'acme/a' } },
        { id: 'e2', public: false },
        { id: 'e3', public: true, payload: { forkee: repo('f', true) } },
      ],
      ['e1'],
    ],
  ] as const)('%s items: only those the body proves public remain', (rule, items, kept) => {
    const result = screen({ class: 'filtered', items: rule }, items);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const body = result.body as { name?: string; id?: string }[];
    expect(body.map((item) => item.name ?? item.id)).toEqual(kept);
    expect(result.removed).toBe(items.length - kept.length);
  });

  it('filters the items of a search answer and counts only what it serves', () => {
    const result = screen(
      REPO_LIST,
      { total_count: 40, incomplete_results: false, items: [repo('a', false), repo('b', true)] },
      {
        headers: {
          link: '<https://x/search?page=2>; rel="next", <https://x/search?page=4>; rel="last"',
        },
      },
    );
    expect(result).toMatchObject({
      ok: true,
      body: { total_count: 1, incomplete_results: true },
      headers: { link: '<https://x/search?page=2>; rel="next"' },
    });
  });

  it('a pooled search page whose every item was removed reads like an empty result', () => {
    const removed = screen(REPO_LIST, {
      total_count: 2,
      incomplete_results: false,
      items: [repo('a', true), repo('b', true)],
    });
    const empty = screen(REPO_LIST, { total_count: 0, incomplete_results: false, items: [] });
    expect(removed).toMatchObject({ ok: true, removed: 2 });
    expect(removed.ok && removed.body).toEqual(empty.ok && empty.body);
  });

  it('a pooled search page with nothing removed still reports no private count', () => {
    const result = screen(REPO_LIST, {
      total_count: 9,
      incomplete_results: false,
      items: [repo('a', false)],
    });
    expect(result).toMatchObject({ ok: true, body: { total_count: 1, incomplete_results: false } });
  });

  it('an anonymous page with nothing removed is left as it is', () => {
    const body = { total_count: 9, incomplete_results: false, items: [repo('a', false)] };
    const headers = { link: '<https://x?page=3>; rel="last"' };
    const result = screen(REPO_LIST, body, { headers, pooled: false });
    expect(result).toMatchObject({ ok: true, headers, body: { total_count: 9 } });
  });

  it.each([
    [{ id: 'g', public: false }],
    [{ id: 'g' }],
    [{ id: 'g', public: true, fork_of: repo('p', true) }],
  ])('a single item that is not proven public is refused: %j', (gist) => {
    expect(screen({ class: 'filtered', items: 'gist' }, gist).ok).toBe(false);
  });

  it('a successful non-JSON answer of a filtered route is refused, an error passes', () => {
    const base = { visibility: REPO_LIST, headers: {}, encoding: 'text', pooled: true } as const;
    expect(screenAnswer({ ...base, status: 200, body: 'x' }).ok).toBe(false);
    expect(screenAnswer({ ...base, status: 404, body: 'x' }).ok).toBe(true);
  });
});

describe('screenAnswer: private repositories and viewer-relative fields', () => {
  it('refuses an answer that reveals a repository as private, naming it', () => {
    const pull = { number: 1, base: { repo: repo('widgets', true) }, head: { repo: null } };
    expect(screen(REPOSITORY, pull)).toEqual({ ok: false, privateRepositories: ['acme/widgets'] });
    expect(screen(REPOSITORY, { items: [{ repository: repo('Code', true) }] })).toEqual({
      ok: false,
      privateRepositories: ['acme/code'],
    });
  });

  it('removes every viewer-relative field of every repository object, leaving others', () => {
    const fields = Object.fromEntries(VIEWER_RELATIVE_REPOSITORY_FIELDS.map((f) => [f, 'x']));
    const body = {
      number: 1,
      permissions: 'not a repository: kept',
      base: { repo: repo('widgets', false, fields) },
      head: { repo: repo('fork', false, { parent: repo('widgets', false) }) },
    };
    const result = screen(REPOSITORY, body);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const text = JSON.stringify(result.body);
    for (const field of VIEWER_RELATIVE_REPOSITORY_FIELDS) {
      expect(text).not.toContain(`"${field}":{`);
      expect(text).not.toContain(`"${field}":"x"`);
    }
    expect(result.body).toMatchObject({ permissions: 'not a repository: kept', number: 1 });
    expect(body.base.repo).toHaveProperty('permissions'); // the input is not mutated
  });

  it('removes secret teams from every list, keeping the order of the rest', () => {
    const team = (slug: string, privacy?: string) => ({
      id: slug.length,
      slug,
      name: slug,
      ...(privacy === undefined ? {} : { privacy }),
    });
    const pull = {
      number: 1,
      requested_teams: [team('core', 'closed'), team('red-team', 'secret'), team('docs')],
      requested_reviewers: [{ login: 'alice' }],
    };
    const reviewers = { users: [], teams: [team('red-team', 'secret'), team('ops', 'closed')] };
    const screenedPull = screen(REPOSITORY, pull);
    const screenedReviewers = screen(REPOSITORY, reviewers);
    expect(screenedPull.ok && screenedPull.body).toEqual({
      ...pull,
      requested_teams: [team('core', 'closed'), team('docs')],
    });
    expect(screenedReviewers.ok && screenedReviewers.body).toEqual({
      users: [],
      teams: [team('ops', 'closed')],
    });
    expect(pull.requested_teams).toHaveLength(3); // the input is not mutated
    // `privacy: "secret"` alone (no slug) is not a team: a list of other objects is kept.
    const other = [{ id: 1, privacy: 'secret' }];
    const kept = screen(REPOSITORY, other);
    expect(kept.ok && kept.body).toBe(other);
  });

  it('returns the same body when there is nothing to change', () => {
    const body = [{ id: 1, title: 'an issue' }];
    const result = screen(REPOSITORY, body);
    expect(result.ok && result.body).toBe(body);
  });

  it('passes error bodies of an item-rule route through the private check', () => {
    expect(screen(REPO_LIST, { message: 'Not Found' }, { status: 404 }).ok).toBe(true);
  });
});
