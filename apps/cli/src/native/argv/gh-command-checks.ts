import {
  formatJsonFieldError,
  JSON_FIELD_CATALOGUES,
  missingFieldsError,
  selectJsonFields,
} from '../export/json-field-catalogue.js';
import type { ExportCommand } from '../export/json-field-catalogue.js';
import { lastFlagValue } from './gh-argv-parser.js';
import type { GhArgvError, ParsedGhArgv } from './gh-argv-parser.js';
import { HELP_FLAG, REPO_FLAG, SERVED_COMMAND_FLAGS, usageSpecOf } from './gh-command-table.js';
import type { GhCommandSpec, GhUsageSpec, ServedCommandName } from './gh-command-table.js';
import { flagType, formatArgvError, formatUsageError, renderCommandUsage } from './gh-usage.js';
import { parseGoInt } from './go-int-option.js';
import { quoteGo, quoteGoList } from './go-quote.js';

/**
 * gh's own refusals of a served command line, in the order gh makes them (cobra v1.8 `execute`:
 * flags, then `--help`, then the arguments, then `PreRunE`, then `RunE`), each as the exact
 * stderr gh prints (exit 1). Pure stages the planner runs one after the other.
 */

/** Which gh check refused the command line. */
export const GH_USAGE_FAILURES = [
  /** pflag: a value flag without its value. */
  'missing_value',
  /** pflag: a value the flag's type refuses (boolean, integer, enum). */
  'invalid_value',
  /** Bare `--json`: gh lists the command's fields. */
  'missing_json_fields',
  /** cobra or gh: too many or too few positional arguments. */
  'arguments',
  /** `--web` with `--json`. */
  'json_with_web',
  /** `--jq` without `--json`. */
  'jq_without_json',
  /** `--template` without `--json`. */
  'template_without_json',
  /** A `--json` field the command does not have. */
  'unknown_json_field',
  /** `--limit` below 1. */
  'invalid_limit',
  /** `--author` with `--app`. */
  'author_with_app',
  /** `label list --search` with `--order` or `--sort`. */
  'search_with_order',
  /** `gist list --include-content` without `--filter`. */
  'include_content_without_filter',
  /** `pr view`/`pr diff -R` without an argument. */
  'repo_without_argument',
  /** `pr diff --color` in another case than gh's switch knows (`Never`). */
  'unsupported_color',
  /** `run view` with neither a run id nor `--job`, and no terminal to prompt on. */
  'run_or_job_required',
  /** `run view --web` with `--log`. */
  'web_with_log',
  /** `run view --log` with `--log-failed`. */
  'log_with_log_failed',
  /** `run watch` without a run id, and no terminal to prompt on. */
  'run_id_required',
  /** `workflow view` without a workflow, and no terminal to prompt on. */
  'workflow_required',
  /** `workflow view --ref` without `--yaml`. */
  'ref_without_yaml',
  /** A `-R`/GH_REPO value (or a `repo view` argument) that is not `[HOST/]OWNER/REPO`. */
  'invalid_repo',
  /** A search command with neither keywords nor flags. */
  'search_keywords_required',
  /** A search `--limit` outside 1..1000. */
  'search_limit_range',
  /** `pr checks --fail-fast` without `--watch`. */
  'fail_fast_without_watch',
  /** `pr checks --interval` without `--watch`. */
  'interval_without_watch',
  /** `pr checks --interval` seconds Go's `time.ParseDuration` refuses (overflow). */
  'invalid_interval',
] as const;

/** Which gh check refused the command line. */
export type GhUsageFailureCode = (typeof GH_USAGE_FAILURES)[number];

/** gh's refusal: what it prints on stderr (stdout stays empty), exit 1. */
export interface GhUsageFailure {
  readonly kind: 'fail';
  readonly code: GhUsageFailureCode;
  readonly stderr: string;
}

/** A refusal gh words in a way not reproduced exactly (non-ASCII quoted text): gh answers it. */
export interface GhUnmodelledFailure {
  readonly kind: 'unmodelled';
}

/** What a stage decides: a refusal, gh's own answer, or nothing (the next stage runs). */
export type GhCheckOutcome = GhUsageFailure | GhUnmodelledFailure | undefined;

const UNMODELLED: GhUnmodelledFailure = { kind: 'unmodelled' };

/** A plain error: the message and a newline, no usage. */
function plain(code: GhUsageFailureCode, message: string): GhUsageFailure {
  return { kind: 'fail', code, stderr: `${message}\n` };
}

/**
 * A `FlagError` (or cobra's `unknown command`): the message, a blank line, the usage; gh's
 * own answer when the command's usage is not declared.
 */
