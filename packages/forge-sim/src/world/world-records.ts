import type { FileChange, FileTree } from './git-objects.js';

/** A repository permission level, as GitHub names them. */
export type RepoPermission = 'admin' | 'maintain' | 'push' | 'triage' | 'pull';

/** A user account. */
export interface UserRecord {
  readonly kind: 'user';
  readonly id: number;
  readonly login: string;
  name: string;
  email: string | null;
  bio: string | null;
  readonly createdAt: number;
  readonly followers: string[];
  readonly following: string[];
  readonly keys: { id: number; key: string }[];
  readonly gpgKeyIds: number[];
}

/** An organization and its members (public membership is visible to anyone). */
export interface OrgRecord {
  readonly kind: 'org';
  readonly id: number;
  readonly login: string;
  name: string;
  description: string | null;
  readonly createdAt: number;
  /** login → membership. */
  readonly members: Map<string, { public: boolean; role: 'member' | 'admin' }>;
}

/** A user or an organization. */
export type AccountRecord = UserRecord | OrgRecord;

/** A commit and the full snapshot of files it points at. */
export interface CommitRecord {
  readonly sha: string;
  readonly message: string;
  readonly author: string;
  readonly date: number;
  readonly parents: readonly string[];
  readonly files: FileTree;
  readonly treeSha: string;
  readonly changes: readonly FileChange[];
}

/** A branch, its head and its protection. */
export interface BranchRecord {
  readonly name: string;
  sha: string;
  protected: boolean;
}

/** A tag; `annotated` tags also have a tag object with its own SHA. */
export interface TagRecord {
  readonly name: string;
  readonly sha: string;
  readonly objectSha: string | null;
  readonly message: string | null;
  readonly tagger: string;
  readonly date: number;
}

/** A label of a repository. */
export interface LabelRecord {
  readonly id: number;
  readonly name: string;
  readonly color: string;
  readonly description: string | null;
}

/** A milestone of a repository. */
export interface MilestoneRecord {
  readonly id: number;
  readonly number: number;
  readonly title: string;
  state: 'open' | 'closed';
  readonly description: string | null;
  readonly creator: string;
  readonly createdAt: number;
  readonly dueOn: number | null;
}

/** A reaction on an issue, a comment or a review comment. */
export interface ReactionRecord {
  readonly id: number;
  readonly user: string;
  readonly content: '+1' | '-1' | 'laugh' | 'confused' | 'heart' | 'hooray' | 'rocket' | 'eyes';
  readonly createdAt: number;
}

/** An issue (pull requests are issues too; they share the number space). */
export interface IssueRecord {
  readonly number: number;
  readonly id: number;
  title: string;
  body: string | null;
  state: 'open' | 'closed';
  stateReason: 'completed' | 'not_planned' | 'reopened' | null;
  readonly user: string;
  readonly labels: string[];
  milestone: number | null;
  readonly assignees: string[];
  readonly reactions: ReactionRecord[];
  locked: boolean;
  readonly createdAt: number;
  updatedAt: number;
  closedAt: number | null;
  /** Set when this issue is a pull request. */
  readonly pullNumber: number | null;
}

/** A comment on an issue or pull request conversation. */
export interface IssueCommentRecord {
  readonly id: number;
  readonly issueNumber: number;
  readonly user: string;
  readonly body: string;
  readonly createdAt: number;
  readonly reactions: ReactionRecord[];
}

/** An issue event (labeled, closed, …). */
export interface IssueEventRecord {
  readonly id: number;
  readonly issueNumber: number;
  readonly actor: string;
  readonly event: string;
  readonly createdAt: number;
  readonly label: string | null;
  readonly assignee: string | null;
  readonly commitId: string | null;
}

/** A pull request. */
export interface PullRecord {
  readonly number: number;
  readonly id: number;
  readonly headRef: string;
  headSha: string;
  readonly baseRef: string;
  baseSha: string;
  draft: boolean;
  merged: boolean;
  mergedAt: number | null;
  mergedBy: string | null;
  mergeCommitSha: string | null;
  readonly requestedReviewers: string[];
  readonly requestedTeams: string[];
}

/** A pull request review. */
export interface ReviewRecord {
  readonly id: number;
  readonly pullNumber: number;
  readonly user: string;
  readonly state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED' | 'PENDING';
  readonly body: string;
  readonly commitId: string;
  readonly submittedAt: number;
}

/** A review comment on a line of a pull request diff. */
export interface ReviewCommentRecord {
  readonly id: number;
  readonly pullNumber: number;
  readonly reviewId: number | null;
  readonly user: string;
  readonly body: string;
  readonly path: string;
  readonly line: number;
  readonly commitId: string;
  readonly createdAt: number;
  readonly reactions: ReactionRecord[];
}

/** A comment on a commit. */
export interface CommitCommentRecord {
  readonly id: number;
  readonly commitId: string;
  readonly user: string;
  readonly body: string;
  readonly path: string | null;
  readonly line: number | null;
  readonly createdAt: number;
}

/** A release asset; `content` is what a download returns. */
export interface AssetRecord {
  readonly id: number;
  readonly releaseId: number;
  readonly name: string;
  readonly contentType: string;
  readonly content: string;
  readonly uploader: string;
  readonly createdAt: number;
}

/** A release. */
export interface ReleaseRecord {
  readonly id: number;
  readonly tagName: string;
  readonly name: string;
  readonly body: string;
  readonly draft: boolean;
  readonly prerelease: boolean;
  readonly author: string;
  readonly createdAt: number;
  readonly publishedAt: number | null;
  readonly assets: AssetRecord[];
}

