import { PR_CHECKS_JSON_FIELDS } from './checks-json-fields.js';
import { compareBytes } from './go-json-encoder.js';
import {
  SEARCH_CODE_JSON_FIELDS,
  SEARCH_COMMIT_JSON_FIELDS,
  SEARCH_ISSUE_JSON_FIELDS,
  SEARCH_PR_JSON_FIELDS,
  SEARCH_REPO_JSON_FIELDS,
} from './search-json-fields.js';
import {
  RUN_LIST_JSON_FIELDS,
  RUN_VIEW_JSON_FIELDS,
  WORKFLOW_LIST_JSON_FIELDS,
} from './run-json-fields.js';

/**
 * gh's `api.PullRequestFields` (cli/cli v2.60.0: `sharedIssuePRFields` then the pull request
 * fields), shared by `pr view` and `pr list`.
 */
const PULL_REQUEST_FIELDS = [
  'assignees',
  'author',
  'body',
  'closed',
  'comments',
  'createdAt',
  'closedAt',
  'id',
  'labels',
  'milestone',
  'number',
  'projectCards',
  'projectItems',
  'reactionGroups',
  'state',
  'title',
  'updatedAt',
  'url',
  'additions',
  'autoMergeRequest',
  'baseRefName',
  'changedFiles',
  'commits',
  'deletions',
  'files',
  'fullDatabaseId',
  'headRefName',
  'headRefOid',
  'headRepository',
  'headRepositoryOwner',
  'isCrossRepository',
  'isDraft',
  'latestReviews',
  'maintainerCanModify',
  'mergeable',
  'mergeCommit',
  'mergedAt',
  'mergedBy',
  'mergeStateStatus',
  'potentialMergeCommit',
  'reviewDecision',
  'reviewRequests',
  'reviews',
  'statusCheckRollup',
] as const;

/**
 * gh's `api.IssueFields` (cli/cli v2.60.0: `sharedIssuePRFields` then `isPinned`,
 * `stateReason`), shared by `issue view` and `issue list`.
 */
const ISSUE_FIELDS = [
  'assignees',
  'author',
  'body',
  'closed',
  'comments',
  'createdAt',
  'closedAt',
  'id',
  'labels',
  'milestone',
  'number',
  'projectCards',
  'projectItems',
  'reactionGroups',
  'state',
  'title',
  'updatedAt',
  'url',
  'isPinned',
  'stateReason',
] as const;

/**
 * gh's `--json` field catalogues (cli/cli v2.60.0: `labelFields` of pkg/cmd/label,
 * `releaseFields` of release/list, `shared.ReleaseFields`, `api.RepositoryFields`,
 * `api.PullRequestFields`), in gh's
 * declaration order. Errors print them byte-sorted.
 */