function withUsage(
  code: GhUsageFailureCode,
  command: ServedCommandName,
  message: string,
): GhUsageFailure | GhUnmodelledFailure {
  const spec = SERVED_COMMAND_FLAGS[command];
  const declared = usageSpecOf(spec);
  if (declared === undefined) return UNMODELLED;
  const usage = renderCommandUsage(command, declared, spec.flags);
  return { kind: 'fail', code, stderr: formatUsageError(message, usage) };
}

/** The command's `--json` catalogue name, when it has one (gh's `AddJSONFlags`). */
function exportCommand(command: ServedCommandName): ExportCommand | undefined {
  return Object.hasOwn(JSON_FIELD_CATALOGUES, command) ? (command as ExportCommand) : undefined;
}

/** gh's usage data of a command, when declared (the checks below run only then). */
function usageOf(command: ServedCommandName): GhUsageSpec | undefined {
  return usageSpecOf(SERVED_COMMAND_FLAGS[command]);
}

/**
 * Stage 1, cobra's flag parsing: a missing or refused value. Bare `--json` is gh's field list
 * (AddJSONFlags' flag-error hook, no usage); every other flag error carries the usage.
 */
export function checkFlagParse(
  command: ServedCommandName,
  error: Extract<GhArgvError, { code: 'missing_value' | 'invalid_value' }>,
): GhCheckOutcome {
  const exported = exportCommand(command);
  if (usageOf(command) === undefined) return UNMODELLED;
  if (error.code === 'missing_value' && error.flag.name === 'json' && exported !== undefined) {
    const missing = missingFieldsError(exported);
    if (missing.code !== 'missing_fields') return UNMODELLED;
    return { kind: 'fail', code: 'missing_json_fields', stderr: formatJsonFieldError(missing) };
  }
  const message = formatArgvError(error);
  if (message === undefined) return UNMODELLED;
  return withUsage(error.code, command, message);
}

/**
 * Whether any flag given (even empty or `false`) has a value type, the inherited `-R` included:
 * gh's `NoArgsQuoteReminder` then asks for quotes.
 */
function hasValueFlag(spec: GhCommandSpec, parsed: ParsedGhArgv): boolean {
  const declared = [...spec.flags, HELP_FLAG, REPO_FLAG];
  return Object.keys(parsed.flags).some((name) => {
    const flag = declared.find((candidate) => candidate.name === name);
    return flag !== undefined && flagType(flag) !== 'bool' && flagType(flag) !== 'nilBool';
  });
}

/** Stage 2, cobra's `ValidateArgs`: the command's positional arguments. */
export function checkArguments(command: ServedCommandName, parsed: ParsedGhArgv): GhCheckOutcome {
  const spec = SERVED_COMMAND_FLAGS[command];
  const { args } = parsed;
  const declared = usageSpecOf(spec);
  if (declared === undefined) {
    const fits =
      args.length >= (spec.minArgs ?? 0) &&
      args.length <= (spec.maxArgs ?? Number.MAX_SAFE_INTEGER);
    return fits ? undefined : UNMODELLED;
  }
  const rule = declared.args;
  switch (rule.kind) {
    case 'any':
      return undefined;
    case 'at_most':
      return args.length > rule.count
        ? plain('arguments', `accepts at most ${rule.count} arg(s), received ${args.length}`)
        : undefined;
    case 'exact':
      return args.length === rule.count
        ? undefined
        : plain('arguments', `accepts ${rule.count} arg(s), received ${args.length}`);
    case 'none_quoted': {
      const [first] = args;
      if (first === undefined) return undefined;
      const quoted = args.length === 1 ? quoteGo(first) : quoteGoList(args);
      if (quoted === undefined) return UNMODELLED;
      const noun = args.length === 1 ? 'argument' : 'arguments';
      const hint = hasValueFlag(spec, parsed) ? '; please quote all values that have spaces' : '';
      return withUsage('arguments', command, `unknown ${noun} ${quoted}${hint}`);
    }
    case 'none': {
      const [first] = args;
      if (first === undefined) return undefined;
      const quoted = quoteGo(first);
      if (quoted === undefined) return UNMODELLED;
      return withUsage('arguments', command, `unknown command ${quoted} for "gh ${command}"`);
    }
  }
}

/**
 * Stage 3, AddJSONFlags' `PreRunE`: `--web` with `--json`, then each `--json` field against
 * the catalogue; without `--json`, `--jq` and then `--template` are refused. A flag counts as
 * given even when its value is empty or `false` (pflag's `Changed`).
 */