/** A check suite (one per head commit and app). */
export interface CheckSuiteRecord {
  readonly id: number;
  readonly headSha: string;
  readonly headBranch: string | null;
  status: 'queued' | 'in_progress' | 'completed';
  conclusion: string | null;
  readonly createdAt: number;
}

/** A check run, with optional annotations. */
export interface CheckRunRecord {
  readonly id: number;
  readonly suiteId: number;
  readonly headSha: string;
  readonly name: string;
  status: 'queued' | 'in_progress' | 'completed';
  conclusion:
    | 'success'
    | 'failure'
    | 'neutral'
    | 'cancelled'
    | 'skipped'
    | 'timed_out'
    | 'action_required'
    | null;
  readonly startedAt: number;
  completedAt: number | null;
  readonly annotations: {
    path: string;
    startLine: number;
    endLine: number;
    level: 'notice' | 'warning' | 'failure';
    message: string;
  }[];
}

/** A commit status (the legacy statuses API). */
export interface StatusRecord {
  readonly id: number;
  readonly sha: string;
  readonly context: string;
  readonly state: 'error' | 'failure' | 'pending' | 'success';
  readonly description: string | null;
  readonly targetUrl: string | null;
  readonly creator: string;
  readonly createdAt: number;
}

/** An Actions workflow. */
export interface WorkflowRecord {
  readonly id: number;
  readonly name: string;
  readonly path: string;
  readonly state: 'active' | 'disabled_manually';
  readonly createdAt: number;
}

/** An Actions workflow run. */
export interface RunRecord {
  readonly id: number;
  readonly workflowId: number;
  readonly runNumber: number;
  readonly runAttempt: number;
  readonly headSha: string;
  readonly headBranch: string;
  readonly event: string;
  readonly displayTitle: string;
  status: 'queued' | 'in_progress' | 'completed';
  conclusion: string | null;
  readonly actor: string;
  readonly checkSuiteId: number;
  readonly createdAt: number;
  updatedAt: number;
}

/** An Actions job; `log` is what the signed log URL serves. */
export interface JobRecord {
  readonly id: number;
  readonly runId: number;
  readonly name: string;
  status: 'queued' | 'in_progress' | 'completed';
  conclusion: string | null;
  readonly steps: { name: string; status: string; conclusion: string | null; number: number }[];
  readonly log: string;
  readonly startedAt: number;
  completedAt: number | null;
}

/** An Actions artifact. */
export interface ArtifactRecord {
  readonly id: number;
  readonly runId: number;
  readonly name: string;
  readonly sizeInBytes: number;
  readonly createdAt: number;
}

/** A deployment. */
export interface DeploymentRecord {
  readonly id: number;
  readonly sha: string;
  readonly ref: string;
  readonly environment: string;
  readonly creator: string;
  readonly createdAt: number;
}

/** A repository ruleset. */
export interface RulesetRecord {
  readonly id: number;
  readonly name: string;
  readonly target: 'branch' | 'tag';
  readonly enforcement: 'active' | 'disabled' | 'evaluate';
  readonly include: readonly string[];
  readonly rules: readonly { type: string; parameters?: Record<string, unknown> }[];
}

/** An activity event (push, pull request, issues, …) shown in event feeds. */
export interface EventRecord {
  readonly id: number;
  readonly type: string;
  readonly actor: string;
  readonly payload: Record<string, unknown>;
  readonly createdAt: number;
}

/** A gist. */
export interface GistRecord {
  readonly id: string;
  readonly owner: string;
  readonly description: string;
  readonly public: boolean;
  readonly files: Record<string, string>;
  readonly createdAt: number;
}

/** A repository and everything in it. */
export interface RepoRecord {
  readonly id: number;
  readonly owner: string;
  readonly name: string;
  private: boolean;
  description: string | null;
  readonly createdAt: number;
  updatedAt: number;
  pushedAt: number;
  defaultBranch: string;
  readonly topics: string[];
  readonly languages: Record<string, number>;
  license: string | null;
  archived: boolean;
  readonly forkOf: string | null;
  readonly collaborators: Map<string, RepoPermission>;
  readonly stargazers: { login: string; at: number }[];
  readonly watchers: string[];
  readonly commits: Map<string, CommitRecord>;
  readonly branches: Map<string, BranchRecord>;
  readonly tags: Map<string, TagRecord>;
  readonly issues: Map<number, IssueRecord>;
  readonly pulls: Map<number, PullRecord>;
  readonly labels: Map<string, LabelRecord>;
  readonly milestones: Map<number, MilestoneRecord>;
  readonly issueComments: Map<number, IssueCommentRecord>;
  readonly issueEvents: Map<number, IssueEventRecord>;
  readonly reviews: Map<number, ReviewRecord>;
  readonly reviewComments: Map<number, ReviewCommentRecord>;
  readonly commitComments: Map<number, CommitCommentRecord>;
  readonly releases: Map<number, ReleaseRecord>;
  readonly checkSuites: Map<number, CheckSuiteRecord>;
  readonly checkRuns: Map<number, CheckRunRecord>;
  readonly statuses: StatusRecord[];
  readonly workflows: Map<number, WorkflowRecord>;
  readonly runs: Map<number, RunRecord>;
  readonly jobs: Map<number, JobRecord>;
  readonly artifacts: Map<number, ArtifactRecord>;
  readonly deployments: Map<number, DeploymentRecord>;
  readonly rulesets: Map<number, RulesetRecord>;
  readonly events: EventRecord[];
  /** When the statistics were first requested (they are ready `statsDelayMs` later). */
  statsRequestedAt: number | null;
  statsReady: boolean;
  nextNumber: number;
}
