import type { RelayEnvelope } from '@relay/protocol';
import type { GhRepository } from '../argv/repo-selector.js';
import { sanitizeJson } from '../export/ascii-sanitizer.js';
import { delegated } from '../export/export-output.js';
import type { CommandOutcome } from '../export/export-output.js';
import { isRestPull } from '../export/pr-export.js';
import type { RestPull } from '../export/pr-export.js';
import type { RelayPort, RelayReadResult } from '../relay-port.js';
import { repoPath } from './pr-view.js';

/** The most `/pulls/{n}` reads of one `pr list --search` in flight at once. */
export const LIST_SEARCH_PULL_READS_IN_FLIGHT = 4;

/** What one list search read ended with. */
export type ListSearchResult =
  /** The found items (ASCII-sanitized as gh's client does), in the search's order. */
  | { readonly kind: 'items'; readonly items: readonly unknown[] }
  /** 422: the forge cannot search that repository (missing, or not visible). */
  | { readonly kind: 'unprocessable' }
  | { readonly kind: 'outcome'; readonly outcome: CommandOutcome };

/**
 * One page of `GET /search/issues?q=…&per_page=<limit>` (route search_issues) — the first
 * `limit` (≤ 100) results of gh's GraphQL `search(query: q, type: ISSUE)` in the same ranking,
 * as neither sends a sort. An answer the forge marks `incomplete_results` (a search that timed
 * out) or any other status than 200/422 runs gh; a relay `fallback_local` (`search_denied`
 * included) is handed back as the outcome.
 *
 * @param envelopes - collects the served envelope (for the cache note)
 */
export async function readListSearch(
  port: RelayPort,
  q: string,
  limit: number,
  envelopes: RelayEnvelope[],
): Promise<ListSearchResult> {
  // One page only: gh pages on past 100 with GraphQL cursors, which REST's pages do not mirror.
  if (limit > 100) return { kind: 'outcome', outcome: delegated('unsupported_flag') };
  const result = await port.read({
    path: '/search/issues',
    query: { q, per_page: String(limit) },
  });
  if (result.kind === 'fallback') return { kind: 'outcome', outcome: result };
  const { envelope } = result;
  envelopes.push(envelope);
  if (envelope.status === 422) return { kind: 'unprocessable' };
  const body = envelope.body_encoding === 'json' ? envelope.body : undefined;
  if (
    envelope.status !== 200 ||
    typeof body !== 'object' ||
    body === null ||
    (body as { incomplete_results?: unknown }).incomplete_results !== false ||
    !Array.isArray((body as { items?: unknown }).items)
  ) {
    return { kind: 'outcome', outcome: delegated('unsupported_shape') };
  }
  const items = sanitizeJson((body as { items: unknown[] }).items) as unknown[];
  return { kind: 'items', items: items.slice(0, limit) };
}

/** What reading the found PRs ended with. */
export type SearchedPulls =
  | { readonly kind: 'pulls'; readonly pulls: readonly RestPull[] }
  | { readonly kind: 'outcome'; readonly outcome: CommandOutcome };

/**
 * The PR of each search item through `GET /repos/{o}/{r}/pulls/{n}` (route pr_view): search
 * items have no head branch, base or draft-aware state of their own. At most
 * {@link LIST_SEARCH_PULL_READS_IN_FLIGHT} reads at once; the answer keeps the search's order.
 * An item that is not a pull request of a number, a PR that does not read as a 200 REST pull,
 * runs gh; the first relay `fallback_local` is handed back.
 *
 * @param envelopes - collects every served envelope (for the cache note)
 */
export async function readSearchedPulls(
  port: RelayPort,
  repo: GhRepository,
  items: readonly unknown[],
  envelopes: RelayEnvelope[],
): Promise<SearchedPulls> {
  const numbers: number[] = [];
  for (const item of items) {
    const { number, pull_request: pullRequest } = (item ?? {}) as Record<string, unknown>;
    if (typeof number !== 'number' || !Number.isSafeInteger(number) || pullRequest === undefined) {
      return { kind: 'outcome', outcome: delegated('unsupported_shape') };
    }
    numbers.push(number);
  }
  const answers: (RelayReadResult | undefined)[] = numbers.map(() => undefined);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < numbers.length) {
      const index = next;
      next += 1;
      const result = await port.read({
        path: `${repoPath(repo)}/pulls/${String(numbers[index])}`,
      });
      answers[index] = result;
      if (result.kind === 'fallback') next = numbers.length; // no more reads: gh runs
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(LIST_SEARCH_PULL_READS_IN_FLIGHT, numbers.length) }, worker),
  );
  const pulls: RestPull[] = [];
  for (const answer of answers) {
    // Reads are started in order, so a fallback comes before any read it cancelled.
    if (answer === undefined) break;
    if (answer.kind === 'fallback') return { kind: 'outcome', outcome: answer };
    const { envelope } = answer;
    envelopes.push(envelope);
    const pull = envelope.body_encoding === 'json' ? sanitizeJson(envelope.body) : undefined;
    if (envelope.status !== 200 || !isRestPull(pull)) {
      return { kind: 'outcome', outcome: delegated('unsupported_shape') };
    }
    pulls.push(pull);
  }
  return { kind: 'pulls', pulls };
}
