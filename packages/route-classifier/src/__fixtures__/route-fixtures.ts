/**
 * Test fixtures: GitHub's REST GET path templates and the route kinds covering them, copied from
 * the product data (`shared/data/route-map.tsv`, `shared/data/get-paths.tsv`, derived from
 * GitHub's REST description), and realistic values to instantiate them with.
 */
import { readFileSync } from 'node:fs';

/** One row of route-map.tsv. */
export interface RouteMapRow {
  readonly kind: string;
  readonly template: string;
  readonly paginated: boolean;
  readonly repoScoped: boolean;
}

/** One row of get-paths.tsv. */
export interface GetPathRow {
  readonly template: string;
  readonly coveredBy: readonly string[];
}

function readTsv(name: string): string[][] {
  const text = readFileSync(new URL(name, import.meta.url), 'utf8');
  return text
    .split('\n')
    .slice(1)
    .filter((line) => line.trim() !== '')
    .map((line) => line.split('\t'));
}

/** Every row of route-map.tsv. */
export const ROUTE_MAP: readonly RouteMapRow[] = readTsv('route-map.tsv').map(
  ([kind = '', template = '', , , repoScoped = '', paginated = '']) => ({
    kind,
    template,
    paginated: paginated === 'yes',
    repoScoped: repoScoped === 'yes',
  }),
);

/** Every row of get-paths.tsv. */
export const GET_PATHS: readonly GetPathRow[] = readTsv('get-paths.tsv').map(
  ([template = '', , coveredBy = '-']) => ({
    template,
    coveredBy: coveredBy === '-' ? [] : coveredBy.split(','),
  }),
);

/** A full commit hash. */
export const SHA = '6dcb09b5b57875f334f61aebed695e2e4193db5e';

const VALUES: Readonly<Record<string, string>> = {
  owner: 'octocat',
  repo: 'Hello-World',
  username: 'monalisa',
  org: 'github',
  assignee: 'hubot',
  gist_id: 'aa5a315d61ae9438b18d',
  license: 'apache-2.0',
  name: 'Node',
  commit_sha: SHA,
  file_sha: SHA,
  tag_sha: SHA,
  tree_sha: SHA,
  basehead: 'main...feature/login',
  path: 'docs/getting-started.md',
  dir: 'docs',
  branch: 'release/v2',
  workflow_id: 'ci.yml',
  tag: 'v1.2.3',
  pull_number: '1347',
  issue_number: '1347',
  milestone_number: '3',
};

// Kinds whose {ref} is a commit hash, and the values of the other ref-shaped parameters.
const SHA_REF_KINDS: ReadonlySet<string> = new Set([
  'commit_view',
  'commit_statuses',
  'commit_check_runs',
  'commit_check_suites',
  'commit_status',
]);
const REF_BY_KIND: Readonly<Record<string, string>> = {
  git_ref: 'heads/main',
  git_matching_refs: 'tags/v1',
  ref_statuses: 'main',
};

/** A realistic concrete path for a template, as the kind (when known) would be asked for. */
export function instantiate(template: string, kind?: string): string {
  return template.replace(/\{([a-z_-]+)\}/g, (_, name: string) => {
    if (name === 'ref') {
      if (kind !== undefined && SHA_REF_KINDS.has(kind)) return SHA;
      return (kind === undefined ? undefined : REF_BY_KIND[kind]) ?? 'feature/login';
    }
    const known = VALUES[name];
    if (known !== undefined) return known;
    return name.endsWith('_id') || name.endsWith('_number') ? '42' : 'example';
  });
}

/** The query a search kind is asked with in the fixtures. */
export const SEARCH_QUERIES: Readonly<Record<string, string>> = {
  search_issues: 'repo:octocat/Hello-World crash type:issue state:open',
  search_code: 'repo:octocat/Hello-World addClass',
  search_commits: 'repo:octocat/Hello-World fix',
  search_repositories: 'relay cache',
};
