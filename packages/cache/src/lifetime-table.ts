import {
  JOB_LOG_CACHE_MS,
  JOB_LOG_ZERO_CONTACT_MS,
  OPEN_PR_CACHE_MS,
  PR_FILES_CACHE_MS,
  type RouteKind,
} from '@relay/protocol';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * Lifetime classes. `never`: not cacheable (bypass). `log`: job logs, cached only after the run
 * completed. `immutable`: content addressed by a SHA. `reference`: global metadata that rarely
 * changes. `open_pr`, `pr_files`, `stats`: the lifetimes SPEC.md names. `mutable`: every other
 * single object or collection.
 */
export const LIFETIME_CLASSES = [
  'never',
  'log',
  'immutable',
  'reference',
  'open_pr',
  'pr_files',
  'stats',
  'mutable',
] as const;

/** A lifetime class. */
export type LifetimeClass = (typeof LIFETIME_CLASSES)[number];

/** How long an entry of one class stays fresh, and how long past that it may be served stale. */
export interface CacheLifetime {
  readonly class: LifetimeClass;
  /** Freshness from the last upstream confirmation; 0 means never stored. */
  readonly freshMs: number;
  /** The bounded stale window after expiry; 0 means never served stale. */
  readonly staleMs: number;
  /** Longest time served without upstream contact before an existence probe (logs only). */
  readonly zeroContactMs?: number;
}

/** The lifetime of each class. */
export const CLASS_LIFETIMES: Readonly<Record<LifetimeClass, CacheLifetime>> = {
  never: { class: 'never', freshMs: 0, staleMs: 0 },
  log: {
    class: 'log',
    freshMs: JOB_LOG_CACHE_MS,
    staleMs: 0,
    zeroContactMs: JOB_LOG_ZERO_CONTACT_MS,
  },
  immutable: { class: 'immutable', freshMs: DAY_MS, staleMs: 7 * DAY_MS },
  reference: { class: 'reference', freshMs: HOUR_MS, staleMs: DAY_MS },
  open_pr: { class: 'open_pr', freshMs: OPEN_PR_CACHE_MS, staleMs: HOUR_MS },
  pr_files: { class: 'pr_files', freshMs: PR_FILES_CACHE_MS, staleMs: HOUR_MS },
  stats: { class: 'stats', freshMs: 10 * MINUTE_MS, staleMs: HOUR_MS },
  mutable: { class: 'mutable', freshMs: MINUTE_MS, staleMs: HOUR_MS },
};

/**
 * The lifetime class of every route kind. `pr_files` falls back to `mutable` when the head
 * commit is unknown; kinds that a SHA may address move to `immutable` with the `immutable` hint.
 */
