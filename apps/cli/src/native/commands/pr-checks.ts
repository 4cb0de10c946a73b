import type { RelayEnvelope } from '@relay/protocol';
import { CliError } from '../../cli-error.js';
import type { CurrentBranchSelection } from '../argv/current-branch-pr.js';
import { parseGoInt } from '../argv/go-int-option.js';
import type { ServePlan } from '../argv/native-plan.js';
import type { GhRepository } from '../argv/repo-selector.js';
import {
  aggregateChecks,
  checksExitCode,
  checksJsonData,
  formatNoChecks,
  renderChecksTable,
  selectChecksJsonFields,
  sortChecksTable,
} from '../export/checks-export.js';
import type { CheckAggregate, ChecksJsonSelection } from '../export/checks-export.js';
import { delegated, printed, writeExport } from '../export/export-output.js';
import type { CommandOutcome, JqRunner } from '../export/export-output.js';
import { formatJsonFieldError } from '../export/json-field-catalogue.js';
import { sanitizeJson } from '../export/ascii-sanitizer.js';
import type { RelayPort } from '../relay-port.js';
import { findPull } from './pr-branch-finder.js';
import { formatPrNotFound } from './pr-view.js';
import { headOf, readCheckContexts, readPullHead } from './pr-checks-reads.js';
import type { ChecksReadFailure } from './pr-checks-reads.js';
import { watchChecks } from './pr-checks-watch.js';
import { cacheNoteOptions, formatCacheNote } from './relay-cache-note.js';
import type { ServedCommand } from './served-command.js';
import { createJqRunner, finishOutcome } from './served-outcome.js';

/** What `pr checks` reads besides the port and the plan. */
export interface PrChecksOptions {
  readonly jq: JqRunner;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The current branch's PR selector from git; without a reader, no argument runs gh. */
  readonly currentBranch?: (repo: GhRepository) => Promise<CurrentBranchSelection>;
  /** Waits between watch polls (CliDependencies' sleep; a fake clock in tests). */
  readonly sleep: (ms: number) => Promise<void>;
  /** Writes stdout as `--watch` goes (other modes return their bytes in the outcome). */
  readonly write: (text: string) => void;
}

/** gh's `pr checks` flags as the relay serves them. */
export interface ChecksFlags {
  readonly watch: boolean;
  readonly failFast: boolean;
  /** `--interval` seconds (gh's default 10). */
  readonly intervalSeconds: number;
  readonly json: ChecksJsonSelection;
}

/** The routes the rule 8 cache note covers for `pr checks`. */
const NOTED_ROUTES: readonly string[] = [
  'pr_list',
  'pr_view',
  'commit_check_runs',
  'commit_status',
  'run_list',
];

/** The most `--interval` seconds whose header gh prints without an exponent (`%v` of a float). */
const MAX_INTERVAL_SECONDS = 999_999;

const isOn = (flags: ServePlan['flags'], name: string): boolean => flags[name]?.at(-1) === 'true';

/**
 * Reads gh's flags in gh's order (AddJSONFlags' field check, then `RunE`'s): an unknown
 * `--json` field is gh's own error (exit 1); every other refusal gh words with its usage, and
 * `--required` (GraphQL's `isRequired`, which REST cannot prove for a public reader), run gh.
 */
export function readChecksFlags(
  plan: Pick<ServePlan, 'args' | 'flags'>,
): ChecksFlags | CommandOutcome {
  const selection = selectChecksJsonFields(plan.flags);
  if (!selection.ok) {
    const { error } = selection;
    if (error.code === 'unknown_field' && /^[\x20-\x7e]*$/.test(error.field)) {
      return printed('', formatJsonFieldError(error), 1);
    }
    return delegated('invalid_usage');
  }
  const { flags } = plan;
  const repo = flags.repo?.at(-1);
  if (repo !== undefined && repo !== '' && plan.args.length === 0)
    return delegated('invalid_usage');
  const watch = isOn(flags, 'watch');
  const failFast = isOn(flags, 'fail-fast');
  const interval = flags.interval?.at(-1);
  if ((failFast || interval !== undefined) && !watch) return delegated('invalid_usage');
  let intervalSeconds = 10;
  if (interval !== undefined) {
    const parsed = parseGoInt(interval);
    if (parsed === undefined || parsed > MAX_INTERVAL_SECONDS || parsed < -MAX_INTERVAL_SECONDS) {
      return delegated('invalid_usage');
    }
    intervalSeconds = Number(parsed);
  }
  if (isOn(flags, 'required')) return delegated('unsupported_flag');
  return { watch, failFast, intervalSeconds, json: selection.value };
}

