import { GoStruct, compareBytes, goToLower } from './go-json-encoder.js';
import type { GoJsonValue } from './go-json-encoder.js';
import type { JsonField } from './json-field-catalogue.js';
import { removeExcessiveWhitespace, formatRfc3339, renderTsvTable } from './tsv-table.js';

/** A field of `gh pr view --json` / `gh pr list --json` (gh's `api.PullRequestFields`). */
export type PrField = JsonField<'pr view'>;

/** An account as REST nests it (`user`, `merged_by`, `assignees[]`, `owner`), sanitized. */
export interface RestAccount {
  readonly login: string;
  readonly node_id: string;
  /** `User`, `Bot`, `Organization`, `Mannequin`. */
  readonly type: string;
}

/** A label as REST nests it in a pull request. */
export interface RestPullLabel {
  readonly id: number;
  readonly node_id: string;
  readonly name: string;
  readonly description: string | null;
  readonly color: string;
}

/** A milestone as REST nests it in a pull request. */
export interface RestMilestone {
  readonly number: number;
  readonly title: string;
  readonly description: string | null;
  readonly due_on: string | null;
}

/** A team review request (`requested_teams[]`). */
export interface RestTeam {
  readonly name: string;
  readonly slug: string;
  readonly html_url?: string;
}

/** One side of a pull request (`head`, `base`). */
export interface RestPullSide {
  readonly ref: string;
  readonly sha: string;
  readonly repo: {
    readonly id: number;
    readonly node_id: string;
    readonly name: string;
    readonly owner: RestAccount;
  } | null;
}

/**
 * A pull request as REST returns it: `GET /repos/{o}/{r}/pulls/{n}` (every field), or an item
 * of `GET /repos/{o}/{r}/pulls` (no `additions`, `deletions`, `changed_files`, `mergeable`,
 * `merged_by`, `maintainer_can_modify`).
 */
export interface RestPull {
  readonly id: number;
  readonly node_id: string;
  readonly number: number;
  readonly html_url: string;
  readonly state: string;
  readonly title: string;
  readonly body: string | null;
  readonly draft: boolean;
  readonly user: RestAccount | null;
  readonly labels: readonly RestPullLabel[];
  readonly milestone: RestMilestone | null;
  readonly assignees: readonly RestAccount[];
  readonly requested_reviewers: readonly RestAccount[];
  readonly requested_teams: readonly RestTeam[];
  readonly created_at: string;
  readonly updated_at: string;
  readonly closed_at: string | null;
  readonly merged_at: string | null;
  readonly head: RestPullSide;
  readonly base: RestPullSide;
  readonly auto_merge: {
    readonly enabled_by: RestAccount;
    readonly merge_method: string;
  } | null;
  readonly additions?: number;
  readonly deletions?: number;
  readonly changed_files?: number;
  readonly mergeable?: boolean | null;
  readonly merged_by?: RestAccount | null;
  readonly maintainer_can_modify?: boolean;
}

/** A review as `GET /repos/{o}/{r}/pulls/{n}/reviews` returns it (the fields read here). */
export interface RestReview {
  readonly user: RestAccount | null;
  readonly state: string;
}

/**
 * How each field of gh's pull request catalogue is served (README "pr view"):
 * - `rest` — from the REST pull request with gh's exact shape;
 * - `users` — also needs `GET /users/{login}` for a person's `name`;
 * - `detail` — commits, comments, reviews: client rule 9 hands the whole `pr view` to gh
 *   (`unsupported_pr_detail_export` under RELAY_NO_FALLBACK=1);
 * - `delegate` — REST has no exact source (GraphQL-only data or semantics, an order REST does
 *   not prove, or rule 9's whole-field delegation): the invocation runs gh.
 */
