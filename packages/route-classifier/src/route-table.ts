import type { RouteKind } from '@relay/protocol';
import { isValidBasehead } from './path-validator.js';
import { isCommitSha } from './param-patterns.js';

/** What a route reads: an ordinary API document, a job log, or a search. */
export type RouteClass = 'api' | 'log' | 'search';

/**
 * How a route may be served without a pooled identity (SPEC.md "What the service does" 2):
 * `anonymous_first` tries the anonymous API (or a public web, raw or patch alternate) before a
 * pooled identity; `anonymous_only` never uses a pooled identity (releases, issue timelines and
 * events); `anonymous_until_exhausted` uses a pooled identity only when the anonymous quota is
 * exhausted, never after another anonymous failure (the GET /user rewrite, rule 6); `pooled`
 * needs an authenticated identity (log bodies, code search, rate limits).
 */
export type TokenFreeMode =
  'anonymous_first' | 'anonymous_only' | 'anonymous_until_exhausted' | 'pooled';

/**
 * The family of cache lifetime a route belongs to. Hints only: `@relay/cache` owns the final
 * lifetimes (see `CACHE_LIFETIME_HINTS_MS`).
 */
export type CachePolicy =
  | 'default'
  | 'immutable'
  | 'open_pr'
  | 'pr_files'
  | 'job_log'
  | 'repo_stats'
  | 'static'
  | 'search'
  | 'never';

/** What a route's path names the owner of: a repository, an account, or nothing. */
export type RouteScope = 'repo' | 'owner' | 'global';

/** The parameters of a matched route, still percent-encoded as they appear in the path. */
export type RouteParams = Readonly<Record<string, string>>;

/** One route kind: its upstream GET path templates and what the relay does with it. */
export interface RouteDefinition {
  readonly kind: RouteKind;
  /**
   * Path templates. `{name}` is one segment, `{name+}` one or more (x-multi-segment),
   * `{name*}` zero or more (the contents root). At most one multi-segment parameter.
   */
  readonly templates: readonly string[];
  readonly paginated: boolean;
  readonly scope: RouteScope;
  readonly routeClass: RouteClass;
  readonly tokenFree: TokenFreeMode;
  readonly cachePolicy: CachePolicy;
  /** A native-protection shape of SPEC.md rule 10: always `local_credentials_required`. */
  readonly nativeProtection: boolean;
  /** An extra condition on the parameters (SHA vs ref kinds, compare basehead). */
  readonly where: ((params: RouteParams) => boolean) | undefined;
}

type RouteOptions = Partial<Omit<RouteDefinition, 'kind' | 'templates' | 'scope'>>;

function scopeOf(template: string): RouteScope {
  if (template.startsWith('/repos/') || template.startsWith('/networks/')) return 'repo';
  if (template.startsWith('/users/') || template.startsWith('/orgs/')) return 'owner';
  return 'global';
}

function route(kind: RouteKind, templates: readonly string[], options: RouteOptions = {}) {
  const [first = ''] = templates;
  return {
    kind,
    templates,
    paginated: false,
    scope: scopeOf(first),
    routeClass: 'api',
    tokenFree: 'anonymous_first',
    cachePolicy: 'default',
    nativeProtection: false,
    where: undefined,
    ...options,
  } satisfies RouteDefinition;
}

const bySha = (name: string) => (params: RouteParams) => isCommitSha(params[name] ?? '');
const byRef = (name: string) => (params: RouteParams) => !isCommitSha(params[name] ?? '');
const PAGINATED = { paginated: true } as const;
const RELEASE = { tokenFree: 'anonymous_only' } as const;
const ISSUE_EVENTS = { tokenFree: 'anonymous_only' } as const;
const STATIC = { cachePolicy: 'static' } as const;
const STATS = { cachePolicy: 'repo_stats' } as const;
const IMMUTABLE = { cachePolicy: 'immutable' } as const;
const NATIVE = { nativeProtection: true } as const;
const SEARCH = { paginated: true, routeClass: 'search', cachePolicy: 'search' } as const;

/**
 * The route table: every route kind of SPEC.md (the 120 of `ROUTE_KINDS`, in that order) with
 * GitHub's GET path template(s) for it (`route-map.tsv`). The table is data; matching is
 * `matchRoute`. Within a group of templates that could match the same path, more literal
 * segments win over parameters, then the order here (so the SHA kind precedes its `_ref` twin).
 */
