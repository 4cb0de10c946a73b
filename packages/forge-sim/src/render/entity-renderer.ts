import { permissionsFor } from '../auth/access-policy.js';
import type { Principal } from '../auth/credential-registry.js';
import type { ForgeWorld } from '../world/forge-world.js';
import { diffTrees, hashBlob } from '../world/git-objects.js';
import { toIsoSeconds } from '../world/sim-clock.js';
import type {
  AccountRecord,
  ArtifactRecord,
  AssetRecord,
  CheckRunRecord,
  CheckSuiteRecord,
  CommitRecord,
  DeploymentRecord,
  EventRecord,
  GistRecord,
  IssueCommentRecord,
  IssueEventRecord,
  IssueRecord,
  JobRecord,
  LabelRecord,
  MilestoneRecord,
  PullRecord,
  ReactionRecord,
  ReleaseRecord,
  RepoRecord,
  ReviewCommentRecord,
  ReviewRecord,
  RulesetRecord,
  RunRecord,
  StatusRecord,
  WorkflowRecord,
} from '../world/world-records.js';
import type { ExampleTemplates, JsonObject } from './example-templates.js';
import type { SimUrls } from './sim-urls.js';

/** A legacy GraphQL node id as GitHub issues them (`base64("04:User1")`). */
export function nodeId(type: string, id: number | string): string {
  return Buffer.from(`0${type.length}:${type}${id}`).toString('base64');
}

const iso = toIsoSeconds;
const isoOrNull = (t: number | null): string | null => (t === null ? null : iso(t));

/**
 * Turns world records into GitHub-shaped JSON bodies, for one caller (repository
 * permissions depend on who asks).
 */
export class EntityRenderer {
  readonly #world: ForgeWorld;
  readonly #urls: SimUrls;
  readonly #t: ExampleTemplates;
  readonly #principal: Principal;

  constructor(world: ForgeWorld, urls: SimUrls, templates: ExampleTemplates, principal: Principal) {
    this.#world = world;
    this.#urls = urls;
    this.#t = templates;
    this.#principal = principal;
  }

