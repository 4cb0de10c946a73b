import { isFlagOn, lastFlagValue, parseGhArgv } from './gh-argv-parser.js';
import type { ParsedGhArgv } from './gh-argv-parser.js';
import {
  checkArguments,
  checkFlagParse,
  checkJsonFlags,
  checkRepoValue,
  checkRunFlags,
} from './gh-command-checks.js';
import type { GhCheckOutcome, GhUsageFailureCode } from './gh-command-checks.js';
import { parseIssueSelector } from './issue-selector.js';
import { parsePrSelector } from './pr-selector.js';
import {
  GH_COMMAND_GROUPS,
  GH_HELP_TOKENS,
  GH_TOP_LEVEL_COMMANDS,
  GH_VERB_ALIASES,
  HELP_FLAG,
  REPO_FLAG,
  SERVED_COMMAND_FLAGS,
} from './gh-command-table.js';
import type { ServedCommandName } from './gh-command-table.js';
import { selectsNoRepository } from './gh-command-table-search.js';
import {
  GITHUB_HOST,
  parseRepoSelector,
  selectRemoteRepository,
  selectRepository,
} from './repo-selector.js';
import type { GhRepository, GitRemote, RepoSelection } from './repo-selector.js';

/**
 * Why `relay native` hands an invocation to the native gh (SPEC.md client rules 5, 7, 11),
 * checked in this order (the first that applies is the reason):
 * - `no_command` — no argv at all (gh prints its help);
 * - `help` — `help`, `--help`/`-h`, `version`/`--version`, or a group without a verb;
 * - `unknown_command` — not a gh command (an extension, an alias, a typo: gh answers it);
 * - `write` — a gh command that writes, clones, downloads or changes state;
 * - `unsupported_command` — a gh read `relay native` does not serve (`pr checks`, `run list`, …);
 * - `unknown_flag` — a flag the command does not have;
 * - `invalid_usage` — a flag or argument error of gh's whose text is not reproduced (a
 *   `--json`/`--label` value Go's CSV reader refuses, non-ASCII text gh would quote, a
 *   repository URL gh cannot read); the others are a {@link FailPlan};
 * - `web` — `--web`/`-w`;
 * - `template` — `--template`/`-t`;
 * - `unsupported_flag` — a flag the relay does not model (`--comments`, `pr diff --color always`);
 * - `tty_output` — stdout is a terminal (or GH_FORCE_TTY is set): gh's terminal output;
 * - `color_output` — CLICOLOR_FORCE asks for colour on a pipe;
 * - `unsupported_shape` — a shape gh serves through a lookup the relay does not model (a bare
 *   `repo view REPO`, which gh expands with the viewer's login);
 * - `repo_unresolved` — no `-R`, no GH_REPO and no git remote naming a repository;
 * - `other_host` — the repository (or GH_HOST) is not on github.com;
 * - `not_yet_served` — a served shape whose command module does not exist yet (dispatcher).
 */
export const DELEGATE_REASONS = [
  'no_command',
  'help',
  'unknown_command',
  'write',
  'unsupported_command',
  'unknown_flag',
  'invalid_usage',
  'web',
  'template',
  'unsupported_flag',
  'tty_output',
  'color_output',
  'unsupported_shape',
  'repo_unresolved',
  'other_host',
  'not_yet_served',
] as const;

/** A reason to run the native gh instead of the relay. */
export type DelegateReason = (typeof DELEGATE_REASONS)[number];

/** Serve the invocation through the relay with a command module. */
export interface ServePlan {
  readonly kind: 'serve';
  readonly command: ServedCommandName;
  /** Positional arguments after the command path (for `api`: its whole argv, unparsed). */
  readonly args: readonly string[];
  /** Flag values by long name (see {@link ParsedGhArgv.flags}); empty for `api`. */
  readonly flags: Readonly<Record<string, readonly string[]>>;
  /**
   * The repository the command acts on; `undefined` for `api` (it names its own path) and for
   * a `pr view`/`pr diff` of a PR URL when no repository is selected (the URL names it).
   */
  readonly repo: RepoSelection | undefined;
}

