import { ROUTE_KINDS } from '@relay/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SHA } from './__fixtures__/route-fixtures.js';
import { classify, type ClassifyInput } from './route-classifier.js';

const R = '/repos/octocat/Hello-World';
const POLICY = { allow_search: false, allow_logs: true };
const OPEN = { allow_search: true, allow_logs: true };

function get(path: string, extra: Partial<ClassifyInput> = {}) {
  return classify({ method: 'GET', path, policy: POLICY, ...extra });
}

function kindOf(path: string, extra: Partial<ClassifyInput> = {}) {
  const result = get(path, extra);
  return result.ok ? result.value.kind : result.error;
}

describe('evaluation order', () => {
  it.each(['POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', ''])('%j is method_denied', (method) => {
    expect(classify({ method, path: R, policy: POLICY })).toEqual({
      ok: false,
      error: { code: 'method_denied' },
    });
  });

  it('accepts get in any case', () => {
    expect(classify({ method: 'get', path: R, policy: POLICY }).ok).toBe(true);
  });

  it('checks the method before the path, the path before the query', () => {
    expect(classify({ method: 'POST', path: '//x', policy: POLICY })).toMatchObject({
      error: { code: 'method_denied' },
    });
    expect(get('//x', { query: { token: 'x' } })).toMatchObject({
      error: { code: 'invalid_path', rule: 'double_slash' },
    });
    expect(get(R, { query: { token: 'x' } })).toMatchObject({
      error: { code: 'invalid_query', rule: 'secret_key' },
    });
  });

  it('refuses a secret-bearing key even on a route outside the set', () => {
    expect(get('/orgs/github', { query: { access_token: 'x' } })).toMatchObject({
      error: { code: 'invalid_query' },
    });
  });
});

describe('route table rules', () => {
  it.each([
    ['/gists/aa5a315d61ae9438b18d', 'gist_view'],
    ['/gists/public', 'route_denied'],
    ['/gists/starred', 'route_denied'],
    ['/gists/aa5a315d61ae9438b18d/comments', 'route_denied'],
    [`${R}/releases/latest`, 'release_latest'],
    [`${R}/releases/42`, 'release_view'],
    [`${R}/releases/tags/v1.2.3`, 'release_view'],
    [`${R}/releases/tags/release/2026-01`, 'release_view'],
    [`${R}/releases/assets/7`, 'release_asset'],
    [`${R}/releases/42/assets`, 'release_assets'],
    [`${R}/releases/42/reactions`, 'route_denied'],
    [`${R}/pulls/comments`, 'pr_review_comment_list'],
    [`${R}/pulls/comments/5`, 'pr_review_comment_view'],
    [`${R}/pulls/5`, 'pr_view'],
    [`${R}/pulls/latest`, 'route_denied'],
    [`${R}/issues/events`, 'issue_event_list'],
    [`${R}/issues/events/9`, 'issue_event_view'],
    [`${R}/issues/9/events`, 'issue_events'],
    [`${R}/commits/${SHA}`, 'commit_view'],
    [`${R}/commits/${SHA.toUpperCase()}`, 'commit_view'],
    [`${R}/commits/${SHA.slice(0, 7)}`, 'commit_view_ref'],
    [`${R}/commits/main`, 'commit_view_ref'],
    [`${R}/commits/heads/feature/login`, 'commit_view_ref'],
    [`${R}/commits/${SHA}/statuses`, 'commit_statuses'],
    [`${R}/commits/release/v2/statuses`, 'commit_statuses_ref'],
    [`${R}/commits/${SHA}/status`, 'commit_status'],
    [`${R}/commits/main/status`, 'commit_status_ref'],
    [`${R}/commits/${SHA}/check-runs`, 'commit_check_runs'],
    [`${R}/commits/v1.0/check-runs`, 'commit_check_runs_ref'],
    [`${R}/commits/${SHA}/check-suites`, 'commit_check_suites'],
    [`${R}/commits/main/check-suites`, 'commit_check_suites_ref'],
    [`${R}/commits/${SHA}/pulls`, 'commit_pulls'],
    [`${R}/branches/main`, 'branch_view'],
    [`${R}/branches/feature/login`, 'branch_view'],
    [`${R}/contents`, 'contents'],
    [`${R}/contents/src/index.ts`, 'contents'],
    [`${R}/readme`, 'repo_readme'],
    [`${R}/readme/docs`, 'repo_readme'],
    [`${R}/compare/main...feature`, 'compare'],
    [`${R}/compare/main`, 'route_denied'],
    [`${R}/git/trees/main`, 'git_tree'],
    [`${R}/git/blobs/zzzz`, 'route_denied'],
    [`${R}/rulesets/rule-suites`, 'route_denied'],
    [`${R}/rulesets/42/history`, 'route_denied'],
    [`${R}/actions/runs/1/logs`, 'route_denied'],
    [`${R}/actions/runs/1/attempts/2`, 'route_denied'],
    ['/orgs/github', 'route_denied'],
    ['/users/octocat/starred', 'route_denied'],
    ['/users/octocat/subscriptions', 'route_denied'],
    ['/users/octocat/events/public', 'route_denied'],
    ['/users/octocat/following/hubot', 'route_denied'],
    ['/user/repos', 'route_denied'],
    ['/repos/octocat', 'route_denied'],
    ['/repos/-bad/Hello-World', 'route_denied'],
    ['/', 'route_denied'],
    ['/networks/octocat/Hello-World/events', 'network_event_list'],
    ['/licenses/apache-2.0', 'license_view'],
    ['/gitignore/templates/C++', 'gitignore_template_view'],
  ])('%s → %s', (path, expected) => {
    const result = kindOf(path);
    expect(typeof result === 'string' ? result : 'reason' in result && result.reason).toBe(
      expected,
    );
  });
});

