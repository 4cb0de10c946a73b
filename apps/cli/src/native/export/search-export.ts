import { GoStruct } from './go-json-encoder.js';
import type { GoJsonValue } from './go-json-encoder.js';
import type { JsonField } from './json-field-catalogue.js';
import { decodeGoTime, hasEscapeDependentControl } from './release-export.js';
import type { GoTime } from './release-export.js';
import { GO_ZERO_TIME, removeExcessiveWhitespace, renderTsvTable } from './tsv-table.js';

/**
 * gh's search results (cli/cli v2.60.0 pkg/search/result.go) as Go decodes the REST answers of
 * `/search/{issues,repositories,code,commits}`, their non-TTY output (pkg/cmd/search/*) and their
 * `--json` export (`ExportData`). Decoders return `undefined` where Go's decoder would refuse
 * the JSON or this module cannot prove the same bytes (a backspace or form feed): run gh.
 */

const ZERO_TIME: GoTime = { seconds: GO_ZERO_TIME, json: GO_ZERO_TIME };

/** `search.User`. */
export interface GoSearchUser {
  readonly gravatarId: string;
  readonly id: string;
  readonly login: string;
  readonly siteAdmin: boolean;
  readonly type: string;
  readonly url: string;
}

/** `search.Label`. */
export interface GoSearchLabel {
  readonly color: string;
  readonly description: string;
  readonly id: string;
  readonly name: string;
}

/** `search.Issue` (issues and pull requests). */
export interface GoSearchIssue {
  readonly assignees: readonly GoSearchUser[];
  readonly author: GoSearchUser;
  readonly authorAssociation: string;
  readonly body: string;
  readonly closedAt: GoTime;
  readonly commentsCount: number;
  readonly createdAt: GoTime;
  readonly id: string;
  readonly labels: readonly GoSearchLabel[];
  /** `draft` (a `*bool`: `null` when the item has none). */
  readonly isDraft: boolean | null;
  readonly isLocked: boolean;
  readonly number: number;
  readonly pullRequest: { readonly url: string; readonly mergedAt: GoTime };
  readonly repositoryUrl: string;
  readonly stateInternal: string;
  readonly stateReason: string;
  readonly title: string;
  readonly url: string;
  readonly updatedAt: GoTime;
}

/** `search.License`. */
export interface GoSearchLicense {
  readonly key: string;
  readonly name: string;
  readonly url: string;
}

/** `search.Repository`. */
export interface GoSearchRepository {
  readonly createdAt: GoTime;
  readonly defaultBranch: string;
  readonly description: string;
  readonly forksCount: number;
  readonly fullName: string;
  readonly hasDownloads: boolean;
  readonly hasIssues: boolean;
  readonly hasPages: boolean;
  readonly hasProjects: boolean;
  readonly hasWiki: boolean;
  readonly homepage: string;
  readonly id: string;
  readonly isArchived: boolean;
  readonly isDisabled: boolean;
  readonly isFork: boolean;
  readonly isPrivate: boolean;
  readonly language: string;
  readonly license: GoSearchLicense;
  readonly name: string;
  readonly openIssuesCount: number;
  readonly owner: GoSearchUser;
  readonly pushedAt: GoTime;
  readonly size: number;
  readonly stargazersCount: number;
  readonly updatedAt: GoTime;
  readonly url: string;
  readonly visibility: string;
  readonly watchersCount: number;
}

/** `search.Match`: `indices` is `null` when the answer has none (a nil slice). */
export interface GoSearchMatch {
  readonly indices: readonly number[] | null;
  readonly text: string;
}

/** `search.TextMatch`: `matches` is `null` when the answer has none (a nil slice). */
export interface GoSearchTextMatch {
  readonly fragment: string;
  readonly matches: readonly GoSearchMatch[] | null;
  readonly type: string;
  readonly property: string;
}

