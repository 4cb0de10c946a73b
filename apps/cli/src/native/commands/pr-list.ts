import type { RelayEnvelope } from '@relay/protocol';
import { parseLimitOption } from '../argv/go-int-option.js';
import type { ServePlan } from '../argv/native-plan.js';
import { sanitizeJson } from '../export/ascii-sanitizer.js';
import { delegated, printed, writeExport } from '../export/export-output.js';
import type { CommandOutcome, JqRunner } from '../export/export-output.js';
import { formatJsonFieldError, selectJsonFields } from '../export/json-field-catalogue.js';
import { exportFields } from '../export/json-export-writer.js';
import {
  PR_FIELD_SOURCES,
  accountsNeedingNames,
  isRestPull,
  prFieldValue,
  renderPrTable,
} from '../export/pr-export.js';
import type { RelayPort } from '../relay-port.js';
import { readAllPages } from '../relay-port.js';
import { readNames, repoPath } from './pr-view.js';
import { cacheNoteOptions, formatCacheNote } from './relay-cache-note.js';
import type { ServedCommand } from './served-command.js';
import { createJqRunner, finishOutcome } from './served-outcome.js';

/** gh's default `pr list --limit`. */
export const PR_LIST_DEFAULT_LIMIT = 30;

/** The most distinct people whose `/users/{login}` names one `pr list --json` reads. */
export const PR_LIST_MAX_NAME_READS = 30;

/** gh's `--state` values and the REST `state` each reads (`merged`: closed, then merged_at). */
const REST_STATES: Readonly<Record<string, string>> = {
  open: 'open',
  closed: 'closed',
  merged: 'closed',
  all: 'all',
};

/** The flags that make gh build a search query (`shouldUseSearch`, and `--app`). */
const SEARCH_FLAGS = ['author', 'app', 'assignee', 'search', 'label', 'draft'] as const;

