import { parseGoInt } from '../argv/go-int-option.js';
import type { ServePlan } from '../argv/native-plan.js';
import { sanitizeAscii, sanitizeJson } from '../export/ascii-sanitizer.js';
import { delegated, printed } from '../export/export-output.js';
import type { CommandOutcome } from '../export/export-output.js';
import { hasEscapeDependentControl } from '../export/release-export.js';
import { removeExcessiveWhitespace, renderTsvTable } from '../export/tsv-table.js';
import { createSessionRelayPort, readAllPages } from '../relay-port.js';
import type { RelayPort } from '../relay-port.js';
import type { ServedCommand } from './served-command.js';
import { finishOutcome } from './served-outcome.js';

/** One public gist of `/users/{login}/gists` as gh's table needs it. */
export interface ListedGist {
  readonly id: string;
  /** `""` for `null`, as GraphQL's nullable description decodes in Go. */
  readonly description: string;
  readonly fileNames: readonly string[];
  /** `created_at`, whole seconds in UTC: GraphQL's `CREATED_AT` order. */
  readonly createdAt: string;
  /** `updated_at`, printed as Go's `time.RFC3339`. */
  readonly updatedAt: string;
}

/**
 * GraphQL's `Gist.files` default `limit` (10): gh sees at most 10 files of a gist, and which
 * ones is not REST's to say.
 */
const GRAPHQL_FILE_LIMIT = 10;

/** A GitHub time in whole seconds, UTC: ordered as text exactly as in time. */
const UTC_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** The metacharacters of Go's POSIX syntax: a `--filter` without them is a plain string. */
const REGEXP_META = /[\\.+*?()|[\]{}^$]/;

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Decodes one (sanitized) item of `/users/{login}/gists`; `undefined` when gh's GraphQL view
 * of it is not proved the same: not public, an unexpected type, a time not in whole UTC
 * seconds, more files than GraphQL lists by default, a backspace or form feed whose escape
 * the relayed body no longer shows, two file names gh's sanitizer makes one.
 */
export function decodeListedGist(value: unknown): ListedGist | undefined {
  if (!isRecord(value) || hasEscapeDependentControl(value)) return undefined;
  const { id, description, files, public: isPublic } = value;
  const createdAt = value.created_at;
  const updatedAt = value.updated_at;
  if (typeof id !== 'string' || isPublic !== true || !isRecord(files)) return undefined;
  if (description !== null && description !== undefined && typeof description !== 'string') {
    return undefined;
  }
  if (typeof createdAt !== 'string' || !UTC_SECONDS.test(createdAt)) return undefined;
  if (typeof updatedAt !== 'string' || !UTC_SECONDS.test(updatedAt)) return undefined;
  // gh's sanitizer rewrites the names GraphQL sends (`\u001b` → `^[`); REST's are the keys.
  const keys = Object.keys(files);
  if (keys.some((key) => /[\b\f]/.test(key))) return undefined;
  const fileNames = keys.map(sanitizeAscii);
  if (new Set(fileNames).size !== fileNames.length) return undefined;
  if (fileNames.length > GRAPHQL_FILE_LIMIT) return undefined;
  return { id, description: description ?? '', fileNames, createdAt, updatedAt };
}

/**
 * gh's table row description: the description, else — gh ranges over a Go map, whose order
 * is random — the one file name not starting with `gistfile`; `undefined` when two or more
 * such names make gh's choice random.
 */
function shownDescription(gist: ListedGist): string | undefined {
  if (gist.description !== '') return gist.description;
  const named = gist.fileNames.filter((name) => !name.startsWith('gistfile'));
  if (named.length > 1) return undefined;
  return named[0] ?? '';
}

/** go-gh's `text.Pluralize`. */
function pluralize(count: number, thing: string): string {
  return `${String(count)} ${thing}${count === 1 ? '' : 's'}`;
}

/**
 * gh v2.60's `gist list` rows from the viewer's public gists: newest created first (GraphQL's
 * `orderBy: {field: CREATED_AT, direction: DESC}`), those matching `filter` (a plain string
 * in the description or a file name), the first `limit`; `undefined` when two gists created in
 * the same second decide the order or the cut (GraphQL's order between them is unproved) or a
 * row's description is gh's random pick.
 */
