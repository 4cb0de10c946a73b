/**
 * pflag declarations as gh v2.60 writes them (`BoolVarP`, `StringVarP`, `IntVarP`, `Uint64VarP`,
 * `StringSliceVarP`, gh's `StringEnumFlag` and `AddJSONFlags`), for the command tables that spread into
 * `gh-command-table.ts`: this module imports only types from it (no import cycle at load).
 */
import type { GhFlagSpec, GhFlagType } from './gh-command-table.js';

const declare = (
  name: string,
  short: string | undefined,
  type: GhFlagType,
  usage: string,
  defaultValue: string,
  values?: readonly string[],
): GhFlagSpec => ({
  name,
  ...(short === undefined ? {} : { short }),
  type,
  usage,
  defaultValue,
  ...(values === undefined ? {} : { values }),
  takesValue: type !== 'bool' && type !== 'nilBool',
  repeatable: type === 'stringSlice',
});

/** `cmd.Flags().BoolVarP(…, name, short, false, usage)`. */
export const boolFlag = (name: string, short: string | undefined, usage: string): GhFlagSpec =>
  declare(name, short, 'bool', usage, 'false');
/** `cmd.Flags().StringVarP(…, name, short, "", usage)`. */
export const stringFlag = (name: string, short: string | undefined, usage: string): GhFlagSpec =>
  declare(name, short, 'string', usage, '');
/** `cmd.Flags().IntVarP(…, name, short, fallback, usage)`. */
export const intFlag = (
  name: string,
  short: string | undefined,
  fallback: number,
  usage: string,
): GhFlagSpec => declare(name, short, 'int', usage, String(fallback));
/** gh's `cmdutil.StringEnumFlag(…, name, short, fallback, values, usage)`. */
export const enumFlag = (
  name: string,
  short: string | undefined,
  fallback: string,
  values: readonly string[],
  usage: string,
): GhFlagSpec => declare(name, short, 'enum', `${usage}: {${values.join('|')}}`, fallback, values);
/** `cmd.Flags().Uint64VarP(…, name, short, 0, usage)`. */
export const uintFlag = (name: string, short: string | undefined, usage: string): GhFlagSpec =>
  declare(name, short, 'uint', usage, '0');

/** `--json fields`, `-q/--jq expr`, `-t/--template tpl` (gh's `AddJSONFlags`). */
export const DECLARED_JSON_FLAGS: readonly GhFlagSpec[] = [
  declare('json', undefined, 'stringSlice', 'Output JSON with the specified `fields`', '[]'),
  stringFlag('jq', 'q', 'Filter JSON output using a jq `expression`'),
  stringFlag('template', 't', 'Format JSON output using a Go template; see "gh help formatting"'),
];