describe('native-protection shapes (SPEC.md rule 10)', () => {
  it.each([
    [`${R}/branches/main/protection`, 'branch_protection'],
    [`${R}/branches/main/protection/enforce_admins`, 'branch_protection'],
    [`${R}/branches/main/protection/required_status_checks`, 'branch_protection'],
    [`${R}/branches/main/protection/required_status_checks/contexts`, 'branch_protection'],
    [`${R}/branches/main/protection/required_pull_request_reviews`, 'branch_protection'],
    [`${R}/branches/main/protection/required_signatures`, 'branch_protection'],
    [`${R}/branches/main/protection/restrictions`, 'branch_protection'],
    [`${R}/branches/main/protection/restrictions/apps`, 'branch_protection'],
    [`${R}/branches/main/protection/restrictions/teams`, 'branch_protection'],
    [`${R}/branches/main/protection/restrictions/users`, 'branch_protection'],
    [`${R}/branches/feature/login/protection`, 'branch_protection'],
    [`${R}/branches/feature%2Flogin/protection/restrictions`, 'branch_protection'],
    [`${R}/rulesets`, 'repo_ruleset_list'],
    [`${R}/rulesets/42`, 'repo_ruleset_view'],
    [`${R}/rules/branches/main`, 'branch_rules'],
    [`${R}/rules/branches/release%2Fv2`, 'branch_rules'],
  ])('%s → local_credentials_required (%s)', (path, kind) => {
    expect(get(path)).toEqual({
      ok: false,
      error: {
        code: 'fallback_local',
        reason: 'local_credentials_required',
        kind,
        owner: 'octocat',
        repo: 'Hello-World',
      },
    });
  });

  it.each([
    `${R}/branches/a%2Fb%0A/protection`,
    `${R}/branches/main%0D%0A/protection/enforce_admins`,
    `${R}/branches/a%C2%85b/protection`,
    `${R}/rules/branches/release%2Fv2%0A`,
  ])('a decoded control character in the branch → 400 invalid_path: %s', (path) => {
    expect(get(path)).toEqual({
      ok: false,
      error: { code: 'invalid_path', rule: 'encoded_control_character' },
    });
  });

  it.each([
    [`${R}/branches/main/protection/admin`],
    [`${R}/branches/main/protection/required_status_checks/checks`],
    [`${R}/branches/main/protection/restrictions/bots`],
  ])('other protection suffixes are not admitted: %s', (path) => {
    expect(get(path)).toEqual({
      ok: false,
      error: { code: 'fallback_local', reason: 'route_denied' },
    });
  });

  it('is refused before the log and search gates', () => {
    expect(
      classify({
        method: 'GET',
        path: `${R}/rulesets`,
        policy: { allow_search: false, allow_logs: false },
      }),
    ).toMatchObject({
      error: { reason: 'local_credentials_required' },
    });
  });
});