/** Run the native gh with the same argv. */
export interface DelegatePlan {
  readonly kind: 'delegate';
  readonly reason: DelegateReason;
}

/**
 * Print gh's own refusal of the command line (a flag or argument error, with gh's usage where
 * gh prints it) on stderr and exit with gh's code, running nothing (see `gh-command-checks.ts`).
 */
export interface FailPlan {
  readonly kind: 'fail';
  /** Which gh check refused it. */
  readonly code: GhUsageFailureCode;
  /** gh's exact stderr. */
  readonly stderr: string;
  /** gh's exit code. */
  readonly exitCode: 1;
}

/** The one decision per `relay native` invocation. */
export type NativePlan = ServePlan | DelegatePlan | FailPlan;

/** What the planner reads besides argv. */
export interface NativePlanContext {
  /** The environment (GH_REPO, GH_HOST, GH_FORCE_TTY, CLICOLOR_FORCE). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Whether stdout is a terminal. */
  readonly stdoutIsTTY: boolean;
  /** The working directory's git remotes; read only when {@link needsGitRemotes} says so. */
  readonly gitRemotes: readonly GitRemote[];
}

const delegate = (reason: DelegateReason): DelegatePlan => ({ kind: 'delegate', reason });

/** A check's outcome as a plan: gh's refusal printed, gh's own answer, or nothing. */
function toPlan(outcome: GhCheckOutcome): FailPlan | DelegatePlan | undefined {
  if (outcome === undefined) return undefined;
  if (outcome.kind === 'unmodelled') return delegate('invalid_usage');
  return { kind: 'fail', code: outcome.code, stderr: outcome.stderr, exitCode: 1 };
}

/** Flags the relay does not model on any command (their presence delegates). */
const UNSUPPORTED_FLAGS: readonly string[] = ['comments'];

type CommandLookup =
  | {
      readonly kind: 'served';
      readonly command: ServedCommandName;
      readonly rest: readonly string[];
    }
  | DelegatePlan;

function isServedCommand(name: string): name is ServedCommandName {
  return Object.hasOwn(SERVED_COMMAND_FLAGS, name);
}

/** Finds the command an argv names: served, or the reason it is not. */
function lookUpCommand(argv: readonly string[]): CommandLookup {
  const [group, verb] = argv;
  if (group === undefined) return delegate('no_command');
  if (GH_HELP_TOKENS.includes(group)) return delegate('help');
  const topLevel = GH_TOP_LEVEL_COMMANDS[group];
  if (topLevel !== undefined) {
    if (isServedCommand(group)) return { kind: 'served', command: group, rest: argv.slice(1) };
    return delegate(topLevel === 'write' ? 'write' : 'unsupported_command');
  }
  const spec = Object.hasOwn(GH_COMMAND_GROUPS, group) ? GH_COMMAND_GROUPS[group] : undefined;
  if (spec === undefined) return delegate('unknown_command');
  if (verb === undefined || GH_HELP_TOKENS.includes(verb)) return delegate('help');
  // Flags before the verb (`gh pr -R o/r view`): a shape the planner does not model.
  if (verb.startsWith('-')) return delegate('unsupported_shape');
  const aliases = GH_VERB_ALIASES[group];
  const canonical = aliases !== undefined && Object.hasOwn(aliases, verb) ? aliases[verb] : verb;
  const name = `${group} ${canonical ?? verb}`;
  if (isServedCommand(name)) return { kind: 'served', command: name, rest: argv.slice(2) };
  if (spec.writes.includes(verb)) return delegate('write');
  if (spec.reads.includes(verb)) return delegate('unsupported_command');
  return delegate('unknown_command');
}

function isTerminalOutput(context: NativePlanContext): boolean {
  const forced = context.env.GH_FORCE_TTY;
  return context.stdoutIsTTY || (forced !== undefined && forced !== '');
}