export function checkJsonFlags(command: ServedCommandName, parsed: ParsedGhArgv): GhCheckOutcome {
  const exported = exportCommand(command);
  if (exported === undefined) return undefined;
  const { flags } = parsed;
  if (usageOf(command) === undefined) {
    return flags.json === undefined && flags.jq !== undefined ? UNMODELLED : undefined;
  }
  if (flags.json !== undefined) {
    if (flags.web !== undefined) return plain('json_with_web', 'cannot use `--web` with `--json`');
    const selection = selectJsonFields(exported, flags);
    if (selection.ok) return undefined;
    const { error } = selection;
    if (error.code !== 'unknown_field') return UNMODELLED;
    // gh quotes the field with Go's %q; the catalogue's writer agrees on printable ASCII.
    if (!/^[\x20-\x7e]*$/.test(error.field)) return UNMODELLED;
    return { kind: 'fail', code: 'unknown_json_field', stderr: formatJsonFieldError(error) };
  }
  if (flags.jq !== undefined) {
    return plain('jq_without_json', 'cannot use `--jq` without specifying `--json`');
  }
  if (flags.template !== undefined) {
    return plain('template_without_json', 'cannot use `--template` without specifying `--json`');
  }
  return undefined;
}

/** The `--limit` value gh holds: the last occurrence (already Go integer syntax), or 30. */
function limitValue(parsed: ParsedGhArgv): bigint {
  const raw = lastFlagValue(parsed, 'limit');
  return (raw === undefined ? undefined : parseGoInt(raw)) ?? 30n;
}

/** `pr view`/`pr diff`: a non-empty `-R` needs a selector (gh words it two ways). */
function checkRepoArgument(
  command: ServedCommandName,
  parsed: ParsedGhArgv,
  flagName: string,
): GhCheckOutcome {
  const repoFlag = lastFlagValue(parsed, 'repo') ?? '';
  if (repoFlag === '' || parsed.args.length > 0) return undefined;
  const message = `argument required when using the ${flagName} flag`;
  return withUsage('repo_without_argument', command, message);
}

/** `pr list`/`issue list`/`label list`: `--limit` below 1, in the command's own words. */
function checkLimit(
  command: ServedCommandName,
  parsed: ParsedGhArgv,
  describe: (limit: bigint) => string,
): GhCheckOutcome {
  const limit = limitValue(parsed);
  return limit < 1n ? withUsage('invalid_limit', command, describe(limit)) : undefined;
}

/** `pr list`/`issue list`: `--author` and `--app` both given (even empty). */
function checkAuthorApp(command: ServedCommandName, parsed: ParsedGhArgv): GhCheckOutcome {
  if (parsed.flags.author === undefined || parsed.flags.app === undefined) return undefined;
  return withUsage('author_with_app', command, 'specify only `--author` or `--app`');
}

/** gh's `pr diff --color` switch: case-sensitive, unlike the flag that let the value in. */
const DIFF_COLORS: readonly string[] = ['always', 'auto', 'never'];

function checkDiffColor(parsed: ParsedGhArgv): GhCheckOutcome {
  const color = lastFlagValue(parsed, 'color') ?? 'auto';
  if (DIFF_COLORS.includes(color)) return undefined;
  const quoted = quoteGo(color);
  return quoted === undefined
    ? UNMODELLED
    : plain('unsupported_color', `unsupported color ${quoted}`);
}

/** `label list --search` with `--order` or `--sort` (given, whatever their value). */
function checkLabelSearch(parsed: ParsedGhArgv): GhCheckOutcome {
  const search = lastFlagValue(parsed, 'search') ?? '';
  if (search === '' || (parsed.flags.order === undefined && parsed.flags.sort === undefined)) {
    return undefined;
  }
  const message = 'cannot specify `--order` or `--sort` with `--search`';
  return withUsage('search_with_order', 'label list', message);
}

/** `gist list --include-content` without a `--filter` (an empty one counts as none). */
function checkIncludeContent(parsed: ParsedGhArgv): GhCheckOutcome {
  if ((lastFlagValue(parsed, 'filter') ?? '') !== '') return undefined;
  if (lastFlagValue(parsed, 'include-content') !== 'true') return undefined;
  const message = 'cannot use --include-content without --filter';
  return withUsage('include_content_without_filter', 'gist list', message);
}

/**
 * `run view`'s `RunE` checks (gh v2.60 `NewCmdView`), in gh's order: neither a run id nor a
 * (non-empty) `--job` is a flag error when gh cannot prompt (stdout not a terminal); then
 * `--web` with `--log`, then `--log` with `--log-failed` (booleans that are on). On a
 * terminal without an id gh prompts (or, stdin not a terminal, refuses): gh decides, and
 * none of the checks is made here.
 */
