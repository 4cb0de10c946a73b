import { ROUTE_KINDS } from '@relay/protocol';
import { describe, expect, it } from 'vitest';
import {
  GET_PATHS,
  ROUTE_MAP,
  SEARCH_QUERIES,
  instantiate,
} from './__fixtures__/route-fixtures.js';
import { classify } from './route-classifier.js';
import { ROUTE_TABLE } from './route-table.js';

const OPEN_POLICY = { allow_search: true, allow_logs: true };

function classifyTemplate(template: string, kind?: string) {
  const q = kind === undefined ? undefined : SEARCH_QUERIES[kind];
  return classify({
    method: 'GET',
    path: instantiate(template, kind),
    ...(q === undefined ? {} : { query: { q } }),
    policy: OPEN_POLICY,
  });
}

const NATIVE = new Set([
  'branch_protection',
  'repo_ruleset_list',
  'repo_ruleset_view',
  'branch_rules',
]);

describe('ROUTE_TABLE', () => {
  it('defines every route kind of SPEC.md once, in ROUTE_KINDS order', () => {
    expect(ROUTE_TABLE.map((route) => route.kind)).toEqual([...ROUTE_KINDS]);
  });

  it.each(ROUTE_MAP.map((row) => [row.kind, row]))(
    '%s follows route-map.tsv on pagination and repository scope',
    (kind, row) => {
      const route = ROUTE_TABLE.find((candidate) => candidate.kind === kind);
      expect(route?.paginated).toBe(row.paginated);
      expect(route?.scope === 'repo').toBe(row.repoScoped);
    },
  );
});

describe('every row of route-map.tsv', () => {
  it.each(ROUTE_MAP.map((row) => [row.kind, row.template, instantiate(row.template, row.kind)]))(
    '%s: %s (as %s) classifies to its kind',
    (kind, template) => {
      const result = classifyTemplate(template, kind);
      if (NATIVE.has(kind)) {
        expect(result).toMatchObject({
          ok: false,
          error: { code: 'fallback_local', reason: 'local_credentials_required', kind },
        });
      } else {
        expect(result.ok && result.value.kind).toBe(kind);
      }
    },
  );
});

describe('every template of get-paths.tsv', () => {
  const uncovered = GET_PATHS.filter((row) => row.coveredBy.length === 0);
  const covered = GET_PATHS.filter((row) => row.coveredBy.length > 0);

  it('has the uncovered templates the fixture promises', () => {
    expect(uncovered.length).toBeGreaterThan(500);
  });

  // Ruling (a): '..' is allowed only in the compare route's {basehead}, so the dependency-graph
  // comparison (outside the set anyway) is refused as a path before routing.
  const refusedAsPath = new Set(['/repos/{owner}/{repo}/dependency-graph/compare/{basehead}']);

  it.each(uncovered.map((row) => [row.template, instantiate(row.template)]))(
    'uncovered %s (as %s) is denied',
    (template) => {
      const result = classifyTemplate(template);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      if (refusedAsPath.has(template)) {
        expect(result.error).toEqual({ code: 'invalid_path', rule: 'dot_dot' });
        return;
      }
      expect(result.error.code).toBe('fallback_local');
      expect(['route_denied', 'local_credentials_required']).toContain(
        'reason' in result.error ? result.error.reason : undefined,
      );
    },
  );

  it.each(covered.map((row) => [row.template, row.coveredBy.join(',')]))(
    'covered %s classifies to one of %s',
    (template, kinds) => {
      const options = kinds.split(',');
      const results = options.map((kind) => classifyTemplate(template, kind));
      for (const [index, result] of results.entries()) {
        const kind = options[index];
        if (kind !== undefined && NATIVE.has(kind)) {
          expect(result).toMatchObject({ ok: false, error: { kind } });
        } else {
          expect(result.ok && options.includes(result.value.kind)).toBe(true);
        }
      }
    },
  );
});
