import { parseLimitOption } from '../argv/go-int-option.js';
import type { ServePlan } from '../argv/native-plan.js';
import { delegated, printed, writeExport } from '../export/export-output.js';
import type { CommandOutcome, JqRunner } from '../export/export-output.js';
import type { GoJsonValue } from '../export/go-json-encoder.js';
import { formatJsonFieldError, selectJsonFields } from '../export/json-field-catalogue.js';
import type { JsonField } from '../export/json-field-catalogue.js';
import {
  decodeSearchItems,
  renderSearchCodeLines,
  renderSearchCommitTable,
  renderSearchIssueTable,
  renderSearchRepoTable,
  searchCodeFieldValue,
  searchCommitFieldValue,
  searchIssueFieldValue,
  searchRepoFieldValue,
} from '../export/search-export.js';
import type { SearchExportCommand } from '../export/search-export.js';
import type { RelayPort } from '../relay-port.js';
import { buildSearchRequest } from './search-query.js';
import { readSearch } from './search-read.js';

/** gh's default `--limit` of every search command. */
export const SEARCH_DEFAULT_LIMIT = 30;

/** gh's bytes for decoded results: the human output, or the `--json` rows. */
interface ResultWriter<T> {
  /** The non-TTY output; `undefined` where gh would not print it the same way. */
  readonly human: (items: readonly T[]) => string | undefined;
  /** One exported field; `undefined` where gh's bytes are not proved. */
  readonly field: (item: T, field: string) => GoJsonValue | undefined;
}

/** Writes the results: gh's table (nothing when none: NoResultsError is silent without a terminal), or `--json`. */
async function writeResults<T>(
  items: readonly T[] | undefined,
  writer: ResultWriter<T>,
  selected:
    | { readonly kind: 'human' }
    | {
        readonly kind: 'json';
        readonly fields: readonly string[];
        readonly jq: string | undefined;
      },
  jq: JqRunner,
): Promise<CommandOutcome> {
  if (items === undefined) return delegated('unsupported_shape');
  if (selected.kind === 'human') {
    if (items.length === 0) return printed('');
    const text = writer.human(items);
    return text === undefined ? delegated('unsupported_shape') : printed(text);
  }
  const rows: Record<string, GoJsonValue>[] = [];
  for (const item of items) {
    const row: Record<string, GoJsonValue> = {};
    for (const field of selected.fields) {
      const value = writer.field(item, field);
      if (value === undefined) return delegated('unsupported_shape');
      row[field] = value;
    }
    rows.push(row);
  }
  return writeExport(rows, selected.jq, jq);
}

/**
 * `gh search issues|prs|repos|code|commits [<query>] [--repo o/r] [--state s] [--include-prs]
 * [--limit n] [--order o] [--sort s] [--json … [--jq …]]` through the relay (stdout not a
 * terminal), as gh v2.60: gh's `q` ({@link buildSearchRequest}, served only inside SPEC.md's
 * search grammar, checked before any round trip), gh's pages ({@link readSearch}), then gh's
 * non-TTY output or `--json` export (`search-export.ts`). No results print nothing (exit 0),
 * or `[]` with `--json`. A `--limit` outside 1..100, any other qualifier flag, a query outside
 * the grammar, a relay `fallback_local` (`search_denied` when the pool does not allow search)
 * and any forge error run gh.
 *
 * @param port - the relay (a fake one in unit tests)
 * @throws CliError for relay failures (from the port)
 */
export async function runSearchCommand(
  command: SearchExportCommand,
  port: RelayPort,
  plan: Pick<ServePlan, 'args' | 'flags'>,
  jq: JqRunner,
): Promise<CommandOutcome> {
  const selection = selectJsonFields(command, plan.flags);
  if (!selection.ok) {
    if (selection.error.code === 'invalid_csv') return delegated('invalid_usage');
    return printed('', formatJsonFieldError(selection.error), 1);
  }
  const limit = parseLimitOption(plan.flags.limit, SEARCH_DEFAULT_LIMIT);
  if (!limit.ok) return delegated(limit.reason);
  const built = buildSearchRequest(command, plan.args, plan.flags);
  if (!built.ok) return delegated(built.reason);
  const read = await readSearch(port, built.request, limit.limit);
  if (read.kind === 'outcome') return read.outcome;
  const selected = selection.value;
  switch (command) {
    case 'search issues':
    case 'search prs': {
      const entity =
        command === 'search prs'
          ? 'prs'
          : plan.flags['include-prs']?.at(-1) === 'true'
            ? 'both'
            : 'issues';
      return writeResults(
        decodeSearchItems('issues', read.items),
        {
          human: (issues) => renderSearchIssueTable(issues, entity),
          field: (issue, field) => searchIssueFieldValue(issue, field as JsonField<'search prs'>),
        },
        selected,
        jq,
      );
    }
    case 'search repos':
      return writeResults(
        decodeSearchItems('repositories', read.items),
        {
          human: renderSearchRepoTable,
          field: (repo, field) => searchRepoFieldValue(repo, field as JsonField<'search repos'>),
        },
        selected,
        jq,
      );
    case 'search code':
      return writeResults(
        decodeSearchItems('code', read.items),
        {
          human: renderSearchCodeLines,
          field: (code, field) => searchCodeFieldValue(code, field as JsonField<'search code'>),
        },
        selected,
        jq,
      );
    case 'search commits':
      return writeResults(
        decodeSearchItems('commits', read.items),
        {
          human: renderSearchCommitTable,
          field: (commit, field) =>
            searchCommitFieldValue(commit, field as JsonField<'search commits'>),
        },
        selected,
        jq,
      );
  }
}