describe('GET /user', () => {
  it('is rewritten to the caller public profile', () => {
    const result = get('/user', { callerLogin: 'monalisa' });
    expect(result).toMatchObject({
      ok: true,
      value: {
        kind: 'user_view',
        upstreamPath: '/users/monalisa',
        rewrittenFrom: '/user',
        owner: 'monalisa',
        params: { username: 'monalisa' },
        tokenFree: { mode: 'anonymous_until_exhausted' },
      },
    });
  });

  it.each([[undefined], [''], ['../admin'], ['a/b']])(
    'without a valid caller login (%j) is denied',
    (callerLogin) => {
      expect(get('/user', { callerLogin })).toEqual({
        ok: false,
        error: { code: 'fallback_local', reason: 'route_denied' },
      });
    },
  );

  it('/users/:login itself keeps its path', () => {
    expect(get('/users/octocat', { callerLogin: 'monalisa' })).toMatchObject({
      value: { upstreamPath: '/users/octocat', rewrittenFrom: undefined },
    });
  });
});

describe('classified route details', () => {
  it('carries owner, repo, params and the path unchanged', () => {
    const path = `${R}/contents/docs/a%20b.md`;
    expect(get(path, { query: { ref: 'main' } })).toMatchObject({
      ok: true,
      value: {
        kind: 'contents',
        owner: 'octocat',
        repo: 'Hello-World',
        repoScoped: true,
        params: { owner: 'octocat', repo: 'Hello-World', path: 'docs/a%20b.md' },
        upstreamPath: path,
        query: { ref: 'main' },
        routeClass: 'api',
      },
    });
  });

  it.each([
    ['/users/octocat/repos', 'octocat', undefined, false, true],
    ['/orgs/github/repos', 'github', undefined, false, true],
    ['/emojis', undefined, undefined, false, false],
    [`${R}/pulls/1`, 'octocat', 'Hello-World', true, false],
  ])(
    '%s: owner %s, repo %s, repoScoped %s, paginated %s',
    (path, owner, repo, repoScoped, paginated) => {
      expect(get(path)).toMatchObject({ value: { owner, repo, repoScoped, paginated } });
    },
  );

  it.each([
    [`${R}/releases`, 'anonymous_only'],
    [`${R}/releases/latest`, 'anonymous_only'],
    [`${R}/releases/tags/v1`, 'anonymous_only'],
    [`${R}/releases/1`, 'anonymous_only'],
    [`${R}/releases/1/assets`, 'anonymous_only'],
    [`${R}/issues/1/timeline`, 'anonymous_only'],
    [`${R}/issues/1/events`, 'anonymous_only'],
    [`${R}/issues/events`, 'anonymous_only'],
    [`${R}/issues/events/1`, 'anonymous_only'],
    [`${R}/issues/1`, 'anonymous_first'],
    ['/orgs/github/public_members', 'anonymous_first'],
    ['/meta', 'anonymous_first'],
    [`${R}/actions/jobs/1/logs`, 'pooled'],
    ['/rate_limit', 'pooled'],
  ])('%s token-free mode is %s', (path, mode) => {
    expect(get(path)).toMatchObject({ value: { tokenFree: { mode } } });
  });

  it('job logs are log-class, large-payload and need allow_logs', () => {
    expect(get(`${R}/actions/jobs/7/logs`)).toMatchObject({
      value: {
        kind: 'job_logs',
        routeClass: 'log',
        log: true,
        largePayload: true,
        cache: {
          policy: 'job_log',
          bypass: undefined,
          lifetimeMs: 7 * 24 * 3600 * 1000,
          zeroContactMs: 3600 * 1000,
        },
      },
    });
    expect(
      get(`${R}/actions/jobs/7/logs`, { policy: { allow_search: false, allow_logs: false } }),
    ).toEqual({
      ok: false,
      error: {
        code: 'fallback_local',
        reason: 'logs_denied',
        kind: 'job_logs',
        owner: 'octocat',
        repo: 'Hello-World',
      },
    });
    expect(
      get(`${R}/actions/jobs/7`, { policy: { allow_search: false, allow_logs: false } }).ok,
    ).toBe(true);
  });

  it.each([
    [`${R}/pulls/1`, {}, 'open_pr', undefined, 2 * 60_000],
    [`${R}/pulls/1/files`, {}, 'pr_files', undefined, 5 * 60_000],
    [`${R}/commits/${SHA}`, {}, 'immutable', undefined, 86_400_000],
    [`${R}/git/trees/${SHA}`, {}, 'immutable', undefined, 86_400_000],
    [`${R}/git/trees/main`, {}, 'default', undefined, 60_000],
    ['/rate_limit', {}, 'never', 'non_cacheable', 0],
    [`${R}/issues/1`, { 'if-none-match': '"x"' }, 'default', 'conditional', 60_000],
    [
      `${R}/issues/1`,
      { 'If-Modified-Since': 'Tue, 01 Jan 2026 00:00:00 GMT' },
      'default',
      'conditional',
      60_000,
    ],
    [
      `${R}/releases/assets/1`,
      { accept: 'application/octet-stream' },
      'default',
      'large_payload',
      60_000,
    ],
    [`${R}/stats/contributors`, {}, 'repo_stats', undefined, 600_000],
    ['/emojis', {}, 'static', undefined, 3_600_000],
  ])('%s with %j: cache policy %s, bypass %s', (path, headers, policy, bypass, lifetimeMs) => {
    expect(get(path, { headers })).toMatchObject({
      value: { cache: { policy, bypass, lifetimeMs } },
    });
  });

  it('passes the cache-control bound on and never forwards cache-control', () => {
    const result = get(`${R}/issues/1`, {
      headers: { 'cache-control': 'max-age=0', accept: 'application/json' },
    });
    expect(result).toMatchObject({
      value: { cache: { maxAgeSeconds: 0 }, headers: { upstream: { accept: 'application/json' } } },
    });
    expect(result.ok && 'cache-control' in result.value.headers.upstream).toBe(false);
  });

  it.each([
    [
      `${R}/pulls/12`,
      'application/vnd.github.diff',
      { host: 'web', format: 'diff', path: '/octocat/Hello-World/pull/12.diff' },
    ],
    [
      `${R}/pulls/12`,
      'application/vnd.github.v3.patch',
      { host: 'web', format: 'patch', path: '/octocat/Hello-World/pull/12.patch' },
    ],
    [
      `${R}/commits/${SHA}`,
      'application/vnd.github.diff',
      { host: 'web', format: 'diff', path: `/octocat/Hello-World/commit/${SHA}.diff` },
    ],
    [
      `${R}/compare/main...feature`,
      'application/vnd.github.patch',
      { host: 'web', format: 'patch', path: '/octocat/Hello-World/compare/main...feature.patch' },
    ],
    [
      `${R}/contents/docs/a.md`,
      'application/vnd.github.raw+json',
      { host: 'raw', format: 'raw', path: '/octocat/Hello-World/HEAD/docs/a.md' },
    ],
  ])('%s as %s has a token-free alternate', (path, accept, alternate) => {
    expect(get(path, { headers: { accept } })).toMatchObject({
      value: { tokenFree: { alternates: [alternate] } },
    });
  });

  it.each([
    [`${R}/pulls/12`, 'application/vnd.github+json', {}],
    [`${R}/issues/12`, 'application/vnd.github.diff', {}],
    [`${R}/contents`, 'application/vnd.github.raw', {}],
    [`${R}/contents/a.md`, 'application/vnd.github.raw', { ref: '../../other/repo' }],
    [`${R}/contents/a.md`, 'application/vnd.github.raw', { ref: ['a', 'b'] }],
  ])('%s as %s with %j has none', (path, accept, query) => {
    expect(get(path, { headers: { accept }, query })).toMatchObject({
      value: { tokenFree: { alternates: [] } },
    });
  });

  it('raw alternates follow ?ref=', () => {
    expect(
      get(`${R}/contents/a.md`, {
        headers: { accept: 'application/vnd.github.raw' },
        query: { ref: 'release/v2' },
      }),
    ).toMatchObject({
      value: { tokenFree: { alternates: [{ path: '/octocat/Hello-World/release/v2/a.md' }] } },
    });
  });
});

