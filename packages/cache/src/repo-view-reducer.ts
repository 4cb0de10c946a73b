import type { RouteKind } from '@relay/protocol';

const ACCOUNT_FIELDS: ReadonlySet<string> = new Set([
  'login',
  'id',
  'node_id',
  'avatar_url',
  'gravatar_id',
  'url',
  'html_url',
  'followers_url',
  'following_url',
  'gists_url',
  'starred_url',
  'subscriptions_url',
  'organizations_url',
  'repos_url',
  'events_url',
  'received_events_url',
  'type',
  'user_view_type',
  'site_admin',
]);

const LICENSE_FIELDS: ReadonlySet<string> = new Set([
  'key',
  'name',
  'spdx_id',
  'url',
  'node_id',
  'html_url',
]);

/**
 * The public repository metadata the shared cache keeps, and every caller sees. Fields that
 * depend on the token that asked (permissions, temp_clone_token, security_and_analysis, the merge
 * settings GitHub shows only to writers, role_name, custom_properties, ...) are not listed, so
 * they are dropped, and so is any field GitHub adds later until it is reviewed and listed here.
 */
export const REPO_VIEW_PUBLIC_FIELDS: readonly string[] = [
  'id',
  'node_id',
  'name',
  'full_name',
  'owner',
  'private',
  'html_url',
  'description',
  'fork',
  'url',
  'archive_url',
  'assignees_url',
  'blobs_url',
  'branches_url',
  'collaborators_url',
  'comments_url',
  'commits_url',
  'compare_url',
  'contents_url',
  'contributors_url',
  'deployments_url',
  'downloads_url',
  'events_url',
  'forks_url',
  'git_commits_url',
  'git_refs_url',
  'git_tags_url',
  'git_url',
  'hooks_url',
  'issue_comment_url',
  'issue_events_url',
  'issues_url',
  'keys_url',
  'labels_url',
  'languages_url',
  'merges_url',
  'milestones_url',
  'notifications_url',
  'pulls_url',
  'releases_url',
  'ssh_url',
  'stargazers_url',
  'statuses_url',
  'subscribers_url',
  'subscription_url',
  'tags_url',
  'teams_url',
  'trees_url',
  'clone_url',
  'mirror_url',
  'svn_url',
  'homepage',
  'language',
  'forks_count',
  'forks',
  'stargazers_count',
  'watchers_count',
  'watchers',
  'size',
  'default_branch',
  'open_issues_count',
  'open_issues',
  'is_template',
  'topics',
  'has_issues',
  'has_projects',
  'has_wiki',
  'has_pages',
  'has_downloads',
  'has_discussions',
  'archived',
  'disabled',
  'visibility',
  'pushed_at',
  'created_at',
  'updated_at',
  'allow_forking',
  'web_commit_signoff_required',
  'license',
  'organization',
  'network_count',
  'subscribers_count',
  'parent',
  'source',
  'template_repository',
];

const PUBLIC_FIELDS: ReadonlySet<string> = new Set(REPO_VIEW_PUBLIC_FIELDS);
const NESTED_REPOSITORY_FIELDS = new Set(['parent', 'source', 'template_repository']);
const ACCOUNT_OBJECT_FIELDS = new Set(['owner', 'organization']);

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The listed fields of `source`, in `source`'s own key order: the reduced body keeps the order
 * the forge wrote, so that `gh api` through the relay prints the fields as GitHub sent them.
 */
function pick(source: Readonly<Record<string, unknown>>, fields: ReadonlySet<string>) {
  const picked: Record<string, unknown> = {};
  for (const field of Object.keys(source)) {
    if (fields.has(field)) picked[field] = source[field];
  }
  return picked;
}

function reduceRepository(
  repository: Readonly<Record<string, unknown>>,
  depth: number,
): Record<string, unknown> {
  const reduced: Record<string, unknown> = {};
  // The upstream's key order, not the list's (see `pick`).
  for (const field of Object.keys(repository)) {
    if (!PUBLIC_FIELDS.has(field)) continue;
    const value = repository[field];
    if (ACCOUNT_OBJECT_FIELDS.has(field)) {
      reduced[field] = isRecord(value) ? pick(value, ACCOUNT_FIELDS) : value;
    } else if (field === 'license') {
      reduced[field] = isRecord(value) ? pick(value, LICENSE_FIELDS) : value;
    } else if (NESTED_REPOSITORY_FIELDS.has(field)) {
      // GitHub nests related repositories one level deep; anything deeper is dropped.
      if (depth === 0) reduced[field] = isRecord(value) ? reduceRepository(value, 1) : value;
    } else {
      reduced[field] = value;
    }
  }
  return reduced;
}

/**
 * Reduces a `repo_view` body to the fixed public metadata subset ({@link REPO_VIEW_PUBLIC_FIELDS},
 * with `owner`, `organization` and `license` reduced to their public fields and `parent`,
 * `source` and `template_repository` reduced the same way). Kept fields stay in the order the
 * body has them. A body that is not a JSON object
 * (an error message, a redirect) is returned unchanged.
 *
 * @param body - the parsed upstream body.
 * @returns a new, reduced body; the input is not modified.
 */
export function reduceRepoView(body: unknown): unknown {
  return isRecord(body) ? reduceRepository(body, 0) : body;
}

/**
 * The body a caller may see for a route kind, whether it is served fresh or from the cache:
 * successful (2xx) `repo_view` answers are reduced (see {@link reduceRepoView}); error bodies and
 * other kinds are returned as is. Apply it to fresh answers too, so that no caller ever sees a
 * pooled token's view of a repository.
 *
 * @param routeKind - the classified route kind.
 * @param status - the upstream status.
 * @param body - the parsed upstream body.
 * @returns the shareable body.
 */
export function reduceResponseBody(routeKind: RouteKind, status: number, body: unknown): unknown {
  return routeKind === 'repo_view' && status >= 200 && status < 300 ? reduceRepoView(body) : body;
}

/** Whether a route kind's bodies are reduced before they are shared. */
export function isReducedRouteKind(routeKind: RouteKind): boolean {
  return routeKind === 'repo_view';
}