export const PR_FIELD_SOURCES = {
  additions: 'rest',
  assignees: 'users',
  author: 'users',
  autoMergeRequest: 'rest',
  baseRefName: 'rest',
  body: 'rest',
  changedFiles: 'rest',
  closed: 'rest',
  closedAt: 'rest',
  comments: 'detail',
  commits: 'detail',
  createdAt: 'rest',
  deletions: 'rest',
  files: 'delegate',
  fullDatabaseId: 'rest',
  headRefName: 'rest',
  headRefOid: 'rest',
  headRepository: 'rest',
  headRepositoryOwner: 'users',
  id: 'rest',
  isCrossRepository: 'rest',
  isDraft: 'rest',
  labels: 'rest',
  latestReviews: 'delegate',
  maintainerCanModify: 'rest',
  mergeCommit: 'delegate',
  mergeStateStatus: 'delegate',
  mergeable: 'rest',
  mergedAt: 'rest',
  mergedBy: 'users',
  milestone: 'rest',
  number: 'rest',
  potentialMergeCommit: 'delegate',
  projectCards: 'delegate',
  projectItems: 'delegate',
  reactionGroups: 'delegate',
  reviewDecision: 'delegate',
  reviewRequests: 'rest',
  reviews: 'detail',
  state: 'rest',
  statusCheckRollup: 'delegate',
  title: 'rest',
  updatedAt: 'rest',
  url: 'rest',
} as const satisfies Readonly<Record<PrField, 'rest' | 'users' | 'delegate' | 'detail'>>;

/**
 * Fields whose values move while a PR is live: client rule 8 reads them with
 * `cache-control: max-age=0` (rule 8's list, within gh's catalogue).
 */
export const PR_LIVE_FIELDS: readonly PrField[] = [
  'headRefOid',
  'state',
  'mergedAt',
  'mergeable',
  'mergeStateStatus',
  'closedAt',
  'statusCheckRollup',
];

/** `name` of each person by REST login (`GET /users/{login}`, `null` → `""`). */
export type AccountNames = ReadonlyMap<string, string>;

/**
 * The login GraphQL gives an actor: a user's login; a bot's without REST's `[bot]` suffix;
 * `undefined` for anything else (a deleted user's `ghost`, mannequins, organizations), whose
 * GraphQL shape this module does not reproduce.
 */
export function graphQlLogin(account: RestAccount | null): string | undefined {
  if (account === null) return undefined;
  if (account.type === 'User') return account.login === 'ghost' ? undefined : account.login;
  if (account.type === 'Bot' && account.login.endsWith('[bot]') && account.login.length > 5) {
    return account.login.slice(0, -'[bot]'.length);
  }
  return undefined;
}

/**
 * gh's `Author` JSON (a map: `{"id","is_bot":false,"login","name"}`, a bot
 * `{"is_bot":true,"login":"app/<login>"}`); `undefined` when unproved.
 */
function authorValue(account: RestAccount | null, names: AccountNames): GoJsonValue | undefined {
  const login = graphQlLogin(account);
  if (account === null || login === undefined) return undefined;
  if (account.type === 'Bot') return { is_bot: true, login: `app/${login}` };
  const name = names.get(account.login);
  if (name === undefined) return undefined;
  return { id: account.node_id, is_bot: false, login, name };
}

/** The logins whose `/users/{login}` `name` the requested fields need. */
export function accountsNeedingNames(pull: RestPull, fields: readonly PrField[]): string[] {
  const logins = new Set<string>();
  const add = (account: RestAccount | null | undefined): void => {
    if (account?.type === 'User' && account.login !== 'ghost') logins.add(account.login);
  };
  for (const field of fields) {
    if (field === 'author') add(pull.user);
    if (field === 'mergedBy') add(pull.merged_by);
    if (field === 'assignees') pull.assignees.forEach(add);
    if (field === 'headRepositoryOwner') add(pull.head.repo?.owner);
  }
  return [...logins];
}

/** gh's pull request `state`: `OPEN`, `CLOSED`, `MERGED` (client rule 9). */
export function prState(pull: RestPull): string {
  if (pull.state === 'open') return 'OPEN';
  return pull.merged_at === null ? 'CLOSED' : 'MERGED';
}