/** What `pr list` reads besides the port. */
export interface PrListOptions {
  readonly jq: JqRunner;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** A port that also keeps every served envelope (for the cache note). */
function recordingPort(port: RelayPort, envelopes: RelayEnvelope[]): RelayPort {
  return {
    async read(request) {
      const result = await port.read(request);
      if (result.kind === 'served') envelopes.push(result.envelope);
      return result;
    },
  };
}

const flagValue = (plan: Pick<ServePlan, 'flags'>, name: string): string | undefined =>
  plan.flags[name]?.at(-1);

/**
 * `gh pr list [-s open|closed|merged|all] [-B base] [-H head] [-L n] [--json … [--jq …]]`
 * through the relay (stdout not a terminal), as gh v2.60's GraphQL `pullRequests` list
 * (`orderBy CREATED_AT DESC`): REST `GET /repos/{o}/{r}/pulls` (route pr_list) with `state`,
 * `base`, `sort=created`, `direction=desc`; `merged` keeps closed PRs with a `merged_at`,
 * `--head` keeps PRs whose head branch has that name (from any fork, as GraphQL's
 * `headRefName`). Unfiltered lists read pages until `--limit` PRs; filtered ones read the
 * whole set (at most 10 pages, else gh). The table is `number\ttitle\thead\tstate\tcreatedAt`;
 * no PRs prints nothing (exit 0) or `[]` with `--json`. Search-backed flags (`--author`,
 * `--app`, `--assignee`, `--label`, `--draft`, `--search`) run gh: their queries carry
 * qualifiers outside SPEC.md's search grammar, search items lack the head branch, and
 * GraphQL's best-match ranking is not REST's proved order. A PR route read from the relay
 * cache adds client rule 8's stderr note.
 *
 * @param port - the relay (a fake one in unit tests)
 * @throws CliError for relay failures (from the port)
 */
export async function runPrList(
  port: RelayPort,
  plan: Pick<ServePlan, 'flags' | 'repo'>,
  options: PrListOptions,
): Promise<CommandOutcome> {
  const selection = selectJsonFields('pr list', plan.flags);
  if (!selection.ok) {
    if (selection.error.code === 'invalid_csv') return delegated('invalid_usage');
    return printed('', formatJsonFieldError(selection.error), 1);
  }
  const limit = parseLimitOption(plan.flags.limit, PR_LIST_DEFAULT_LIMIT);
  if (!limit.ok) return delegated(limit.reason);
  const state = flagValue(plan, 'state') ?? 'open';
  const restState = REST_STATES[state];
  if (restState === undefined) return delegated('invalid_usage');
  if (SEARCH_FLAGS.some((flag) => plan.flags[flag] !== undefined)) {
    return delegated('unsupported_flag');
  }
  const selected = selection.value;
  if (
    selected.kind === 'json' &&
    selected.fields.some(
      (field) => PR_FIELD_SOURCES[field] !== 'rest' && PR_FIELD_SOURCES[field] !== 'users',
    )
  ) {
    return delegated('unsupported_flag');
  }
  const repo = plan.repo?.repo;
  if (repo === undefined) return delegated('unsupported_shape');

  const base = flagValue(plan, 'base') ?? '';
  const head = flagValue(plan, 'head') ?? '';
  const filtered = state === 'merged' || head !== '';
  const envelopes: RelayEnvelope[] = [];
  const recorded = recordingPort(port, envelopes);
  const pages = await readAllPages(
    recorded,
    {
      path: `${repoPath(repo)}/pulls`,
      query: {
        state: restState,
        ...(base === '' ? {} : { base }),
        sort: 'created',
        direction: 'desc',
      },
    },
    filtered ? {} : { enough: limit.limit },
  );
  switch (pages.kind) {
    case 'fallback':
      return pages;
    case 'unbounded':
    case 'http_error':
      // A missing repository is GraphQL's error text: gh prints it.
      return delegated('unsupported_shape');
    case 'pages':
      break;
  }
  const items = sanitizeJson(pages.items);
  if (!Array.isArray(items) || !items.every(isRestPull)) return delegated('unsupported_shape');
  const shown = items
    .filter((pull) => state !== 'merged' || pull.merged_at !== null)
    .filter((pull) => head === '' || pull.head.ref === head)
    .slice(0, limit.limit);
  const note = formatCacheNote(envelopes, ['pr_list'], cacheNoteOptions(options.env));
  const withNote = (outcome: CommandOutcome): CommandOutcome =>
    outcome.kind === 'done' && note !== ''
      ? { ...outcome, stderr: `${note}${outcome.stderr}` }
      : outcome;

  if (selected.kind === 'human') {
    const table = renderPrTable(shown);
    return table === undefined ? delegated('unsupported_shape') : withNote(printed(table));
  }
  const logins = [...new Set(shown.flatMap((pull) => accountsNeedingNames(pull, selected.fields)))];
  if (logins.length > PR_LIST_MAX_NAME_READS) return delegated('unsupported_flag');
  const names = await readNames(port, logins);
  if (!(names instanceof Map)) return names;
  const rows = [];
  for (const pull of shown) {
    if (selected.fields.some((field) => prFieldValue(pull, field, names) === undefined)) {
      return delegated('unsupported_flag');
    }
    rows.push(
      exportFields(pull, selected.fields, (p, field) => prFieldValue(p, field, names) ?? null),
    );
  }
  return withNote(await writeExport(rows, selected.jq, options.jq));
}

/** `gh pr list` (SPEC.md `relay native` row; README "pr list"). */
export const PR_LIST_COMMAND: ServedCommand = {
  async run(deps, output, plan, argv) {
    const { createSessionRelayPort } = await import('../relay-port.js');
    const outcome = await runPrList(createSessionRelayPort(deps), plan, {
      jq: createJqRunner(deps),
      env: deps.env,
    });
    return finishOutcome(deps, output, argv, outcome);
  },
};
