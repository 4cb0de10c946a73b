import { describe, expect, it } from 'vitest';
import { ROUTE_KINDS, isRouteKind } from './route-kinds.js';

describe('ROUTE_KINDS', () => {
  it('lists the 120 route kinds of SPEC.md once each', () => {
    expect(ROUTE_KINDS).toHaveLength(120);
    expect(new Set(ROUTE_KINDS).size).toBe(ROUTE_KINDS.length);
  });

  it.each([
    ['repo_view', true],
    ['rate_limit', true],
    ['search_repositories', true],
    ['org_view', false],
    ['', false],
    ['REPO_VIEW', false],
    [42, false],
    [undefined, false],
  ])('isRouteKind(%j) is %s', (value, expected) => {
    expect(isRouteKind(value)).toBe(expected);
  });
});
