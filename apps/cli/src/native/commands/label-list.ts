import type { ServePlan } from '../argv/native-plan.js';
import { parseLimitOption } from '../argv/go-int-option.js';
import { sanitizeJson } from '../export/ascii-sanitizer.js';
import { delegated, printed, writeExport } from '../export/export-output.js';
import type { CommandOutcome, JqRunner } from '../export/export-output.js';
import { selectJsonFields } from '../export/json-field-catalogue.js';
import { formatJsonFieldError } from '../export/json-field-catalogue.js';
import { exportFields } from '../export/json-export-writer.js';
import {
  LABEL_FIELD_SOURCES,
  isRestLabel,
  labelFieldValue,
  renderLabelTable,
} from '../export/label-export.js';
import type { RelayPort } from '../relay-port.js';
import { readAllPages } from '../relay-port.js';
import type { ServedCommand } from './served-command.js';
import { createJqRunner, finishOutcome } from './served-outcome.js';

/** gh's default `label list --limit`. */
export const LABEL_LIST_DEFAULT_LIMIT = 30;

/**
 * `gh label list` through the relay (pure of I/O but the port and jq): gh orders labels by
 * creation (GraphQL `CREATED_AT`, ascending unless `--order desc`), which is REST's label id
 * order, so every page is read (route label_list, at most 10 pages of 100) and sorted by id.
 * `--search` and `--sort name` (GraphQL's own ranking and collation), REST-less fields
 * (`createdAt`, `updatedAt`), a `url` whose escaping is unproved, a limit above 100, more
 * than 1,000 labels and any forge error run gh. No labels: no output, exit 0 (gh's
 * NoResultsError, silent without a terminal, also with `--json`).
 */
export async function runLabelList(
  port: RelayPort,
  plan: Pick<ServePlan, 'flags' | 'repo'>,
  jq: JqRunner,
): Promise<CommandOutcome> {
  const { flags } = plan;
  const selection = selectJsonFields('label list', flags);
  if (!selection.ok) {
    if (selection.error.code === 'invalid_csv') return delegated('invalid_usage');
    return printed('', formatJsonFieldError(selection.error), 1);
  }
  const limit = parseLimitOption(flags.limit, LABEL_LIST_DEFAULT_LIMIT);
  if (!limit.ok) return delegated(limit.reason);
  // gh's enum flags take any case; gh upper-cases both for GraphQL's orderBy.
  const order = flags.order?.at(-1)?.toLowerCase();
  const sort = flags.sort?.at(-1)?.toLowerCase();
  if (order !== undefined && order !== 'asc' && order !== 'desc') return delegated('invalid_usage');
  if (sort !== undefined && sort !== 'created' && sort !== 'name')
    return delegated('invalid_usage');
  if (flags.search !== undefined || sort === 'name') return delegated('unsupported_flag');
  const selected = selection.value;
  if (
    selected.kind === 'json' &&
    selected.fields.some((field) => LABEL_FIELD_SOURCES[field] === 'delegate')
  ) {
    return delegated('unsupported_flag');
  }
  const repo = plan.repo?.repo;
  if (repo === undefined) return delegated('unsupported_shape');

  const pages = await readAllPages(port, {
    path: `/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.name)}/labels`,
  });
  switch (pages.kind) {
    case 'fallback':
      return { kind: 'fallback', reason: pages.reason };
    case 'unbounded':
    case 'http_error':
      // GraphQL words a missing repository its own way: gh prints it.
      return delegated('unsupported_shape');
    case 'pages':
      break;
  }
  const labels = sanitizeJson(pages.items);
  if (!Array.isArray(labels) || !labels.every(isRestLabel)) return delegated('unsupported_shape');
  const ordered = [...labels].sort((a, b) => (order === 'desc' ? b.id - a.id : a.id - b.id));
  const shown = ordered.slice(0, limit.limit);
  if (shown.length === 0) return printed('');
  if (selected.kind === 'human') return printed(renderLabelTable(shown));

  const rows = [];
  for (const label of shown) {
    const values = exportFields(
      label,
      selected.fields,
      (item, field) => labelFieldValue(item, field) ?? null,
    );
    if (selected.fields.some((field) => labelFieldValue(label, field) === undefined)) {
      return delegated('unsupported_flag');
    }
    rows.push(values);
  }
  return writeExport(rows, selected.jq, jq);
}

/** `gh label list` (SPEC.md `relay native` row; README "label list"). */
export const LABEL_LIST_COMMAND: ServedCommand = {
  async run(deps, output, plan, argv) {
    const { createSessionRelayPort } = await import('../relay-port.js');
    const outcome = await runLabelList(createSessionRelayPort(deps), plan, createJqRunner(deps));
    return finishOutcome(deps, output, argv, outcome);
  },
};