/** The PR whose checks are read, with its head at the first read. */
interface ChecksTarget {
  readonly repo: GhRepository;
  readonly number: number;
  readonly sha: string;
  readonly ref: string;
  readonly envelopes: readonly RelayEnvelope[];
}

/** A port sending `cache-control: max-age=60` on every read (rule 8: the PR head lookup). */
function withHeadMaxAge(port: RelayPort): RelayPort {
  return {
    read: (request) =>
      port.read({ ...request, headers: { 'cache-control': 'max-age=60', ...request.headers } }),
  };
}

const failureOutcome = (failure: ChecksReadFailure): CommandOutcome =>
  failure.kind === 'fallback' ? failure : delegated(failure.reason);

/**
 * Finds the PR as gh's finder does and its head: a branch's head comes with the lookup
 * (route pr_list), a number's or URL's from the PR itself (pr_view); both with max-age=60.
 */
async function findTarget(
  port: RelayPort,
  plan: Pick<ServePlan, 'args' | 'repo'>,
  options: PrChecksOptions,
): Promise<ChecksTarget | CommandOutcome> {
  const headPort = withHeadMaxAge(port);
  const found = await findPull(headPort, plan, {
    ...(options.currentBranch === undefined ? {} : { currentBranch: options.currentBranch }),
  });
  switch (found.kind) {
    case 'fallback':
      return found;
    case 'delegate':
      return delegated('unsupported_shape');
    case 'error':
      return printed('', found.stderr, 1);
    case 'found':
      break;
  }
  const [lookup] = found.envelopes;
  const listed =
    lookup?.body_encoding === 'json' && Array.isArray(lookup.body)
      ? (lookup.body as unknown[]).find(
          (item) =>
            typeof item === 'object' &&
            item !== null &&
            (item as { number?: unknown }).number === found.number,
        )
      : undefined;
  const listedHead = headOf(sanitizeJson(listed));
  if (listedHead !== undefined) {
    return { repo: found.repo, number: found.number, ...listedHead, envelopes: found.envelopes };
  }
  const head = await readPullHead(port, found.repo, found.number, false);
  switch (head.kind) {
    case 'head':
      return {
        repo: found.repo,
        number: found.number,
        sha: head.sha,
        ref: head.ref,
        envelopes: [...found.envelopes, ...(head.envelope === undefined ? [] : [head.envelope])],
      };
    case 'not_found':
      return printed('', formatPrNotFound(found.number), 1);
    case 'fallback':
    case 'delegate':
      return failureOutcome(head);
  }
}

const withNote = (note: string, outcome: CommandOutcome): CommandOutcome =>
  outcome.kind === 'done' && note !== ''
    ? { ...outcome, stderr: `${note}${outcome.stderr}` }
    : outcome;

/** A refresh found no check at all: gh's loop ends with its no-checks error. */
class NoChecksDuringWatch extends Error {}

/** Throws the error that ends a watch the relay can no longer serve (no gh mid-watch). */
function stopWatch(failure: ChecksReadFailure): never {
  throw new CliError('fallback_local', {
    reason: failure.reason,
    message:
      'pr checks --watch stays on the relay: the relay could not serve a refresh, so the watch stops.',
  });
}

