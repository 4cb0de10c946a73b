import type { GhArgvError } from './gh-argv-parser.js';
import type { GhFlagSpec, GhFlagType, GhUsageSpec, ServedCommandName } from './gh-command-table.js';
import { quoteGo } from './go-quote.js';

/**
 * gh's usage text and flag-error wording (gh v2.60: `rootUsageFunc` of pkg/cmd/root/help.go,
 * `printError` of internal/ghcmd/cmd.go; pflag v1.0.5's `FlagUsages` and parse errors), as pure
 * functions of the command table.
 */

/** A flag's pflag type; an undeclared one is a plain string or boolean. */
export function flagType(flag: GhFlagSpec): GhFlagType {
  return flag.type ?? (flag.takesValue ? 'string' : 'bool');
}

/**
 * pflag's `UnquoteUsage`: the first back-quoted word of the usage names the value (and loses
 * its quotes); otherwise the type does (`int`, `uint`, `string`, `strings`; none for a boolean).
 */
function unquoteUsage(flag: GhFlagSpec): { readonly valueName: string; readonly usage: string } {
  const declared = flag.usage ?? '';
  const open = declared.indexOf('`');
  const close = open === -1 ? -1 : declared.indexOf('`', open + 1);
  if (close !== -1) {
    const valueName = declared.slice(open + 1, close);
    return { valueName, usage: declared.slice(0, open) + valueName + declared.slice(close + 1) };
  }
  const usage = declared;
  switch (flagType(flag)) {
    case 'bool':
    case 'nilBool':
      return { valueName: '', usage };
    case 'int':
      return { valueName: 'int', usage };
    case 'uint':
      return { valueName: 'uint', usage };
    case 'string':
    case 'enum':
      return { valueName: 'string', usage };
    case 'stringSlice':
      return { valueName: 'strings', usage };
  }
}

/**
 * pflag's ` (default …)` suffix: shown unless the default is the type's zero value; `%q` for
 * string-typed values (gh's enums report the type `string`). An enum is judged by its current
 * value, which is never empty here (each has a default and only a listed value replaces it).
 */
function defaultSuffix(flag: GhFlagSpec): string {
  const type = flagType(flag);
  const zero: Readonly<Record<GhFlagType, string>> = {
    bool: 'false',
    nilBool: 'false',
    int: '0',
    uint: '0',
    stringSlice: '[]',
    string: '',
    enum: '',
  };
  const shown = flag.defaultValue ?? zero[type];
  if (shown === zero[type]) return '';
  return type === 'string' || type === 'enum'
    ? ` (default ${quoteGo(shown) ?? ''})`
    : ` (default ${shown})`;
}

/** Byte order of flag names (pflag sorts its flags by name). */
function compareNames(a: GhFlagSpec, b: GhFlagSpec): number {
  if (a.name === b.name) return 0;
  return a.name < b.name ? -1 : 1;
}

/**
 * pflag's `FlagUsages()` (no wrapping): one line per flag sorted by name, `  -x, --name value`
 * or `      --name value`, the usage aligned two columns past the longest of those.
 *
 * @example
 * ```ts
 * renderFlagUsages(SERVED_COMMAND_FLAGS['pr diff'].flags).split('\n')[0];
 * // '      --color string   Use color in diff output: {always|never|auto} (default "auto")'
 * ```
 */
export function renderFlagUsages(flags: readonly GhFlagSpec[]): string {
  const rows = [...flags].sort(compareNames).map((flag) => {
    const { valueName, usage } = unquoteUsage(flag);
    const names =
      flag.short === undefined ? `      --${flag.name}` : `  -${flag.short}, --${flag.name}`;
    return {
      head: valueName === '' ? names : `${names} ${valueName}`,
      usage: usage + defaultSuffix(flag),
    };
  });
  // pflag pads every head to the longest + 1 and joins the parts with one space each.
  const width = Math.max(0, ...rows.map((row) => row.head.length)) + 1;
  const indent = ' '.repeat(width + 2);
  return rows
    .map(
      (row) =>
        `${row.head} ${' '.repeat(width - row.head.length)} ${row.usage.replaceAll('\n', `\n${indent}`)}\n`,
    )
    .join('');
}

