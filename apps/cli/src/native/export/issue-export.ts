import { compareBytes, GoStruct, goToLower } from './go-json-encoder.js';
import type { GoJsonValue } from './go-json-encoder.js';
import type { JsonField } from './json-field-catalogue.js';
import { removeExcessiveWhitespace, formatRfc3339, renderTsvTable } from './tsv-table.js';

/** A field of gh's issue catalogue (`issue view` and `issue list` share it). */
export type IssueField = JsonField<'issue view'>;

/** A user as REST returns it inside an issue (`user`, `assignees[]`). */
export interface RestIssueUser {
  readonly login: string;
  readonly node_id: string;
  readonly type: string;
}

/** A label inside a REST issue. */
export interface RestIssueLabel {
  readonly id: number;
  readonly node_id: string;
  readonly name: string;
  readonly description: string | null;
  readonly color: string;
}

/** A milestone inside a REST issue. */
export interface RestIssueMilestone {
  readonly number: number;
  readonly title: string;
  readonly description: string | null;
  readonly due_on: string | null;
}

/**
 * An issue as REST returns it (`GET /repos/{o}/{r}/issues/{n}` or one item of the issue
 * list), sanitized; `pull_request` is present when the item is a pull request.
 */
export interface RestIssue {
  readonly node_id: string;
  readonly number: number;
  readonly title: string;
  readonly html_url: string;
  readonly state: 'open' | 'closed';
  readonly body: string | null;
  readonly user: RestIssueUser | null;
  readonly labels: readonly RestIssueLabel[];
  readonly assignees: readonly RestIssueUser[];
  readonly milestone: RestIssueMilestone | null;
  readonly comments: number;
  readonly created_at: string;
  readonly updated_at: string;
  readonly closed_at: string | null;
  readonly pull_request?: unknown;
}

/**
 * How each field of gh's issue catalogue is served (README "issue view", "issue list"):
 * `rest` from the REST issue with gh's exact shape; `users` likewise plus one
 * `GET /users/{login}` per person for the `name` (served by `issue view` only; `issue list`
 * runs gh for them); `delegate` when REST has no such data or SPEC.md client rule 9 hands the
 * field to gh (`comments`, `closed`, `stateReason`), so the whole invocation runs gh.
 */
export const ISSUE_FIELD_SOURCES = {
  assignees: 'users',
  author: 'users',
  body: 'rest',
  closed: 'delegate',
  comments: 'delegate',
  createdAt: 'rest',
  closedAt: 'rest',
  id: 'rest',
  labels: 'rest',
  milestone: 'rest',
  number: 'rest',
  projectCards: 'delegate',
  projectItems: 'delegate',
  reactionGroups: 'delegate',
  state: 'rest',
  title: 'rest',
  updatedAt: 'rest',
  url: 'rest',
  isPinned: 'delegate',
  stateReason: 'delegate',
} as const satisfies Readonly<Record<IssueField, 'rest' | 'users' | 'delegate'>>;

/** `name` of each person by REST login (`GET /users/{login}`, `null` → `""`). */
export type IssueUserNames = ReadonlyMap<string, string>;

/** The logins whose `/users/{login}` `name` the requested fields need. */
export function issueLoginsNeedingNames(issue: RestIssue, fields: readonly IssueField[]): string[] {
  const logins = new Set<string>();
  const add = (user: RestIssueUser | null): void => {
    if (user !== null && user.type === 'User' && user.login !== 'ghost') logins.add(user.login);
  };
  if (fields.includes('author')) add(issue.user);
  if (fields.includes('assignees')) issue.assignees.forEach(add);
  return [...logins];
}

/** gh reads `labels(first:100)`: an issue with more labels cannot be shown as gh shows it. */
const MAX_LABELS = 100;

/** A GitHub REST time that Go's `time.Time` re-encodes unchanged (whole seconds, UTC). */
const REST_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/**
 * The issue's labels in GraphQL's order (`Labelable.labels` defaults to `CREATED_AT ASC`,
 * which is REST's label id order); `undefined` above gh's 100.
 */
export function orderedIssueLabels(issue: RestIssue): readonly RestIssueLabel[] | undefined {
  if (issue.labels.length > MAX_LABELS) return undefined;
  return [...issue.labels].sort((a, b) => a.id - b.id);
}

/** The issue state as GraphQL spells it (SPEC.md client rule 9). */
export function issueState(issue: RestIssue): 'OPEN' | 'CLOSED' {
  return issue.state === 'open' ? 'OPEN' : 'CLOSED';
}

