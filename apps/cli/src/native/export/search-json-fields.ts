/**
 * gh's `--json` catalogues of the search commands (cli/cli v2.60.0 pkg/search/result.go:
 * `IssueFields`, `PullRequestFields`, `RepositoryFields`, `CodeFields`, `CommitFields`), in
 * gh's declaration order. No imports: `json-field-catalogue.ts` spreads them in.
 */

/** `gh search issues --json` (`search.IssueFields`, 17 fields). */
export const SEARCH_ISSUE_JSON_FIELDS = [
  'assignees',
  'author',
  'authorAssociation',
  'body',
  'closedAt',
  'commentsCount',
  'createdAt',
  'id',
  'isLocked',
  'isPullRequest',
  'labels',
  'number',
  'repository',
  'state',
  'title',
  'updatedAt',
  'url',
] as const;

/** `gh search prs --json` (`search.PullRequestFields`: the issue fields and `isDraft`). */
export const SEARCH_PR_JSON_FIELDS = [...SEARCH_ISSUE_JSON_FIELDS, 'isDraft'] as const;

/** `gh search repos --json` (`search.RepositoryFields`, 28 fields). */
export const SEARCH_REPO_JSON_FIELDS = [
  'createdAt',
  'defaultBranch',
  'description',
  'forksCount',
  'fullName',
  'hasDownloads',
  'hasIssues',
  'hasPages',
  'hasProjects',
  'hasWiki',
  'homepage',
  'id',
  'isArchived',
  'isDisabled',
  'isFork',
  'isPrivate',
  'language',
  'license',
  'name',
  'openIssuesCount',
  'owner',
  'pushedAt',
  'size',
  'stargazersCount',
  'updatedAt',
  'url',
  'visibility',
  'watchersCount',
] as const;

/** `gh search code --json` (`search.CodeFields`). */
export const SEARCH_CODE_JSON_FIELDS = ['path', 'repository', 'sha', 'textMatches', 'url'] as const;

/** `gh search commits --json` (`search.CommitFields`). */
export const SEARCH_COMMIT_JSON_FIELDS = [
  'author',
  'commit',
  'committer',
  'sha',
  'id',
  'parents',
  'repository',
  'url',
] as const;