/** gh's `dedent`: removes the smallest indentation of the non-empty lines from every line. */
function dedent(text: string): string {
  const lines = text.split('\n');
  const indents = lines
    .filter((line) => line !== '')
    .map((line) => line.length - line.replace(/^ +/, '').length);
  const least = indents.length === 0 ? 0 : Math.min(...indents);
  if (least <= 0) return text;
  const prefix = ' '.repeat(least);
  return lines.map((line) => (line.startsWith(prefix) ? line.slice(least) : line)).join('\n');
}

/**
 * go-gh's `text.Indent`: the prefix at the start of every line, also after a final newline
 * (Go's multi-line `^` matches there), unless the text is all white space.
 */
function indent(text: string, prefix: string): string {
  if (text.trim() === '') return text;
  return prefix + text.split('\n').join(`\n${prefix}`);
}

/**
 * cobra's `UseLine`: the parent's command path, the command's `Use`, and ` [flags]` (every gh
 * command has flags: `--help` at least).
 */
function useLine(command: ServedCommandName, spec: GhUsageSpec): string {
  const line = ['gh', ...command.split(' ').slice(0, -1), spec.use].join(' ');
  return line.includes('[flags]') ? line : `${line} [flags]`;
}

/**
 * gh's usage of a command (`rootUsageFunc`): `Usage:  gh pr view … [flags]`, a blank line,
 * `Flags:` and the command's own flags (not the inherited `--help` and `-R/--repo`), dedented
 * and indented two spaces. Ends with the two spaces go-gh's indent leaves after the last line.
 */
export function renderCommandUsage(
  command: ServedCommandName,
  spec: GhUsageSpec,
  flags: readonly GhFlagSpec[],
): string {
  const usages = renderFlagUsages(flags);
  const head = `Usage:  ${useLine(command, spec)}`;
  return usages === '' ? head : `${head}\n\nFlags:\n${indent(dedent(usages), '  ')}`;
}

/**
 * What gh's `printError` writes for an error that carries the usage (a `FlagError`, or an
 * `unknown command …` error): the message, a blank line, the usage, a newline.
 */
export function formatUsageError(message: string, usage: string): string {
  return `${message}\n${message.endsWith('\n') ? '' : '\n'}${usage}\n`;
}

/** pflag's name of a flag in its errors: `-L, --limit`, or `--color` without an alias. */
function flagTitle(flag: GhFlagSpec): string {
  return flag.short === undefined ? `--${flag.name}` : `-${flag.short}, --${flag.name}`;
}

/** The cause part of pflag's `invalid argument` error. */
function invalidValueCause(
  error: Extract<GhArgvError, { code: 'invalid_value' }>,
  quoted: string,
): string {
  switch (error.cause) {
    case 'bool_syntax':
      return `strconv.ParseBool: parsing ${quoted}: invalid syntax`;
    case 'int_syntax':
      return `strconv.ParseInt: parsing ${quoted}: invalid syntax`;
    case 'int_range':
      return `strconv.ParseInt: parsing ${quoted}: value out of range`;
    case 'uint_syntax':
      return `strconv.ParseUint: parsing ${quoted}: invalid syntax`;
    case 'uint_range':
      return `strconv.ParseUint: parsing ${quoted}: value out of range`;
    case 'enum':
      return `valid values are {${(error.flag.values ?? []).join('|')}}`;
  }
}

/**
 * pflag's text of a flag it could not read: `flag needs an argument: --limit`,
 * `flag needs an argument: 'L' in -L`, `invalid argument "abc" for "-L, --limit" flag: …`.
 * `undefined` when the value would be quoted with non-ASCII text (Go's tables decide that).
 */
export function formatArgvError(
  error: Extract<GhArgvError, { code: 'missing_value' | 'invalid_value' }>,
): string | undefined {
  if (error.code === 'missing_value') {
    return error.form === 'long' || error.flag.short === undefined
      ? `flag needs an argument: --${error.flag.name}`
      : `flag needs an argument: '${error.flag.short}' in -${error.flag.short}`;
  }
  const quoted = quoteGo(error.value);
  if (quoted === undefined) return undefined;
  return `invalid argument ${quoted} for "${flagTitle(error.flag)}" flag: ${invalidValueCause(error, quoted)}`;
}
