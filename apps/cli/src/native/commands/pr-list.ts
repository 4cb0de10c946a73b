import type { RelayEnvelope } from '@relay/protocol';
import { parseLimitOption } from '../argv/go-int-option.js';
import type { ServePlan } from '../argv/native-plan.js';
import type { GhRepository } from '../argv/repo-selector.js';
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
import type { RestPull } from '../export/pr-export.js';
import type { RelayPort } from '../relay-port.js';
import { readAllPages } from '../relay-port.js';
import { toListSearchQuery } from './list-search-query.js';
import { readListSearch, readSearchedPulls } from './list-search-read.js';
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

/**
 * The flags that make gh build a search query (`shouldUseSearch`, and `--app`) whose
 * qualifiers (`author:`, `assignee:`, `label:`, `draft:`) are outside SPEC.md's search grammar.
 */
const SEARCH_QUALIFIER_FLAGS = ['author', 'app', 'assignee', 'label', 'draft'] as const;

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

/** The PRs a served `pr list` shows, and the routes whose cached answers it notes. */
type ListedPulls =
  | {
      readonly kind: 'pulls';
      readonly pulls: readonly RestPull[];
      readonly notedRoutes: readonly string[];
    }
  | { readonly kind: 'outcome'; readonly outcome: CommandOutcome };

/** What both ways of listing read: the repository, the flags, the limit and the envelopes. */
interface ListRequest {
  readonly repo: GhRepository;
  readonly plan: Pick<ServePlan, 'flags'>;
  readonly state: string;
  readonly limit: number;
  readonly envelopes: RelayEnvelope[];
}

/**
 * gh's GraphQL `pullRequests` list (`orderBy CREATED_AT DESC`) as REST
 * `GET /repos/{o}/{r}/pulls` (route pr_list) with `state`, `base`, `sort=created`,
 * `direction=desc`; `merged` keeps closed PRs with a `merged_at`, `--head` keeps PRs whose
 * head branch has that name (from any fork, as GraphQL's `headRefName`). Unfiltered lists read
 * pages until `--limit` PRs; filtered ones read the whole set (at most 10 pages, else gh).
 */
async function listPulls(port: RelayPort, request: ListRequest): Promise<ListedPulls> {
  const { repo, plan, state, limit, envelopes } = request;
  const base = flagValue(plan, 'base') ?? '';
  const head = flagValue(plan, 'head') ?? '';
  const filtered = state === 'merged' || head !== '';
  const pages = await readAllPages(
    recordingPort(port, envelopes),
    {
      path: `${repoPath(repo)}/pulls`,
      query: {
        state: REST_STATES[state] ?? state,
        ...(base === '' ? {} : { base }),
        sort: 'created',
        direction: 'desc',
      },
    },
    filtered ? {} : { enough: limit },
  );
  switch (pages.kind) {
    case 'fallback':
      return { kind: 'outcome', outcome: pages };
    case 'unbounded':
    case 'http_error':
      // A missing repository is GraphQL's error text: gh prints it.
      return { kind: 'outcome', outcome: delegated('unsupported_shape') };
    case 'pages':
      break;
  }
  const items = sanitizeJson(pages.items);
  if (!Array.isArray(items) || !items.every(isRestPull)) {
    return { kind: 'outcome', outcome: delegated('unsupported_shape') };
  }
  const pulls = items
    .filter((pull) => state !== 'merged' || pull.merged_at !== null)
    .filter((pull) => head === '' || pull.head.ref === head)
    .slice(0, limit);
  return { kind: 'pulls', pulls, notedRoutes: ['pr_list'] };
}

/**
 * gh's search mode for `--search <text>` (`searchPullRequests`: GraphQL `search` of
 * `<text> repo:o/r [state:open|closed] type:pr`, best match, no sort) as REST
 * `GET /search/issues` (route search_issues) with the same `q` and `per_page=<limit>`, then
 * each found PR through `GET /repos/{o}/{r}/pulls/{n}` (route pr_view), in the search's order.
 * Served only for plain terms with `--state open|closed|all`: `merged` (`is:merged`),
 * `--base`/`--head` (`base:`/`head:`) and a text with qualifiers, quotes, operators or
 * negations are outside SPEC.md's search grammar and run gh without a relay round trip.
 * A repository the forge cannot search (422) runs gh, which words the error itself.
 */
async function searchPulls(
  port: RelayPort,
  request: ListRequest,
  text: string,
): Promise<ListedPulls> {
  const { repo, plan, state, limit, envelopes } = request;
  const refused: ListedPulls = { kind: 'outcome', outcome: delegated('unsupported_flag') };
  if (state === 'merged' || (flagValue(plan, 'base') ?? '') !== '') return refused;
  if ((flagValue(plan, 'head') ?? '') !== '') return refused;
  const query = toListSearchQuery({
    text,
    repo,
    state: state === 'closed' || state === 'all' ? state : 'open',
    entity: 'pr',
  });
  if (!query.ok) return refused;
  const found = await readListSearch(port, query.q, limit, envelopes);
  if (found.kind === 'outcome') return found;
  if (found.kind === 'unprocessable') {
    return { kind: 'outcome', outcome: delegated('unsupported_shape') };
  }
  const read = await readSearchedPulls(port, repo, found.items, envelopes);
  if (read.kind === 'outcome') return read;
  return { kind: 'pulls', pulls: read.pulls, notedRoutes: ['search_issues', 'pr_view'] };
}

/**
 * `gh pr list [-s open|closed|merged|all] [-B base] [-H head] [-S text] [-L n]
 * [--json … [--jq …]]` through the relay (stdout not a terminal), as gh v2.60: the PR list
 * ({@link listPulls}), or with a non-empty `--search` the search mode ({@link searchPulls}).
 * The table is `number\ttitle\thead\tstate\tcreatedAt`; no PRs prints nothing (exit 0) or
 * `[]` with `--json`. `--author`, `--app`, `--assignee`, `--label` and `--draft` run gh: gh
 * turns them into search qualifiers outside SPEC.md's search grammar. gh's "capped at 1000
 * results" warning never applies: a `--limit` above 100 runs gh. A PR or search route read
 * from the relay cache adds client rule 8's stderr note.
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
  // gh's enum flag accepts any case and the command lower-cases it (`strings.ToLower(opts.State)`).
  const state = (flagValue(plan, 'state') ?? 'open').toLowerCase();
  if (REST_STATES[state] === undefined) return delegated('invalid_usage');
  if (SEARCH_QUALIFIER_FLAGS.some((flag) => plan.flags[flag] !== undefined)) {
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

  const request: ListRequest = { repo, plan, state, limit: limit.limit, envelopes: [] };
  // gh searches only for a non-empty text: `--search ""` is the plain list.
  const text = flagValue(plan, 'search') ?? '';
  const listed =
    text === '' ? await listPulls(port, request) : await searchPulls(port, request, text);
  if (listed.kind === 'outcome') return listed.outcome;
  const shown = listed.pulls;
  const note = formatCacheNote(
    request.envelopes,
    listed.notedRoutes,
    cacheNoteOptions(options.env),
  );
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