describe('search routes', () => {
  it('the token-free issue-search shape runs without allow_search, anonymously only', () => {
    const result = get('/search/issues', {
      query: { q: 'repo:cli/cli crash type:pr', per_page: '50' },
    });
    expect(result).toMatchObject({
      ok: true,
      value: {
        kind: 'search_issues',
        routeClass: 'search',
        owner: 'cli',
        repo: 'cli',
        repoScoped: true,
        tokenFree: { mode: 'anonymous_only' },
        search: { tokenFreeShape: true, raw: 'repo:cli/cli crash type:pr', type: 'pr' },
        query: { q: 'repo:cli/cli crash type:pr', per_page: '50' },
      },
    });
  });

  it('with allow_search, issue search may fall through to pooled identities', () => {
    expect(get('/search/issues', { query: { q: 'repo:cli/cli x' }, policy: OPEN })).toMatchObject({
      value: { tokenFree: { mode: 'anonymous_first' }, search: { tokenFreeShape: true } },
    });
  });

  it.each([
    ['/search/code', 'repo:cli/cli addClass'],
    ['/search/commits', 'repo:cli/cli fix'],
    ['/search/repositories', 'relay'],
  ])('%s needs allow_search', (path, q) => {
    expect(get(path, { query: { q } })).toMatchObject({
      error: { code: 'fallback_local', reason: 'search_denied', rule: 'search_not_allowed' },
    });
    expect(get(path, { query: { q }, policy: OPEN }).ok).toBe(true);
  });

  it.each([
    ['/search/issues', undefined, 'missing_query'],
    ['/search/issues', { q: ['repo:cli/cli', 'x'] }, 'missing_query'],
    ['/search/issues', { q: 'crash' }, 'repo_qualifier_count'],
    ['/search/code', { q: 'repo:cli/cli NOT x' }, 'boolean_operator'],
    ['/search/repositories', { q: 'user:cli' }, 'qualifier_not_allowed'],
  ])('%s with %j is search_denied (%s), whatever the policy', (path, query, rule) => {
    for (const policy of [POLICY, OPEN]) {
      expect(get(path, { query, policy })).toMatchObject({
        ok: false,
        error: { code: 'fallback_local', reason: 'search_denied', rule },
      });
    }
  });

  it('/search/users and other search kinds are outside the set', () => {
    expect(get('/search/users', { query: { q: 'x' }, policy: OPEN })).toMatchObject({
      error: { reason: 'route_denied' },
    });
  });
});

