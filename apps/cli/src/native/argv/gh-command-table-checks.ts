/**
 * The flag table of `gh pr checks` as `relay native` serves it, read from cli/cli v2.60.0's
 * `pkg/cmd/pr/checks/checks.go`. `gh-command-table.ts` spreads it into its
 * `SERVED_COMMAND_FLAGS`; this module imports only types from it (no import cycle at load).
 * The flags carry no usage text: gh's own flag errors (`--interval` without `--watch`, a bad
 * integer) run gh, which prints them with its usage.
 */
import type { GhCommandSpec, GhFlagSpec } from './gh-command-table.js';

/** The checks command `relay native` serves. */
export type ChecksCommandName = 'pr checks';

const value = (name: string, short?: string, repeatable = false): GhFlagSpec =>
  short === undefined
    ? { name, takesValue: true, repeatable }
    : { name, short, takesValue: true, repeatable };
const bool = (name: string, short?: string): GhFlagSpec =>
  short === undefined
    ? { name, takesValue: false, repeatable: false }
    : { name, short, takesValue: false, repeatable: false };

/**
 * `pr checks [<number> | <url> | <branch>]`: `-w/--web`, `--watch`, `--fail-fast`,
 * `-i/--interval` (an int), `--required`, and AddJSONFlags' `--json`, `-q/--jq`,
 * `-t/--template` (`--help`, `-R` added by the parser).
 */
export const CHECKS_COMMAND_FLAGS: Readonly<Record<ChecksCommandName, GhCommandSpec>> = {
  'pr checks': {
    flags: [
      bool('web', 'w'),
      bool('watch'),
      bool('fail-fast'),
      value('interval', 'i'),
      bool('required'),
      value('json', undefined, true),
      value('jq', 'q'),
      value('template', 't'),
    ],
    minArgs: 0,
    maxArgs: 1,
    repoOverride: true,
  },
};
