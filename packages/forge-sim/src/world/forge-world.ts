import { diffTrees, hashObject, hashTree } from './git-objects.js';
import type { SimClock } from './sim-clock.js';
import type {
  AccountRecord,
  ArtifactRecord,
  AssetRecord,
  BranchRecord,
  CheckRunRecord,
  CheckSuiteRecord,
  CommitCommentRecord,
  CommitRecord,
  DeploymentRecord,
  EventRecord,
  GistRecord,
  IssueCommentRecord,
  IssueRecord,
  JobRecord,
  LabelRecord,
  MilestoneRecord,
  OrgRecord,
  PullRecord,
  ReactionRecord,
  ReleaseRecord,
  RepoPermission,
  RepoRecord,
  ReviewCommentRecord,
  ReviewRecord,
  RulesetRecord,
  RunRecord,
  StatusRecord,
  TagRecord,
  UserRecord,
  WorkflowRecord,
} from './world-records.js';

/** Thrown by the seeding API when asked for something that contradicts the world. */
export class WorldSeedError extends Error {
  /** Machine-readable reason. */
  readonly code:
    | 'ERR_UNKNOWN_ACCOUNT'
    | 'ERR_UNKNOWN_REPO'
    | 'ERR_UNKNOWN_REF'
    | 'ERR_UNKNOWN_ENTITY'
    | 'ERR_DUPLICATE';

  constructor(code: WorldSeedError['code'], message: string) {
    super(message);
    this.name = 'WorldSeedError';
    this.code = code;
  }
}

const ID_BASES = {
  user: 1_000,
  repo: 700_000_000,
  issue: 2_100_000_000,
  pull: 1_800_000_000,
  comment: 1_500_000_000,
  event: 9_000_000_000,
  review: 1_900_000_000,
  label: 5_000_000_000,
  milestone: 9_000_000,
  release: 150_000_000,
  asset: 170_000_000,
  check: 20_000_000_000,
  status: 30_000_000_000,
  workflow: 60_000_000,
  run: 9_800_000_000,
  job: 27_000_000_000,
  artifact: 1_200_000_000,
  deployment: 1_700_000_000,
  ruleset: 1_000_000,
  reaction: 200_000_000,
  key: 80_000_000,
} as const;

type IdKind = keyof typeof ID_BASES;

/** Target of a reaction. */
export type ReactionTarget =
  { readonly issue: number } | { readonly comment: number } | { readonly reviewComment: number };

/** One job of a seeded workflow run. */
export interface JobSeed {
  readonly name: string;
  readonly status?: JobRecord['status'];
  readonly conclusion?: string | null;
  readonly log?: string;
  readonly steps?: readonly string[];
}

/**
 * The simulated forge's data: accounts, organizations and repositories with everything
 * in them. Tests seed it through these methods; the servers read it on every request, so
 * changes show up immediately (and change ETags).
 */
export class ForgeWorld {
  readonly #clock: SimClock;
  readonly #accounts = new Map<string, AccountRecord>();
  readonly #repos = new Map<string, RepoRecord>();
  readonly #gists = new Map<string, GistRecord>();
  readonly #counters = new Map<IdKind, number>();
  #version = 0;

  /** @param clock - timestamps of seeded entities come from it. */
  constructor(clock: SimClock) {
    this.#clock = clock;
  }

  /** Increases on every change; part of every ETag. */
  get version(): number {
    return this.#version;
  }

  /** Marks the world as changed (call after mutating a record directly). */
  touch(): void {
    this.#version += 1;
  }