function checkRunView(parsed: ParsedGhArgv, terminal: boolean): GhCheckOutcome {
  if (parsed.args.length === 0 && (lastFlagValue(parsed, 'job') ?? '') === '') {
    if (terminal) return undefined;
    const message = 'run or job ID required when not running interactively';
    return withUsage('run_or_job_required', 'run view', message);
  }
  const on = (name: string) => lastFlagValue(parsed, name) === 'true';
  if (on('web') && on('log')) {
    return withUsage('web_with_log', 'run view', 'specify only one of --web or --log');
  }
  if (on('log') && on('log-failed')) {
    return withUsage(
      'log_with_log_failed',
      'run view',
      'specify only one of --log or --log-failed',
    );
  }
  return undefined;
}

/**
 * `run watch`'s `RunE` check (gh v2.60 `NewCmdWatch`): no run id is a flag error when gh cannot
 * prompt (stdout not a terminal); on a terminal gh prompts, and gh decides.
 */
function checkRunWatch(parsed: ParsedGhArgv, terminal: boolean): GhCheckOutcome {
  if (parsed.args.length > 0 || terminal) return undefined;
  const message = 'run ID required when not running interactively';
  return withUsage('run_id_required', 'run watch', message);
}

/**
 * `workflow view`'s `RunE` checks (gh v2.60 `NewCmdView`), in gh's order: no workflow is a flag
 * error when gh cannot prompt; then a non-empty `--ref` without `--yaml` (on).
 */
function checkWorkflowView(parsed: ParsedGhArgv, terminal: boolean): GhCheckOutcome {
  if (parsed.args.length === 0) {
    if (terminal) return undefined;
    const message = 'workflow argument required when not running interactively';
    return withUsage('workflow_required', 'workflow view', message);
  }
  if (lastFlagValue(parsed, 'yaml') !== 'true' && (lastFlagValue(parsed, 'ref') ?? '') !== '') {
    return withUsage(
      'ref_without_yaml',
      'workflow view',
      '`--yaml` required when specifying `--ref`',
    );
  }
  return undefined;
}

/** gh's `shared.SearchMaxResults`: the most results a search `--limit` may ask for. */
const SEARCH_MAX_RESULTS = 1000n;

/**
 * The search commands' `RunE` checks (gh v2.60 `pkg/cmd/search/*`), in gh's order: neither a
 * keyword nor any flag (cobra's `NFlag`, which counts a flag given even as empty or `false`),
 * then `--limit` outside 1..1000, then (`search issues`, `search prs`) `--author` with `--app`.
 */
function checkSearch(
  command: ServedCommandName,
  parsed: ParsedGhArgv,
  authorApp: boolean,
): GhCheckOutcome {
  if (parsed.args.length === 0 && Object.keys(parsed.flags).length === 0) {
    return withUsage('search_keywords_required', command, 'specify search keywords or flags');
  }
  const limit = limitValue(parsed);
  if (limit < 1n || limit > SEARCH_MAX_RESULTS) {
    return withUsage('search_limit_range', command, '`--limit` must be between 1 and 1000');
  }
  return authorApp ? checkAuthorApp(command, parsed) : undefined;
}

/**
 * The most `--interval` seconds Go's `time.ParseDuration` reads (`1<<63 / time.Second`); gh
 * parses `fmt.Sprintf("%ds", interval)` and refuses a larger magnitude.
 */
const MAX_DURATION_SECONDS = 9_223_372_036n;

/**
 * `pr checks`' `RunE` checks (gh v2.60 `NewCmdChecks`), in gh's order: a non-empty `-R`
 * without an argument, `--fail-fast` (on) without `--watch` (on), `--interval` (given, whatever
 * its value) without `--watch`, then an interval `time.ParseDuration` overflows on.
 */
function checkPrChecks(parsed: ParsedGhArgv): GhCheckOutcome {
  const repo = checkRepoArgument('pr checks', parsed, '`--repo`');
  if (repo !== undefined) return repo;
  const watch = lastFlagValue(parsed, 'watch') === 'true';
  if (lastFlagValue(parsed, 'fail-fast') === 'true' && !watch) {
    const message = 'cannot use `--fail-fast` flag without `--watch` flag';
    return withUsage('fail_fast_without_watch', 'pr checks', message);
  }
  const interval = lastFlagValue(parsed, 'interval');
  if (interval === undefined) return undefined;
  if (!watch) {
    const message = 'cannot use `--interval` flag without `--watch` flag';
    return withUsage('interval_without_watch', 'pr checks', message);
  }
  const seconds = parseGoInt(interval) ?? 0n;
  if (seconds <= MAX_DURATION_SECONDS && seconds >= -MAX_DURATION_SECONDS) return undefined;
  const message = `could not parse \`--interval\` flag: time: invalid duration "${seconds}s"`;
  return withUsage('invalid_interval', 'pr checks', message);
}

