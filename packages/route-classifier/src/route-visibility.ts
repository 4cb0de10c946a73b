import type { RouteKind } from '@relay/protocol';

/**
 * What a route's answer can reveal, and so what the relay must prove before it serves it from a
 * pooled identity or the shared cache (SPEC.md "What the service does", `allow_private`, rule 3,
 * route-specific rules 2, 3, 5, 6 and 9). The shared relay serves public data only, whoever's
 * credential fetched it:
 *
 * - `repository`: reads one repository (its path, or the `repo:` qualifier of a search). The
 *   public-visibility guard proves the repository public before any cache entry or pooled
 *   identity is used; a pooled answer whose body reveals that repository (or an embedded one) as
 *   private is discarded, the proof dropped and the repository's cache entries purged.
 * - `anonymous_only`: a repository route (proved like `repository`) that is only ever read
 *   anonymously, so that drafts, private releases and private events are never shared: releases,
 *   issue timelines and issue events (the token-free issue-search shape is classified so too).
 * - `filtered`: an answer that can list (or be) private items whatever its path says: owner-level
 *   repository, gist and event collections, repository search, a gist. Served anonymously first;
 *   every answer keeps only the items its body itself proves public ({@link ItemRule}); a single
 *   item that is not proven public is refused (424 `repo_not_public`).
 * - `public_profile`: an account profile; the fields only the account's own token sees (plan,
 *   private repository counts, …) are removed from every answer.
 * - `public_metadata`: data that is public by definition and cannot hold a private item (global
 *   metadata, public keys, followers, public organization memberships, rate limits).
 */
export type VisibilityClass =
  'repository' | 'anonymous_only' | 'filtered' | 'public_profile' | 'public_metadata';

/**
 * How one item of a collection answer proves itself public:
 * - `repository`: a repository object with `private: false` (and `visibility`, when present,
 *   `public`);
 * - `gist`: a gist with `public: true`;
 * - `event`: an event with `public: true` (GitHub's flag for events of public repositories).
 *
 * Every kept item is also scanned for embedded repository objects: one that says private drops
 * the item.
 */
export type ItemRule = 'repository' | 'gist' | 'event';

/** The declared visibility of one route kind. */
export interface RouteVisibility {
  readonly class: VisibilityClass;
  /**
   * The rule items of the answer (a JSON array, or the `items` of a search answer; for a single
   * object, the object itself) must pass to be served; absent when the class needs none.
   */
  readonly items?: ItemRule;
}

const REPOSITORY: RouteVisibility = { class: 'repository' };
const ANONYMOUS_ONLY: RouteVisibility = { class: 'anonymous_only' };
const METADATA: RouteVisibility = { class: 'public_metadata' };

/**
 * The visibility class of every route kind of SPEC.md (a `Record` over `RouteKind`, so a new
 * kind does not compile without one). `classify` copies it onto the classified route; the relay
 * pipeline enforces it.
 */