function isColourForced(env: NativePlanContext['env']): boolean {
  const force = env.CLICOLOR_FORCE;
  return force !== undefined && force !== '' && force !== '0';
}

/**
 * gh's own refusals, in cobra's order once the flags are read: `--help` (gh's help, not an
 * error), the positional arguments, AddJSONFlags' checks, the command's `RunE` checks. None
 * depends on the environment or the repository; only `run view`'s missing id depends on the
 * terminal (gh prompts on one).
 */
function checkUsage(
  command: ServedCommandName,
  parsed: ParsedGhArgv,
  context: NativePlanContext,
): FailPlan | DelegatePlan | undefined {
  if (isFlagOn(parsed, 'help')) return delegate('help');
  return (
    toPlan(checkArguments(command, parsed)) ??
    toPlan(checkJsonFlags(command, parsed)) ??
    toPlan(checkRunFlags(command, parsed, isTerminalOutput(context)))
  );
}

/** The shapes of a valid command line the relay hands to gh, before any repository is selected. */
function checkShape(
  command: ServedCommandName,
  parsed: ParsedGhArgv,
  context: NativePlanContext,
): DelegatePlan | undefined {
  if (isFlagOn(parsed, 'web')) return delegate('web');
  if (parsed.flags.template !== undefined) return delegate('template');
  if (UNSUPPORTED_FLAGS.some((flag) => isFlagOn(parsed, flag))) return delegate('unsupported_flag');
  if (command === 'pr diff' && lastFlagValue(parsed, 'color') === 'always') {
    return delegate('color_output');
  }
  if (isTerminalOutput(context)) return delegate('tty_output');
  if (isColourForced(context.env)) return delegate('color_output');
  return undefined;
}

type RepoOutcome =
  { readonly ok: true; readonly selection: RepoSelection } | DelegatePlan | FailPlan;

/**
 * An owner or repository name that can be a segment of a relayed path: GitHub's own
 * characters (letters, digits, `.`, `_`, `-`), not a bare dot segment. Anything else (`..`,
 * `.`, `%67`, `\`, a space, non-ASCII) names no repository on GitHub — gh asks for it and
 * prints its own error — and the relay refuses most such paths outright (400 invalid_path,
 * which client rule 5 does not turn into a native run).
 */
const PLAIN_REPO_SEGMENT = /^(?!\.{1,2}$)[A-Za-z0-9._-]+$/;

function onGitHub(repo: GhRepository, source: RepoSelection['source']): RepoOutcome {
  if (repo.host !== GITHUB_HOST) return delegate('other_host');
  if (!PLAIN_REPO_SEGMENT.test(repo.owner) || !PLAIN_REPO_SEGMENT.test(repo.name)) {
    return delegate('unsupported_shape');
  }
  return { ok: true, selection: { repo, source } };
}

/** The `-R` value, else GH_REPO: what gh's `OverrideBaseRepoFunc` parses (empty is absent). */
function explicitRepoValue(
  parsed: ParsedGhArgv,
  env: NativePlanContext['env'],
): string | undefined {
  const flag = lastFlagValue(parsed, 'repo');
  if (flag !== undefined && flag !== '') return flag;
  const variable = env.GH_REPO;
  return variable === undefined || variable === '' ? undefined : variable;
}

/**
 * Whether gh asks for the base repository (and so refuses a malformed `-R`/GH_REPO) before
 * anything else can fail: always, but for an `issue view` that is not a plain number (a URL
 * names its own repository; other text is refused first) and a `pr view`/`pr diff` of a PR
 * URL (the planner serves those without a repository).
 */
function readsBaseRepoFirst(command: ServedCommandName, parsed: ParsedGhArgv): boolean {
  if (command === 'issue view') return parseIssueSelector(parsed.args[0] ?? '').kind === 'number';
  return true;
}