/**
 * `gh pr checks [<number> | <url> | <branch>] [--watch [--interval s] [--fail-fast]]
 * [--json fields [--jq expr]]` through the relay (stdout not a terminal), as gh v2.60's
 * `checksRun`:
 * - the PR is found as gh's finder does, its head read with `cache-control: max-age=60`;
 * - the head commit's check runs, combined status and (when needed) Actions runs are read as
 *   the GraphQL rollup's contexts (`pr-checks-reads.ts`; bounds of rule 10);
 * - no context: gh's `no checks reported on the '<head>' branch`, exit 1;
 * - `--json`: the de-duplicated rows' fields, exit 0;
 * - human: gh's non-TTY table in gh's order, exit 1 on a failure, else 8 on a pending
 *   check, else 0; `--watch`: gh's non-TTY loop on the relay ({@link watchChecks});
 * - `--required`, `--web`, flag errors with gh's usage: the native gh.
 *
 * @returns gh's bytes (watch output already written through `options.write`), or why gh runs
 * @throws CliError for relay failures, and for any failure once a watch has printed
 */
export async function runPrChecks(
  port: RelayPort,
  plan: Pick<ServePlan, 'args' | 'flags' | 'repo'>,
  options: PrChecksOptions,
): Promise<CommandOutcome> {
  const flags = readChecksFlags(plan);
  if ('kind' in flags) return flags;
  const target = await findTarget(port, plan, options);
  if ('kind' in target) return target;
  const wantsRunFields =
    flags.json.kind === 'json' &&
    flags.json.fields.some((field) => field === 'workflow' || field === 'event');
  const first = await readCheckContexts(port, target.repo, target.sha, {
    fresh: false,
    wantsRunFields,
  });
  if (first.kind !== 'checks') return failureOutcome(first);
  if (first.contexts.length === 0) return printed('', formatNoChecks(target.ref), 1);
  const aggregate = aggregateChecks(first.contexts);
  const noteOptions = cacheNoteOptions(options.env);
  const note = formatCacheNote(
    [...target.envelopes, ...first.envelopes],
    NOTED_ROUTES,
    noteOptions,
  );
  if (flags.json.kind === 'json') {
    const data = checksJsonData(aggregate.rows, flags.json.fields);
    return withNote(note, await writeExport(data, flags.json.jq, options.jq));
  }
  if (!flags.watch) {
    const rows = [...aggregate.rows];
    sortChecksTable(rows);
    return withNote(note, printed(renderChecksTable(rows), '', checksExitCode(aggregate.counts)));
  }
  const observe = async (fresh: boolean): Promise<CheckAggregate> => {
    const head = await readPullHead(port, target.repo, target.number, fresh);
    if (head.kind === 'not_found') stopWatch({ kind: 'delegate', reason: 'unsupported_shape' });
    if (head.kind !== 'head') stopWatch(head);
    const read = await readCheckContexts(port, target.repo, head.sha, { fresh, wantsRunFields });
    if (read.kind !== 'checks') stopWatch(read);
    if (read.contexts.length === 0) throw new NoChecksDuringWatch(target.ref);
    return aggregateChecks(read.contexts);
  };
  try {
    const counts = await watchChecks(aggregate, {
      intervalSeconds: flags.intervalSeconds,
      failFast: flags.failFast,
      sleep: options.sleep,
      write: options.write,
      observe,
    });
    return printed('', '', checksExitCode(counts));
  } catch (error) {
    if (error instanceof NoChecksDuringWatch) return printed('', formatNoChecks(error.message), 1);
    throw error;
  }
}

/** `gh pr checks` (SPEC.md `relay native` row, client rules 8 and 10; README "pr checks"). */
export const PR_CHECKS_COMMAND: ServedCommand = {
  async run(deps, output, plan, argv) {
    const [{ createSessionRelayPort }, { readCurrentBranchSelection }] = await Promise.all([
      import('../relay-port.js'),
      import('./pr-branch-git.js'),
    ]);
    const outcome = await runPrChecks(createSessionRelayPort(deps), plan, {
      jq: createJqRunner(deps),
      env: deps.env,
      currentBranch: (repo) => readCurrentBranchSelection(deps, repo),
      sleep: deps.sleep,
      write: (text) => {
        output.stdout.write(text);
      },
    });
    return finishOutcome(deps, output, argv, outcome);
  },
};