/** `DRAFT` for an open draft, else {@link prState} (gh's `prStateWithDraft`). */
function prStateWithDraft(pull: RestPull): string {
  const state = prState(pull);
  return pull.draft && state === 'OPEN' ? 'DRAFT' : state;
}

/** Labels in GraphQL's default order (`CREATED_AT` ascending: REST label id order). */
function labelsByCreation(pull: RestPull): RestPullLabel[] {
  return [...pull.labels].sort((a, b) => a.id - b.id);
}

/** The org login of a team review request, from its web URL (`…/orgs/ORG/teams/SLUG`). */
function teamOrganization(team: RestTeam): string | undefined {
  const match = /^https:\/\/[^/]+\/orgs\/([^/]+)\/teams\/[^/]+$/.exec(team.html_url ?? '');
  return match?.[1];
}

function reviewRequestsValue(pull: RestPull): GoJsonValue | undefined {
  // GraphQL's order of several requests is not REST's (users, then teams): unproved.
  if (pull.requested_reviewers.length + pull.requested_teams.length > 1) return undefined;
  const [user] = pull.requested_reviewers;
  if (user !== undefined) {
    return user.type === 'User' ? [{ __typename: 'User', login: user.login }] : undefined;
  }
  const [team] = pull.requested_teams;
  if (team === undefined) return [];
  const org = teamOrganization(team);
  if (org === undefined) return undefined;
  return [{ __typename: 'Team', name: team.name, slug: `${org}/${team.slug}` }];
}

function headRepositoryOwnerValue(pull: RestPull, names: AccountNames): GoJsonValue | undefined {
  const owner = pull.head.repo?.owner;
  if (owner === undefined) return undefined;
  if (owner.type === 'Organization') return new GoStruct({ id: owner.node_id, login: owner.login });
  const login = graphQlLogin(owner);
  if (owner.type !== 'User' || login === undefined) return undefined;
  const name = names.get(owner.login);
  if (name === undefined) return undefined;
  // Go's Owner struct: id, name (omitempty), login.
  return new GoStruct({
    id: owner.node_id,
    ...(name === '' ? {} : { name }),
    login,
  });
}

const optionalTime = (value: string | null): GoJsonValue =>
  value === null ? null : formatRfc3339(value);

/**
 * One exported field of a pull request with gh's exact shape (`PullRequest.ExportData`);
 * `undefined` when REST cannot give it exactly (the invocation then runs gh).
 *
 * @param names - `name` per login for the `users` fields ({@link accountsNeedingNames})
 */