/** Selects the repository of a parsed served command as gh does. */
function selectCommandRepo(
  command: ServedCommandName,
  parsed: ParsedGhArgv,
  context: NativePlanContext,
): RepoOutcome {
  if (command === 'repo view') {
    // repo view has no -R and ignores GH_REPO: a positional repository, else the remotes.
    const [argument] = parsed.args;
    if (argument !== undefined) {
      if (!argument.includes('/')) return delegate('unsupported_shape');
      const repo = parseRepoSelector(argument, context.env);
      if (repo !== undefined) return onGitHub(repo, 'argument');
      return toPlan(checkRepoValue(argument, 'argument error: ')) ?? delegate('invalid_usage');
    }
    const remote = selectRemoteRepository(context.gitRemotes, context.env);
    if (!remote.ok) {
      return delegate(remote.error.code === 'invalid_repo' ? 'invalid_usage' : 'repo_unresolved');
    }
    return onGitHub(remote.value, 'git_remote');
  }
  const flag = lastFlagValue(parsed, 'repo');
  const selected = selectRepository({
    ...(flag === undefined ? {} : { flag }),
    env: context.env,
    remotes: context.gitRemotes,
  });
  if (selected.ok) return onGitHub(selected.value.repo, selected.value.source);
  if (selected.error.code !== 'invalid_repo') return delegate('repo_unresolved');
  const explicit = explicitRepoValue(parsed, context.env);
  if (explicit === undefined || !readsBaseRepoFirst(command, parsed)) {
    return delegate('invalid_usage');
  }
  return (
    toPlan(checkRepoValue(explicit, baseRepoErrorPrefix(command))) ?? delegate('invalid_usage')
  );
}

/**
 * The words gh puts before a base-repository error: `run list`, `run view` and `run watch`
 * wrap it (`fmt.Errorf("failed to determine base repo: %w", err)` in v2.60's `listRun`,
 * `runView`, `watchRun`); every other served command returns it bare.
 */
function baseRepoErrorPrefix(command: ServedCommandName): string {
  return command === 'run list' || command === 'run view' || command === 'run watch'
    ? 'failed to determine base repo: '
    : '';
}

/** Whether a `pr view`/`pr diff` argument is a PR URL (gh's finder needs no base repository). */
function namesPullRequestUrl(command: ServedCommandName, parsed: ParsedGhArgv): boolean {
  return (
    (command === 'pr view' || command === 'pr diff') &&
    parsePrSelector(parsed.args[0]).kind === 'url'
  );
}

type ParsedCommand =
  | { readonly kind: 'api'; readonly rest: readonly string[] }
  | {
      readonly kind: 'parsed';
      readonly command: ServedCommandName;
      readonly parsed: ParsedGhArgv;
    }
  | DelegatePlan
  | FailPlan;

/** Reads the flags as pflag does (stage 1 of gh's checks): the parsed argv, or its outcome. */
function readFlags(
  command: ServedCommandName,
  rest: readonly string[],
): ParsedGhArgv | DelegatePlan | FailPlan {
  const spec = SERVED_COMMAND_FLAGS[command];
  const flags = spec.repoOverride
    ? [...spec.flags, HELP_FLAG, REPO_FLAG]
    : [...spec.flags, HELP_FLAG];
  const parsed = parseGhArgv(rest, flags);
  if (parsed.ok) return parsed.value;
  switch (parsed.error.code) {
    case 'unknown_flag':
      return delegate('unknown_flag');
    case 'help':
      return delegate('help');
    case 'unmodelled_value':
      return delegate('invalid_usage');
    case 'missing_value':
    case 'invalid_value':
      return toPlan(checkFlagParse(command, parsed.error)) ?? delegate('invalid_usage');
  }
}

/**
 * Looks the command up, reads its flags and applies, in gh's order, gh's own refusals and
 * then the delegations that need no repository.
 */