export function renderGistList(
  gists: readonly ListedGist[],
  limit: number,
  filter: string | undefined,
): string | undefined {
  const matching = gists
    .filter(
      (gist) =>
        filter === undefined ||
        gist.description.includes(filter) ||
        gist.fileNames.some((name) => name.includes(filter)),
    )
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  const shown = matching.slice(0, limit);
  for (let i = 0; i < shown.length && i + 1 < matching.length; i += 1) {
    if (matching[i]?.createdAt === matching[i + 1]?.createdAt) return undefined;
  }
  const rows: string[][] = [];
  for (const gist of shown) {
    const description = shownDescription(gist);
    if (description === undefined) return undefined;
    rows.push([
      gist.id,
      removeExcessiveWhitespace(description),
      pluralize(gist.fileNames.length, 'file'),
      'public',
      gist.updatedAt,
    ]);
  }
  return renderTsvTable(rows);
}

/**
 * `gh gist list --public [-L n] [--filter text]` through the relay (stdout not a terminal),
 * as gh v2.60's table: gh lists the viewer's gists over GraphQL (`viewer.gists(privacy:
 * PUBLIC)`); the viewer's public gists are `/users/{login}/gists` (route user_gist_list, every
 * page up to SPEC.md's 10), `login` the saved login's forge login (the user `relay login`
 * exchanged gh's token for, as client rule 4's login probe takes it). REST's order of that
 * list is not GraphQL's, so the relay reads all of it and sorts by `created_at`.
 *
 * gh runs instead for: no `--public`, or `--secret` (secret gists are the viewer's private
 * data, which the pooled reader cannot see), `--include-content`, a `--filter` with a regular
 * expression metacharacter (Go's POSIX syntax is not JavaScript's), no saved login (an
 * explicit RELAY_TOKEN names no login), more than 10 pages, and anything unproved
 * ({@link decodeListedGist}, {@link renderGistList}). No gist: nothing printed, exit 0 (gh's
 * no-results error is silent without a terminal).
 *
 * @param login - the saved login's forge login; `undefined` when there is none
 */
export async function runGistList(
  port: RelayPort,
  plan: Pick<ServePlan, 'flags'>,
  login: string | undefined,
): Promise<CommandOutcome> {
  const { flags } = plan;
  const on = (name: string) => flags[name]?.at(-1) === 'true';
  if (!on('public') || on('secret')) return delegated('unsupported_shape');
  const given = flags.filter?.at(-1) ?? '';
  // U+FFFD may be bytes that are not UTF-8 (Node's argv decoding): Go's regexp refuses those.
  if (on('include-content') || REGEXP_META.test(given) || given.includes('\uFFFD')) {
    return delegated('unsupported_flag');
  }
  const limit = parseGoInt(flags.limit?.at(-1) ?? '10');
  if (limit === undefined || limit < 1n) return delegated('invalid_usage');
  if (login === undefined || login === '') return delegated('unsupported_shape');
  const pages = await readAllPages(port, { path: `/users/${encodeURIComponent(login)}/gists` });
  if (pages.kind === 'fallback') return pages;
  if (pages.kind !== 'pages') return delegated('unsupported_shape');
  const gists: ListedGist[] = [];
  for (const item of sanitizeJson(pages.items) as unknown[]) {
    const gist = decodeListedGist(item);
    if (gist === undefined) return delegated('unsupported_shape');
    gists.push(gist);
  }
  const shownLimit = limit > BigInt(gists.length) ? gists.length : Number(limit);
  const table = renderGistList(gists, shownLimit, given === '' ? undefined : given);
  return table === undefined ? delegated('unsupported_shape') : printed(table);
}

/** `gh gist list` (README "gist list"). */
export const GIST_LIST_COMMAND: ServedCommand = {
  async run(deps, output, plan, argv) {
    const { loadCallerSession } = await import('../../caller-session.js');
    const session = await loadCallerSession(deps);
    const login = session.auth.source === 'saved' ? session.saved?.login : undefined;
    const outcome = await runGistList(createSessionRelayPort(deps), plan, login);
    return finishOutcome(deps, output, argv, outcome);
  },
};
