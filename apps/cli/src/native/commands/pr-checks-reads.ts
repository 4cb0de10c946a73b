import { PAGINATED_READ_MAX_PAGES } from '@relay/protocol';
import type { FallbackReason, RelayEnvelope } from '@relay/protocol';
import { findNextLink } from '../../gh-api-output.js';
import type { GhRepository } from '../argv/repo-selector.js';
import { sanitizeJson } from '../export/ascii-sanitizer.js';
import type { CheckContext } from '../export/checks-export.js';
import {
  associateRuns,
  isRestActionsRun,
  isRestCheckRun,
  isRestStatus,
  needsRunAssociation,
  toCheckContexts,
} from '../export/checks-rest.js';
import type { RestActionsRun } from '../export/checks-rest.js';
import type { OutcomeDelegateReason } from '../export/export-output.js';
import type { RelayPort, RelayRead } from '../relay-port.js';

/**
 * The reads behind `relay native pr checks` (SPEC.md client rules 8 and 10): the PR's head
 * (route pr_view), then the head commit's check runs (commit_check_runs, `filter=all` as
 * GraphQL's rollup lists every run), its combined status (commit_status: the latest status
 * of each context, as the rollup's StatusContext nodes) and, only when check runs must be
 * told apart by workflow or `--json` asks for `workflow`/`event`, the Actions runs of that
 * commit (run_list, `head_sha=`). Each collection is at most 10 pages of 100: an ordinary
 * acquisition is at most 1 + 10 + 10 reads (21), 31 with the Actions runs (rule 10 allows 41),
 * and 3 for a commit without checks.
 */

/** Why an acquisition ends without contexts: a relay fallback, or a shape gh must serve. */
export type ChecksReadFailure =
  | { readonly kind: 'fallback'; readonly reason: FallbackReason }
  | { readonly kind: 'delegate'; readonly reason: OutcomeDelegateReason };

/** One acquisition of the head commit's contexts, with the relay's answers in read order. */
export interface ChecksAcquisition {
  readonly kind: 'checks';
  readonly contexts: readonly CheckContext[];
  readonly envelopes: readonly RelayEnvelope[];
}

/** What the acquisition reads besides the repository and commit. */
export interface ChecksReadOptions {
  /** Send `cache-control: max-age=0` on every read (watch mode's terminal confirmation). */
  readonly fresh: boolean;
  /** `--json` asks for `workflow` or `event`: the Actions runs are read whenever runs exist. */
  readonly wantsRunFields: boolean;
}

/** A repository's REST path prefix. */
export function checksRepoPath(repo: GhRepository): string {
  return `/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.name)}`;
}

const FRESH = { 'cache-control': 'max-age=0' } as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const jsonBody = (envelope: RelayEnvelope): unknown =>
  envelope.body_encoding === 'json' ? sanitizeJson(envelope.body) : undefined;

type WrappedPages =
  | {
      readonly kind: 'items';
      readonly items: readonly unknown[];
      readonly envelopes: RelayEnvelope[];
    }
  | ChecksReadFailure;

/**
 * Reads a REST collection wrapped in an object (`{ total_count, <key>: [...] }`) page by page
 * (`per_page=100`, `page=N`), while the `Link` header names a next page or a full page leaves
 * `total_count` unreached; at most 10 pages. The items must add up to `total_count` exactly:
 * an 11th page, a page that is not the shape, or a count that does not add up runs gh.
 */
export async function readWrappedPages(
  port: RelayPort,
  request: RelayRead,
  key: string,
): Promise<WrappedPages> {
  const items: unknown[] = [];
  const envelopes: RelayEnvelope[] = [];
  for (let page = 1; page <= PAGINATED_READ_MAX_PAGES; page += 1) {
    const query = {
      ...request.query,
      per_page: '100',
      ...(page > 1 ? { page: String(page) } : {}),
    };
    const result = await port.read({ ...request, query });
    if (result.kind === 'fallback') return result;
    const { envelope } = result;
    envelopes.push(envelope);
    const body = jsonBody(envelope);
    const pageItems = isObject(body) ? body[key] : undefined;
    const total = isObject(body) ? body.total_count : undefined;
    if (envelope.status !== 200 || !Array.isArray(pageItems) || typeof total !== 'number') {
      return { kind: 'delegate', reason: 'unsupported_shape' };
    }
    items.push(...(pageItems as unknown[]));
    const linked = findNextLink(envelope.headers.link) !== undefined;
    const more = linked || (pageItems.length === 100 && items.length < total);
    if (!more) {
      return items.length === total
        ? { kind: 'items', items, envelopes }
        : { kind: 'delegate', reason: 'unsupported_shape' };
    }
  }
  return { kind: 'delegate', reason: 'unsupported_shape' };
}

