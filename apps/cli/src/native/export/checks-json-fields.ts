/**
 * `gh pr checks --json` fields, in gh v2.60's declaration order (`prCheckFields` of
 * pkg/cmd/pr/checks/checks.go). A module of its own, so that the `--json` catalogue
 * (`json-field-catalogue.ts`) lists them without importing `checks-export.ts`, which imports
 * the catalogue.
 */
export const PR_CHECKS_JSON_FIELDS = [
  'name',
  'state',
  'startedAt',
  'completedAt',
  'link',
  'bucket',
  'event',
  'workflow',
  'description',
] as const;

/** A `pr checks --json` field. */
export type PrChecksField = (typeof PR_CHECKS_JSON_FIELDS)[number];