export const ROUTE_LIFETIME_CLASSES: Readonly<Record<RouteKind, LifetimeClass>> = {
  user_view: 'mutable',
  user_repo_list: 'mutable',
  user_org_list: 'mutable',
  user_gist_list: 'mutable',
  user_follower_list: 'mutable',
  user_following_list: 'mutable',
  user_event_list: 'mutable',
  user_received_event_list: 'mutable',
  user_key_list: 'mutable',
  user_gpg_key_list: 'mutable',
  org_repo_list: 'mutable',
  org_event_list: 'mutable',
  org_public_member_list: 'mutable',
  org_public_member_view: 'mutable',
  gist_view: 'mutable',
  emoji_list: 'reference',
  forge_meta: 'reference',
  license_list: 'reference',
  license_view: 'reference',
  gitignore_template_list: 'reference',
  gitignore_template_view: 'reference',
  repo_view: 'mutable',
  commit_list: 'mutable',
  commit_view: 'immutable',
  commit_view_ref: 'mutable',
  commit_comments: 'mutable',
  commit_pulls: 'mutable',
  commit_branches_where_head: 'mutable',
  commit_statuses: 'mutable',
  commit_statuses_ref: 'mutable',
  repo_comment: 'mutable',
  compare: 'mutable',
  contents: 'mutable',
  repo_readme: 'mutable',
  pr_view: 'open_pr',
  pr_list: 'mutable',
  pr_files: 'pr_files',
  pr_commits: 'mutable',
  pr_review_comments: 'mutable',
  pr_review_comment_list: 'mutable',
  pr_review_comment_view: 'mutable',
  pr_review_comment_reactions: 'mutable',
  pr_reviews: 'mutable',
  pr_review_view: 'mutable',
  pr_review_comments_for_review: 'mutable',
  pr_requested_reviewers: 'mutable',
  commit_check_runs: 'mutable',
  commit_check_runs_ref: 'mutable',
  commit_check_suites: 'mutable',
  commit_check_suites_ref: 'mutable',
  commit_status: 'mutable',
  commit_status_ref: 'mutable',
  ref_statuses: 'mutable',
  run_list: 'mutable',
  run_view: 'mutable',
  run_jobs: 'mutable',
  run_artifacts: 'mutable',
  job_view: 'mutable',
  job_logs: 'log',
  check_run_annotations: 'mutable',
  issue_view: 'mutable',
  issue_list: 'mutable',
  issue_comments: 'mutable',
  issue_comment_list: 'mutable',
  issue_comment_view: 'mutable',
  issue_comment_reactions: 'mutable',
  issue_events: 'mutable',
  issue_event_list: 'mutable',
  issue_event_view: 'mutable',
  issue_labels: 'mutable',
  issue_reactions: 'mutable',
  issue_timeline: 'mutable',
  assignee_list: 'mutable',
  assignee_view: 'mutable',
  label_list: 'mutable',
  label_view: 'mutable',
  milestone_list: 'mutable',
  milestone_view: 'mutable',
  branch_list: 'mutable',
  branch_view: 'mutable',
  branch_protection: 'never',
  repo_ruleset_list: 'never',
  repo_ruleset_view: 'never',
  branch_rules: 'never',
  tag_list: 'mutable',
  repo_languages: 'mutable',
  repo_contributors: 'mutable',
  repo_license: 'mutable',
  repo_topics: 'mutable',
  community_profile: 'mutable',
  fork_list: 'mutable',
  stargazer_list: 'mutable',
  subscriber_list: 'mutable',
  deployment_list: 'mutable',
  repo_event_list: 'mutable',
  network_event_list: 'mutable',
  repo_stats_contributors: 'stats',
  repo_stats_commit_activity: 'stats',
  repo_stats_code_frequency: 'stats',
  repo_stats_participation: 'stats',
  repo_stats_punch_card: 'stats',
  git_blob: 'immutable',
  git_commit: 'immutable',
  git_tag: 'immutable',
  git_tree: 'mutable',
  git_ref: 'mutable',
  git_matching_refs: 'mutable',
  workflow_list: 'mutable',
  workflow_view: 'mutable',
  workflow_run_list: 'mutable',
  release_list: 'mutable',
  release_latest: 'mutable',
  release_view: 'mutable',
  release_assets: 'mutable',
  release_asset: 'mutable',
  search_issues: 'mutable',
  search_code: 'mutable',
  search_commits: 'mutable',
  search_repositories: 'mutable',
  rate_limit: 'never',
};

/** Kinds whose answer is immutable when the classifier saw a full SHA in the path or `ref`. */
export const SHA_ADDRESSABLE_KINDS: ReadonlySet<RouteKind> = new Set<RouteKind>([
  'git_tree',
  'contents',
  'repo_readme',
  'compare',
]);

/** What the classifier and the request pipeline know about a read, beyond its route kind. */
export interface CacheHints {
  /** Every ref the read names is a full SHA, so the answer cannot change. */
  readonly immutable?: boolean;
  /** The validated `route_hint.pr_head_sha` (PR file lists). */
  readonly prHeadSha?: string;
  /** Job logs: the owning run is known to have completed (preflight passed). */
  readonly runCompleted?: boolean;
  /** The read is known to produce a large payload (for example a binary asset download). */
  readonly largePayload?: boolean;
}

/**
 * Resolves the lifetime of a read from its route kind and hints: `pr_files` is state-scoped with
 * a five-minute lifetime only for a known head (otherwise `mutable`); a SHA-addressable kind with
 * the `immutable` hint becomes `immutable`.
 *
 * @param routeKind - the classified route kind.
 * @param hints - what is known about the read.
 * @returns the lifetime to apply.
 */
export function resolveLifetime(routeKind: RouteKind, hints: CacheHints = {}): CacheLifetime {
  const base = ROUTE_LIFETIME_CLASSES[routeKind];
  if (base === 'pr_files' && hints.prHeadSha === undefined) return CLASS_LIFETIMES.mutable;
  if (hints.immutable === true && SHA_ADDRESSABLE_KINDS.has(routeKind)) {
    return CLASS_LIFETIMES.immutable;
  }
  return CLASS_LIFETIMES[base];
}
