/**
 * The flag table of `gh pr checks` as `relay native` serves it, read from cli/cli v2.60.0's
 * `pkg/cmd/pr/checks/checks.go`. `gh-command-table.ts` spreads it into its
 * `SERVED_COMMAND_FLAGS`; this module imports only types from it (no import cycle at load).
 * Declared with gh's usage, so that gh's own refusals (a bad integer, a second argument,
 * AddJSONFlags' checks, `RunE`'s: gh-command-checks.ts) are printed as gh prints them.
 */
import type { GhCommandSpec } from './gh-command-table.js';
import { boolFlag, DECLARED_JSON_FLAGS, intFlag } from './gh-flag-shapes.js';

/** The checks command `relay native` serves. */
export type ChecksCommandName = 'pr checks';

/**
 * `pr checks [<number> | <url> | <branch>]` (cobra.MaximumNArgs(1)): `-w/--web`, `--watch`,
 * `--fail-fast`, `-i/--interval` (IntVarP, default 10; pflag reads the backquoted `--watch`
 * of its usage as the value's name), `--required`, and AddJSONFlags' `--json`, `-q/--jq`,
 * `-t/--template` (`--help`, `-R` added by the parser).
 */
export const CHECKS_COMMAND_FLAGS: Readonly<Record<ChecksCommandName, GhCommandSpec>> = {
  'pr checks': {
    flags: [
      boolFlag('web', 'w', 'Open the web browser to show details about checks'),
      boolFlag('watch', undefined, 'Watch checks until they finish'),
      boolFlag('fail-fast', undefined, 'Exit watch mode on first check failure'),
      intFlag('interval', 'i', 10, 'Refresh interval in seconds when using `--watch` flag'),
      boolFlag('required', undefined, 'Only show checks that are required'),
      ...DECLARED_JSON_FLAGS,
    ],
    use: 'checks [<number> | <url> | <branch>]',
    args: { kind: 'at_most', count: 1 },
    repoOverride: true,
  },
};