/** `search.Code`. */
export interface GoSearchCode {
  readonly name: string;
  readonly path: string;
  readonly repository: GoSearchRepository;
  readonly sha: string;
  readonly textMatches: readonly GoSearchTextMatch[];
  readonly url: string;
}

/** `search.CommitUser`. */
export interface GoSearchCommitUser {
  readonly date: GoTime;
  readonly email: string;
  readonly name: string;
}

/** `search.Commit`. */
export interface GoSearchCommit {
  readonly author: GoSearchUser;
  readonly committer: GoSearchUser;
  readonly id: string;
  readonly info: {
    readonly author: GoSearchCommitUser;
    readonly commentCount: number;
    readonly committer: GoSearchCommitUser;
    readonly message: string;
    readonly treeSha: string;
  };
  readonly parents: readonly { readonly sha: string; readonly url: string }[];
  readonly repository: GoSearchRepository;
  readonly sha: string;
  readonly url: string;
}

// ---------------------------------------------------------------------------------------------
// Go's decoding (encoding/json into gh's structs): null or missing is the zero value.

/** Thrown inside a decoder when Go's decoder would refuse a value; caught at the entry points. */
class Refused extends Error {}

type JsonRecord = Readonly<Record<string, unknown>>;

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function record(value: unknown): JsonRecord {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) throw new Refused();
  return value;
}

function goString(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw new Refused();
  return value;
}

function goBool(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw new Refused();
  return value;
}

function goInt(value: unknown): number {
  if (value === undefined || value === null) return 0;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new Refused();
  return value;
}

function goTime(value: unknown): GoTime {
  if (value === undefined || value === null) return ZERO_TIME;
  if (typeof value !== 'string') throw new Refused();
  const time = decodeGoTime(value);
  if (time === undefined) throw new Refused();
  return time;
}

/** A Go slice: `null` for a nil one (JSON null or missing). */
function goSlice<T>(value: unknown, decode: (item: unknown) => T): T[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) throw new Refused();
  return value.map(decode);
}

function decodeUser(value: unknown): GoSearchUser {
  const user = record(value);
  return {
    gravatarId: goString(user.gravatar_id),
    id: goString(user.node_id),
    login: goString(user.login),
    siteAdmin: goBool(user.site_admin),
    type: goString(user.type),
    url: goString(user.html_url),
  };
}

function decodeLabel(value: unknown): GoSearchLabel {
  const label = record(value);
  return {
    color: goString(label.color),
    description: goString(label.description),
    id: goString(label.node_id),
    name: goString(label.name),
  };
}

function decodeIssue(value: unknown): GoSearchIssue {
  const issue = record(value);
  const pullRequest = record(issue.pull_request);
  const draft = issue.draft;
  return {
    assignees: goSlice(issue.assignees, decodeUser) ?? [],
    author: decodeUser(issue.user),
    authorAssociation: goString(issue.author_association),
    body: goString(issue.body),
    closedAt: goTime(issue.closed_at),
    commentsCount: goInt(issue.comments),
    createdAt: goTime(issue.created_at),
    id: goString(issue.node_id),
    labels: goSlice(issue.labels, decodeLabel) ?? [],
    isDraft: draft === undefined || draft === null ? null : goBool(draft),
    isLocked: goBool(issue.locked),
    number: goInt(issue.number),
    pullRequest: { url: goString(pullRequest.html_url), mergedAt: goTime(pullRequest.merged_at) },
    repositoryUrl: goString(issue.repository_url),
    stateInternal: goString(issue.state),
    stateReason: goString(issue.state_reason),
    title: goString(issue.title),
    url: goString(issue.html_url),
    updatedAt: goTime(issue.updated_at),
  };
}

