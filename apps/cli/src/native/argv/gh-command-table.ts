/**
 * gh's command groups and the flag tables of the read commands `relay native` knows, as data
 * (GH-CLI.md; flag sets read from cli/cli v2.60.0's `pkg/cmd/<group>/<verb>`). A command not
 * in {@link SERVED_COMMAND_FLAGS} is never served: it runs the native gh.
 */

import { ACTIONS_COMMAND_FLAGS } from './gh-command-table-actions.js';
import type { ActionsCommandName } from './gh-command-table-actions.js';
import { CHECKS_COMMAND_FLAGS } from './gh-command-table-checks.js';
import type { ChecksCommandName } from './gh-command-table-checks.js';
import { SEARCH_COMMAND_FLAGS } from './gh-command-table-search.js';
import type { SearchCommandName } from './gh-command-table-search.js';

/**
 * How pflag reads and shows a flag's value: `bool` (pflag's BoolVar), `nilBool` (gh's
 * `NilBoolFlag`: a boolean that also knows "not given"), `string`, `int` (Go `ParseInt` base
 * 0), `uint` (pflag's Uint64Var: Go `ParseUint` base 0, no sign), `stringSlice` (each occurrence a CSV record, appended), `enum` (gh's `StringEnumFlag`:
 * one of `values`, compared case-insensitively).
 */
export type GhFlagType = 'bool' | 'nilBool' | 'string' | 'int' | 'uint' | 'stringSlice' | 'enum';

/**
 * One flag of a gh command, as pflag declares it (gh v2.60). `type`, `usage` and
 * `defaultValue` describe it for gh's errors and usage text; a flag without them is read as
 * an unchecked string (or a boolean) and its command's flag errors run gh.
 */
export interface GhFlagSpec {
  /** The long name without dashes (`repo`). */
  readonly name: string;
  /** The one-letter alias without its dash (`R`), when there is one. */
  readonly short?: string;
  /** Whether the flag takes a value (`--repo x`); otherwise it is a boolean (`--web`). */
  readonly takesValue: boolean;
  /** Whether repeated occurrences accumulate (pflag string slices: `--json`, `--label`). */
  readonly repeatable: boolean;
  /** How its value is read and shown in the usage. */
  readonly type?: GhFlagType;
  /**
   * The usage string exactly as gh declares it (a back-quoted word names the value in the
   * usage: ``Search pull requests with `query` ``); an enum's ends in gh's `: {a|b}`.
   */
  readonly usage?: string;
  /** pflag's `DefValue`: the default as text (`false`, `0`, `30`, `open`, `[]`, or empty). */
  readonly defaultValue?: string;
  /** An enum's accepted values, in gh's order. */
  readonly values?: readonly string[];
}

/** A served command's name: `<group> <verb>`, or `api`. */
export type ServedCommandName =
  | 'api'
  | 'pr view'
  | 'pr list'
  | 'pr diff'
  | 'issue view'
  | 'issue list'
  | 'repo view'
  | 'release list'
  | 'release view'
  | 'label list'
  | ActionsCommandName
  | SearchCommandName
  | ChecksCommandName;

/**
 * How cobra checks a command's positional arguments (its `Args`), each failing with its own
 * text: `at_most` (`cobra.MaximumNArgs`: `accepts at most N arg(s), received M`), `exact`
 * (`cobra.ExactArgs`: `accepts N arg(s), received M`), `any` (no `Args`: cobra accepts any
 * arguments of a command without subcommands), `none_quoted` (gh's
 * `NoArgsQuoteReminder`: `unknown argument "x"`, a flag error with the usage), `none`
 * (`cobra.NoArgs`: `unknown command "x" for "gh label list"`, printed with the usage).
 */
export type GhArgsRule =
  | { readonly kind: 'any' }
  | { readonly kind: 'at_most'; readonly count: number }
  | { readonly kind: 'exact'; readonly count: number }
  | { readonly kind: 'none_quoted' }
  | { readonly kind: 'none' };

/**
 * The shape of a served command: its flags, its positional arguments, whether it takes `-R`.
 * A command declared for gh's own errors has `use` and `args` (and every flag its `type`,
 * `usage`, `defaultValue`); one with only `minArgs`/`maxArgs` runs gh on any flag or argument
 * error.
 */
export interface GhCommandSpec {
  readonly flags: readonly GhFlagSpec[];
  /** cobra's `Use` (`view [<number> | <url> | <branch>]`): the usage line after the group. */
  readonly use?: string;
  /** How gh checks the positional arguments and words a refusal. */
  readonly args?: GhArgsRule;
  /** Fewest positional arguments gh accepts (when `args` is not declared). */
  readonly minArgs?: number;
  /** Most positional arguments gh accepts (when `args` is not declared). */
  readonly maxArgs?: number;
  /** Whether the command takes `-R/--repo` (gh's `EnableRepoOverride`); `repo view` does not. */
  readonly repoOverride: boolean;
}

