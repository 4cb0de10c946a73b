/**
 * The flag tables of gh's Actions reads that `relay native` serves (`run list`, `run view`,
 * `run watch`, `workflow list`, `workflow view`), read from cli/cli v2.60.0's `pkg/cmd/run/{list,view,watch}`
 * and `pkg/cmd/workflow/{list,view}`. `gh-command-table.ts` spreads them into its
 * `SERVED_COMMAND_FLAGS`; this module imports only types from it (no import cycle at load).
 */
import type { GhCommandSpec } from './gh-command-table.js';
import {
  boolFlag,
  DECLARED_JSON_FLAGS,
  enumFlag,
  intFlag,
  stringFlag,
  uintFlag,
} from './gh-flag-shapes.js';

/** The Actions commands `relay native` serves. */
export type ActionsCommandName =
  'run list' | 'run view' | 'run watch' | 'workflow list' | 'workflow view';

/**
 * The run statuses and conclusions gh's `run list --status` accepts (`shared.AllStatuses`;
 * a StringEnumFlag: case-insensitive check, the value sent as typed).
 */
export const RUN_LIST_STATUSES: readonly string[] = [
  'queued',
  'completed',
  'in_progress',
  'requested',
  'waiting',
  'action_required',
  'cancelled',
  'failure',
  'neutral',
  'skipped',
  'stale',
  'startup_failure',
  'success',
  'timed_out',
];

/** The flags and arity of the served Actions commands (`--help`, `-R` added by the parser). */
export const ACTIONS_COMMAND_FLAGS: Readonly<Record<ActionsCommandName, GhCommandSpec>> = {
  // Declared for gh's own errors (its usage, its flag and `RunE` checks: gh-command-checks.ts).
  'run list': {
    flags: [
      intFlag('limit', 'L', 20, 'Maximum number of runs to fetch'),
      stringFlag('workflow', 'w', 'Filter runs by workflow'),
      stringFlag('branch', 'b', 'Filter runs by branch'),
      stringFlag('user', 'u', 'Filter runs by user who triggered the run'),
      stringFlag('event', 'e', 'Filter runs by which `event` triggered the run'),
      stringFlag('created', undefined, 'Filter runs by the `date` it was created'),
      stringFlag('commit', 'c', 'Filter runs by the `SHA` of the commit'),
      boolFlag('all', 'a', 'Include disabled workflows'),
      enumFlag('status', 's', '', RUN_LIST_STATUSES, 'Filter runs by status'),
      ...DECLARED_JSON_FLAGS,
    ],
    use: 'list',
    // cobra.NoArgs: `unknown command "x" for "gh run list"`, with the usage.
    args: { kind: 'none' },
    repoOverride: true,
  },
  // Declared for gh's own errors (its usage, its flag and `RunE` checks: gh-command-checks.ts).
  'run view': {
    flags: [
      boolFlag('verbose', 'v', 'Show job steps'),
      boolFlag('exit-status', undefined, 'Exit with non-zero status if run failed'),
      stringFlag('job', 'j', 'View a specific job ID from a run'),
      boolFlag('log', undefined, 'View full log for either a run or specific job'),
      boolFlag(
        'log-failed',
        undefined,
        'View the log for any failed steps in a run or specific job',
      ),
      boolFlag('web', 'w', 'Open run in the browser'),
      uintFlag('attempt', 'a', 'The attempt number of the workflow run'),
      ...DECLARED_JSON_FLAGS,
    ],
    use: 'view [<run-id>]',
    args: { kind: 'at_most', count: 1 },
    repoOverride: true,
  },
  'run watch': {
    flags: [
      boolFlag('exit-status', undefined, 'Exit with non-zero status if run fails'),
      intFlag('interval', 'i', 3, 'Refresh interval in seconds'),
    ],
    use: 'watch <run-id>',
    // No `Args`: cobra accepts any arguments (gh watches the first).
    args: { kind: 'any' },
    repoOverride: true,
  },
  // Declared for gh's own errors (pkg/cmd/workflow/list/list.go: IntVarP limit default 50,
  // cobra.NoArgs, AddJSONFlags; its `RunE` check, invalid limit: N, in gh-command-checks.ts).
  'workflow list': {
    flags: [
      intFlag('limit', 'L', 50, 'Maximum number of workflows to fetch'),
      boolFlag('all', 'a', 'Include disabled workflows'),
      ...DECLARED_JSON_FLAGS,
    ],
    use: 'list',
    // cobra.NoArgs: `unknown command "x" for "gh workflow list"`, with the usage.
    args: { kind: 'none' },
    repoOverride: true,
  },
  'workflow view': {
    flags: [
      boolFlag('web', 'w', 'Open workflow in the browser'),
      boolFlag('yaml', 'y', 'View the workflow yaml file'),
      stringFlag(
        'ref',
        'r',
        "The branch or tag name which contains the version of the workflow file you'd like to view",
      ),
    ],
    use: 'view [<workflow-id> | <workflow-name> | <filename>]',
    args: { kind: 'at_most', count: 1 },
    repoOverride: true,
  },
};