function decodeRepository(value: unknown): GoSearchRepository {
  const repo = record(value);
  const license = record(repo.license);
  return {
    createdAt: goTime(repo.created_at),
    defaultBranch: goString(repo.default_branch),
    description: goString(repo.description),
    forksCount: goInt(repo.forks_count),
    fullName: goString(repo.full_name),
    hasDownloads: goBool(repo.has_downloads),
    hasIssues: goBool(repo.has_issues),
    hasPages: goBool(repo.has_pages),
    hasProjects: goBool(repo.has_projects),
    hasWiki: goBool(repo.has_wiki),
    homepage: goString(repo.homepage),
    id: goString(repo.node_id),
    isArchived: goBool(repo.archived),
    isDisabled: goBool(repo.disabled),
    isFork: goBool(repo.fork),
    isPrivate: goBool(repo.private),
    language: goString(repo.language),
    license: {
      key: goString(license.key),
      name: goString(license.name),
      url: goString(license.url),
    },
    name: goString(repo.name),
    openIssuesCount: goInt(repo.open_issues_count),
    owner: decodeUser(repo.owner),
    pushedAt: goTime(repo.pushed_at),
    size: goInt(repo.size),
    stargazersCount: goInt(repo.stargazers_count),
    updatedAt: goTime(repo.updated_at),
    url: goString(repo.html_url),
    visibility: goString(repo.visibility),
    watchersCount: goInt(repo.watchers_count),
  };
}

function decodeMatch(value: unknown): GoSearchMatch {
  const match = record(value);
  return { indices: goSlice(match.indices, goInt), text: goString(match.text) };
}

function decodeTextMatch(value: unknown): GoSearchTextMatch {
  const textMatch = record(value);
  return {
    fragment: goString(textMatch.fragment),
    matches: goSlice(textMatch.matches, decodeMatch),
    type: goString(textMatch.object_type),
    property: goString(textMatch.property),
  };
}

function decodeCode(value: unknown): GoSearchCode {
  const code = record(value);
  return {
    name: goString(code.name),
    path: goString(code.path),
    repository: decodeRepository(code.repository),
    sha: goString(code.sha),
    textMatches: goSlice(code.text_matches, decodeTextMatch) ?? [],
    url: goString(code.html_url),
  };
}

function decodeCommitUser(value: unknown): GoSearchCommitUser {
  const user = record(value);
  return { date: goTime(user.date), email: goString(user.email), name: goString(user.name) };
}

function decodeCommit(value: unknown): GoSearchCommit {
  const commit = record(value);
  const info = record(commit.commit);
  return {
    author: decodeUser(commit.author),
    committer: decodeUser(commit.committer),
    id: goString(commit.node_id),
    info: {
      author: decodeCommitUser(info.author),
      commentCount: goInt(info.comment_count),
      committer: decodeCommitUser(info.committer),
      message: goString(info.message),
      treeSha: goString(record(info.tree).sha),
    },
    parents:
      goSlice(commit.parents, (parent) => {
        const item = record(parent);
        return { sha: goString(item.sha), url: goString(item.html_url) };
      }) ?? [],
    repository: decodeRepository(commit.repository),
    sha: goString(commit.sha),
    url: goString(commit.html_url),
  };
}

/** What each search kind decodes its items into. */
export interface SearchItemTypes {
  readonly issues: GoSearchIssue;
  readonly repositories: GoSearchRepository;
  readonly code: GoSearchCode;
  readonly commits: GoSearchCommit;
}

/** A search kind, by the REST path `/search/<kind>`. */
export type SearchItemKind = keyof SearchItemTypes;

const DECODERS: { readonly [K in SearchItemKind]: (value: unknown) => SearchItemTypes[K] } = {
  issues: decodeIssue,
  repositories: decodeRepository,
  code: decodeCode,
  commits: decodeCommit,
};

/**
 * Decodes the (sanitized) `items` of search answers as gh's `search.*Result` structs do;
 * `undefined` when Go would refuse one (a wrong type, a time Go reads differently) or an item
 * holds a backspace or form feed (see `hasEscapeDependentControl`).
 */
