/**
 * gh's command groups and the flag tables of the read commands `relay native` knows, as data
 * (GH-CLI.md; flag sets read from cli/cli v2.60.0's `pkg/cmd/<group>/<verb>`). A command not
 * in {@link SERVED_COMMAND_FLAGS} is never served: it runs the native gh.
 */

import { ACTIONS_COMMAND_FLAGS } from './gh-command-table-actions.js';
import type { ActionsCommandName } from './gh-command-table-actions.js';

/** One flag of a gh command, as pflag declares it. */
export interface GhFlagSpec {
  /** The long name without dashes (`repo`). */
  readonly name: string;
  /** The one-letter alias without its dash (`R`), when there is one. */
  readonly short?: string;
  /** Whether the flag takes a value (`--repo x`); otherwise it is a boolean (`--web`). */
  readonly takesValue: boolean;
  /** Whether repeated occurrences accumulate (pflag string slices: `--json`, `--label`). */
  readonly repeatable: boolean;
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
  | ActionsCommandName;

/** The shape of a served command: its flags and how many positional arguments gh accepts. */
export interface GhCommandSpec {
  readonly flags: readonly GhFlagSpec[];
  /** Fewest positional arguments gh accepts. */
  readonly minArgs: number;
  /** Most positional arguments gh accepts. */
  readonly maxArgs: number;
  /** Whether the command takes `-R/--repo` (gh's `EnableRepoOverride`); `repo view` does not. */
  readonly repoOverride: boolean;
}

const value = (name: string, short?: string): GhFlagSpec =>
  short === undefined
    ? { name, takesValue: true, repeatable: false }
    : { name, short, takesValue: true, repeatable: false };
const list = (name: string, short?: string): GhFlagSpec =>
  short === undefined
    ? { name, takesValue: true, repeatable: true }
    : { name, short, takesValue: true, repeatable: true };
const bool = (name: string, short?: string): GhFlagSpec =>
  short === undefined
    ? { name, takesValue: false, repeatable: false }
    : { name, short, takesValue: false, repeatable: false };

/** `--help`/`-h`, which cobra gives every command. */
export const HELP_FLAG: GhFlagSpec = bool('help', 'h');
/** `-R/--repo [HOST/]OWNER/REPO` (gh's `EnableRepoOverride`). */
export const REPO_FLAG: GhFlagSpec = value('repo', 'R');
/** `--json fields`, `-q/--jq expr`, `-t/--template tpl` (gh's `AddJSONFlags`). */
export const JSON_FLAGS: readonly GhFlagSpec[] = [
  list('json'),
  value('jq', 'q'),
  value('template', 't'),
];

/** The flags and arity of every served command (`--help` and `--repo` are added by the parser). */
export const SERVED_COMMAND_FLAGS: Readonly<Record<ServedCommandName, GhCommandSpec>> = {
  api: {
    flags: [
      value('method', 'X'),
      list('header', 'H'),
      list('raw-field', 'f'),
      list('field', 'F'),
      bool('paginate'),
      bool('slurp'),
      value('jq', 'q'),
      value('template', 't'),
      value('input'),
      value('hostname'),
      list('preview', 'p'),
      value('cache'),
      bool('include', 'i'),
      bool('silent'),
      bool('verbose'),
    ],
    minArgs: 1,
    maxArgs: 1,
    repoOverride: false,
  },
  'pr view': {
    flags: [bool('web', 'w'), bool('comments', 'c'), ...JSON_FLAGS],
    minArgs: 0,
    maxArgs: 1,
    repoOverride: true,
  },
  'pr list': {
    flags: [
      bool('web', 'w'),
      value('limit', 'L'),
      value('state', 's'),
      value('base', 'B'),
      value('head', 'H'),
      list('label', 'l'),
      value('author', 'A'),
      value('app'),
      value('assignee', 'a'),
      value('search', 'S'),
      bool('draft', 'd'),
      ...JSON_FLAGS,
    ],
    minArgs: 0,
    maxArgs: 0,
    repoOverride: true,
  },
  'pr diff': {
    flags: [value('color'), bool('patch'), bool('name-only'), bool('web', 'w')],
    minArgs: 0,
    maxArgs: 1,
    repoOverride: true,
  },
  'issue view': {
    flags: [bool('web', 'w'), bool('comments', 'c'), ...JSON_FLAGS],
    minArgs: 1,
    maxArgs: 1,
    repoOverride: true,
  },
  'issue list': {
    flags: [
      bool('web', 'w'),
      value('assignee', 'a'),
      list('label', 'l'),
      value('state', 's'),
      value('limit', 'L'),
      value('author', 'A'),
      value('app'),
      value('mention'),
      value('milestone', 'm'),
      value('search', 'S'),
      ...JSON_FLAGS,
    ],
    minArgs: 0,
    maxArgs: 0,
    repoOverride: true,
  },
  'repo view': {
    flags: [bool('web', 'w'), value('branch', 'b'), ...JSON_FLAGS],
    minArgs: 0,
    maxArgs: 1,
    repoOverride: false,
  },
  'release list': {
    flags: [
      value('limit', 'L'),
      bool('exclude-drafts'),
      bool('exclude-pre-releases'),
      value('order', 'O'),
      ...JSON_FLAGS,
    ],
    minArgs: 0,
    maxArgs: 0,
    repoOverride: true,
  },
  'release view': {
    flags: [bool('web', 'w'), ...JSON_FLAGS],
    minArgs: 0,
    maxArgs: 1,
    repoOverride: true,
  },
  'label list': {
    flags: [
      bool('web', 'w'),
      value('limit', 'L'),
      value('search', 'S'),
      value('order'),
      value('sort'),
      ...JSON_FLAGS,
    ],
    minArgs: 0,
    maxArgs: 0,
    repoOverride: true,
  },
  ...ACTIONS_COMMAND_FLAGS,
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