export function prFieldValue(
  pull: RestPull,
  field: PrField,
  names: AccountNames,
): GoJsonValue | undefined {
  switch (field) {
    case 'additions':
      return pull.additions;
    case 'deletions':
      return pull.deletions;
    case 'changedFiles':
      return pull.changed_files;
    case 'assignees': {
      // GraphQL's order of several assignees is not proved to be REST's.
      if (pull.assignees.length > 1) return undefined;
      const people: GoJsonValue[] = [];
      for (const account of pull.assignees) {
        const name = names.get(account.login);
        if (account.type !== 'User' || name === undefined) return undefined;
        people.push(new GoStruct({ id: account.node_id, login: account.login, name }));
      }
      return people;
    }
    case 'author':
      return authorValue(pull.user, names);
    case 'mergedBy':
      if (pull.merged_by === undefined) return undefined;
      return pull.merged_by === null ? null : authorValue(pull.merged_by, names);
    case 'autoMergeRequest':
      // REST's auto_merge lacks enabledAt and authorEmail.
      return pull.auto_merge === null ? null : undefined;
    case 'baseRefName':
      return pull.base.ref;
    case 'headRefName':
      return pull.head.ref;
    case 'headRefOid':
      return pull.head.sha;
    case 'body':
      return pull.body ?? '';
    case 'closed':
      return pull.state === 'closed';
    case 'closedAt':
      return optionalTime(pull.closed_at);
    case 'mergedAt':
      return optionalTime(pull.merged_at);
    case 'createdAt':
      return formatRfc3339(pull.created_at);
    case 'updatedAt':
      return formatRfc3339(pull.updated_at);
    case 'fullDatabaseId':
      return String(pull.id);
    case 'id':
      return pull.node_id;
    case 'headRepository':
      return pull.head.repo === null
        ? undefined
        : new GoStruct({ id: pull.head.repo.node_id, name: pull.head.repo.name });
    case 'headRepositoryOwner':
      return headRepositoryOwnerValue(pull, names);
    case 'isCrossRepository':
      if (pull.head.repo === null || pull.base.repo === null) return undefined;
      return pull.head.repo.id !== pull.base.repo.id;
    case 'isDraft':
      return pull.draft;
    case 'labels':
      if (pull.labels.length > 100) return undefined;
      return labelsByCreation(pull).map(
        (label) =>
          new GoStruct({
            id: label.node_id,
            name: label.name,
            description: label.description ?? '',
            color: label.color,
          }),
      );
    case 'maintainerCanModify':
      return pull.maintainer_can_modify;
    case 'mergeable':
      if (pull.mergeable === undefined) return undefined;
      return pull.mergeable === null ? 'UNKNOWN' : pull.mergeable ? 'MERGEABLE' : 'CONFLICTING';
    case 'milestone':
      if (pull.milestone === null) return null;
      // REST's `due_on` time of day is not GraphQL's `dueOn` (as issue view decides).
      if (pull.milestone.due_on !== null) return undefined;
      return new GoStruct({
        number: pull.milestone.number,
        title: pull.milestone.title,
        description: pull.milestone.description ?? '',
        dueOn: null,
      });
    case 'number':
      return pull.number;
    case 'reviewRequests':
      return reviewRequestsValue(pull);
    case 'state':
      return prState(pull);
    case 'title':
      return pull.title;
    case 'url':
      return pull.html_url;
    case 'comments':
    case 'commits':
    case 'files':
    case 'latestReviews':
    case 'mergeCommit':
    case 'mergeStateStatus':
    case 'potentialMergeCommit':
    case 'projectCards':
    case 'projectItems':
    case 'reactionGroups':
    case 'reviewDecision':
    case 'reviews':
    case 'statusCheckRollup':
      return undefined;
  }
}

/** gh's display text of a reviewer state (`formattedReviewerState`, no colour). */
const REVIEWER_STATE_TEXT: Readonly<Record<string, string>> = {
  REQUESTED: 'Requested',
  APPROVED: 'Approved',
  CHANGES_REQUESTED: 'Changes requested',
  COMMENTED: 'Commented',
  DISMISSED: 'Commented',
};

/**
 * gh's `reviewers:` value (`prReviewerList`): each reviewer's latest review (the PR author's
 * skipped, a missing login `ghost`), overridden by review requests (`Requested`), PENDING
 * dropped; reviews first, then requests, each by name. REST's pending reviews are the pooled
 * reader's own and skipped. `undefined` when unproved (mannequin reviewers, bot or mannequin
 * requests, a team without its organization).
 */