function parseCommand(argv: readonly string[], context: NativePlanContext): ParsedCommand {
  const found = lookUpCommand(argv);
  if (found.kind === 'delegate') return found;
  // gh api's own planner (rule 7) decides its reads: hand it the argv untouched.
  if (found.command === 'api') return { kind: 'api', rest: found.rest };
  const parsed = readFlags(found.command, found.rest);
  if ('kind' in parsed) return parsed;
  const refusal = checkUsage(found.command, parsed, context);
  if (refusal !== undefined) return refusal;
  const shape = checkShape(found.command, parsed, context);
  if (shape !== undefined) return shape;
  // gh reads GH_HOST verbatim (no trimming): ` github.com` is another host to gh, whose
  // requests then fail (`parse "https:// github.com/api/graphql": invalid character " " in
  // host name`) — gh runs and says so.
  const hostVariable = context.env.GH_HOST;
  if (
    hostVariable !== undefined &&
    hostVariable !== '' &&
    hostVariable.toLowerCase() !== GITHUB_HOST
  ) {
    return delegate('other_host');
  }
  return { kind: 'parsed', command: found.command, parsed };
}

/**
 * Whether planning `argv` would read the git remotes: a served shape with no `-R`, no
 * GH_REPO (`repo view`: no positional repository). The shell reads the remotes (a `git`
 * process) only then.
 */
export function needsGitRemotes(
  argv: readonly string[],
  context: Omit<NativePlanContext, 'gitRemotes'>,
): boolean {
  const found = parseCommand(argv, { ...context, gitRemotes: [] });
  if (found.kind !== 'parsed' || selectsNoRepository(found.command)) return false;
  if (found.command === 'repo view') return found.parsed.args.length === 0;
  const flag = lastFlagValue(found.parsed, 'repo');
  const ghRepo = context.env.GH_REPO;
  return (flag === undefined || flag === '') && (ghRepo === undefined || ghRepo === '');
}

/**
 * The one decision per `relay native <gh argv>` invocation: serve it through the relay with
 * a command module, delegate it to the native gh with the same argv (SPEC.md client rules
 * 5, 7, 11; reasons in {@link DELEGATE_REASONS} order), or print gh's own flag or argument
 * error (gh's checks in gh's order, before any delegation gh would not reach). Pure and
 * total: never throws.
 *
 * @param argv - gh's argv (`['pr', 'view', '1', '-R', 'acme/widgets']`)
 * @param context - the environment, whether stdout is a terminal, the git remotes
 * @returns a {@link ServePlan}, a {@link DelegatePlan}, or a {@link FailPlan} (gh's own refusal)
 *
 * @example
 * ```ts
 * planNativeInvocation(['pr', 'view', '1', '-R', 'acme/widgets'], { env: {}, stdoutIsTTY: false, gitRemotes: [] });
 * // { kind: 'serve', command: 'pr view', args: ['1'], flags: { repo: ['acme/widgets'] }, repo: { … } }
 * ```
 */
export function planNativeInvocation(
  argv: readonly string[],
  context: NativePlanContext,
): NativePlan {
  const found = parseCommand(argv, context);
  if (found.kind === 'delegate' || found.kind === 'fail') return found;
  if (found.kind === 'api') {
    return { kind: 'serve', command: 'api', args: found.rest, flags: {}, repo: undefined };
  }
  const { command, parsed } = found;
  if (selectsNoRepository(command)) {
    return { kind: 'serve', command, args: parsed.args, flags: parsed.flags, repo: undefined };
  }
  const repo = selectCommandRepo(found.command, found.parsed, context);
  if (!('ok' in repo)) {
    // gh's PR finder takes a PR URL's repository and never asks for a base repository: no
    // repository, or a malformed -R/GH_REPO, does not matter then.
    const unused =
      repo.kind === 'fail' || repo.reason === 'repo_unresolved' || repo.reason === 'invalid_usage';
    if (unused && namesPullRequestUrl(found.command, found.parsed)) {
      return {
        kind: 'serve',
        command: found.command,
        args: found.parsed.args,
        flags: found.parsed.flags,
        repo: undefined,
      };
    }
    return repo;
  }
  return {
    kind: 'serve',
    command: found.command,
    args: found.parsed.args,
    flags: found.parsed.flags,
    repo: repo.selection,
  };
}