export const JSON_FIELD_CATALOGUES = {
  'label list': [
    'color',
    'createdAt',
    'description',
    'id',
    'isDefault',
    'name',
    'updatedAt',
    'url',
  ],
  'search issues': SEARCH_ISSUE_JSON_FIELDS,
  'search prs': SEARCH_PR_JSON_FIELDS,
  'search repos': SEARCH_REPO_JSON_FIELDS,
  'search code': SEARCH_CODE_JSON_FIELDS,
  'search commits': SEARCH_COMMIT_JSON_FIELDS,
  'release list': [
    'name',
    'tagName',
    'isDraft',
    'isLatest',
    'isPrerelease',
    'createdAt',
    'publishedAt',
  ],
  'release view': [
    'apiUrl',
    'author',
    'assets',
    'body',
    'createdAt',
    'databaseId',
    'id',
    'isDraft',
    'isPrerelease',
    'name',
    'publishedAt',
    'tagName',
    'tarballUrl',
    'targetCommitish',
    'uploadUrl',
    'url',
    'zipballUrl',
  ],
  'pr view': PULL_REQUEST_FIELDS,
  'pr list': PULL_REQUEST_FIELDS,
  'issue view': ISSUE_FIELDS,
  'issue list': ISSUE_FIELDS,
  'repo view': [
    'id',
    'name',
    'nameWithOwner',
    'owner',
    'parent',
    'templateRepository',
    'description',
    'homepageUrl',
    'openGraphImageUrl',
    'usesCustomOpenGraphImage',
    'url',
    'sshUrl',
    'mirrorUrl',
    'securityPolicyUrl',
    'createdAt',
    'pushedAt',
    'updatedAt',
    'archivedAt',
    'isBlankIssuesEnabled',
    'isSecurityPolicyEnabled',
    'hasIssuesEnabled',
    'hasProjectsEnabled',
    'hasWikiEnabled',
    'hasDiscussionsEnabled',
    'mergeCommitAllowed',
    'squashMergeAllowed',
    'rebaseMergeAllowed',
    'forkCount',
    'stargazerCount',
    'watchers',
    'issues',
    'pullRequests',
    'codeOfConduct',
    'contactLinks',
    'defaultBranchRef',
    'deleteBranchOnMerge',
    'diskUsage',
    'fundingLinks',
    'isArchived',
    'isEmpty',
    'isFork',
    'isInOrganization',
    'isMirror',
    'isPrivate',
    'visibility',
    'isTemplate',
    'isUserConfigurationRepository',
    'licenseInfo',
    'viewerCanAdminister',
    'viewerDefaultCommitEmail',
    'viewerDefaultMergeMethod',
    'viewerHasStarred',
    'viewerPermission',
    'viewerPossibleCommitEmails',
    'viewerSubscription',
    'repositoryTopics',
    'primaryLanguage',
    'languages',
    'issueTemplates',
    'pullRequestTemplates',
    'labels',
    'milestones',
    'latestRelease',
    'assignableUsers',
    'mentionableUsers',
    'projects',
    'projectsV2',
  ],
  'run list': RUN_LIST_JSON_FIELDS,
  'run view': RUN_VIEW_JSON_FIELDS,
  'workflow list': WORKFLOW_LIST_JSON_FIELDS,
  'pr checks': PR_CHECKS_JSON_FIELDS,
} as const satisfies Readonly<Record<string, readonly string[]>>;

/** A command with a `--json` catalogue. */
export type ExportCommand = keyof typeof JSON_FIELD_CATALOGUES;

/** A `--json` field of `command`. */
export type JsonField<C extends ExportCommand> = (typeof JSON_FIELD_CATALOGUES)[C][number];

/** What `--json`, `--jq` ask for (no `--json`: the human output). */
export type JsonSelection<C extends ExportCommand> =
  | { readonly kind: 'human' }
  | {
      readonly kind: 'json';
      /** Requested fields, first occurrence order, without duplicates (client rule 12). */
      readonly fields: readonly JsonField<C>[];
      /** The last `--jq` (client rule 12). */
      readonly jq: string | undefined;
    };

/**
 * The bare-`--json` error of a command (its catalogue byte-sorted), for
 * {@link formatJsonFieldError}.
 */
export function missingFieldsError(command: ExportCommand): JsonFieldError {
  return { code: 'missing_fields', available: sortedCatalogue(command) };
}

/** Why a `--json` selection is refused: gh's JSONFlagError, printed by {@link formatJsonFieldError}. */
export type JsonFieldError =
  | {
      readonly code: 'unknown_field';
      readonly field: string;
      readonly available: readonly string[];
    }
  | { readonly code: 'missing_fields'; readonly available: readonly string[] }
  | { readonly code: 'jq_without_json' }
  /** A `--json` value Go's CSV reader refuses (gh: a flag error with usage: run gh). */
  | { readonly code: 'invalid_csv' };

/** The result of {@link selectJsonFields}. */
export type JsonSelectionResult<C extends ExportCommand> =
  | { readonly ok: true; readonly value: JsonSelection<C> }
  | { readonly ok: false; readonly error: JsonFieldError };