  /** A fresh id of the given kind, in the numeric range GitHub uses for it. */
  nextId(kind: IdKind): number {
    const next = (this.#counters.get(kind) ?? 0) + 1;
    this.#counters.set(kind, next);
    return ID_BASES[kind] + next;
  }

  // ---- accounts ---------------------------------------------------------------------

  /** Adds a user (or returns the existing one with this login). */
  addUser(input: { login: string; name?: string; email?: string; bio?: string }): UserRecord {
    const existing = this.#accounts.get(input.login.toLowerCase());
    if (existing?.kind === 'user') return existing;
    if (existing) throw new WorldSeedError('ERR_DUPLICATE', `${input.login} is an organization`);
    const user: UserRecord = {
      kind: 'user',
      id: this.nextId('user'),
      login: input.login,
      name: input.name ?? input.login,
      email: input.email ?? null,
      bio: input.bio ?? null,
      createdAt: this.#clock.now(),
      followers: [],
      following: [],
      keys: [],
      gpgKeyIds: [],
    };
    this.#accounts.set(input.login.toLowerCase(), user);
    this.touch();
    return user;
  }

  /** Adds an organization with members (`public: false` hides a membership from others). */
  addOrg(input: {
    login: string;
    name?: string;
    description?: string;
    members?: readonly { login: string; public?: boolean; role?: 'member' | 'admin' }[];
  }): OrgRecord {
    if (this.#accounts.has(input.login.toLowerCase())) {
      throw new WorldSeedError('ERR_DUPLICATE', `account ${input.login} exists`);
    }
    const org: OrgRecord = {
      kind: 'org',
      id: this.nextId('user'),
      login: input.login,
      name: input.name ?? input.login,
      description: input.description ?? null,
      createdAt: this.#clock.now(),
      members: new Map(),
    };
    this.#accounts.set(input.login.toLowerCase(), org);
    for (const m of input.members ?? []) this.addOrgMember(input.login, m.login, m);
    this.touch();
    return org;
  }

  /** Makes `login` a member of `org` (creating the user if needed). */
  addOrgMember(
    org: string,
    login: string,
    options: { public?: boolean; role?: 'member' | 'admin' } = {},
  ): void {
    const record = this.getOrg(org);
    if (!record) throw new WorldSeedError('ERR_UNKNOWN_ACCOUNT', `no organization ${org}`);
    const user = this.addUser({ login });
    record.members.set(user.login.toLowerCase(), {
      public: options.public ?? false,
      role: options.role ?? 'member',
    });
    this.touch();
  }

  /** Removes a membership. */
  removeOrgMember(org: string, login: string): void {
    this.getOrg(org)?.members.delete(login.toLowerCase());
    this.touch();
  }

  /** `follower` follows `target`. */
  addFollower(target: string, follower: string): void {
    const t = this.addUser({ login: target });
    const f = this.addUser({ login: follower });
    t.followers.push(f.login);
    f.following.push(t.login);
    this.touch();
  }

  /** Adds a public SSH key to a user. */
  addKey(login: string, key: string): void {
    this.addUser({ login }).keys.push({ id: this.nextId('key'), key });
    this.touch();
  }

  /** Adds a gist. */
  addGist(input: {
    owner: string;
    description?: string;
    public?: boolean;
    files: Record<string, string>;
  }): GistRecord {
    this.addUser({ login: input.owner });
    const id = hashObject('gist', input.owner, String(this.#gists.size)).slice(0, 32);
    const gist: GistRecord = {
      id,
      owner: input.owner,
      description: input.description ?? '',
      public: input.public ?? true,
      files: { ...input.files },
      createdAt: this.#clock.now(),
    };
    this.#gists.set(id, gist);
    this.touch();
    return gist;
  }

  /** A user or organization by login (case-insensitive). */
  getAccount(login: string): AccountRecord | undefined {
    return this.#accounts.get(login.toLowerCase());
  }

  /** A user by login. */
  getUser(login: string): UserRecord | undefined {
    const a = this.getAccount(login);
    return a?.kind === 'user' ? a : undefined;
  }

  /** An organization by login. */
  getOrg(login: string): OrgRecord | undefined {
    const a = this.getAccount(login);
    return a?.kind === 'org' ? a : undefined;
  }

  /** Every account. */
  accounts(): AccountRecord[] {
    return [...this.#accounts.values()];
  }

  /** A gist by id. */
  getGist(id: string): GistRecord | undefined {
    return this.#gists.get(id);
  }

  /** Every gist. */
  gists(): GistRecord[] {
    return [...this.#gists.values()];
  }

  // ---- repositories -----------------------------------------------------------------

  /**
   * Adds a repository with an initial commit on its default branch. The owner account is
   * created as a user if it does not exist.
   */
  addRepo(input: {
    owner: string;
    name: string;
    private?: boolean;
    description?: string;
    defaultBranch?: string;
    files?: Record<string, string>;
    topics?: readonly string[];
    languages?: Record<string, number>;
    license?: string;
    collaborators?: Record<string, RepoPermission>;
    forkOf?: string;
  }): RepoRecord {
    const owner = this.getAccount(input.owner) ?? this.addUser({ login: input.owner });
    const key = `${owner.login}/${input.name}`.toLowerCase();
    if (this.#repos.has(key)) throw new WorldSeedError('ERR_DUPLICATE', `repo ${key} exists`);
    const now = this.#clock.now();
    const repo: RepoRecord = {
      id: this.nextId('repo'),
      owner: owner.login,
      name: input.name,
      private: input.private ?? false,
      description: input.description ?? null,
      createdAt: now,
      updatedAt: now,
      pushedAt: now,
      defaultBranch: input.defaultBranch ?? 'main',
      topics: [...(input.topics ?? [])],
      languages: { ...(input.languages ?? { TypeScript: 12_345 }) },
      license: input.license ?? 'mit',
      archived: false,
      forkOf: input.forkOf ?? null,
      collaborators: new Map(),
      stargazers: [],
      watchers: [],
      commits: new Map(),
      branches: new Map(),
      tags: new Map(),
      issues: new Map(),
      pulls: new Map(),
      labels: new Map(),
      milestones: new Map(),
      issueComments: new Map(),
      issueEvents: new Map(),
      reviews: new Map(),
      reviewComments: new Map(),
      commitComments: new Map(),
      releases: new Map(),
      checkSuites: new Map(),
      checkRuns: new Map(),
      statuses: [],
      workflows: new Map(),
      runs: new Map(),
      jobs: new Map(),
      artifacts: new Map(),
      deployments: new Map(),
      rulesets: new Map(),
      events: [],
      statsRequestedAt: null,
      statsReady: false,
      nextNumber: 1,
    };
    for (const [login, permission] of Object.entries(input.collaborators ?? {})) {
      this.addUser({ login });
      repo.collaborators.set(login.toLowerCase(), permission);
    }
    this.#repos.set(key, repo);
    const files = input.files ?? { 'README.md': `# ${input.name}\n\n${input.description ?? ''}\n` };
    this.addCommit({
      owner: repo.owner,
      repo: repo.name,
      branch: repo.defaultBranch,
      message: 'Initial commit',
      author: owner.kind === 'user' ? owner.login : undefined,
      files,
    });
    for (const name of ['bug', 'enhancement', 'documentation']) {
      this.addLabel({ owner: repo.owner, repo: repo.name, name });
    }
    return repo;
  }

  /** A repository by owner and name (case-insensitive). */
  getRepo(owner: string, name: string): RepoRecord | undefined {
    return this.#repos.get(`${owner}/${name}`.toLowerCase());
  }

  /** Every repository. */
  repos(): RepoRecord[] {
    return [...this.#repos.values()];
  }

  /** Changes a repository's visibility. */
  setVisibility(owner: string, name: string, isPrivate: boolean): void {
    this.#repo(owner, name).private = isPrivate;
    this.touch();
  }

  /** Grants `login` a permission on a repository. */
  addCollaborator(owner: string, name: string, login: string, permission: RepoPermission): void {
    this.addUser({ login });
    this.#repo(owner, name).collaborators.set(login.toLowerCase(), permission);
    this.touch();
  }

  /** `login` stars a repository. */
  addStar(owner: string, name: string, login: string): void {
    const repo = this.#repo(owner, name);
    this.addUser({ login });
    repo.stargazers.push({ login, at: this.#clock.now() });
    repo.watchers.push(login);
    this.#event(repo, 'WatchEvent', login, { action: 'started' });
  }

  /** The user acting for a repository when a seed names nobody: its owner, or an org admin. */
  #defaultActor(repo: RepoRecord): string {
    const owner = this.getAccount(repo.owner);
    if (owner?.kind === 'user') return owner.login;
    const admin = [...(owner?.members.entries() ?? [])].find(([, m]) => m.role === 'admin')?.[0];
    return this.getAccount(admin ?? '')?.login ?? this.addUser({ login: 'web-flow' }).login;
  }

  #repo(owner: string, name: string): RepoRecord {
    const repo = this.getRepo(owner, name);
    if (!repo) throw new WorldSeedError('ERR_UNKNOWN_REPO', `no repository ${owner}/${name}`);
    return repo;
  }

  #event(repo: RepoRecord, type: string, actor: string, payload: Record<string, unknown>): void {
    repo.events.unshift({
      id: this.nextId('event'),
      type,
      actor,
      payload,
      createdAt: this.#clock.now(),
    } satisfies EventRecord);
    repo.updatedAt = this.#clock.now();
    this.touch();
  }

  // ---- git --------------------------------------------------------------------------

  /**
   * Resolves a ref the way GitHub's `{ref}` parameters do: a full or abbreviated (7+ hex)
   * commit SHA, a branch, a tag, `heads/NAME`, `tags/NAME` or `refs/heads/NAME`.
   */
  resolveRef(repo: RepoRecord, ref: string): string | undefined {
    const bare = ref.replace(/^refs\//, '');
    if (bare.startsWith('heads/')) return repo.branches.get(bare.slice(6))?.sha;
    if (bare.startsWith('tags/')) return repo.tags.get(bare.slice(5))?.sha;
    const branch = repo.branches.get(ref);
    if (branch) return branch.sha;
    const tag = repo.tags.get(ref);
    if (tag) return tag.sha;
    if (/^[0-9a-f]{7,40}$/.test(ref)) {
      if (repo.commits.has(ref)) return ref;
      for (const sha of repo.commits.keys()) if (sha.startsWith(ref)) return sha;
    }
    return undefined;
  }

  /**
   * Adds a commit on `branch` (default: the default branch). `files` maps paths to new
   * content; `null` deletes a path. The branch moves to the new commit.
   */
  addCommit(input: {
    owner: string;
    repo: string;
    branch?: string;
    message: string;
    author?: string | undefined;
    files?: Record<string, string | null>;
  }): CommitRecord {
    const repo = this.#repo(input.owner, input.repo);
    const branchName = input.branch ?? repo.defaultBranch;
    const parentSha = repo.branches.get(branchName)?.sha;
    const parent = parentSha === undefined ? undefined : repo.commits.get(parentSha);
    const files = new Map(parent?.files ?? []);
    for (const [path, content] of Object.entries(input.files ?? {})) {
      if (content === null) files.delete(path);
      else files.set(path, content);
    }
    const author = this.addUser({ login: input.author ?? this.#defaultActor(repo) }).login;
    const date = this.#clock.now();
    const treeSha = hashTree(files);
    const sha = hashObject(
      'commit',
      treeSha,
      parentSha ?? '',
      author,
      input.message,
      String(date),
      String(repo.commits.size),
    );
    const commit: CommitRecord = {
      sha,
      message: input.message,
      author,
      date,
      parents: parentSha === undefined ? [] : [parentSha],
      files,
      treeSha,
      changes: diffTrees(parent?.files ?? new Map<string, string>(), files),
    };
    repo.commits.set(sha, commit);
    const branch = repo.branches.get(branchName);
    if (branch) branch.sha = sha;
    else repo.branches.set(branchName, { name: branchName, sha, protected: false });
    repo.pushedAt = date;
    for (const pull of repo.pulls.values())
      if (pull.headRef === branchName && !pull.merged) pull.headSha = sha;
    this.#event(repo, 'PushEvent', author, {
      ref: `refs/heads/${branchName}`,
      head: sha,
      before: parentSha ?? '0'.repeat(40),
      size: 1,
    });
    return commit;
  }

  /** Creates a branch at `from` (a ref or SHA; default: the default branch). */
  addBranch(input: {
    owner: string;
    repo: string;
    name: string;
    from?: string;
    protected?: boolean;
  }): BranchRecord {
    const repo = this.#repo(input.owner, input.repo);
    const sha = this.resolveRef(repo, input.from ?? repo.defaultBranch);
    if (sha === undefined)
      throw new WorldSeedError('ERR_UNKNOWN_REF', `no ref ${input.from ?? ''}`);
    const branch: BranchRecord = { name: input.name, sha, protected: input.protected ?? false };
    repo.branches.set(input.name, branch);
    this.touch();
    return branch;
  }

  /** Turns branch protection on or off. */
  setBranchProtection(owner: string, name: string, branch: string, enabled: boolean): void {
    const record = this.#repo(owner, name).branches.get(branch);
    if (!record) throw new WorldSeedError('ERR_UNKNOWN_REF', `no branch ${branch}`);
    record.protected = enabled;
    this.touch();
  }

  /** Adds a tag (annotated when `message` is given). */
  addTag(input: {
    owner: string;
    repo: string;
    name: string;
    ref?: string;
    message?: string;
    tagger?: string;
  }): TagRecord {
    const repo = this.#repo(input.owner, input.repo);
    const sha = this.resolveRef(repo, input.ref ?? repo.defaultBranch);
    if (sha === undefined) throw new WorldSeedError('ERR_UNKNOWN_REF', `no ref ${input.ref ?? ''}`);
    const tag: TagRecord = {
      name: input.name,
      sha,
      objectSha:
        input.message === undefined ? null : hashObject('tag', sha, input.name, input.message),
      message: input.message ?? null,
      tagger: input.tagger ?? this.#defaultActor(repo),
      date: this.#clock.now(),
    };
    repo.tags.set(input.name, tag);
    this.touch();
    return tag;
  }

  // ---- issues and pull requests -----------------------------------------------------

  /** Adds a label. */
  addLabel(input: {
    owner: string;
    repo: string;
    name: string;
    color?: string;
    description?: string;
  }): LabelRecord {
    const repo = this.#repo(input.owner, input.repo);
    const label: LabelRecord = {
      id: this.nextId('label'),
      name: input.name,
      color: input.color ?? hashObject('color', input.name).slice(0, 6),
      description: input.description ?? null,
    };
    repo.labels.set(input.name, label);
    this.touch();
    return label;
  }

  /** Adds a milestone. */
  addMilestone(input: {
    owner: string;
    repo: string;
    title: string;
    state?: 'open' | 'closed';
    description?: string;
  }): MilestoneRecord {
    const repo = this.#repo(input.owner, input.repo);
    const number = repo.milestones.size + 1;
    const milestone: MilestoneRecord = {
      id: this.nextId('milestone'),
      number,
      title: input.title,
      state: input.state ?? 'open',
      description: input.description ?? null,
      creator: this.#defaultActor(repo),
      createdAt: this.#clock.now(),
      dueOn: null,
    };
    repo.milestones.set(number, milestone);
    this.touch();
    return milestone;
  }

  #issueEvent(
    repo: RepoRecord,
    issueNumber: number,
    actor: string,
    event: string,
    extra: { label?: string; assignee?: string; commitId?: string } = {},
  ): void {
    const id = this.nextId('event');
    repo.issueEvents.set(id, {
      id,
      issueNumber,
      actor,
      event,
      createdAt: this.#clock.now(),
      label: extra.label ?? null,
      assignee: extra.assignee ?? null,
      commitId: extra.commitId ?? null,
    });
  }

  /** Adds an issue. Labels and milestones are created when missing. */
  addIssue(input: {
    owner: string;
    repo: string;
    title: string;
    body?: string;
    author?: string;
    labels?: readonly string[];
    assignees?: readonly string[];
    milestone?: string;
    state?: 'open' | 'closed';
    stateReason?: 'completed' | 'not_planned';
    locked?: boolean;
  }): IssueRecord {
    return this.#createIssue(input, null);
  }

  #createIssue(
    input: Parameters<ForgeWorld['addIssue']>[0],
    pullNumber: number | null,
  ): IssueRecord {
    const repo = this.#repo(input.owner, input.repo);
    const author = this.addUser({ login: input.author ?? this.#defaultActor(repo) }).login;
    const number = repo.nextNumber++;
    let milestone: number | null = null;
    if (input.milestone !== undefined) {
      const found = [...repo.milestones.values()].find((m) => m.title === input.milestone);
      milestone = (
        found ?? this.addMilestone({ owner: repo.owner, repo: repo.name, title: input.milestone })
      ).number;
    }
    const now = this.#clock.now();
    const closed = input.state === 'closed';
    const issue: IssueRecord = {
      number,
      id: this.nextId(pullNumber === null ? 'issue' : 'pull'),
      title: input.title,
      body: input.body ?? null,
      state: closed ? 'closed' : 'open',
      stateReason: closed ? (input.stateReason ?? 'completed') : null,
      user: author,
      labels: [],
      milestone,
      assignees: [],
      reactions: [],
      locked: input.locked ?? false,
      createdAt: now,
      updatedAt: now,
      closedAt: closed ? now : null,
      pullNumber: pullNumber === null ? null : number,
    };
    repo.issues.set(number, issue);
    for (const label of input.labels ?? []) {
      if (!repo.labels.has(label))
        this.addLabel({ owner: repo.owner, repo: repo.name, name: label });
      issue.labels.push(label);
      this.#issueEvent(repo, number, author, 'labeled', { label });
    }
    for (const assignee of input.assignees ?? []) {
      issue.assignees.push(this.addUser({ login: assignee }).login);
      this.#issueEvent(repo, number, author, 'assigned', { assignee });
    }
    if (milestone !== null) this.#issueEvent(repo, number, author, 'milestoned');
    if (closed) this.#issueEvent(repo, number, author, 'closed');
    this.#event(repo, pullNumber === null ? 'IssuesEvent' : 'PullRequestEvent', author, {
      action: 'opened',
      number,
    });
    return issue;
  }

  /** Closes an issue (or pull request without merging). */
  closeIssue(
    owner: string,
    name: string,
    number: number,
    stateReason: 'completed' | 'not_planned' = 'completed',
  ): void {
    const repo = this.#repo(owner, name);
    const issue = repo.issues.get(number);
    if (!issue) throw new WorldSeedError('ERR_UNKNOWN_ENTITY', `no issue #${number}`);
    issue.state = 'closed';
    issue.stateReason = stateReason;
    issue.closedAt = this.#clock.now();
    issue.updatedAt = this.#clock.now();
    this.#issueEvent(repo, number, this.#defaultActor(repo), 'closed');
    this.touch();
  }

  /** Adds a conversation comment to an issue or pull request. */
  addIssueComment(input: {
    owner: string;
    repo: string;
    number: number;
    author?: string;
    body: string;
  }): IssueCommentRecord {
    const repo = this.#repo(input.owner, input.repo);
    const issue = repo.issues.get(input.number);
    if (!issue) throw new WorldSeedError('ERR_UNKNOWN_ENTITY', `no issue #${input.number}`);
    const comment: IssueCommentRecord = {
      id: this.nextId('comment'),
      issueNumber: input.number,
      user: this.addUser({ login: input.author ?? this.#defaultActor(repo) }).login,
      body: input.body,
      createdAt: this.#clock.now(),
      reactions: [],
    };
    repo.issueComments.set(comment.id, comment);
    issue.updatedAt = this.#clock.now();
    this.#event(repo, 'IssueCommentEvent', comment.user, {
      action: 'created',
      number: input.number,
    });
    return comment;
  }

  /** Adds a reaction to an issue, an issue comment or a review comment. */
  addReaction(input: {
    owner: string;
    repo: string;
    target: ReactionTarget;
    user: string;
    content?: ReactionRecord['content'];
  }): ReactionRecord {
    const repo = this.#repo(input.owner, input.repo);
    const reaction: ReactionRecord = {
      id: this.nextId('reaction'),
      user: this.addUser({ login: input.user }).login,
      content: input.content ?? '+1',
      createdAt: this.#clock.now(),
    };
    const target =
      'issue' in input.target
        ? repo.issues.get(input.target.issue)
        : 'comment' in input.target
          ? repo.issueComments.get(input.target.comment)
          : repo.reviewComments.get(input.target.reviewComment);
    if (!target) throw new WorldSeedError('ERR_UNKNOWN_ENTITY', 'no reaction target');
    target.reactions.push(reaction);
    this.touch();
    return reaction;
  }

  /**
   * Adds a pull request from branch `head` into `base` (default: the default branch).
   * `state: 'merged'` merges it (the base branch moves to a merge commit).
   */
  addPull(input: {
    owner: string;
    repo: string;
    title: string;
    head: string;
    base?: string;
    body?: string;
    author?: string;
    draft?: boolean;
    state?: 'open' | 'closed' | 'merged';
    labels?: readonly string[];
    assignees?: readonly string[];
    requestedReviewers?: readonly string[];
    requestedTeams?: readonly string[];
  }): { issue: IssueRecord; pull: PullRecord } {
    const repo = this.#repo(input.owner, input.repo);
    const baseRef = input.base ?? repo.defaultBranch;
    const headSha = repo.branches.get(input.head)?.sha;
    const baseSha = repo.branches.get(baseRef)?.sha;
    if (headSha === undefined || baseSha === undefined) {
      throw new WorldSeedError(
        'ERR_UNKNOWN_REF',
        `no branch ${headSha === undefined ? input.head : baseRef}`,
      );
    }
    const issue = this.#createIssue(
      {
        owner: input.owner,
        repo: input.repo,
        title: input.title,
        ...(input.body === undefined ? {} : { body: input.body }),
        ...(input.author === undefined ? {} : { author: input.author }),
        ...(input.labels === undefined ? {} : { labels: input.labels }),
        ...(input.assignees === undefined ? {} : { assignees: input.assignees }),
      },
      repo.nextNumber,
    );
    const pull: PullRecord = {
      number: issue.number,
      id: issue.id,
      headRef: input.head,
      headSha,
      baseRef,
      baseSha,
      draft: input.draft ?? false,
      merged: false,
      mergedAt: null,
      mergedBy: null,
      mergeCommitSha: null,
      requestedReviewers: (input.requestedReviewers ?? []).map(
        (l) => this.addUser({ login: l }).login,
      ),
      requestedTeams: [...(input.requestedTeams ?? [])],
    };
    repo.pulls.set(pull.number, pull);
    if (input.state === 'closed') this.closeIssue(input.owner, input.repo, issue.number);
    if (input.state === 'merged') this.mergePull(input.owner, input.repo, issue.number);
    return { issue, pull };
  }

  /** Merges a pull request: the base branch gets the head's files in a merge commit. */
  mergePull(owner: string, name: string, number: number, mergedBy?: string): PullRecord {
    const repo = this.#repo(owner, name);
    const pull = repo.pulls.get(number);
    const issue = repo.issues.get(number);
    if (!pull || !issue)
      throw new WorldSeedError('ERR_UNKNOWN_ENTITY', `no pull request #${number}`);
    const head = repo.commits.get(pull.headSha);
    const files: Record<string, string | null> = {};
    const base = repo.commits.get(repo.branches.get(pull.baseRef)?.sha ?? '');
    for (const path of base?.files.keys() ?? []) if (!head?.files.has(path)) files[path] = null;
    for (const [path, content] of head?.files ?? []) files[path] = content;
    const merge = this.addCommit({
      owner,
      repo: name,
      branch: pull.baseRef,
      message: `Merge pull request #${number} from ${repo.owner}/${pull.headRef}`,
      author: mergedBy ?? this.#defaultActor(repo),
      files,
    });
    pull.merged = true;
    pull.mergedAt = this.#clock.now();
    pull.mergedBy = mergedBy ?? this.#defaultActor(repo);
    pull.mergeCommitSha = merge.sha;
    pull.draft = false;
    issue.state = 'closed';
    issue.stateReason = 'completed';
    issue.closedAt = this.#clock.now();
    issue.updatedAt = this.#clock.now();
    this.#issueEvent(repo, number, pull.mergedBy, 'merged', { commitId: merge.sha });
    this.#issueEvent(repo, number, pull.mergedBy, 'closed');
    this.touch();
    return pull;
  }

  /** The commits of a pull request: reachable from head, not from base (first parents). */
  pullCommits(repo: RepoRecord, pull: PullRecord): CommitRecord[] {
    const baseAncestors = new Set<string>();
    for (
      let sha: string | undefined = pull.baseSha;
      sha !== undefined;
      sha = repo.commits.get(sha)?.parents[0]
    ) {
      baseAncestors.add(sha);
    }
    const commits: CommitRecord[] = [];
    for (
      let sha: string | undefined = pull.headSha;
      sha !== undefined && !baseAncestors.has(sha);
      sha = repo.commits.get(sha)?.parents[0]
    ) {
      const commit = repo.commits.get(sha);
      if (!commit) break;
      commits.unshift(commit);
    }
    return commits;
  }

  /** Adds a review of a pull request (at its current head). */
  addReview(input: {
    owner: string;
    repo: string;
    number: number;
    user: string;
    state?: ReviewRecord['state'];
    body?: string;
  }): ReviewRecord {
    const repo = this.#repo(input.owner, input.repo);
    const pull = repo.pulls.get(input.number);
    if (!pull) throw new WorldSeedError('ERR_UNKNOWN_ENTITY', `no pull request #${input.number}`);
    const review: ReviewRecord = {
      id: this.nextId('review'),
      pullNumber: input.number,
      user: this.addUser({ login: input.user }).login,
      state: input.state ?? 'COMMENTED',
      body: input.body ?? '',
      commitId: pull.headSha,
      submittedAt: this.#clock.now(),
    };
    repo.reviews.set(review.id, review);
    const i = pull.requestedReviewers.indexOf(review.user);
    if (i >= 0) pull.requestedReviewers.splice(i, 1);
    this.touch();
    return review;
  }

  /** Adds a review comment on a line of a pull request's diff. */
  addReviewComment(input: {
    owner: string;
    repo: string;
    number: number;
    user: string;
    body: string;
    path: string;
    line?: number;
    reviewId?: number;
  }): ReviewCommentRecord {
    const repo = this.#repo(input.owner, input.repo);
    const pull = repo.pulls.get(input.number);
    if (!pull) throw new WorldSeedError('ERR_UNKNOWN_ENTITY', `no pull request #${input.number}`);
    const comment: ReviewCommentRecord = {
      id: this.nextId('comment'),
      pullNumber: input.number,
      reviewId: input.reviewId ?? null,
      user: this.addUser({ login: input.user }).login,
      body: input.body,
      path: input.path,
      line: input.line ?? 1,
      commitId: pull.headSha,
      createdAt: this.#clock.now(),
      reactions: [],
    };
    repo.reviewComments.set(comment.id, comment);
    this.touch();
    return comment;
  }

  /** Adds a comment on a commit. */
  addCommitComment(input: {
    owner: string;
    repo: string;
    sha: string;
    user: string;
    body: string;
    path?: string;
    line?: number;
  }): CommitCommentRecord {
    const repo = this.#repo(input.owner, input.repo);
    const comment: CommitCommentRecord = {
      id: this.nextId('comment'),
      commitId: input.sha,
      user: this.addUser({ login: input.user }).login,
      body: input.body,
      path: input.path ?? null,
      line: input.line ?? null,
      createdAt: this.#clock.now(),
    };
    repo.commitComments.set(comment.id, comment);
    this.touch();
    return comment;
  }

  // ---- releases, checks, statuses, actions, deployments, rulesets -------------------

  /** Adds a release (and its tag when missing) with assets. */
  addRelease(input: {
    owner: string;
    repo: string;
    tag: string;
    name?: string;
    body?: string;
    draft?: boolean;
    prerelease?: boolean;
    author?: string;
    assets?: readonly { name: string; content: string; contentType?: string }[];
  }): ReleaseRecord {
    const repo = this.#repo(input.owner, input.repo);
    if (!repo.tags.has(input.tag))
      this.addTag({ owner: repo.owner, repo: repo.name, name: input.tag });
    const now = this.#clock.now();
    const id = this.nextId('release');
    const author = this.addUser({ login: input.author ?? this.#defaultActor(repo) }).login;
    const release: ReleaseRecord = {
      id,
      tagName: input.tag,
      name: input.name ?? input.tag,
      body: input.body ?? '',
      draft: input.draft ?? false,
      prerelease: input.prerelease ?? false,
      author,
      createdAt: now,
      publishedAt: input.draft === true ? null : now,
      assets: (input.assets ?? []).map((a): AssetRecord => ({
        id: this.nextId('asset'),
        releaseId: id,
        name: a.name,
        contentType: a.contentType ?? 'application/octet-stream',
        content: a.content,
        uploader: author,
        createdAt: now,
      })),
    };
    repo.releases.set(id, release);
    this.#event(repo, 'ReleaseEvent', author, { action: 'published', tag: input.tag });
    return release;
  }

  #suiteFor(repo: RepoRecord, sha: string, branch: string | null): CheckSuiteRecord {
    const existing = [...repo.checkSuites.values()].find((s) => s.headSha === sha);
    if (existing) return existing;
    const suite: CheckSuiteRecord = {
      id: this.nextId('check'),
      headSha: sha,
      headBranch: branch,
      status: 'queued',
      conclusion: null,
      createdAt: this.#clock.now(),
    };
    repo.checkSuites.set(suite.id, suite);
    return suite;
  }

  #refreshSuite(repo: RepoRecord, suite: CheckSuiteRecord): void {
    const runs = [...repo.checkRuns.values()].filter((r) => r.suiteId === suite.id);
    const done = runs.length > 0 && runs.every((r) => r.status === 'completed');
    suite.status = done
      ? 'completed'
      : runs.some((r) => r.status !== 'queued')
        ? 'in_progress'
        : 'queued';
    suite.conclusion = done
      ? runs.some((r) => r.conclusion === 'failure')
        ? 'failure'
        : 'success'
      : null;
  }

  /** Adds a check run on a commit (a ref is resolved first). */
  addCheckRun(input: {
    owner: string;
    repo: string;
    ref: string;
    name: string;
    status?: CheckRunRecord['status'];
    conclusion?: CheckRunRecord['conclusion'];
    annotations?: CheckRunRecord['annotations'];
  }): CheckRunRecord {
    const repo = this.#repo(input.owner, input.repo);
    const sha = this.resolveRef(repo, input.ref);
    if (sha === undefined) throw new WorldSeedError('ERR_UNKNOWN_REF', `no ref ${input.ref}`);
    const branch = repo.branches.has(input.ref) ? input.ref : null;
    const suite = this.#suiteFor(repo, sha, branch);
    const status = input.status ?? 'completed';
    const run: CheckRunRecord = {
      id: this.nextId('check'),
      suiteId: suite.id,
      headSha: sha,
      name: input.name,
      status,
      conclusion: status === 'completed' ? (input.conclusion ?? 'success') : null,
      startedAt: this.#clock.now(),
      completedAt: status === 'completed' ? this.#clock.now() : null,
      annotations: [...(input.annotations ?? [])],
    };
    repo.checkRuns.set(run.id, run);
    this.#refreshSuite(repo, suite);
    this.touch();
    return run;
  }

  /** Adds a commit status. */
  addStatus(input: {
    owner: string;
    repo: string;
    ref: string;
    context: string;
    state: StatusRecord['state'];
    description?: string;
    targetUrl?: string;
    creator?: string;
  }): StatusRecord {
    const repo = this.#repo(input.owner, input.repo);
    const sha = this.resolveRef(repo, input.ref);
    if (sha === undefined) throw new WorldSeedError('ERR_UNKNOWN_REF', `no ref ${input.ref}`);
    const status: StatusRecord = {
      id: this.nextId('status'),
      sha,
      context: input.context,
      state: input.state,
      description: input.description ?? null,
      targetUrl: input.targetUrl ?? null,
      creator: this.addUser({ login: input.creator ?? this.#defaultActor(repo) }).login,
      createdAt: this.#clock.now(),
    };
    repo.statuses.unshift(status);
    this.touch();
    return status;
  }

  /** Adds an Actions workflow. */
  addWorkflow(input: { owner: string; repo: string; name: string; path?: string }): WorkflowRecord {
    const repo = this.#repo(input.owner, input.repo);
    const workflow: WorkflowRecord = {
      id: this.nextId('workflow'),
      name: input.name,
      path:
        input.path ??
        `.github/workflows/${input.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.yml`,
      state: 'active',
      createdAt: this.#clock.now(),
    };
    repo.workflows.set(workflow.id, workflow);
    this.touch();
    return workflow;
  }

  /**
   * Adds a workflow run with its jobs (each job also gets a check run in the run's check
   * suite) and artifacts. `workflow` is a workflow id, name or file name; it is created
   * when missing.
   */
  addRun(input: {
    owner: string;
    repo: string;
    workflow: string | number;
    ref?: string;
    event?: string;
    actor?: string;
    status?: RunRecord['status'];
    conclusion?: string | null;
    jobs?: readonly JobSeed[];
    artifacts?: readonly { name: string; sizeInBytes?: number }[];
  }): { run: RunRecord; jobs: JobRecord[] } {
    const repo = this.#repo(input.owner, input.repo);
    const workflow =
      [...repo.workflows.values()].find(
        (w) =>
          w.id === input.workflow ||
          w.name === input.workflow ||
          w.path.endsWith(`/${String(input.workflow)}`),
      ) ?? this.addWorkflow({ owner: repo.owner, repo: repo.name, name: String(input.workflow) });
    const ref = input.ref ?? repo.defaultBranch;
    const sha = this.resolveRef(repo, ref);
    if (sha === undefined) throw new WorldSeedError('ERR_UNKNOWN_REF', `no ref ${ref}`);
    const status = input.status ?? 'completed';
    const suite = this.#suiteFor(repo, sha, repo.branches.has(ref) ? ref : null);
    const now = this.#clock.now();
    const run: RunRecord = {
      id: this.nextId('run'),
      workflowId: workflow.id,
      runNumber: [...repo.runs.values()].filter((r) => r.workflowId === workflow.id).length + 1,
      runAttempt: 1,
      headSha: sha,
      headBranch: repo.branches.has(ref) ? ref : repo.defaultBranch,
      event: input.event ?? 'push',
      displayTitle: repo.commits.get(sha)?.message.split('\n')[0] ?? workflow.name,
      status,
      conclusion: status === 'completed' ? (input.conclusion ?? 'success') : null,
      actor: this.addUser({ login: input.actor ?? this.#defaultActor(repo) }).login,
      checkSuiteId: suite.id,
      createdAt: now,
      updatedAt: now,
    };
    repo.runs.set(run.id, run);
    const jobs = (input.jobs ?? [{ name: 'build' }]).map((seed): JobRecord => {
      const jobStatus = seed.status ?? status;
      const conclusion =
        jobStatus === 'completed' ? (seed.conclusion ?? run.conclusion ?? 'success') : null;
      const steps = (seed.steps ?? ['Set up job', 'Run tests', 'Complete job']).map((name, i) => ({
        name,
        status: jobStatus,
        conclusion,
        number: i + 1,
      }));
      const job: JobRecord = {
        id: this.nextId('job'),
        runId: run.id,
        name: seed.name,
        status: jobStatus,
        conclusion,
        steps,
        log:
          seed.log ??
          steps
            .map(
              (s) =>
                `${new Date(now).toISOString()} ##[group]${s.name}\n${new Date(now).toISOString()} ok\n`,
            )
            .join(''),
        startedAt: now,
        completedAt: jobStatus === 'completed' ? now : null,
      };
      repo.jobs.set(job.id, job);
      const check: CheckRunRecord = {
        id: job.id,
        suiteId: suite.id,
        headSha: sha,
        name: seed.name,
        status: jobStatus,
        conclusion: conclusion as CheckRunRecord['conclusion'],
        startedAt: now,
        completedAt: job.completedAt,
        annotations: [],
      };
      repo.checkRuns.set(check.id, check);
      return job;
    });
    for (const a of input.artifacts ?? []) {
      const artifact: ArtifactRecord = {
        id: this.nextId('artifact'),
        runId: run.id,
        name: a.name,
        sizeInBytes: a.sizeInBytes ?? 1024,
        createdAt: now,
      };
      repo.artifacts.set(artifact.id, artifact);
    }
    this.#refreshSuite(repo, suite);
    this.touch();
    return { run, jobs };
  }

  /** Finishes a run and all its jobs with a conclusion. */
  completeRun(owner: string, name: string, runId: number, conclusion = 'success'): void {
    const repo = this.#repo(owner, name);
    const run = repo.runs.get(runId);
    if (!run) throw new WorldSeedError('ERR_UNKNOWN_ENTITY', `no run ${runId}`);
    run.status = 'completed';
    run.conclusion = conclusion;
    run.updatedAt = this.#clock.now();
    for (const job of repo.jobs.values()) {
      if (job.runId !== runId) continue;
      job.status = 'completed';
      job.conclusion = conclusion;
      job.completedAt = this.#clock.now();
      const check = repo.checkRuns.get(job.id);
      if (check) {
        check.status = 'completed';
        check.conclusion = conclusion as CheckRunRecord['conclusion'];
        check.completedAt = job.completedAt;
      }
    }
    const suite = repo.checkSuites.get(run.checkSuiteId);
    if (suite) this.#refreshSuite(repo, suite);
    this.touch();
  }

  /** Adds a deployment. */
  addDeployment(input: {
    owner: string;
    repo: string;
    ref?: string;
    environment?: string;
    creator?: string;
  }): DeploymentRecord {
    const repo = this.#repo(input.owner, input.repo);
    const ref = input.ref ?? repo.defaultBranch;
    const sha = this.resolveRef(repo, ref);
    if (sha === undefined) throw new WorldSeedError('ERR_UNKNOWN_REF', `no ref ${ref}`);
    const deployment: DeploymentRecord = {
      id: this.nextId('deployment'),
      sha,
      ref,
      environment: input.environment ?? 'production',
      creator: this.addUser({ login: input.creator ?? this.#defaultActor(repo) }).login,
      createdAt: this.#clock.now(),
    };
    repo.deployments.set(deployment.id, deployment);
    this.touch();
    return deployment;
  }

  /** Adds a repository ruleset. */
  addRuleset(input: {
    owner: string;
    repo: string;
    name: string;
    target?: 'branch' | 'tag';
    enforcement?: RulesetRecord['enforcement'];
    include?: readonly string[];
    rules?: RulesetRecord['rules'];
  }): RulesetRecord {
    const repo = this.#repo(input.owner, input.repo);
    const ruleset: RulesetRecord = {
      id: this.nextId('ruleset'),
      name: input.name,
      target: input.target ?? 'branch',
      enforcement: input.enforcement ?? 'active',
      include: [...(input.include ?? ['~DEFAULT_BRANCH'])],
      rules: [...(input.rules ?? [{ type: 'deletion' }, { type: 'non_fast_forward' }])],
    };
    repo.rulesets.set(ruleset.id, ruleset);
    this.touch();
    return ruleset;
  }

  /** Marks a repository's statistics as computed (the stats routes answer 200 at once). */
  setStatsReady(owner: string, name: string, ready = true): void {
    const repo = this.#repo(owner, name);
    repo.statsReady = ready;
    repo.statsRequestedAt = null;
    this.touch();
  }
}