/**
 * Each command's `RunE` checks before any request, in gh's order (gh v2.60 `NewCmd*`); the
 * other served commands have none. `terminal`: whether gh's stdout is a terminal.
 */
const RUN_CHECKS: Partial<
  Record<ServedCommandName, (parsed: ParsedGhArgv, terminal: boolean) => GhCheckOutcome>
> = {
  'pr view': (parsed) => checkRepoArgument('pr view', parsed, '--repo'),
  'pr diff': (parsed) => checkRepoArgument('pr diff', parsed, '`--repo`') ?? checkDiffColor(parsed),
  'pr checks': checkPrChecks,
  'search issues': (parsed) => checkSearch('search issues', parsed, true),
  'search prs': (parsed) => checkSearch('search prs', parsed, true),
  'search repos': (parsed) => checkSearch('search repos', parsed, false),
  'search code': (parsed) => checkSearch('search code', parsed, false),
  'search commits': (parsed) => checkSearch('search commits', parsed, false),
  'pr list': (parsed) =>
    checkLimit('pr list', parsed, (limit) => `invalid value for --limit: ${limit}`) ??
    checkAuthorApp('pr list', parsed),
  'issue list': (parsed) =>
    checkLimit('issue list', parsed, (limit) => `invalid limit: ${limit}`) ??
    checkAuthorApp('issue list', parsed),
  'label list': (parsed) =>
    checkLimit('label list', parsed, (limit) => `invalid limit: ${limit}`) ??
    checkLabelSearch(parsed),
  // gh then compiles --filter (Go's POSIX syntax): the gist list command runs gh for any
  // pattern it does not read as a plain string.
  'gist list': (parsed) =>
    checkLimit('gist list', parsed, (limit) => `invalid limit: ${limit}`) ??
    checkIncludeContent(parsed),
  'run list': (parsed) => checkLimit('run list', parsed, (limit) => `invalid limit: ${limit}`),
  'run view': checkRunView,
  'run watch': checkRunWatch,
  'workflow list': (parsed) =>
    checkLimit('workflow list', parsed, (limit) => `invalid limit: ${limit}`),
  'workflow view': checkWorkflowView,
};

/**
 * Stage 4, the command's `RunE` checks before any request; `terminal` is whether stdout is a
 * terminal (`GH_FORCE_TTY` included), which only `run view`'s reads.
 */
export function checkRunFlags(
  command: ServedCommandName,
  parsed: ParsedGhArgv,
  terminal = false,
): GhCheckOutcome {
  if (usageOf(command) === undefined) return undefined;
  return RUN_CHECKS[command]?.(parsed, terminal);
}

/**
 * The error gh's repository parser (go-gh `repository.Parse`) gives a `-R`/GH_REPO value that
 * is not a URL (`git@…`, `ssh:`, `git+ssh:`, `git:`, `http:`, `git+https:`, `https:`) and not
 * `OWNER/REPO` or `HOST/OWNER/REPO`; `undefined` when the value parses, is a URL (whose errors
 * are gh's to word), or has non-ASCII text.
 */
export function formatRepoFormatError(value: string): string | undefined {
  if (/^(git@|ssh:|git\+ssh:|git:|http:|git\+https:|https:)/.test(value)) return undefined;
  const parts = value.split('/');
  const pieces = parts.length > 4 ? [...parts.slice(0, 3), parts.slice(3).join('/')] : parts;
  if (!pieces.some((piece) => piece === '') && (pieces.length === 2 || pieces.length === 3)) {
    return undefined;
  }
  const quoted = quoteGo(value);
  return quoted === undefined
    ? undefined
    : `expected the "[HOST/]OWNER/REPO" format, got ${quoted}`;
}

/**
 * A repository value gh refuses when the command first asks for its repository: plain text,
 * exit 1 (`repo view`'s positional argument: prefixed `argument error: `).
 */
export function checkRepoValue(value: string, prefix = ''): GhCheckOutcome {
  const message = formatRepoFormatError(value);
  return message === undefined ? UNMODELLED : plain('invalid_repo', `${prefix}${message}`);
}