/**
 * Reads the head commit's contexts (see the module comment): check runs, the combined status,
 * and the Actions runs when check runs share a name or `--json` wants their workflow/event.
 *
 * @throws CliError for relay failures (from the port)
 */
export async function readCheckContexts(
  port: RelayPort,
  repo: GhRepository,
  sha: string,
  options: ChecksReadOptions,
): Promise<ChecksAcquisition | ChecksReadFailure> {
  const commit = `${checksRepoPath(repo)}/commits/${encodeURIComponent(sha)}`;
  const headers = options.fresh ? { headers: FRESH } : {};
  const runsRead = await readWrappedPages(
    port,
    { path: `${commit}/check-runs`, query: { filter: 'all' }, ...headers },
    'check_runs',
  );
  if (runsRead.kind !== 'items') return runsRead;
  if (!runsRead.items.every(isRestCheckRun)) {
    return { kind: 'delegate', reason: 'unsupported_shape' };
  }
  const checkRuns = runsRead.items;
  const statusRead = await readWrappedPages(
    port,
    { path: `${commit}/status`, ...headers },
    'statuses',
  );
  if (statusRead.kind !== 'items') return statusRead;
  if (!statusRead.items.every(isRestStatus)) {
    return { kind: 'delegate', reason: 'unsupported_shape' };
  }
  const statuses = statusRead.items;
  const envelopes = [...runsRead.envelopes, ...statusRead.envelopes];
  let actionsRuns: readonly RestActionsRun[] = [];
  if (checkRuns.length > 0 && (options.wantsRunFields || needsRunAssociation(checkRuns))) {
    const read = await readWrappedPages(
      port,
      { path: `${checksRepoPath(repo)}/actions/runs`, query: { head_sha: sha }, ...headers },
      'workflow_runs',
    );
    if (read.kind !== 'items') return read;
    if (!read.items.every(isRestActionsRun)) {
      return { kind: 'delegate', reason: 'unsupported_shape' };
    }
    actionsRuns = read.items;
    envelopes.push(...read.envelopes);
  }
  return {
    kind: 'checks',
    contexts: toCheckContexts(checkRuns, statuses, associateRuns(actionsRuns)),
    envelopes,
  };
}

/** The PR's head as gh's finder returns it: the last commit and `headRefName`. */
export interface PullHead {
  readonly kind: 'head';
  readonly sha: string;
  readonly ref: string;
  /** The read's answer (`undefined` when the head came with the branch lookup). */
  readonly envelope: RelayEnvelope | undefined;
}

/** Whether `value` is a REST pull with a head sha and ref (`head.sha`, `head.ref`). */
export function headOf(value: unknown): { readonly sha: string; readonly ref: string } | undefined {
  if (!isObject(value) || !isObject(value.head)) return undefined;
  const { sha, ref } = value.head;
  if (typeof sha !== 'string' || !/^[0-9a-f]{40}$/.test(sha) || typeof ref !== 'string') {
    return undefined;
  }
  return { sha, ref };
}

/** What reading the PR's head ended with besides the head. */
export type PullHeadFailure =
  | ChecksReadFailure
  /** The repository exists but not the PR: gh's GraphQL error. */
  | { readonly kind: 'not_found' };

/**
 * Reads the PR (route pr_view) for its head with `cache-control: max-age=60` (rule 8; `max-age=0`
 * when `fresh`). A 404 in a repository that exists is `not_found`; any other failure runs gh.
 *
 * @throws CliError for relay failures (from the port)
 */
export async function readPullHead(
  port: RelayPort,
  repo: GhRepository,
  number: number,
  fresh: boolean,
): Promise<PullHead | PullHeadFailure> {
  const base = checksRepoPath(repo);
  const result = await port.read({
    path: `${base}/pulls/${String(number)}`,
    headers: { 'cache-control': fresh ? 'max-age=0' : 'max-age=60' },
  });
  if (result.kind === 'fallback') return result;
  const { envelope } = result;
  if (envelope.status === 404) {
    const repository = await port.read({ path: base });
    if (repository.kind === 'fallback') return repository;
    if (repository.envelope.status === 200) return { kind: 'not_found' };
    return { kind: 'delegate', reason: 'unsupported_shape' };
  }
  const head = envelope.status === 200 ? headOf(jsonBody(envelope)) : undefined;
  if (head === undefined) return { kind: 'delegate', reason: 'unsupported_shape' };
  return { kind: 'head', ...head, envelope };
}