function timeValue(time: string): string | undefined {
  return REST_TIME.test(time) ? time : undefined;
}

/**
 * One issue's exported field (gh's `Issue.ExportData`: `labels` as `IssueLabel` structs,
 * `milestone` as a `Milestone` struct or null, times as Go `time.Time`); `undefined` when the
 * field cannot be served exactly (a delegated field, a person whose name was not read, several
 * assignees, a milestone with a due date — REST's
 * `due_on` time of day is not GraphQL's `dueOn` —, more than 100 labels, an unusual time).
 */
export function issueFieldValue(
  issue: RestIssue,
  field: IssueField,
  names: IssueUserNames = new Map(),
): GoJsonValue | undefined {
  switch (field) {
    case 'author': {
      // gh's Author.MarshalJSON: a map; an actor without a User id is a bot (`app/<login>`).
      const login = issue.user === null ? undefined : graphQlLogin(issue.user);
      if (issue.user === null || login === undefined) return undefined;
      if (issue.user.type === 'Bot') return { is_bot: true, login: `app/${login}` };
      const name = names.get(issue.user.login);
      if (name === undefined) return undefined;
      return { id: issue.user.node_id, is_bot: false, login, name };
    }
    case 'assignees': {
      // GitHubUser structs; GraphQL's order of several assignees is unproved.
      if (issue.assignees.length > 1) return undefined;
      const out: GoStruct[] = [];
      for (const user of issue.assignees) {
        const name = names.get(user.login);
        if (user.type !== 'User' || name === undefined) return undefined;
        out.push(new GoStruct({ id: user.node_id, login: user.login, name }));
      }
      return out;
    }
    case 'body':
      return issue.body ?? '';
    case 'createdAt':
      return timeValue(issue.created_at);
    case 'updatedAt':
      return timeValue(issue.updated_at);
    case 'closedAt':
      return issue.closed_at === null ? null : timeValue(issue.closed_at);
    case 'id':
      return issue.node_id;
    case 'labels':
      return orderedIssueLabels(issue)?.map(
        (label) =>
          new GoStruct({
            id: label.node_id,
            name: label.name,
            description: label.description ?? '',
            color: label.color,
          }),
      );
    case 'milestone': {
      const { milestone } = issue;
      if (milestone === null) return null;
      if (milestone.due_on !== null) return undefined;
      return new GoStruct({
        number: milestone.number,
        title: milestone.title,
        description: milestone.description ?? '',
        dueOn: null,
      });
    }
    case 'number':
      return issue.number;
    case 'state':
      return issueState(issue);
    case 'title':
      return issue.title;
    case 'url':
      return issue.html_url;
    case 'closed':
    case 'comments':
    case 'projectCards':
    case 'projectItems':
    case 'reactionGroups':
    case 'isPinned':
    case 'stateReason':
      return undefined;
  }
}

/**
 * A user's login as GraphQL's `Actor.login` gives it: a bot without REST's `[bot]` suffix;
 * `undefined` for what this cannot prove (a deleted user's `ghost`, mannequins,
 * organizations).
 */
export function graphQlLogin(user: RestIssueUser): string | undefined {
  if (user.type === 'User') return user.login === 'ghost' ? undefined : user.login;
  if (user.type === 'Bot' && user.login.endsWith('[bot]') && user.login.length > 5) {
    return user.login.slice(0, -'[bot]'.length);
  }
  return undefined;
}

/**
 * `gh issue view` without a terminal (printRawIssuePreview): `key:\tvalue` lines — labels
 * sorted case-insensitively, the comment count, assignees, an empty `projects:` (REST sees no
 * project membership), the milestone title — then `--` and the body. `undefined` when the
 * output cannot be proved: several assignees (GraphQL's assignee order is unknown), more than
 * 100 labels, an author that is missing or neither a user nor a bot, an assignee that is not a
 * user.
 */