/** gh's wording of a command for its own errors: its `Use` and its argument rule. */
export interface GhUsageSpec {
  readonly use: string;
  readonly args: GhArgsRule;
}

/** A command's {@link GhUsageSpec}, when it is declared for gh's own errors. */
export function usageSpecOf(spec: GhCommandSpec): GhUsageSpec | undefined {
  return spec.use === undefined || spec.args === undefined
    ? undefined
    : { use: spec.use, args: spec.args };
}

interface FlagShape {
  readonly short?: string;
  readonly type: GhFlagType;
  readonly usage: string;
  readonly defaultValue: string;
  readonly values?: readonly string[];
}

const declare = (name: string, shape: FlagShape): GhFlagSpec => ({
  name,
  ...shape,
  takesValue: shape.type !== 'bool' && shape.type !== 'nilBool',
  repeatable: shape.type === 'stringSlice',
});
const shortOf = (short: string | undefined) => (short === undefined ? {} : { short });

/** `cmd.Flags().BoolVarP(…, name, short, false, usage)`. */
const bool = (name: string, short: string | undefined, usage = ''): GhFlagSpec =>
  declare(name, { ...shortOf(short), type: 'bool', usage, defaultValue: 'false' });
/** gh's `cmdutil.NilBoolFlag`. */
const nilBool = (name: string, short: string | undefined, usage: string): GhFlagSpec =>
  declare(name, { ...shortOf(short), type: 'nilBool', usage, defaultValue: 'false' });
/** `cmd.Flags().StringVarP(…, name, short, "", usage)`. */
const text = (name: string, short: string | undefined, usage = ''): GhFlagSpec =>
  declare(name, { ...shortOf(short), type: 'string', usage, defaultValue: '' });
/** `cmd.Flags().IntVarP(…, name, short, fallback, usage)`. */
const int = (name: string, short: string | undefined, fallback: number, usage: string) =>
  declare(name, { ...shortOf(short), type: 'int', usage, defaultValue: String(fallback) });
/** `cmd.Flags().StringSliceVarP(…, name, short, nil, usage)`. */
const list = (name: string, short: string | undefined, usage = ''): GhFlagSpec =>
  declare(name, { ...shortOf(short), type: 'stringSlice', usage, defaultValue: '[]' });
/** gh's `cmdutil.StringEnumFlag(…, name, short, fallback, values, usage)`. */
const oneOf = (
  name: string,
  short: string | undefined,
  fallback: string,
  values: readonly string[],
  usage: string,
): GhFlagSpec =>
  declare(name, {
    ...shortOf(short),
    type: 'enum',
    usage: `${usage}: {${values.join('|')}}`,
    defaultValue: fallback,
    values,
  });

/** `--help`, gh's root persistent flag (no `-h` alias: pflag answers `-h` with the help itself). */
export const HELP_FLAG: GhFlagSpec = bool('help', undefined, 'Show help for command');
/** `-R/--repo [HOST/]OWNER/REPO` (gh's `EnableRepoOverride`, a persistent flag of the group). */
export const REPO_FLAG: GhFlagSpec = text(
  'repo',
  'R',
  'Select another repository using the `[HOST/]OWNER/REPO` format',
);
/** `--json fields`, `-q/--jq expr`, `-t/--template tpl` (gh's `AddJSONFlags`). */
export const JSON_FLAGS: readonly GhFlagSpec[] = [
  list('json', undefined, 'Output JSON with the specified `fields`'),
  text('jq', 'q', 'Filter JSON output using a jq `expression`'),
  text('template', 't', 'Format JSON output using a Go template; see "gh help formatting"'),
];

/**
 * The flags and arguments of every served command, as gh v2.60 declares them (`--help` and
 * `--repo` are inherited and added by the planner; they are not in gh's usage either).
 */