describe('classify properties', () => {
  const pieces = fc.constantFrom(
    '/',
    'repos',
    'octocat',
    'Hello-World',
    'branches',
    'protection',
    'restrictions',
    'users',
    'commits',
    SHA,
    'compare',
    'main...x',
    'contents',
    '..',
    '.',
    '%2F',
    '%2e',
    'search',
    'issues',
    'user',
    'gists',
    'public',
    'rules',
    'rulesets',
    '42',
    'actions',
    'jobs',
    'logs',
    'releases',
  );
  const input = fc.record({
    method: fc.constantFrom('GET', 'get', 'POST'),
    path: fc.oneof(
      fc.array(pieces, { maxLength: 12 }).map((parts) => `/${parts.join('/')}`),
      fc.array(pieces, { maxLength: 12 }).map((parts) => parts.join('')),
      fc.string({ maxLength: 60 }),
    ),
    query: fc.option(
      fc.dictionary(
        fc.string({ maxLength: 8 }),
        fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 3 })),
      ),
      { nil: undefined },
    ),
    headers: fc.option(fc.dictionary(fc.string({ maxLength: 20 }), fc.string()), {
      nil: undefined,
    }),
    callerLogin: fc.option(fc.constantFrom('octocat', '', 'bad/login'), { nil: undefined }),
    policy: fc.record({ allow_search: fc.boolean(), allow_logs: fc.boolean() }),
  });

  it('is total: a route kind or a typed denial, never an exception', () => {
    fc.assert(
      fc.property(input, (request) => {
        const result = classify(request);
        if (result.ok) {
          expect(ROUTE_KINDS).toContain(result.value.kind);
        } else {
          expect(['method_denied', 'invalid_path', 'invalid_query', 'fallback_local']).toContain(
            result.error.code,
          );
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('an accepted request goes upstream to the path it came with (or the /user rewrite)', () => {
    fc.assert(
      fc.property(input, (request) => {
        const result = classify(request);
        if (!result.ok) return;
        const expected =
          request.path === '/user' ? `/users/${request.callerLogin ?? ''}` : request.path;
        expect(result.value.upstreamPath).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });
});