export function decodeSearchItems<K extends SearchItemKind>(
  kind: K,
  items: readonly unknown[],
): SearchItemTypes[K][] | undefined {
  if (hasEscapeDependentControl(items)) return undefined;
  try {
    return items.map((item) => DECODERS[kind](item));
  } catch (error) {
    if (error instanceof Refused) return undefined;
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Human output without a terminal.

/** What `search issues`/`search prs` list: gh's `EntityType`. */
export type SearchIssueEntity = 'issues' | 'prs' | 'both';

/** `Issue.State()`: `merged` for a pull request with a merge time, else the REST state. */
export function searchIssueState(issue: GoSearchIssue): string {
  return issue.pullRequest.mergedAt.json === GO_ZERO_TIME ? issue.stateInternal : 'merged';
}

/** `Issue.IsPullRequest()`. */
function isPullRequest(issue: GoSearchIssue): boolean {
  return issue.pullRequest.url !== '';
}

/** The last two `/`-separated parts of `repository_url`; `undefined` where gh would panic. */
function repositoryParts(issue: GoSearchIssue): readonly [string, string] | undefined {
  const parts = issue.repositoryUrl.split('/');
  if (parts.length < 2) return undefined;
  return [parts[parts.length - 2] ?? '', parts[parts.length - 1] ?? ''];
}

/**
 * `displayIssueResults` without a terminal: `[kind\t]repo\tnumber\tstate\ttitle\tlabels\tupdated`
 * per item (`kind` `issue`/`pr` only with `--include-prs`), labels in API order `, `-joined,
 * the update time in RFC 3339. `undefined` for a `repository_url` gh cannot split.
 */
export function renderSearchIssueTable(
  issues: readonly GoSearchIssue[],
  entity: SearchIssueEntity,
): string | undefined {
  const rows: string[][] = [];
  for (const issue of issues) {
    const parts = repositoryParts(issue);
    if (parts === undefined) return undefined;
    rows.push([
      ...(entity === 'both' ? [isPullRequest(issue) ? 'pr' : 'issue'] : []),
      parts.join('/'),
      String(issue.number),
      searchIssueState(issue),
      removeExcessiveWhitespace(issue.title),
      issue.labels.map((label) => label.name).join(', '),
      issue.updatedAt.seconds,
    ]);
  }
  return renderTsvTable(rows);
}

/** `visibilityLabel` of `search repos`. */
function visibilityLabel(repo: GoSearchRepository): string {
  if (repo.visibility !== '') return repo.visibility;
  return repo.isPrivate ? 'private' : 'public';
}

/**
 * `search repos` without a terminal: `fullName\tdescription\tinfo\tupdated` — the description
 * whitespace-collapsed, info the visibility then `fork` and `archived` (`, `-joined).
 */
export function renderSearchRepoTable(repos: readonly GoSearchRepository[]): string {
  return renderTsvTable(
    repos.map((repo) => [
      repo.fullName,
      removeExcessiveWhitespace(repo.description),
      [
        visibilityLabel(repo),
        ...(repo.isFork ? ['fork'] : []),
        ...(repo.isArchived ? ['archived'] : []),
      ].join(', '),
      repo.updatedAt.seconds,
    ]),
  );
}

/** Go's `unicode.IsSpace` characters at the ends of a string (`strings.TrimSpace`). */
const GO_EDGE_SPACE =
  /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

/** Go's `strings.TrimSpace`. */
export function trimGoSpace(text: string): string {
  return text.replace(GO_EDGE_SPACE, '');
}

/** The UTF-8 length Go gives one code point of a decoded string (a lone surrogate is U+FFFD). */
function utf8Length(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint < 0x10000) return 3;
  return 4;
}

/**
 * `formatMatch` of `search code` without colour: the fragment's lines (split at `\n`) on which
 * a match starts, a start being a match's first index compared with the UTF-8 byte offset of
 * each character (as Go's `range` over a string gives it).
 */
export function matchedFragmentLines(
  fragment: string,
  matches: readonly GoSearchMatch[] | null,
): string[] {
  const starts = new Set<number>();
  for (const match of matches ?? []) {
    if (match.indices !== null && match.indices.length >= 2) starts.add(match.indices[0] ?? -1);
  }
  const lines: string[] = [];
  let line = '';
  let found = false;
  let offset = 0;
  for (const char of fragment) {
    const codePoint = char.codePointAt(0) ?? 0;
    const width =
      char.length === 1 && codePoint >= 0xd800 && codePoint <= 0xdfff ? 3 : utf8Length(codePoint);
    if (char === '\n') {
      if (found) lines.push(line);
      found = false;
      line = '';
    } else {
      if (starts.has(offset)) found = true;
      line += char;
    }
    offset += width;
  }
  if (found) lines.push(line);
  return lines;
}

/**
 * `search code` without a terminal: for every text match of every result, each matched line
 * of its fragment as `repo:path: line` (the line trimmed as Go's `strings.TrimSpace`).
 */
export function renderSearchCodeLines(codes: readonly GoSearchCode[]): string {
  let out = '';
  for (const code of codes) {
    for (const textMatch of code.textMatches) {
      for (const line of matchedFragmentLines(textMatch.fragment, textMatch.matches)) {
        out += `${code.repository.fullName}:${code.path}: ${trimGoSpace(line)}\n`;
      }
    }
  }
  return out;
}

/**
 * `search commits` without a terminal: `repo\tsha\tmessage\tauthor\tauthored`, the message
 * whitespace-collapsed, the author's login (empty without a linked account), the author date
 * in RFC 3339.
 */
export function renderSearchCommitTable(commits: readonly GoSearchCommit[]): string {
  return renderTsvTable(
    commits.map((commit) => [
      commit.repository.fullName,
      commit.sha,
      removeExcessiveWhitespace(commit.info.message),
      commit.author.login,
      commit.info.author.date.seconds,
    ]),
  );
}

// ---------------------------------------------------------------------------------------------
// --json export (`ExportData`).

/** A search command with a `--json` catalogue. */
export type SearchExportCommand =
  'search issues' | 'search prs' | 'search repos' | 'search code' | 'search commits';

/**
 * `User.ExportData`: a user without a node id counts as a bot (`is_bot`, login prefixed
 * `app/`), as gh decides for REST users — a missing commit author is `{"id":"","is_bot":true,
 * "login":"app/",…}`.
 */
function exportUser(user: GoSearchUser): GoJsonValue {
  const isBot = user.id === '';
  return {
    id: user.id,
    is_bot: isBot,
    login: isBot ? `app/${user.login}` : user.login,
    type: user.type,
    url: user.url,
  };
}

/** `Issue.ExportData` of one field; `undefined` for a `repository_url` gh cannot split. */
export function searchIssueFieldValue(
  issue: GoSearchIssue,
  field: JsonField<'search prs'>,
): GoJsonValue | undefined {
  switch (field) {
    case 'assignees':
      return issue.assignees.map(exportUser);
    case 'author':
      return exportUser(issue.author);
    case 'authorAssociation':
      return issue.authorAssociation;
    case 'body':
      return issue.body;
    case 'closedAt':
      return issue.closedAt.json;
    case 'commentsCount':
      return issue.commentsCount;
    case 'createdAt':
      return issue.createdAt.json;
    case 'id':
      return issue.id;
    case 'isDraft':
      return issue.isDraft;
    case 'isLocked':
      return issue.isLocked;
    case 'isPullRequest':
      return isPullRequest(issue);
    case 'labels':
      return issue.labels.map((label) => ({
        color: label.color,
        description: label.description,
        id: label.id,
        name: label.name,
      }));
    case 'number':
      return issue.number;
    case 'repository': {
      const parts = repositoryParts(issue);
      return parts === undefined ? undefined : { name: parts[1], nameWithOwner: parts.join('/') };
    }
    case 'state':
      return searchIssueState(issue);
    case 'title':
      return issue.title;
    case 'updatedAt':
      return issue.updatedAt.json;
    case 'url':
      return issue.url;
  }
}

/** `Repository.ExportData` of one field. */
export function searchRepoFieldValue(
  repo: GoSearchRepository,
  field: JsonField<'search repos'>,
): GoJsonValue {
  switch (field) {
    case 'license':
      return { key: repo.license.key, name: repo.license.name, url: repo.license.url };
    case 'owner':
      return exportUser(repo.owner);
    case 'createdAt':
    case 'pushedAt':
    case 'updatedAt':
      return repo[field].json;
    case 'defaultBranch':
    case 'description':
    case 'forksCount':
    case 'fullName':
    case 'hasDownloads':
    case 'hasIssues':
    case 'hasPages':
    case 'hasProjects':
    case 'hasWiki':
    case 'homepage':
    case 'id':
    case 'isArchived':
    case 'isDisabled':
    case 'isFork':
    case 'isPrivate':
    case 'language':
    case 'name':
    case 'openIssuesCount':
    case 'size':
    case 'stargazersCount':
    case 'url':
    case 'visibility':
    case 'watchersCount':
      return repo[field];
  }
}

/** Go's `json.Marshal` escapes `<`, `>`, `&` inside `Repository.MarshalJSON`. */
const HTML_SPECIAL = /[<>&]/;

/**
 * `Code.ExportData` of one field; `undefined` for a `repository` whose strings hold `<`, `>`
 * or `&` (gh's `MarshalJSON` escapes them inside an otherwise unescaped export).
 */
export function searchCodeFieldValue(
  code: GoSearchCode,
  field: JsonField<'search code'>,
): GoJsonValue | undefined {
  switch (field) {
    case 'path':
      return code.path;
    case 'sha':
      return code.sha;
    case 'url':
      return code.url;
    case 'repository': {
      const { id, isFork, isPrivate, fullName, url } = code.repository;
      if ([id, fullName, url].some((text) => HTML_SPECIAL.test(text))) return undefined;
      return { id, isFork, isPrivate, nameWithOwner: fullName, url };
    }
    case 'textMatches':
      return code.textMatches.map((textMatch) => ({
        fragment: textMatch.fragment,
        matches:
          textMatch.matches === null
            ? null
            : textMatch.matches.map(
                (match) => new GoStruct({ indices: match.indices, text: match.text }),
              ),
        property: textMatch.property,
        type: textMatch.type,
      }));
  }
}

function exportCommitUser(user: GoSearchCommitUser): GoJsonValue {
  return { date: user.date.json, email: user.email, name: user.name };
}

/** `Commit.ExportData` of one field. */
export function searchCommitFieldValue(
  commit: GoSearchCommit,
  field: JsonField<'search commits'>,
): GoJsonValue {
  switch (field) {
    case 'author':
      return exportUser(commit.author);
    case 'committer':
      return exportUser(commit.committer);
    case 'commit':
      return {
        author: exportCommitUser(commit.info.author),
        committer: exportCommitUser(commit.info.committer),
        comment_count: commit.info.commentCount,
        message: commit.info.message,
        tree: { sha: commit.info.treeSha },
      };
    case 'parents':
      return commit.parents.map((parent) => ({ sha: parent.sha, url: parent.url }));
    case 'repository': {
      const repo = commit.repository;
      return {
        description: repo.description,
        fullName: repo.fullName,
        name: repo.name,
        id: repo.id,
        isFork: repo.isFork,
        isPrivate: repo.isPrivate,
        owner: exportUser(repo.owner),
        url: repo.url,
      };
    }
    case 'sha':
      return commit.sha;
    case 'id':
      return commit.id;
    case 'url':
      return commit.url;
  }
}