export const SERVED_COMMAND_FLAGS: Readonly<Record<ServedCommandName, GhCommandSpec>> = {
  api: {
    flags: [
      text('method', 'X'),
      list('header', 'H'),
      list('raw-field', 'f'),
      list('field', 'F'),
      bool('paginate', undefined),
      bool('slurp', undefined),
      text('jq', 'q'),
      text('template', 't'),
      text('input', undefined),
      text('hostname', undefined),
      list('preview', 'p'),
      text('cache', undefined),
      bool('include', 'i'),
      bool('silent', undefined),
      bool('verbose', undefined),
    ],
    // gh api's argv is read by its own planner (native-api-invocation.ts), not by these checks.
    minArgs: 1,
    maxArgs: 1,
    repoOverride: false,
  },
  'pr view': {
    flags: [
      bool('web', 'w', 'Open a pull request in the browser'),
      bool('comments', 'c', 'View pull request comments'),
      ...JSON_FLAGS,
    ],
    use: 'view [<number> | <url> | <branch>]',
    args: { kind: 'at_most', count: 1 },
    repoOverride: true,
  },
  'pr list': {
    flags: [
      bool('web', 'w', 'List pull requests in the web browser'),
      int('limit', 'L', 30, 'Maximum number of items to fetch'),
      oneOf('state', 's', 'open', ['open', 'closed', 'merged', 'all'], 'Filter by state'),
      text('base', 'B', 'Filter by base branch'),
      text('head', 'H', 'Filter by head branch'),
      list('label', 'l', 'Filter by label'),
      text('author', 'A', 'Filter by author'),
      text('app', undefined, 'Filter by GitHub App author'),
      text('assignee', 'a', 'Filter by assignee'),
      text('search', 'S', 'Search pull requests with `query`'),
      nilBool('draft', 'd', 'Filter by draft state'),
      ...JSON_FLAGS,
    ],
    use: 'list',
    args: { kind: 'none_quoted' },
    repoOverride: true,
  },
  'pr diff': {
    flags: [
      oneOf('color', undefined, 'auto', ['always', 'never', 'auto'], 'Use color in diff output'),
      bool('patch', undefined, 'Display diff in patch format'),
      bool('name-only', undefined, 'Display only names of changed files'),
      bool('web', 'w', 'Open the pull request diff in the browser'),
    ],
    use: 'diff [<number> | <url> | <branch>]',
    args: { kind: 'at_most', count: 1 },
    repoOverride: true,
  },
  'issue view': {
    flags: [
      bool('web', 'w', 'Open an issue in the browser'),
      bool('comments', 'c', 'View issue comments'),
      ...JSON_FLAGS,
    ],
    use: 'view {<number> | <url>}',
    args: { kind: 'exact', count: 1 },
    repoOverride: true,
  },
  'issue list': {
    flags: [
      bool('web', 'w', 'List issues in the web browser'),
      text('assignee', 'a', 'Filter by assignee'),
      list('label', 'l', 'Filter by label'),
      oneOf('state', 's', 'open', ['open', 'closed', 'all'], 'Filter by state'),
      int('limit', 'L', 30, 'Maximum number of issues to fetch'),
      text('author', 'A', 'Filter by author'),
      text('app', undefined, 'Filter by GitHub App author'),
      text('mention', undefined, 'Filter by mention'),
      text('milestone', 'm', 'Filter by milestone number or title'),
      text('search', 'S', 'Search issues with `query`'),
      ...JSON_FLAGS,
    ],
    use: 'list',
    args: { kind: 'none_quoted' },
    repoOverride: true,
  },
  'repo view': {
    flags: [
      bool('web', 'w', 'Open a repository in the browser'),
      text('branch', 'b', 'View a specific branch of the repository'),
      ...JSON_FLAGS,
    ],
    use: 'view [<repository>]',
    args: { kind: 'at_most', count: 1 },
    repoOverride: false,
  },
  'release list': {
    flags: [
      int('limit', 'L', 30, 'Maximum number of items to fetch'),
      bool('exclude-drafts', undefined, 'Exclude draft releases'),
      bool('exclude-pre-releases', undefined, 'Exclude pre-releases'),
      oneOf('order', 'O', 'desc', ['asc', 'desc'], 'Order of releases returned'),
      ...JSON_FLAGS,
    ],
    use: 'list',
    args: { kind: 'none' },
    repoOverride: true,
  },
  'release view': {
    flags: [bool('web', 'w', 'Open the release in the browser'), ...JSON_FLAGS],
    use: 'view [<tag>]',
    args: { kind: 'at_most', count: 1 },
    repoOverride: true,
  },
  'label list': {
    flags: [
      bool('web', 'w', 'List labels in the web browser'),
      int('limit', 'L', 30, 'Maximum number of labels to fetch'),
      text('search', 'S', 'Search label names and descriptions'),
      oneOf('order', undefined, 'asc', ['asc', 'desc'], 'Order of labels returned'),
      oneOf('sort', undefined, 'created', ['created', 'name'], 'Sort fetched labels'),
      ...JSON_FLAGS,
    ],
    use: 'list',
    args: { kind: 'none' },
    repoOverride: true,
  },
  ...ACTIONS_COMMAND_FLAGS,
  ...SEARCH_COMMAND_FLAGS,
  ...CHECKS_COMMAND_FLAGS,
};

/** What gh has under one command group: its read verbs, its write verbs, its sub-groups. */
export interface GhGroupSpec {
  /** Verbs that only read (served or not yet). */
  readonly reads: readonly string[];
  /** Verbs that write, clone, download, prompt or otherwise change state. */
  readonly writes: readonly string[];
}