export function renderReviewers(
  pull: RestPull,
  authorLogin: string,
  reviews: readonly RestReview[],
): string | undefined {
  const states = new Map<string, string>();
  for (const review of reviews) {
    // REST lists only the reader's own pending review (the pooled identity's), which gh's
    // viewer does not see; gh drops PENDING states anyway.
    if (review.state === 'PENDING') continue;
    // A deleted account: GraphQL's author is null (login ""), REST's is null or `ghost`.
    const deleted =
      review.user === null || (review.user.type === 'User' && review.user.login === 'ghost');
    const login = deleted ? '' : graphQlLogin(review.user);
    if (login === undefined) return undefined;
    if (login !== authorLogin) states.set(login === '' ? 'ghost' : login, review.state);
  }
  for (const user of pull.requested_reviewers) {
    if (user.type !== 'User') return undefined;
    states.set(user.login, 'REQUESTED');
  }
  for (const team of pull.requested_teams) {
    const org = teamOrganization(team);
    if (org === undefined) return undefined;
    states.set(`${org}/${team.slug}`, 'REQUESTED');
  }
  const entries = [...states].map(([name, state]) => ({ name, state }));
  if (entries.some((entry) => REVIEWER_STATE_TEXT[entry.state] === undefined)) return undefined;
  entries.sort((a, b) => {
    const requestedA = a.state === 'REQUESTED';
    const requestedB = b.state === 'REQUESTED';
    if (requestedA !== requestedB) return requestedA ? 1 : -1;
    return compareBytes(a.name, b.name);
  });
  return entries
    .map((entry) => `${entry.name} (${REVIEWER_STATE_TEXT[entry.state] ?? ''})`)
    .join(', ');
}

/**
 * `gh pr view` without a terminal (`printRawPrPreview`, gh v2.60): `key:\tvalue` lines, `--`,
 * the body and `\n`. `projects:` is empty: it lists Projects (classic) cards, which github.com
 * no longer has and REST cannot read. `undefined` when a line is unproved (a bot-less author
 * shape, several assignees, more than 100 labels, {@link renderReviewers}' cases, an
 * auto-merge enabled by a non-user).
 */