export function renderIssueView(issue: RestIssue): string | undefined {
  const author = issue.user === null ? undefined : graphQlLogin(issue.user);
  const labels = orderedIssueLabels(issue);
  if (author === undefined || labels === undefined || issue.assignees.length > 1) return undefined;
  // GraphQL's `assignees` are User nodes: any other account type is unproved.
  if (issue.assignees.some((user) => user.type !== 'User' || user.login === 'ghost')) {
    return undefined;
  }
  const assignees = issue.assignees.map((user) => user.login);
  const labelNames = labels
    .map((label) => label.name)
    .sort((a, b) => compareBytes(goToLower(a), goToLower(b)));
  return [
    `title:\t${issue.title}\n`,
    `state:\t${issueState(issue)}\n`,
    `author:\t${author}\n`,
    `labels:\t${labelNames.join(', ')}\n`,
    `comments:\t${String(issue.comments)}\n`,
    `assignees:\t${assignees.join(', ')}\n`,
    'projects:\t\n',
    `milestone:\t${issue.milestone?.title ?? ''}\n`,
    `number:\t${String(issue.number)}\n`,
    '--\n',
    `${issue.body ?? ''}\n`,
  ].join('');
}

/**
 * `gh issue list` without a terminal (issueShared.PrintIssues): `number\tSTATE\ttitle\tlabels\t
 * updatedAt` per issue — title whitespace-collapsed, labels in GraphQL order joined by `, `,
 * RFC 3339 time. `undefined` when an issue has more than 100 labels.
 */
export function renderIssueListTable(issues: readonly RestIssue[]): string | undefined {
  const rows: string[][] = [];
  for (const issue of issues) {
    const labels = orderedIssueLabels(issue);
    if (labels === undefined) return undefined;
    rows.push([
      String(issue.number),
      issueState(issue),
      removeExcessiveWhitespace(issue.title),
      labels.map((label) => label.name).join(', '),
      formatRfc3339(issue.updated_at),
    ]);
  }
  return renderTsvTable(rows);
}

function isUser(value: unknown): value is RestIssueUser {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.login === 'string' && typeof v.node_id === 'string' && typeof v.type === 'string';
}

function isLabel(value: unknown): value is RestIssueLabel {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.id === 'number' &&
    typeof v.node_id === 'string' &&
    typeof v.name === 'string' &&
    (typeof v.description === 'string' || v.description === null) &&
    typeof v.color === 'string'
  );
}

function isMilestone(value: unknown): value is RestIssueMilestone {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.number === 'number' &&
    typeof v.title === 'string' &&
    (typeof v.description === 'string' || v.description === null) &&
    (typeof v.due_on === 'string' || v.due_on === null)
  );
}

/** Whether a decoded REST value has the issue shape this module reads. */
export function isRestIssue(value: unknown): value is RestIssue {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.node_id === 'string' &&
    typeof v.number === 'number' &&
    typeof v.title === 'string' &&
    typeof v.html_url === 'string' &&
    (v.state === 'open' || v.state === 'closed') &&
    (typeof v.body === 'string' || v.body === null) &&
    (v.user === null || isUser(v.user)) &&
    Array.isArray(v.labels) &&
    (v.labels as unknown[]).every(isLabel) &&
    Array.isArray(v.assignees) &&
    (v.assignees as unknown[]).every(isUser) &&
    (v.milestone === null || isMilestone(v.milestone)) &&
    typeof v.comments === 'number' &&
    typeof v.created_at === 'string' &&
    typeof v.updated_at === 'string' &&
    (typeof v.closed_at === 'string' || v.closed_at === null)
  );
}

/** Whether a REST issue-list item is a pull request (gh's issue list never shows those). */
export function isPullRequestItem(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'pull_request' in value;
}

/**
 * gh's error lines for an issue that cannot be loaded (issue/shared `findIssueOrPR`, issue
 * list's `hasIssuesEnabled` check; go-gh `GraphQLError`: `GraphQL: <message> (<path>)`), each
 * printed with its newline, exit 1.
 */
export const ISSUE_ERROR_TEXTS = {
  /** No issue or pull request with that number in an existing repository. */
  issueNotFound: (number: number): string =>
    `GraphQL: Could not resolve to an issue or pull request with the number of ${String(number)}. (repository.issue)\n`,
  /** No such repository (owner and name as the user spelled them). */
  repositoryNotFound: (owner: string, name: string): string =>
    `GraphQL: Could not resolve to a Repository with the name '${owner}/${name}'. (repository)\n`,
  /** The repository has issues turned off. */
  issuesDisabled: (owner: string, name: string): string =>
    `the '${owner}/${name}' repository has disabled issues\n`,
  /** An argument that is neither a number nor an issue URL (`%q`: printable ASCII only). */
  invalidIssueFormat: (argument: string): string =>
    `invalid issue format: ${JSON.stringify(argument)}\n`,
} as const;