export const ROUTE_VISIBILITY: Readonly<Record<RouteKind, RouteVisibility>> = {
  // Accounts and organizations
  user_view: { class: 'public_profile' },
  user_repo_list: { class: 'filtered', items: 'repository' },
  user_org_list: METADATA, // public memberships only, whatever the credential
  user_gist_list: { class: 'filtered', items: 'gist' },
  user_follower_list: METADATA,
  user_following_list: METADATA,
  user_event_list: { class: 'filtered', items: 'event' },
  user_received_event_list: { class: 'filtered', items: 'event' },
  user_key_list: METADATA,
  user_gpg_key_list: METADATA,
  org_repo_list: { class: 'filtered', items: 'repository' },
  org_event_list: { class: 'filtered', items: 'event' },
  org_public_member_list: METADATA,
  org_public_member_view: METADATA,
  gist_view: { class: 'filtered', items: 'gist' },
  // Global metadata
  emoji_list: METADATA,
  forge_meta: METADATA,
  license_list: METADATA,
  license_view: METADATA,
  gitignore_template_list: METADATA,
  gitignore_template_view: METADATA,
  rate_limit: METADATA,
  // Repository routes
  repo_view: REPOSITORY,
  commit_list: REPOSITORY,
  commit_view: REPOSITORY,
  commit_view_ref: REPOSITORY,
  commit_comments: REPOSITORY,
  commit_pulls: REPOSITORY,
  commit_branches_where_head: REPOSITORY,
  commit_statuses: REPOSITORY,
  commit_statuses_ref: REPOSITORY,
  repo_comment: REPOSITORY,
  compare: REPOSITORY,
  contents: REPOSITORY,
  repo_readme: REPOSITORY,
  pr_view: REPOSITORY,
  pr_list: REPOSITORY,
  pr_files: REPOSITORY,
  pr_commits: REPOSITORY,
  pr_review_comments: REPOSITORY,
  pr_review_comment_list: REPOSITORY,
  pr_review_comment_view: REPOSITORY,
  pr_review_comment_reactions: REPOSITORY,
  pr_reviews: REPOSITORY,
  pr_review_view: REPOSITORY,
  pr_review_comments_for_review: REPOSITORY,
  pr_requested_reviewers: REPOSITORY,
  commit_check_runs: REPOSITORY,
  commit_check_runs_ref: REPOSITORY,
  commit_check_suites: REPOSITORY,
  commit_check_suites_ref: REPOSITORY,
  commit_status: REPOSITORY,
  commit_status_ref: REPOSITORY,
  ref_statuses: REPOSITORY,
  run_list: REPOSITORY,
  run_view: REPOSITORY,
  run_jobs: REPOSITORY,
  run_artifacts: REPOSITORY,
  job_view: REPOSITORY,
  job_logs: REPOSITORY,
  check_run_annotations: REPOSITORY,
  issue_view: REPOSITORY,
  issue_list: REPOSITORY,
  issue_comments: REPOSITORY,
  issue_comment_list: REPOSITORY,
  issue_comment_view: REPOSITORY,
  issue_comment_reactions: REPOSITORY,
  issue_events: ANONYMOUS_ONLY,
  issue_event_list: ANONYMOUS_ONLY,
  issue_event_view: ANONYMOUS_ONLY,
  issue_labels: REPOSITORY,
  issue_reactions: REPOSITORY,
  issue_timeline: ANONYMOUS_ONLY,
  assignee_list: REPOSITORY,
  assignee_view: REPOSITORY,
  label_list: REPOSITORY,
  label_view: REPOSITORY,
  milestone_list: REPOSITORY,
  milestone_view: REPOSITORY,
  branch_list: REPOSITORY,
  branch_view: REPOSITORY,
  branch_protection: REPOSITORY, // never read: always local_credentials_required
  repo_ruleset_list: REPOSITORY, // never read: always local_credentials_required
  repo_ruleset_view: REPOSITORY, // never read: always local_credentials_required
  branch_rules: REPOSITORY, // never read: always local_credentials_required
  tag_list: REPOSITORY,
  repo_languages: REPOSITORY,
  repo_contributors: REPOSITORY,
  repo_license: REPOSITORY,
  repo_topics: REPOSITORY,
  community_profile: REPOSITORY,
  // Forks of a public repository are listed one by one: a private fork is dropped.
  fork_list: { class: 'repository', items: 'repository' },
  stargazer_list: REPOSITORY,
  subscriber_list: REPOSITORY,
  deployment_list: REPOSITORY,
  repo_event_list: { class: 'repository', items: 'event' },
  network_event_list: { class: 'repository', items: 'event' },
  repo_stats_contributors: REPOSITORY,
  repo_stats_commit_activity: REPOSITORY,
  repo_stats_code_frequency: REPOSITORY,
  repo_stats_participation: REPOSITORY,
  repo_stats_punch_card: REPOSITORY,
  git_blob: REPOSITORY,
  git_commit: REPOSITORY,
  git_tag: REPOSITORY,
  git_tree: REPOSITORY,
  git_ref: REPOSITORY,
  git_matching_refs: REPOSITORY,
  workflow_list: REPOSITORY,
  workflow_view: REPOSITORY,
  workflow_run_list: REPOSITORY,
  release_list: ANONYMOUS_ONLY,
  release_latest: ANONYMOUS_ONLY,
  release_view: ANONYMOUS_ONLY,
  release_assets: ANONYMOUS_ONLY,
  release_asset: ANONYMOUS_ONLY,
  // Searches: issue, code and commit searches name exactly one repository (`repo:`).
  search_issues: REPOSITORY,
  search_code: REPOSITORY,
  search_commits: REPOSITORY,
  search_repositories: { class: 'filtered', items: 'repository' },
};

/**
 * The declared visibility of a route kind.
 *
 * @param kind - the route kind
 */
export function visibilityOf(kind: RouteKind): RouteVisibility {
  return ROUTE_VISIBILITY[kind];
}