export const ROUTE_TABLE: readonly RouteDefinition[] = [
  route('user_view', ['/users/{username}']),
  route('user_repo_list', ['/users/{username}/repos'], PAGINATED),
  route('user_org_list', ['/users/{username}/orgs'], PAGINATED),
  route('user_gist_list', ['/users/{username}/gists'], PAGINATED),
  route('user_follower_list', ['/users/{username}/followers'], PAGINATED),
  route('user_following_list', ['/users/{username}/following'], PAGINATED),
  route('user_event_list', ['/users/{username}/events'], PAGINATED),
  route('user_received_event_list', ['/users/{username}/received_events'], PAGINATED),
  route('user_key_list', ['/users/{username}/keys'], PAGINATED),
  route('user_gpg_key_list', ['/users/{username}/gpg_keys'], PAGINATED),
  route('org_repo_list', ['/orgs/{org}/repos'], PAGINATED),
  route('org_event_list', ['/orgs/{org}/events'], PAGINATED),
  route('org_public_member_list', ['/orgs/{org}/public_members'], PAGINATED),
  route('org_public_member_view', ['/orgs/{org}/public_members/{username}']),
  route('gist_view', ['/gists/{gist_id}']),
  route('emoji_list', ['/emojis'], STATIC),
  route('forge_meta', ['/meta'], STATIC),
  route('license_list', ['/licenses'], { ...PAGINATED, ...STATIC }),
  route('license_view', ['/licenses/{license}'], STATIC),
  route('gitignore_template_list', ['/gitignore/templates'], STATIC),
  route('gitignore_template_view', ['/gitignore/templates/{name}'], STATIC),
  route('repo_view', ['/repos/{owner}/{repo}']),
  route('commit_list', ['/repos/{owner}/{repo}/commits'], PAGINATED),
  route('commit_view', ['/repos/{owner}/{repo}/commits/{ref+}'], {
    ...PAGINATED,
    ...IMMUTABLE,
    where: bySha('ref'),
  }),
  route('commit_view_ref', ['/repos/{owner}/{repo}/commits/{ref+}'], {
    ...PAGINATED,
    where: byRef('ref'),
  }),
  route('commit_comments', ['/repos/{owner}/{repo}/commits/{commit_sha+}/comments'], PAGINATED),
  route('commit_pulls', ['/repos/{owner}/{repo}/commits/{commit_sha+}/pulls'], PAGINATED),
  route('commit_branches_where_head', [
    '/repos/{owner}/{repo}/commits/{commit_sha+}/branches-where-head',
  ]),
  route('commit_statuses', ['/repos/{owner}/{repo}/commits/{ref+}/statuses'], {
    ...PAGINATED,
    where: bySha('ref'),
  }),
  route('commit_statuses_ref', ['/repos/{owner}/{repo}/commits/{ref+}/statuses'], {
    ...PAGINATED,
    where: byRef('ref'),
  }),
  route('repo_comment', ['/repos/{owner}/{repo}/comments/{comment_id}']),
  route('compare', ['/repos/{owner}/{repo}/compare/{basehead+}'], {
    ...PAGINATED,
    where: (params) => isValidBasehead(params.basehead ?? ''),
  }),
  route('contents', ['/repos/{owner}/{repo}/contents/{path*}']),
  route('repo_readme', ['/repos/{owner}/{repo}/readme', '/repos/{owner}/{repo}/readme/{dir+}']),
  route('pr_view', ['/repos/{owner}/{repo}/pulls/{pull_number}'], { cachePolicy: 'open_pr' }),
  route('pr_list', ['/repos/{owner}/{repo}/pulls'], PAGINATED),
  route('pr_files', ['/repos/{owner}/{repo}/pulls/{pull_number}/files'], {
    ...PAGINATED,
    cachePolicy: 'pr_files',
  }),
  route('pr_commits', ['/repos/{owner}/{repo}/pulls/{pull_number}/commits'], PAGINATED),
  route('pr_review_comments', ['/repos/{owner}/{repo}/pulls/{pull_number}/comments'], PAGINATED),
  route('pr_review_comment_list', ['/repos/{owner}/{repo}/pulls/comments'], PAGINATED),
  route('pr_review_comment_view', ['/repos/{owner}/{repo}/pulls/comments/{comment_id}']),
  route(
    'pr_review_comment_reactions',
    ['/repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions'],
    PAGINATED,
  ),
  route('pr_reviews', ['/repos/{owner}/{repo}/pulls/{pull_number}/reviews'], PAGINATED),
  route('pr_review_view', ['/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}']),
  route(
    'pr_review_comments_for_review',
    ['/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/comments'],
    PAGINATED,
  ),
  route('pr_requested_reviewers', [
    '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers',
  ]),
  route('commit_check_runs', ['/repos/{owner}/{repo}/commits/{ref+}/check-runs'], {
    ...PAGINATED,
    where: bySha('ref'),
  }),
  route('commit_check_runs_ref', ['/repos/{owner}/{repo}/commits/{ref+}/check-runs'], {
    ...PAGINATED,
    where: byRef('ref'),
  }),
  route('commit_check_suites', ['/repos/{owner}/{repo}/commits/{ref+}/check-suites'], {
    ...PAGINATED,
    where: bySha('ref'),
  }),
  route('commit_check_suites_ref', ['/repos/{owner}/{repo}/commits/{ref+}/check-suites'], {
    ...PAGINATED,
    where: byRef('ref'),
  }),
  route('commit_status', ['/repos/{owner}/{repo}/commits/{ref+}/status'], {
    ...PAGINATED,
    where: bySha('ref'),
  }),
  route('commit_status_ref', ['/repos/{owner}/{repo}/commits/{ref+}/status'], {
    ...PAGINATED,
    where: byRef('ref'),
  }),
  route('ref_statuses', ['/repos/{owner}/{repo}/statuses/{ref+}'], PAGINATED),
  route('run_list', ['/repos/{owner}/{repo}/actions/runs'], PAGINATED),
  route('run_view', ['/repos/{owner}/{repo}/actions/runs/{run_id}']),
  route('run_jobs', ['/repos/{owner}/{repo}/actions/runs/{run_id}/jobs'], PAGINATED),
  route('run_artifacts', ['/repos/{owner}/{repo}/actions/runs/{run_id}/artifacts'], PAGINATED),
  route('job_view', ['/repos/{owner}/{repo}/actions/jobs/{job_id}']),
  route('job_logs', ['/repos/{owner}/{repo}/actions/jobs/{job_id}/logs'], {
    routeClass: 'log',
    tokenFree: 'pooled',
    cachePolicy: 'job_log',
  }),
  route(
    'check_run_annotations',
    ['/repos/{owner}/{repo}/check-runs/{check_run_id}/annotations'],
    PAGINATED,
  ),
  route('issue_view', ['/repos/{owner}/{repo}/issues/{issue_number}']),
  route('issue_list', ['/repos/{owner}/{repo}/issues'], PAGINATED),
  route('issue_comments', ['/repos/{owner}/{repo}/issues/{issue_number}/comments'], PAGINATED),
  route('issue_comment_list', ['/repos/{owner}/{repo}/issues/comments'], PAGINATED),
  route('issue_comment_view', ['/repos/{owner}/{repo}/issues/comments/{comment_id}']),
  route(
    'issue_comment_reactions',
    ['/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions'],
    PAGINATED,
  ),
  route('issue_events', ['/repos/{owner}/{repo}/issues/{issue_number}/events'], {
    ...PAGINATED,
    ...ISSUE_EVENTS,
  }),
  route('issue_event_list', ['/repos/{owner}/{repo}/issues/events'], {
    ...PAGINATED,
    ...ISSUE_EVENTS,
  }),
  route('issue_event_view', ['/repos/{owner}/{repo}/issues/events/{event_id}'], ISSUE_EVENTS),
  route('issue_labels', ['/repos/{owner}/{repo}/issues/{issue_number}/labels'], PAGINATED),
  route('issue_reactions', ['/repos/{owner}/{repo}/issues/{issue_number}/reactions'], PAGINATED),
  route('issue_timeline', ['/repos/{owner}/{repo}/issues/{issue_number}/timeline'], {
    ...PAGINATED,
    ...ISSUE_EVENTS,
  }),
  route('assignee_list', ['/repos/{owner}/{repo}/assignees'], PAGINATED),
  route('assignee_view', ['/repos/{owner}/{repo}/assignees/{assignee}']),
  route('label_list', ['/repos/{owner}/{repo}/labels'], PAGINATED),
  route('label_view', ['/repos/{owner}/{repo}/labels/{name}']),
  route('milestone_list', ['/repos/{owner}/{repo}/milestones'], PAGINATED),
  route('milestone_view', ['/repos/{owner}/{repo}/milestones/{milestone_number}']),
  route('branch_list', ['/repos/{owner}/{repo}/branches'], PAGINATED),
  // A branch path with a `protection` segment is never a branch view: no protection suffix
  // other than rule 10's is admitted, and those are matched before this table.
  route('branch_view', ['/repos/{owner}/{repo}/branches/{branch+}'], {
    where: (params) => !(params.branch ?? '').split('/').includes('protection'),
  }),
  route('branch_protection', ['/repos/{owner}/{repo}/branches/{branch+}/protection'], NATIVE),
  route('repo_ruleset_list', ['/repos/{owner}/{repo}/rulesets'], { ...PAGINATED, ...NATIVE }),
  route('repo_ruleset_view', ['/repos/{owner}/{repo}/rulesets/{ruleset_id}'], NATIVE),
  route('branch_rules', ['/repos/{owner}/{repo}/rules/branches/{branch+}'], {
    ...PAGINATED,
    ...NATIVE,
  }),
  route('tag_list', ['/repos/{owner}/{repo}/tags'], PAGINATED),
  route('repo_languages', ['/repos/{owner}/{repo}/languages']),
  route('repo_contributors', ['/repos/{owner}/{repo}/contributors'], PAGINATED),
  route('repo_license', ['/repos/{owner}/{repo}/license']),
  route('repo_topics', ['/repos/{owner}/{repo}/topics'], PAGINATED),
  route('community_profile', ['/repos/{owner}/{repo}/community/profile']),
  route('fork_list', ['/repos/{owner}/{repo}/forks'], PAGINATED),
  route('stargazer_list', ['/repos/{owner}/{repo}/stargazers'], PAGINATED),
  route('subscriber_list', ['/repos/{owner}/{repo}/subscribers'], PAGINATED),
  route('deployment_list', ['/repos/{owner}/{repo}/deployments'], PAGINATED),
  route('repo_event_list', ['/repos/{owner}/{repo}/events'], PAGINATED),
  route('network_event_list', ['/networks/{owner}/{repo}/events'], PAGINATED),
  route('repo_stats_contributors', ['/repos/{owner}/{repo}/stats/contributors'], STATS),
  route('repo_stats_commit_activity', ['/repos/{owner}/{repo}/stats/commit_activity'], STATS),
  route('repo_stats_code_frequency', ['/repos/{owner}/{repo}/stats/code_frequency'], STATS),
  route('repo_stats_participation', ['/repos/{owner}/{repo}/stats/participation'], STATS),
  route('repo_stats_punch_card', ['/repos/{owner}/{repo}/stats/punch_card'], STATS),
  route('git_blob', ['/repos/{owner}/{repo}/git/blobs/{file_sha}'], IMMUTABLE),
  route('git_commit', ['/repos/{owner}/{repo}/git/commits/{commit_sha}'], IMMUTABLE),
  route('git_tag', ['/repos/{owner}/{repo}/git/tags/{tag_sha}'], IMMUTABLE),
  route('git_tree', ['/repos/{owner}/{repo}/git/trees/{tree_sha+}']),
  route('git_ref', ['/repos/{owner}/{repo}/git/ref/{ref+}']),
  route('git_matching_refs', ['/repos/{owner}/{repo}/git/matching-refs/{ref+}']),
  route('workflow_list', ['/repos/{owner}/{repo}/actions/workflows'], PAGINATED),
  route('workflow_view', ['/repos/{owner}/{repo}/actions/workflows/{workflow_id}']),
  route(
    'workflow_run_list',
    ['/repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs'],
    PAGINATED,
  ),
  route('release_list', ['/repos/{owner}/{repo}/releases'], { ...PAGINATED, ...RELEASE }),
  route('release_latest', ['/repos/{owner}/{repo}/releases/latest'], RELEASE),
  route(
    'release_view',
    ['/repos/{owner}/{repo}/releases/{release_id}', '/repos/{owner}/{repo}/releases/tags/{tag+}'],
    RELEASE,
  ),
  route('release_assets', ['/repos/{owner}/{repo}/releases/{release_id}/assets'], {
    ...PAGINATED,
    ...RELEASE,
  }),
  route('release_asset', ['/repos/{owner}/{repo}/releases/assets/{asset_id}'], RELEASE),
  route('search_issues', ['/search/issues'], SEARCH),
  route('search_code', ['/search/code'], { ...SEARCH, tokenFree: 'pooled' }),
  route('search_commits', ['/search/commits'], SEARCH),
  route('search_repositories', ['/search/repositories'], SEARCH),
  route('rate_limit', ['/rate_limit'], { tokenFree: 'pooled', cachePolicy: 'never' }),
];