export function renderPrPreview(
  pull: RestPull,
  reviews: readonly RestReview[],
): string | undefined {
  const author = graphQlLogin(pull.user);
  const { additions, deletions } = pull;
  if (
    author === undefined ||
    additions === undefined ||
    deletions === undefined ||
    pull.assignees.length > 1 ||
    pull.labels.length > 100
  ) {
    return undefined;
  }
  const reviewers = renderReviewers(pull, author, reviews);
  if (reviewers === undefined) return undefined;
  let autoMerge = 'disabled';
  if (pull.auto_merge !== null) {
    const by = graphQlLogin(pull.auto_merge.enabled_by);
    if (by === undefined) return undefined;
    autoMerge = `enabled\t${by}\t${pull.auto_merge.merge_method.toLowerCase()}`;
  }
  // strings.ToLower order, stable (label names are unique regardless of case on GitHub).
  const labels = labelsByCreation(pull)
    .map((label) => label.name)
    .sort((a, b) => compareBytes(goToLower(a), goToLower(b)));
  const lines = [
    `title:\t${pull.title}`,
    `state:\t${prStateWithDraft(pull)}`,
    `author:\t${author}`,
    `labels:\t${labels.join(', ')}`,
    `assignees:\t${pull.assignees.map((a) => a.login).join(', ')}`,
    `reviewers:\t${reviewers}`,
    'projects:\t',
    `milestone:\t${pull.milestone?.title ?? ''}`,
    `number:\t${String(pull.number)}`,
    `url:\t${pull.html_url}`,
    `additions:\t${String(additions)}`,
    `deletions:\t${String(deletions)}`,
    `auto-merge:\t${autoMerge}`,
    '--',
    pull.body ?? '',
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * `gh pr list` without a terminal: `number\ttitle\thead\tstate\tcreatedAt` per PR (title
 * whitespace-collapsed; head `owner:branch` for a cross-repository PR; `DRAFT` for an open
 * draft); `undefined` when a head owner is unproved (a deleted fork).
 */
export function renderPrTable(pulls: readonly RestPull[]): string | undefined {
  const rows: string[][] = [];
  for (const pull of pulls) {
    const head = pull.head.repo;
    const base = pull.base.repo;
    if (head === null || base === null) return undefined;
    const label = head.id === base.id ? pull.head.ref : `${head.owner.login}:${pull.head.ref}`;
    rows.push([
      String(pull.number),
      removeExcessiveWhitespace(pull.title),
      label,
      prStateWithDraft(pull),
      formatRfc3339(pull.created_at),
    ]);
  }
  return renderTsvTable(rows);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a decoded value is a REST account. */
export function isRestAccount(value: unknown): value is RestAccount {
  return (
    isObject(value) &&
    typeof value.login === 'string' &&
    typeof value.node_id === 'string' &&
    typeof value.type === 'string'
  );
}

const isNullableString = (v: unknown): v is string | null => typeof v === 'string' || v === null;

function isSide(value: unknown): value is RestPullSide {
  if (!isObject(value) || typeof value.ref !== 'string' || typeof value.sha !== 'string') {
    return false;
  }
  const repo = value.repo;
  return (
    repo === null ||
    (isObject(repo) &&
      typeof repo.id === 'number' &&
      typeof repo.node_id === 'string' &&
      typeof repo.name === 'string' &&
      isRestAccount(repo.owner))
  );
}

function isLabel(value: unknown): value is RestPullLabel {
  return (
    isObject(value) &&
    typeof value.id === 'number' &&
    typeof value.node_id === 'string' &&
    typeof value.name === 'string' &&
    isNullableString(value.description) &&
    typeof value.color === 'string'
  );
}

function isMilestone(value: unknown): value is RestMilestone {
  return (
    isObject(value) &&
    typeof value.number === 'number' &&
    typeof value.title === 'string' &&
    isNullableString(value.description) &&
    isNullableString(value.due_on)
  );
}

function isTeam(value: unknown): value is RestTeam {
  return (
    isObject(value) &&
    typeof value.name === 'string' &&
    typeof value.slug === 'string' &&
    (value.html_url === undefined || typeof value.html_url === 'string')
  );
}

const optional = (v: unknown, check: (x: unknown) => boolean): boolean =>
  v === undefined || check(v);

/** Whether a decoded value has the REST pull request shape this module reads. */
export function isRestPull(value: unknown): value is RestPull {
  if (!isObject(value)) return false;
  const v = value;
  const autoMerge = v.auto_merge;
  return (
    typeof v.id === 'number' &&
    typeof v.node_id === 'string' &&
    typeof v.number === 'number' &&
    typeof v.html_url === 'string' &&
    (v.state === 'open' || v.state === 'closed') &&
    typeof v.title === 'string' &&
    isNullableString(v.body) &&
    typeof v.draft === 'boolean' &&
    (v.user === null || isRestAccount(v.user)) &&
    Array.isArray(v.labels) &&
    v.labels.every(isLabel) &&
    (v.milestone === null || isMilestone(v.milestone)) &&
    Array.isArray(v.assignees) &&
    v.assignees.every(isRestAccount) &&
    Array.isArray(v.requested_reviewers) &&
    v.requested_reviewers.every(isRestAccount) &&
    Array.isArray(v.requested_teams) &&
    v.requested_teams.every(isTeam) &&
    typeof v.created_at === 'string' &&
    typeof v.updated_at === 'string' &&
    isNullableString(v.closed_at) &&
    isNullableString(v.merged_at) &&
    isSide(v.head) &&
    isSide(v.base) &&
    (autoMerge === null ||
      (isObject(autoMerge) &&
        isRestAccount(autoMerge.enabled_by) &&
        typeof autoMerge.merge_method === 'string')) &&
    optional(v.additions, (x) => typeof x === 'number') &&
    optional(v.deletions, (x) => typeof x === 'number') &&
    optional(v.changed_files, (x) => typeof x === 'number') &&
    optional(v.mergeable, (x) => typeof x === 'boolean' || x === null) &&
    optional(v.merged_by, (x) => x === null || isRestAccount(x)) &&
    optional(v.maintainer_can_modify, (x) => typeof x === 'boolean')
  );
}

/** Whether a decoded value is a REST review (`user`, `state`). */
export function isRestReview(value: unknown): value is RestReview {
  return (
    isObject(value) &&
    (value.user === null || isRestAccount(value.user)) &&
    typeof value.state === 'string'
  );
}
