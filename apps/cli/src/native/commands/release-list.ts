import type { FallbackReason } from '@relay/protocol';
import { parseLimitOption } from '../argv/go-int-option.js';
import type { ServePlan } from '../argv/native-plan.js';
import { sanitizeJson } from '../export/ascii-sanitizer.js';
import { delegated, printed, writeExport } from '../export/export-output.js';
import type { CommandOutcome, JqRunner } from '../export/export-output.js';
import type { GoJsonValue } from '../export/go-json-encoder.js';
import { formatJsonFieldError, selectJsonFields } from '../export/json-field-catalogue.js';
import {
  decodeRestRelease,
  releaseListFieldValue,
  renderReleaseList,
} from '../export/release-export.js';
import type { GoRelease, ReleaseListItem } from '../export/release-export.js';
import type { RelayPort } from '../relay-port.js';
import { readAllPages } from '../relay-port.js';
import type { ServedCommand } from './served-command.js';

/** gh's default `release list --limit`. */
export const RELEASE_LIST_DEFAULT_LIMIT = 30;

function isOn(flags: ServePlan['flags'], name: string): boolean {
  return flags[name]?.at(-1) === 'true';
}

/** gh's GraphQL order `CREATED_AT` (ascending); how GraphQL orders equal times is unproved. */
function compareCreated(a: GoRelease, b: GoRelease): number {
  return Date.parse(a.createdAt.json) - Date.parse(b.createdAt.json);
}

/** What `/releases/latest` (route release_latest) says. */
type LatestRelease =
  /** The latest release's id, `null` when the forge answers 404 (no release is latest). */
  | { readonly kind: 'latest'; readonly id: number | null }
  | { readonly kind: 'fallback'; readonly reason: FallbackReason }
  /** Any other answer: the caller runs gh. */
  | { readonly kind: 'unproved' };

async function readLatestRelease(port: RelayPort, base: string): Promise<LatestRelease> {
  const result = await port.read({ path: `${base}/latest` });
  if (result.kind === 'fallback') return result;
  const { envelope } = result;
  if (envelope.status === 404) return { kind: 'latest', id: null };
  if (envelope.status !== 200) return { kind: 'unproved' };
  const release = decodeRestRelease(sanitizeJson(envelope.body));
  return release === undefined ? { kind: 'unproved' } : { kind: 'latest', id: release.databaseId };
}

/**
 * `gh release list` through the relay (cli/cli v2.60.0 `listRun`, stdout not a terminal). gh
 * lists by GraphQL `releases(orderBy: CREATED_AT)`, newest first unless `--order asc`. The
 * relay reads releases anonymously only (route release_list is `anonymous_only`), so the list
 * is the public one: drafts, which GitHub shows only to people who can push, never appear —
 * exactly what gh prints for every reader without push access (a maintainer who needs their
 * drafts listed runs gh itself). Every page is read (at most 10 of 100) and sorted by
 * `created_at` (two in the same second run gh), pre-releases dropped with
 * `--exclude-pre-releases`, then `--limit` (30). `isLatest` and the `Latest` badge come from
 * `/releases/latest` (route release_latest). No releases: no output, exit 0 (gh's
 * NoResultsError, silent without a terminal); with `--json`, `[]`. A release without a name
 * exported as `name`, a forge error (GraphQL words it) or more than 1,000 releases: gh runs.
 */
export async function runReleaseList(
  port: RelayPort,
  plan: Pick<ServePlan, 'flags' | 'repo'>,
  jq: JqRunner,
): Promise<CommandOutcome> {
  const { flags } = plan;
  const selection = selectJsonFields('release list', flags);
  if (!selection.ok) {
    if (selection.error.code === 'invalid_csv') return delegated('invalid_usage');
    return printed('', formatJsonFieldError(selection.error), 1);
  }
  const limit = parseLimitOption(flags.limit, RELEASE_LIST_DEFAULT_LIMIT);
  if (!limit.ok) return delegated(limit.reason);
  // gh's enum flag takes any case; gh upper-cases it for GraphQL's direction.
  const order = (flags.order?.at(-1) ?? 'desc').toLowerCase();
  if (order !== 'asc' && order !== 'desc') return delegated('invalid_usage');
  const repo = plan.repo?.repo;
  if (repo === undefined) return delegated('unsupported_shape');
  const selected = selection.value;

  const base = `/repos/${repo.owner}/${repo.name}/releases`;
  const pages = await readAllPages(port, { path: base });
  switch (pages.kind) {
    case 'fallback':
      return { kind: 'fallback', reason: pages.reason };
    case 'unbounded':
    case 'http_error':
      return delegated('unsupported_shape');
    case 'pages':
      break;
  }
  const releases: GoRelease[] = [];
  for (const item of pages.items) {
    const release = decodeRestRelease(sanitizeJson(item));
    if (release === undefined) return delegated('unsupported_shape');
    if (release.isDraft) continue;
    if (isOn(flags, 'exclude-pre-releases') && release.isPrerelease) continue;
    releases.push(release);
  }
  releases.sort((a, b) => (order === 'desc' ? compareCreated(b, a) : compareCreated(a, b)));
  // Two releases created in the same second: GraphQL's order between them is unproved.
  if (
    releases.some(
      (release, i) => i > 0 && compareCreated(release, releases[i - 1] ?? release) === 0,
    )
  ) {
    return delegated('unsupported_shape');
  }
  const shown = releases.slice(0, limit.limit);
  if (shown.length === 0) return selected.kind === 'human' ? printed('') : printed('[]\n');

  const needsLatest = selected.kind === 'human' || selected.fields.includes('isLatest');
  let latestId: number | null = null;
  if (needsLatest) {
    const latest = await readLatestRelease(port, base);
    if (latest.kind === 'fallback') return latest;
    if (latest.kind === 'unproved') return delegated('unsupported_shape');
    latestId = latest.id;
  }
  const items: ReleaseListItem[] = shown.map((release) => ({
    release,
    isLatest: release.databaseId === latestId,
  }));
  if (selected.kind === 'human') return printed(renderReleaseList(items));

  const rows: GoJsonValue[] = [];
  for (const item of items) {
    const row: Record<string, GoJsonValue> = {};
    for (const field of selected.fields) {
      const value = releaseListFieldValue(item, field);
      if (value === undefined) return delegated('unsupported_flag');
      row[field] = value;
    }
    rows.push(row);
  }
  return writeExport(rows, selected.jq, jq);
}

/** `gh release list` (SPEC.md `relay native` row; README "release list"). */
export const RELEASE_LIST_COMMAND: ServedCommand = {
  async run(deps, output, plan, argv) {
    const [{ createSessionRelayPort }, { createJqRunner, finishOutcome }] = await Promise.all([
      import('../relay-port.js'),
      import('./served-outcome.js'),
    ]);
    const outcome = await runReleaseList(createSessionRelayPort(deps), plan, createJqRunner(deps));
    return finishOutcome(deps, output, argv, outcome);
  },
};