function sortedCatalogue(command: ExportCommand): string[] {
  return [...JSON_FIELD_CATALOGUES[command]].sort(compareBytes);
}

/**
 * Reads `--json` (each occurrence a CSV record, as pflag's StringSlice; repeated occurrences
 * append and deduplicate in first-occurrence order) and the last `--jq`, and checks every
 * field against the catalogue in the order gh does.
 *
 * @param flags - the parsed flag values by long name (`json`, `jq`)
 */
export function selectJsonFields<C extends ExportCommand>(
  command: C,
  flags: Readonly<Record<string, readonly string[]>>,
): JsonSelectionResult<C> {
  const json = flags.json;
  const jq = flags.jq?.at(-1);
  if (json === undefined) {
    if (jq !== undefined) return { ok: false, error: { code: 'jq_without_json' } };
    return { ok: true, value: { kind: 'human' } };
  }
  const catalogue: readonly string[] = JSON_FIELD_CATALOGUES[command];
  const fields: JsonField<C>[] = [];
  for (const occurrence of json) {
    const record = parseCsvRecord(occurrence);
    if (record === undefined) return { ok: false, error: { code: 'invalid_csv' } };
    for (const field of record) {
      if (!catalogue.includes(field)) {
        return {
          ok: false,
          error: { code: 'unknown_field', field, available: sortedCatalogue(command) },
        };
      }
      if (!fields.includes(field as JsonField<C>)) fields.push(field as JsonField<C>);
    }
  }
  return { ok: true, value: { kind: 'json', fields, jq } };
}

/**
 * One pflag StringSlice value: a CSV record (Go `encoding/csv`, strict quotes: commas
 * separate, a field may be wrapped in double quotes with `""` inside); an empty value is no
 * field. `undefined` when Go's reader would refuse it (a bare or unterminated quote, a line
 * break): gh prints a flag error.
 */
export function parseCsvRecord(value: string): string[] | undefined {
  if (value === '') return [];
  if (/[\r\n]/.test(value)) return undefined;
  const out: string[] = [];
  let index = 0;
  for (;;) {
    let field = '';
    if (value[index] === '"') {
      index += 1;
      for (;;) {
        const close = value.indexOf('"', index);
        if (close < 0) return undefined;
        field += value.slice(index, close);
        index = close + 1;
        if (value[index] !== '"') break;
        field += '"';
        index += 1;
      }
      if (index < value.length && value[index] !== ',') return undefined;
    } else {
      const comma = value.indexOf(',', index);
      field = value.slice(index, comma < 0 ? value.length : comma);
      if (field.includes('"')) return undefined;
      index = comma < 0 ? value.length : comma;
    }
    out.push(field);
    if (index >= value.length) return out;
    index += 1; // the comma
  }
}

/** Go's `%q` of a field name (gh's `Unknown JSON field: %q`). */
function quoteGo(text: string): string {
  return JSON.stringify(text).replace(
    /[\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16)}`,
  );
}

/**
 * gh's stderr text for a refused `--json`/`--jq` (cmdutil.AddJSONFlags; exit 1, no usage):
 * the available fields byte-sorted, one a line, indented two spaces. `missing_fields` is
 * bare `--json` (pflag's "flag needs an argument"); `invalid_csv` has no text of its own
 * here (gh's flag error carries its usage: the command runs gh instead).
 */
export function formatJsonFieldError(
  error: Exclude<JsonFieldError, { code: 'invalid_csv' }>,
): string {
  switch (error.code) {
    case 'unknown_field':
      return `Unknown JSON field: ${quoteGo(error.field)}\nAvailable fields:\n  ${error.available.join('\n  ')}\n`;
    case 'missing_fields':
      return `Specify one or more comma-separated fields for \`--json\`:\n  ${error.available.join('\n  ')}\n`;
    case 'jq_without_json':
      return 'cannot use `--jq` without specifying `--json`\n';
  }
}