  #repoApi(repo: RepoRecord): string {
    return `${this.#urls.api}/repos/${repo.owner}/${repo.name}`;
  }

  #repoWeb(repo: RepoRecord): string {
    return `${this.#urls.web}/${repo.owner}/${repo.name}`;
  }

  /** A simple user (the object nested in most bodies). */
  user(login: string): JsonObject {
    const account = this.#world.getAccount(login);
    const id = account?.id ?? 0;
    const name = account?.login ?? login;
    const api = `${this.#urls.api}/users/${name}`;
    return {
      login: name,
      id,
      node_id: nodeId(account?.kind === 'org' ? 'Organization' : 'User', id),
      avatar_url: `${this.#urls.web}/avatars/u/${id}?v=4`,
      gravatar_id: '',
      url: api,
      html_url: `${this.#urls.web}/${name}`,
      followers_url: `${api}/followers`,
      following_url: `${api}/following{/other_user}`,
      gists_url: `${api}/gists{/gist_id}`,
      starred_url: `${api}/starred{/owner}{/repo}`,
      subscriptions_url: `${api}/subscriptions`,
      organizations_url: `${api}/orgs`,
      repos_url: `${api}/repos`,
      events_url: `${api}/events{/privacy}`,
      received_events_url: `${api}/received_events`,
      type: account?.kind === 'org' ? 'Organization' : 'User',
      user_view_type: 'public',
      site_admin: false,
    };
  }

  /** A full public user or organization profile (`GET /users/{username}`). */
  account(account: AccountRecord): JsonObject {
    const repos = this.#world.repos().filter((r) => r.owner === account.login && !r.private);
    const base = this.#t.with('users/get-by-username', this.user(account.login));
    return {
      ...base,
      name: account.name,
      company: null,
      blog: '',
      location: null,
      email: account.kind === 'user' ? account.email : null,
      hireable: null,
      bio: account.kind === 'user' ? account.bio : account.description,
      twitter_username: null,
      public_repos: repos.length,
      public_gists: this.#world.gists().filter((g) => g.owner === account.login && g.public).length,
      followers: account.kind === 'user' ? account.followers.length : 0,
      following: account.kind === 'user' ? account.following.length : 0,
      created_at: iso(account.createdAt),
      updated_at: iso(account.createdAt),
    };
  }

  /** The authenticated user (`GET /user`): the public profile plus private fields. */
  authenticatedUser(account: AccountRecord): JsonObject {
    const owned = this.#world.repos().filter((r) => r.owner === account.login);
    return {
      ...this.account(account),
      total_private_repos: owned.filter((r) => r.private).length,
      owned_private_repos: owned.filter((r) => r.private).length,
      private_gists: this.#world.gists().filter((g) => g.owner === account.login && !g.public)
        .length,
      disk_usage: 10_000,
      collaborators: 0,
      two_factor_authentication: true,
      plan: { name: 'pro', space: 976_562_499, private_repos: 9999, collaborators: 0 },
    };
  }

  /** An organization summary (`GET /users/{u}/orgs`). */
  orgSummary(account: AccountRecord): JsonObject {
    const api = `${this.#urls.api}/orgs/${account.login}`;
    return {
      login: account.login,
      id: account.id,
      node_id: nodeId('Organization', account.id),
      url: api,
      repos_url: `${api}/repos`,
      events_url: `${api}/events`,
      hooks_url: `${api}/hooks`,
      issues_url: `${api}/issues`,
      members_url: `${api}/members{/member}`,
      public_members_url: `${api}/public_members{/member}`,
      avatar_url: `${this.#urls.web}/avatars/u/${account.id}?v=4`,
      description: account.kind === 'org' ? account.description : null,
    };
  }

  /** A repository body; `full` adds the fields of `GET /repos/{o}/{r}`. */
  repo(repo: RepoRecord, full = false): JsonObject {
    const api = this.#repoApi(repo);
    const template = this.#t.item(full ? 'repos/get' : 'repos/list-for-org');
    const base: JsonObject = {};
    for (const [key, value] of Object.entries(template)) {
      if (typeof value === 'string' && value.startsWith(this.#urls.api + '/repos/')) {
        base[key] = value.replace(/\/repos\/[^/]+\/[^/{]+/, `/repos/${repo.owner}/${repo.name}`);
      } else {
        base[key] = value;
      }
    }
    const forks = this.#world.repos().filter((r) => r.forkOf === `${repo.owner}/${repo.name}`);
    const openIssues = [...repo.issues.values()].filter((i) => i.state === 'open').length;
    const body: JsonObject = {
      ...base,
      id: repo.id,
      node_id: nodeId('Repository', repo.id),
      name: repo.name,
      full_name: `${repo.owner}/${repo.name}`,
      owner: this.user(repo.owner),
      private: repo.private,
      visibility: repo.private ? 'private' : 'public',
      html_url: this.#repoWeb(repo),
      description: repo.description,
      fork: repo.forkOf !== null,
      url: api,
      clone_url: `${this.#repoWeb(repo)}.git`,
      git_url: `${this.#repoWeb(repo).replace(/^https?:/, 'git:')}.git`,
      ssh_url: `git@${new URL(this.#urls.web).host}:${repo.owner}/${repo.name}.git`,
      svn_url: this.#repoWeb(repo),
      homepage: null,
      language: Object.keys(repo.languages)[0] ?? null,
      forks_count: forks.length,
      forks: forks.length,
      stargazers_count: repo.stargazers.length,
      watchers_count: repo.stargazers.length,
      watchers: repo.stargazers.length,
      subscribers_count: repo.watchers.length,
      network_count: forks.length,
      size: 108,
      default_branch: repo.defaultBranch,
      open_issues_count: openIssues,
      open_issues: openIssues,
      topics: [...repo.topics],
      has_issues: true,
      has_projects: true,
      has_wiki: true,
      has_pages: false,
      has_downloads: true,
      has_discussions: false,
      archived: repo.archived,
      disabled: false,
      is_template: false,
      pushed_at: iso(repo.pushedAt),
      created_at: iso(repo.createdAt),
      updated_at: iso(repo.updatedAt),
      license: repo.license === null ? null : this.licenseSummary(repo.license),
    };
    delete body.permissions;
    delete body.security_and_analysis;
    delete body.template_repository;
    if (!full) {
      delete body.parent;
      delete body.source;
      delete body.organization;
    } else {
      const ownerAccount = this.#world.getAccount(repo.owner);
      if (ownerAccount?.kind === 'org') body.organization = this.user(repo.owner);
      else delete body.organization;
      const parent =
        repo.forkOf === null
          ? undefined
          : this.#world.getRepo(...(repo.forkOf.split('/') as [string, string]));
      if (parent) {
        body.parent = this.repo(parent);
        body.source = this.repo(parent);
      } else {
        delete body.parent;
        delete body.source;
      }
    }
    const permissions = permissionsFor(this.#world, this.#principal, repo);
    if (permissions) {
      body.permissions = permissions;
      if (permissions.admin && full) {
        body.security_and_analysis = {
          advanced_security: { status: 'disabled' },
          secret_scanning: { status: 'enabled' },
          secret_scanning_push_protection: { status: 'enabled' },
        };
      }
    }
    return body;
  }

  /**
   * A repository embedded in another body, with exactly the fields GitHub's example of that
   * body gives it (`field` of the example of `operationId`): a workflow run's `repository` and
   * `head_repository` and a combined status's `repository` are the simple repository shape,
   * without `pushed_at`, `updated_at` or counts, so they do not change when someone pushes
   * elsewhere in the repository or opens an issue.
   */
  embeddedRepo(repo: RepoRecord, operationId: string, field: string, wrapKey?: string): JsonObject {
    const shape = this.#t.item(operationId, wrapKey)[field];
    const body = this.repo(repo);
    if (shape === null || typeof shape !== 'object') return body;
    return Object.fromEntries(Object.keys(shape).map((key) => [key, body[key] ?? null]));
  }

  /** A license summary (the `license` field of a repository). */
  licenseSummary(key: string): JsonObject {
    const spdx = key === 'mit' ? 'MIT' : key.toUpperCase();
    return {
      key,
      name: key === 'mit' ? 'MIT License' : `${spdx} License`,
      spdx_id: spdx,
      url: `${this.#urls.api}/licenses/${key}`,
      node_id: nodeId('License', key),
    };
  }

  #gitUser(login: string, date: number): JsonObject {
    const account = this.#world.getAccount(login);
    const email =
      account?.kind === 'user' && account.email !== null
        ? account.email
        : `${account?.id ?? 0}+${login}@users.noreply.github.com`;
    return { name: account?.name ?? login, email, date: iso(date) };
  }

  /** A git commit object (`GET /git/commits/{sha}`). */
  gitCommit(repo: RepoRecord, commit: CommitRecord): JsonObject {
    const api = this.#repoApi(repo);
    return {
      sha: commit.sha,
      node_id: nodeId('Commit', commit.sha),
      url: `${api}/git/commits/${commit.sha}`,
      html_url: `${this.#repoWeb(repo)}/commit/${commit.sha}`,
      author: this.#gitUser(commit.author, commit.date),
      committer: this.#gitUser(commit.author, commit.date),
      message: commit.message,
      tree: { url: `${api}/git/trees/${commit.treeSha}`, sha: commit.treeSha },
      parents: commit.parents.map((sha) => ({
        url: `${api}/git/commits/${sha}`,
        sha,
        html_url: `${this.#repoWeb(repo)}/commit/${sha}`,
      })),
      verification: {
        verified: false,
        reason: 'unsigned',
        signature: null,
        payload: null,
        verified_at: null,
      },
    };
  }

  /** A REST commit (`GET /commits/{ref}`); `withFiles` adds stats and files. */
  commit(repo: RepoRecord, commit: CommitRecord, withFiles = false): JsonObject {
    const api = this.#repoApi(repo);
    const body: JsonObject = {
      url: `${api}/commits/${commit.sha}`,
      sha: commit.sha,
      node_id: nodeId('Commit', commit.sha),
      html_url: `${this.#repoWeb(repo)}/commit/${commit.sha}`,
      comments_url: `${api}/commits/${commit.sha}/comments`,
      commit: {
        url: `${api}/git/commits/${commit.sha}`,
        author: this.#gitUser(commit.author, commit.date),
        committer: this.#gitUser(commit.author, commit.date),
        message: commit.message,
        tree: { url: `${api}/git/trees/${commit.treeSha}`, sha: commit.treeSha },
        comment_count: [...repo.commitComments.values()].filter((c) => c.commitId === commit.sha)
          .length,
        verification: {
          verified: false,
          reason: 'unsigned',
          signature: null,
          payload: null,
          verified_at: null,
        },
      },
      author: this.user(commit.author),
      committer: this.user(commit.author),
      parents: commit.parents.map((sha) => ({
        url: `${api}/commits/${sha}`,
        sha,
        html_url: `${this.#repoWeb(repo)}/commit/${sha}`,
      })),
    };
    if (withFiles) {
      const additions = commit.changes.reduce((n, c) => n + c.additions, 0);
      const deletions = commit.changes.reduce((n, c) => n + c.deletions, 0);
      body.stats = { additions, deletions, total: additions + deletions };
      body.files = commit.changes.map((c) => this.diffEntry(repo, commit.sha, c));
    }
    return body;
  }

  /** A diff entry (`files` of commits, compares and pull requests). */
  diffEntry(repo: RepoRecord, sha: string, c: CommitRecord['changes'][number]): JsonObject {
    return {
      sha: c.after === undefined ? '0'.repeat(40) : hashBlob(c.after),
      filename: c.filename,
      status: c.status,
      additions: c.additions,
      deletions: c.deletions,
      changes: c.additions + c.deletions,
      blob_url: `${this.#repoWeb(repo)}/blob/${sha}/${c.filename}`,
      raw_url: `${this.#repoWeb(repo)}/raw/${sha}/${c.filename}`,
      contents_url: `${this.#repoApi(repo)}/contents/${c.filename}?ref=${sha}`,
      patch: c.patch,
    };
  }

  /** A label. */
  label(repo: RepoRecord, label: LabelRecord): JsonObject {
    return {
      id: label.id,
      node_id: nodeId('Label', label.id),
      url: `${this.#repoApi(repo)}/labels/${encodeURIComponent(label.name)}`,
      name: label.name,
      description: label.description,
      color: label.color,
      default: ['bug', 'enhancement', 'documentation'].includes(label.name),
    };
  }

  /** A milestone. */
  milestone(repo: RepoRecord, m: MilestoneRecord): JsonObject {
    const issues = [...repo.issues.values()].filter((i) => i.milestone === m.number);
    return {
      url: `${this.#repoApi(repo)}/milestones/${m.number}`,
      html_url: `${this.#repoWeb(repo)}/milestone/${m.number}`,
      labels_url: `${this.#repoApi(repo)}/milestones/${m.number}/labels`,
      id: m.id,
      node_id: nodeId('Milestone', m.id),
      number: m.number,
      state: m.state,
      title: m.title,
      description: m.description,
      creator: this.user(m.creator),
      open_issues: issues.filter((i) => i.state === 'open').length,
      closed_issues: issues.filter((i) => i.state === 'closed').length,
      created_at: iso(m.createdAt),
      updated_at: iso(m.createdAt),
      closed_at: null,
      due_on: isoOrNull(m.dueOn),
    };
  }

  /** The reactions rollup of an issue or comment. */
  reactionRollup(url: string, reactions: readonly ReactionRecord[]): JsonObject {
    const count = (c: ReactionRecord['content']): number =>
      reactions.filter((r) => r.content === c).length;
    return {
      url,
      total_count: reactions.length,
      '+1': count('+1'),
      '-1': count('-1'),
      laugh: count('laugh'),
      confused: count('confused'),
      heart: count('heart'),
      hooray: count('hooray'),
      eyes: count('eyes'),
      rocket: count('rocket'),
    };
  }

  /** One reaction. */
  reaction(r: ReactionRecord): JsonObject {
    return {
      id: r.id,
      node_id: nodeId('Reaction', r.id),
      user: this.user(r.user),
      content: r.content,
      created_at: iso(r.createdAt),
    };
  }

  /** An issue (pull requests carry a `pull_request` key). */
  issue(repo: RepoRecord, issue: IssueRecord): JsonObject {
    const api = `${this.#repoApi(repo)}/issues/${issue.number}`;
    const pull = issue.pullNumber === null ? undefined : repo.pulls.get(issue.pullNumber);
    const milestone = issue.milestone === null ? undefined : repo.milestones.get(issue.milestone);
    const body: JsonObject = {
      id: issue.id,
      node_id: nodeId(pull ? 'PullRequest' : 'Issue', issue.id),
      url: api,
      repository_url: this.#repoApi(repo),
      labels_url: `${api}/labels{/name}`,
      comments_url: `${api}/comments`,
      events_url: `${api}/events`,
      html_url: `${this.#repoWeb(repo)}/${pull ? 'pull' : 'issues'}/${issue.number}`,
      number: issue.number,
      state: issue.state,
      state_reason: issue.stateReason,
      title: issue.title,
      body: issue.body,
      user: this.user(issue.user),
      labels: issue.labels.flatMap((name) => {
        const l = repo.labels.get(name);
        return l ? [this.label(repo, l)] : [];
      }),
      assignee: issue.assignees[0] === undefined ? null : this.user(issue.assignees[0]),
      assignees: issue.assignees.map((a) => this.user(a)),
      milestone: milestone ? this.milestone(repo, milestone) : null,
      locked: issue.locked,
      active_lock_reason: issue.locked ? 'resolved' : null,
      comments: [...repo.issueComments.values()].filter((c) => c.issueNumber === issue.number)
        .length,
      closed_at: isoOrNull(issue.closedAt),
      created_at: iso(issue.createdAt),
      updated_at: iso(issue.updatedAt),
      closed_by: issue.closedAt === null ? null : this.user(pull?.mergedBy ?? repo.owner),
      author_association: this.#association(repo, issue.user),
      reactions: this.reactionRollup(`${api}/reactions`, issue.reactions),
      timeline_url: `${api}/timeline`,
      performed_via_github_app: null,
    };
    if (pull) {
      body.draft = pull.draft;
      body.pull_request = {
        url: `${this.#repoApi(repo)}/pulls/${issue.number}`,
        html_url: `${this.#repoWeb(repo)}/pull/${issue.number}`,
        diff_url: `${this.#repoWeb(repo)}/pull/${issue.number}.diff`,
        patch_url: `${this.#repoWeb(repo)}/pull/${issue.number}.patch`,
        merged_at: isoOrNull(pull.mergedAt),
      };
    }
    return body;
  }

  #association(repo: RepoRecord, login: string): string {
    if (login.toLowerCase() === repo.owner.toLowerCase()) return 'OWNER';
    if (this.#world.getOrg(repo.owner)?.members.has(login.toLowerCase())) return 'MEMBER';
    if (repo.collaborators.has(login.toLowerCase())) return 'COLLABORATOR';
    return 'NONE';
  }

  /** A pull request; `full` adds the fields only `GET /pulls/{n}` has. */
  pull(repo: RepoRecord, pull: PullRecord, full = false): JsonObject {
    const issue = repo.issues.get(pull.number);
    const i = issue ? this.issue(repo, issue) : {};
    const api = `${this.#repoApi(repo)}/pulls/${pull.number}`;
    const web = `${this.#repoWeb(repo)}/pull/${pull.number}`;
    const side = (ref: string, sha: string): JsonObject => ({
      label: `${repo.owner}:${ref}`,
      ref,
      sha,
      user: this.user(repo.owner),
      repo: this.repo(repo),
    });
    const body: JsonObject = {
      url: api,
      id: pull.id,
      node_id: nodeId('PullRequest', pull.id),
      html_url: web,
      diff_url: `${web}.diff`,
      patch_url: `${web}.patch`,
      issue_url: `${this.#repoApi(repo)}/issues/${pull.number}`,
      commits_url: `${api}/commits`,
      review_comments_url: `${api}/comments`,
      review_comment_url: `${this.#repoApi(repo)}/pulls/comments{/number}`,
      comments_url: `${this.#repoApi(repo)}/issues/${pull.number}/comments`,
      statuses_url: `${this.#repoApi(repo)}/statuses/${pull.headSha}`,
      number: pull.number,
      state: i.state,
      locked: i.locked,
      title: i.title,
      user: i.user,
      body: i.body,
      labels: i.labels,
      milestone: i.milestone,
      active_lock_reason: i.active_lock_reason,
      created_at: i.created_at,
      updated_at: i.updated_at,
      closed_at: i.closed_at,
      merged_at: isoOrNull(pull.mergedAt),
      merge_commit_sha: pull.mergeCommitSha,
      assignee: i.assignee,
      assignees: i.assignees,
      requested_reviewers: pull.requestedReviewers.map((l) => this.user(l)),
      requested_teams: pull.requestedTeams.map((slug) => ({ id: 1, slug, name: slug })),
      head: side(pull.headRef, pull.headSha),
      base: side(pull.baseRef, pull.baseSha),
      _links: {
        self: { href: api },
        html: { href: web },
        issue: { href: `${this.#repoApi(repo)}/issues/${pull.number}` },
        comments: { href: `${this.#repoApi(repo)}/issues/${pull.number}/comments` },
        review_comments: { href: `${api}/comments` },
        review_comment: { href: `${this.#repoApi(repo)}/pulls/comments{/number}` },
        commits: { href: `${api}/commits` },
        statuses: { href: `${this.#repoApi(repo)}/statuses/${pull.headSha}` },
      },
      author_association: i.author_association,
      auto_merge: null,
      draft: pull.draft,
    };
    if (full) {
      const commits = this.#world.pullCommits(repo, pull);
      const files = this.pullFiles(repo, pull);
      body.merged = pull.merged;
      body.mergeable = pull.merged || issue?.state === 'closed' ? null : true;
      body.rebaseable = body.mergeable;
      body.mergeable_state = pull.merged ? 'unknown' : pull.draft ? 'draft' : 'clean';
      body.merged_by = pull.mergedBy === null ? null : this.user(pull.mergedBy);
      body.comments = i.comments;
      body.review_comments = [...repo.reviewComments.values()].filter(
        (c) => c.pullNumber === pull.number,
      ).length;
      body.maintainer_can_modify = false;
      body.commits = commits.length;
      body.additions = files.reduce((n, f) => n + f.additions, 0);
      body.deletions = files.reduce((n, f) => n + f.deletions, 0);
      body.changed_files = files.length;
    }
    return body;
  }

  /** The changed files of a pull request (head against base). */
  pullFiles(repo: RepoRecord, pull: PullRecord): CommitRecord['changes'] {
    const head = repo.commits.get(pull.headSha);
    const base = repo.commits.get(pull.baseSha);
    if (!head || !base) return [];
    const commits = this.#world.pullCommits(repo, pull);
    const changed = new Set(commits.flatMap((c) => c.changes.map((ch) => ch.filename)));
    return diffTrees(base.files, head.files).filter(
      (c) => changed.size === 0 || changed.has(c.filename),
    );
  }

  /** A review. */
  review(repo: RepoRecord, r: ReviewRecord): JsonObject {
    const web = `${this.#repoWeb(repo)}/pull/${r.pullNumber}`;
    return {
      id: r.id,
      node_id: nodeId('PullRequestReview', r.id),
      user: this.user(r.user),
      body: r.body,
      state: r.state,
      html_url: `${web}#pullrequestreview-${r.id}`,
      pull_request_url: `${this.#repoApi(repo)}/pulls/${r.pullNumber}`,
      _links: {
        html: { href: `${web}#pullrequestreview-${r.id}` },
        pull_request: { href: `${this.#repoApi(repo)}/pulls/${r.pullNumber}` },
      },
      submitted_at: iso(r.submittedAt),
      commit_id: r.commitId,
      author_association: this.#association(repo, r.user),
    };
  }

  /** A review comment. */
  reviewComment(repo: RepoRecord, c: ReviewCommentRecord): JsonObject {
    const url = `${this.#repoApi(repo)}/pulls/comments/${c.id}`;
    return this.#t.with('pulls/get-review-comment', {
      url,
      pull_request_review_id: c.reviewId,
      id: c.id,
      node_id: nodeId('PullRequestReviewComment', c.id),
      diff_hunk: `@@ -1,1 +1,${c.line} @@`,
      path: c.path,
      position: c.line,
      original_position: c.line,
      commit_id: c.commitId,
      original_commit_id: c.commitId,
      in_reply_to_id: undefined,
      user: this.user(c.user),
      body: c.body,
      created_at: iso(c.createdAt),
      updated_at: iso(c.createdAt),
      html_url: `${this.#repoWeb(repo)}/pull/${c.pullNumber}#discussion_r${c.id}`,
      pull_request_url: `${this.#repoApi(repo)}/pulls/${c.pullNumber}`,
      author_association: this.#association(repo, c.user),
      _links: {
        self: { href: url },
        html: { href: `${this.#repoWeb(repo)}/pull/${c.pullNumber}#discussion_r${c.id}` },
        pull_request: { href: `${this.#repoApi(repo)}/pulls/${c.pullNumber}` },
      },
      line: c.line,
      original_line: c.line,
      side: 'RIGHT',
      reactions: this.reactionRollup(`${url}/reactions`, c.reactions),
    });
  }

  /** An issue comment. */
  issueComment(repo: RepoRecord, c: IssueCommentRecord): JsonObject {
    const url = `${this.#repoApi(repo)}/issues/comments/${c.id}`;
    const isPull = repo.pulls.has(c.issueNumber);
    return {
      id: c.id,
      node_id: nodeId('IssueComment', c.id),
      url,
      html_url: `${this.#repoWeb(repo)}/${isPull ? 'pull' : 'issues'}/${c.issueNumber}#issuecomment-${c.id}`,
      body: c.body,
      user: this.user(c.user),
      created_at: iso(c.createdAt),
      updated_at: iso(c.createdAt),
      issue_url: `${this.#repoApi(repo)}/issues/${c.issueNumber}`,
      author_association: this.#association(repo, c.user),
      performed_via_github_app: null,
      reactions: this.reactionRollup(`${url}/reactions`, c.reactions),
    };
  }

  /** An issue event; `withIssue` embeds the issue (repository-wide lists do). */
  issueEvent(repo: RepoRecord, e: IssueEventRecord, withIssue: boolean): JsonObject {
    const body: JsonObject = {
      id: e.id,
      node_id: nodeId('IssueEvent', e.id),
      url: `${this.#repoApi(repo)}/issues/events/${e.id}`,
      actor: this.user(e.actor),
      event: e.event,
      commit_id: e.commitId,
      commit_url: e.commitId === null ? null : `${this.#repoApi(repo)}/commits/${e.commitId}`,
      created_at: iso(e.createdAt),
      performed_via_github_app: null,
    };
    if (e.label !== null) {
      const l = repo.labels.get(e.label);
      body.label = { name: e.label, color: l?.color ?? 'ededed' };
    }
    if (e.assignee !== null) {
      body.assignee = this.user(e.assignee);
      body.assigner = this.user(e.actor);
    }
    const issue = repo.issues.get(e.issueNumber);
    if (withIssue && issue) body.issue = this.issue(repo, issue);
    return body;
  }

  /** A commit comment. */
  commitComment(
    repo: RepoRecord,
    c: {
      id: number;
      commitId: string;
      user: string;
      body: string;
      path: string | null;
      line: number | null;
      createdAt: number;
    },
  ): JsonObject {
    return {
      html_url: `${this.#repoWeb(repo)}/commit/${c.commitId}#commitcomment-${c.id}`,
      url: `${this.#repoApi(repo)}/comments/${c.id}`,
      id: c.id,
      node_id: nodeId('CommitComment', c.id),
      body: c.body,
      path: c.path,
      position: c.line,
      line: c.line,
      commit_id: c.commitId,
      author_association: this.#association(repo, c.user),
      user: this.user(c.user),
      created_at: iso(c.createdAt),
      updated_at: iso(c.createdAt),
      reactions: this.reactionRollup(`${this.#repoApi(repo)}/comments/${c.id}/reactions`, []),
    };
  }

  /** A release asset's metadata. */
  asset(repo: RepoRecord, a: AssetRecord): JsonObject {
    const release = repo.releases.get(a.releaseId);
    return {
      url: `${this.#repoApi(repo)}/releases/assets/${a.id}`,
      browser_download_url: `${this.#repoWeb(repo)}/releases/download/${release?.tagName ?? ''}/${a.name}`,
      id: a.id,
      node_id: nodeId('ReleaseAsset', a.id),
      name: a.name,
      label: '',
      state: 'uploaded',
      content_type: a.contentType,
      size: Buffer.byteLength(a.content),
      digest: `sha256:${hashBlob(a.content)}`,
      download_count: 0,
      created_at: iso(a.createdAt),
      updated_at: iso(a.createdAt),
      uploader: this.user(a.uploader),
    };
  }

  /** A release. */
  release(repo: RepoRecord, r: ReleaseRecord): JsonObject {
    const api = `${this.#repoApi(repo)}/releases/${r.id}`;
    return {
      url: api,
      html_url: `${this.#repoWeb(repo)}/releases/tag/${r.tagName}`,
      assets_url: `${api}/assets`,
      upload_url: `${this.#urls.api}/repos/${repo.owner}/${repo.name}/releases/${r.id}/assets{?name,label}`,
      tarball_url: `${this.#repoApi(repo)}/tarball/${r.tagName}`,
      zipball_url: `${this.#repoApi(repo)}/zipball/${r.tagName}`,
      id: r.id,
      node_id: nodeId('Release', r.id),
      tag_name: r.tagName,
      target_commitish: repo.defaultBranch,
      name: r.name,
      body: r.body,
      draft: r.draft,
      prerelease: r.prerelease,
      immutable: false,
      created_at: iso(r.createdAt),
      published_at: isoOrNull(r.publishedAt),
      author: this.user(r.author),
      assets: r.assets.map((a) => this.asset(repo, a)),
    };
  }

  /** A check suite. */
  checkSuite(repo: RepoRecord, s: CheckSuiteRecord): JsonObject {
    return this.#t.with(
      'checks/list-suites-for-ref',
      {
        id: s.id,
        node_id: nodeId('CheckSuite', s.id),
        head_branch: s.headBranch,
        head_sha: s.headSha,
        status: s.status,
        conclusion: s.conclusion,
        url: `${this.#repoApi(repo)}/check-suites/${s.id}`,
        before: null,
        after: s.headSha,
        pull_requests: [],
        created_at: iso(s.createdAt),
        updated_at: iso(s.createdAt),
        repository: this.repo(repo),
        head_commit: this.#headCommit(repo, s.headSha),
        latest_check_runs_count: [...repo.checkRuns.values()].filter((r) => r.suiteId === s.id)
          .length,
        check_runs_url: `${this.#repoApi(repo)}/check-suites/${s.id}/check-runs`,
      },
      'check_suites',
    );
  }

  #headCommit(repo: RepoRecord, sha: string): JsonObject | null {
    const c = repo.commits.get(sha);
    if (!c) return null;
    const who = this.#gitUser(c.author, c.date);
    return {
      id: c.sha,
      tree_id: c.treeSha,
      message: c.message,
      timestamp: iso(c.date),
      author: { name: who.name, email: who.email },
      committer: { name: who.name, email: who.email },
    };
  }

  /** A check run. */
  checkRun(repo: RepoRecord, r: CheckRunRecord): JsonObject {
    const url = `${this.#repoApi(repo)}/check-runs/${r.id}`;
    const template = this.#t.item('checks/list-for-ref', 'check_runs');
    return {
      ...template,
      id: r.id,
      head_sha: r.headSha,
      node_id: nodeId('CheckRun', r.id),
      external_id: '',
      url,
      html_url: `${this.#repoWeb(repo)}/runs/${r.id}`,
      details_url: `${this.#repoWeb(repo)}/runs/${r.id}`,
      status: r.status,
      conclusion: r.conclusion,
      started_at: iso(r.startedAt),
      completed_at: isoOrNull(r.completedAt),
      output: {
        title: r.name,
        summary: r.conclusion ?? r.status,
        text: null,
        annotations_count: r.annotations.length,
        annotations_url: `${url}/annotations`,
      },
      name: r.name,
      check_suite: { id: r.suiteId },
      pull_requests: [...repo.pulls.values()]
        .filter((p) => p.headSha === r.headSha)
        .map((p) => ({
          url: `${this.#repoApi(repo)}/pulls/${p.number}`,
          id: p.id,
          number: p.number,
          head: {
            ref: p.headRef,
            sha: p.headSha,
            repo: { id: repo.id, url: this.#repoApi(repo), name: repo.name },
          },
          base: {
            ref: p.baseRef,
            sha: p.baseSha,
            repo: { id: repo.id, url: this.#repoApi(repo), name: repo.name },
          },
        })),
    };
  }

  /** A commit status. */
  status(repo: RepoRecord, s: StatusRecord): JsonObject {
    return {
      url: `${this.#repoApi(repo)}/statuses/${s.sha}`,
      avatar_url: `${this.#urls.web}/images/error/octocat_happy.gif`,
      id: s.id,
      node_id: nodeId('StatusContext', s.id),
      state: s.state,
      description: s.description,
      target_url: s.targetUrl,
      context: s.context,
      created_at: iso(s.createdAt),
      updated_at: iso(s.createdAt),
      creator: this.user(s.creator),
    };
  }

  /** A workflow. */
  workflow(repo: RepoRecord, w: WorkflowRecord): JsonObject {
    return {
      id: w.id,
      node_id: nodeId('Workflow', w.id),
      name: w.name,
      path: w.path,
      state: w.state,
      created_at: iso(w.createdAt),
      updated_at: iso(w.createdAt),
      url: `${this.#repoApi(repo)}/actions/workflows/${w.id}`,
      html_url: `${this.#repoWeb(repo)}/blob/${repo.defaultBranch}/${w.path}`,
      badge_url: `${this.#repoWeb(repo)}/workflows/${encodeURIComponent(w.name)}/badge.svg`,
    };
  }

  /** A workflow run. */
  run(repo: RepoRecord, r: RunRecord): JsonObject {
    const api = `${this.#repoApi(repo)}/actions/runs/${r.id}`;
    const workflow = repo.workflows.get(r.workflowId);
    return this.#t.with('actions/get-workflow-run', {
      id: r.id,
      name: workflow?.name ?? null,
      node_id: nodeId('WorkflowRun', r.id),
      check_suite_id: r.checkSuiteId,
      check_suite_node_id: nodeId('CheckSuite', r.checkSuiteId),
      head_branch: r.headBranch,
      head_sha: r.headSha,
      path: `${workflow?.path ?? ''}@${r.headBranch}`,
      run_number: r.runNumber,
      event: r.event,
      display_title: r.displayTitle,
      status: r.status,
      conclusion: r.conclusion,
      workflow_id: r.workflowId,
      url: api,
      html_url: `${this.#repoWeb(repo)}/actions/runs/${r.id}`,
      pull_requests: [],
      created_at: iso(r.createdAt),
      updated_at: iso(r.updatedAt),
      actor: this.user(r.actor),
      triggering_actor: this.user(r.actor),
      run_attempt: r.runAttempt,
      referenced_workflows: [],
      run_started_at: iso(r.createdAt),
      jobs_url: `${api}/jobs`,
      logs_url: `${api}/logs`,
      check_suite_url: `${this.#repoApi(repo)}/check-suites/${r.checkSuiteId}`,
      artifacts_url: `${api}/artifacts`,
      cancel_url: `${api}/cancel`,
      rerun_url: `${api}/rerun`,
      previous_attempt_url: null,
      workflow_url: `${this.#repoApi(repo)}/actions/workflows/${r.workflowId}`,
      head_commit: this.#headCommit(repo, r.headSha),
      repository: this.embeddedRepo(repo, 'actions/get-workflow-run', 'repository'),
      head_repository: this.embeddedRepo(repo, 'actions/get-workflow-run', 'head_repository'),
    });
  }

  /** A job. */
  job(repo: RepoRecord, j: JobRecord): JsonObject {
    const run = repo.runs.get(j.runId);
    return {
      id: j.id,
      run_id: j.runId,
      run_url: `${this.#repoApi(repo)}/actions/runs/${j.runId}`,
      run_attempt: run?.runAttempt ?? 1,
      node_id: nodeId('CheckRun', j.id),
      head_sha: run?.headSha ?? '',
      url: `${this.#repoApi(repo)}/actions/jobs/${j.id}`,
      html_url: `${this.#repoWeb(repo)}/actions/runs/${j.runId}/job/${j.id}`,
      status: j.status,
      conclusion: j.conclusion,
      created_at: iso(j.startedAt),
      started_at: iso(j.startedAt),
      completed_at: isoOrNull(j.completedAt),
      name: j.name,
      steps: j.steps.map((s) => ({
        ...s,
        started_at: iso(j.startedAt),
        completed_at: isoOrNull(j.completedAt),
      })),
      check_run_url: `${this.#repoApi(repo)}/check-runs/${j.id}`,
      labels: ['ubuntu-latest'],
      runner_id: 1,
      runner_name: 'GitHub Actions 1',
      runner_group_id: 1,
      runner_group_name: 'GitHub Actions',
      workflow_name: run ? (repo.workflows.get(run.workflowId)?.name ?? null) : null,
      head_branch: run?.headBranch ?? null,
    };
  }

  /** An artifact. */
  artifact(repo: RepoRecord, a: ArtifactRecord): JsonObject {
    const run = repo.runs.get(a.runId);
    const url = `${this.#repoApi(repo)}/actions/artifacts/${a.id}`;
    return {
      id: a.id,
      node_id: nodeId('Artifact', a.id),
      name: a.name,
      size_in_bytes: a.sizeInBytes,
      url,
      archive_download_url: `${url}/zip`,
      expired: false,
      digest: `sha256:${hashBlob(a.name)}`,
      created_at: iso(a.createdAt),
      expires_at: iso(a.createdAt + 90 * 86_400_000),
      updated_at: iso(a.createdAt),
      workflow_run: run
        ? {
            id: run.id,
            repository_id: repo.id,
            head_repository_id: repo.id,
            head_branch: run.headBranch,
            head_sha: run.headSha,
          }
        : null,
    };
  }

  /** A deployment. */
  deployment(repo: RepoRecord, d: DeploymentRecord): JsonObject {
    const url = `${this.#repoApi(repo)}/deployments/${d.id}`;
    return {
      url,
      id: d.id,
      node_id: nodeId('Deployment', d.id),
      sha: d.sha,
      ref: d.ref,
      task: 'deploy',
      payload: {},
      original_environment: d.environment,
      environment: d.environment,
      description: null,
      creator: this.user(d.creator),
      created_at: iso(d.createdAt),
      updated_at: iso(d.createdAt),
      statuses_url: `${url}/statuses`,
      repository_url: this.#repoApi(repo),
      transient_environment: false,
      production_environment: d.environment === 'production',
    };
  }

  /** A ruleset. */
  ruleset(repo: RepoRecord, r: RulesetRecord, full: boolean): JsonObject {
    const body: JsonObject = {
      id: r.id,
      name: r.name,
      target: r.target,
      source_type: 'Repository',
      source: `${repo.owner}/${repo.name}`,
      enforcement: r.enforcement,
      node_id: nodeId('RepositoryRuleset', r.id),
      _links: {
        self: { href: `${this.#repoApi(repo)}/rulesets/${r.id}` },
        html: { href: `${this.#repoWeb(repo)}/rules/${r.id}` },
      },
      created_at: iso(repo.createdAt),
      updated_at: iso(repo.createdAt),
    };
    if (full) {
      body.bypass_actors = [];
      body.conditions = { ref_name: { include: [...r.include], exclude: [] } };
      body.rules = r.rules;
    }
    return body;
  }

  /** An activity event. */
  event(repo: RepoRecord, e: EventRecord): JsonObject {
    return {
      id: String(e.id),
      type: e.type,
      actor: {
        id: this.#world.getAccount(e.actor)?.id ?? 0,
        login: e.actor,
        display_login: e.actor,
        gravatar_id: '',
        url: `${this.#urls.api}/users/${e.actor}`,
        avatar_url: `${this.#urls.web}/avatars/u/${this.#world.getAccount(e.actor)?.id ?? 0}?v=4`,
      },
      repo: { id: repo.id, name: `${repo.owner}/${repo.name}`, url: this.#repoApi(repo) },
      payload: e.payload,
      public: !repo.private,
      created_at: iso(e.createdAt),
      ...(this.#world.getOrg(repo.owner)
        ? {
            org: {
              id: this.#world.getOrg(repo.owner)?.id,
              login: repo.owner,
              gravatar_id: '',
              url: `${this.#urls.api}/orgs/${repo.owner}`,
              avatar_url: '',
            },
          }
        : {}),
    };
  }

  /** A gist. */
  gist(g: GistRecord, withContent: boolean): JsonObject {
    const url = `${this.#urls.api}/gists/${g.id}`;
    return {
      url,
      forks_url: `${url}/forks`,
      commits_url: `${url}/commits`,
      id: g.id,
      node_id: nodeId('Gist', g.id),
      git_pull_url: `${this.#urls.web}/gist/${g.id}.git`,
      git_push_url: `${this.#urls.web}/gist/${g.id}.git`,
      html_url: `${this.#urls.web}/gist/${g.id}`,
      files: Object.fromEntries(
        Object.entries(g.files).map(([name, content]) => [
          name,
          {
            filename: name,
            type: 'text/plain',
            language: null,
            raw_url: `${this.#urls.raw}/gist/${g.owner}/${g.id}/raw/${name}`,
            size: Buffer.byteLength(content),
            ...(withContent ? { truncated: false, content } : {}),
          },
        ]),
      ),
      public: g.public,
      created_at: iso(g.createdAt),
      updated_at: iso(g.createdAt),
      description: g.description,
      comments: 0,
      user: null,
      comments_url: `${url}/comments`,
      owner: this.user(g.owner),
      truncated: false,
    };
  }
}