/**
 * gh's command groups (v2.60), so that a delegation can say whether a command is a write, a
 * read `relay native` does not serve, or unknown to gh (an extension or alias, for gh to run).
 * Top-level commands without verbs (`api`, `browse`, `status`, …) are in
 * {@link GH_TOP_LEVEL_COMMANDS}.
 */
export const GH_COMMAND_GROUPS: Readonly<Record<string, GhGroupSpec>> = {
  pr: {
    reads: ['view', 'list', 'diff', 'checks', 'status'],
    writes: [
      'create',
      'edit',
      'close',
      'reopen',
      'merge',
      'ready',
      'review',
      'comment',
      'checkout',
      'lock',
      'unlock',
      'update-branch',
    ],
  },
  issue: {
    reads: ['view', 'list', 'status'],
    writes: [
      'create',
      'edit',
      'close',
      'reopen',
      'delete',
      'comment',
      'transfer',
      'pin',
      'unpin',
      'lock',
      'unlock',
      'develop',
    ],
  },
  repo: {
    reads: ['view', 'list', 'gitignore', 'license', 'deploy-key', 'autolink'],
    writes: [
      'create',
      'clone',
      'fork',
      'edit',
      'delete',
      'archive',
      'unarchive',
      'rename',
      'sync',
      'set-default',
    ],
  },
  release: {
    reads: ['list', 'view'],
    writes: ['create', 'edit', 'delete', 'delete-asset', 'upload', 'download'],
  },
  label: { reads: ['list'], writes: ['create', 'edit', 'delete', 'clone'] },
  run: { reads: ['list', 'view', 'watch'], writes: ['rerun', 'cancel', 'delete', 'download'] },
  workflow: { reads: ['list', 'view'], writes: ['run', 'enable', 'disable'] },
  search: { reads: ['code', 'commits', 'issues', 'prs', 'repos'], writes: [] },
  gist: { reads: ['list', 'view'], writes: ['create', 'edit', 'delete', 'clone', 'rename'] },
  cache: { reads: ['list'], writes: ['delete'] },
  ruleset: { reads: ['list', 'view', 'check'], writes: [] },
  project: {
    reads: ['list', 'view', 'field-list', 'item-list'],
    writes: [
      'close',
      'copy',
      'create',
      'delete',
      'edit',
      'field-create',
      'field-delete',
      'item-add',
      'item-archive',
      'item-create',
      'item-delete',
      'item-edit',
      'link',
      'mark-template',
      'unlink',
    ],
  },
  org: { reads: ['list'], writes: [] },
  secret: { reads: ['list'], writes: ['set', 'delete'] },
  variable: { reads: ['list', 'get'], writes: ['set', 'delete'] },
  'ssh-key': { reads: ['list'], writes: ['add', 'delete'] },
  'gpg-key': { reads: ['list'], writes: ['add', 'delete'] },
  attestation: { reads: ['verify', 'download', 'trusted-root'], writes: [] },
  auth: {
    reads: ['status', 'token'],
    writes: ['login', 'logout', 'refresh', 'setup-git', 'switch'],
  },
  config: { reads: ['get', 'list'], writes: ['set', 'clear-cache'] },
  alias: { reads: ['list'], writes: ['set', 'delete', 'import'] },
  extension: {
    reads: ['list', 'search', 'browse'],
    writes: ['install', 'upgrade', 'remove', 'create', 'exec'],
  },
  codespace: {
    reads: ['list', 'view', 'logs', 'ports'],
    writes: ['code', 'cp', 'create', 'delete', 'edit', 'jupyter', 'rebuild', 'ssh', 'stop'],
  },
};

/**
 * The aliases gh v2.60 declares (cobra `Aliases`) for the commands `relay native` serves, by
 * group: `ls` for each served `list`. An alias is the command itself: gh's usage and errors
 * name the command by its `Use` (`gh pr list`), never by the alias typed.
 */
export const GH_VERB_ALIASES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  pr: { ls: 'list' },
  issue: { ls: 'list' },
  release: { ls: 'list' },
  label: { ls: 'list' },
  run: { ls: 'list' },
  workflow: { ls: 'list' },
  gist: { ls: 'list' },
};

/** gh's top-level commands that have no verbs, each marked read or write. */
export const GH_TOP_LEVEL_COMMANDS: Readonly<Record<string, 'read' | 'write'>> = {
  api: 'read',
  browse: 'read',
  status: 'read',
  completion: 'read',
  copilot: 'write',
};

/** Tokens that ask gh for help or its version instead of running a command. */
export const GH_HELP_TOKENS: readonly string[] = ['help', '-h', '--help', 'version', '--version'];
