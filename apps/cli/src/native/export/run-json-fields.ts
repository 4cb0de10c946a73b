/**
 * gh's `--json` catalogues of the Actions reads (cli/cli v2.60.0: `shared.RunFields` and
 * `shared.SingleRunFields` of pkg/cmd/run/shared, `workflowFields` of pkg/cmd/workflow/list),
 * in gh's declaration order. No imports: `json-field-catalogue.ts` spreads them in.
 */

/** `gh run list --json` (`shared.RunFields`, 16 fields). */
export const RUN_LIST_JSON_FIELDS = [
  'name',
  'displayTitle',
  'headBranch',
  'headSha',
  'createdAt',
  'updatedAt',
  'startedAt',
  'attempt',
  'status',
  'conclusion',
  'event',
  'number',
  'databaseId',
  'workflowDatabaseId',
  'workflowName',
  'url',
] as const;

/** `gh run view --json` (`shared.SingleRunFields`: the list fields and `jobs`). */
export const RUN_VIEW_JSON_FIELDS = [...RUN_LIST_JSON_FIELDS, 'jobs'] as const;

/** `gh workflow list --json` (`workflowFields`). */
export const WORKFLOW_LIST_JSON_FIELDS = ['id', 'name', 'path', 'state'] as const;
