import type { GhRepository } from '../argv/repo-selector.js';
import { delegated } from '../export/export-output.js';
import type { CommandOutcome } from '../export/export-output.js';
import type { RelayPort } from '../relay-port.js';
import { readAllPages } from '../relay-port.js';
import { repoPath } from './issue-view.js';

/** The largest milestone number gh's `strconv.ParseInt(value, 10, 32)` reads as a number. */
const INT32_MAX = 2_147_483_647;

/** A title whose search qualifier `milestone:"<title>"` matches it unambiguously. */
const PLAIN_TITLE = /^[^\s"\\\p{Cc}]+(?: [^\s"\\\p{Cc}]+)*$/u;

/** What `--milestone` resolves to. */
export type MilestoneFilter =
  /** REST's `milestone` parameter: the milestone of that number exists. */
  | { readonly kind: 'number'; readonly number: number }
  /** A title no milestone has: gh's search finds no issue. */
  | { readonly kind: 'no_such_title' }
  /** A number no milestone has, in a repository that reads: gh's error text. */
  | { readonly kind: 'no_such_number'; readonly number: number }
  /** The milestone read answered 404 or 410: the repository decides (missing, issues off). */
  | { readonly kind: 'repository_unreadable' }
  | { readonly kind: 'outcome'; readonly outcome: CommandOutcome };

/** gh's error for a milestone number the repository does not have (exit 1). */
export function formatMilestoneNotFound(number: number): string {
  return `no milestone found with number '${String(number)}'\n`;
}

/**
 * Resolves `issue list --milestone <number|title>` as gh v2.60 does, through the relay:
 *
 * - a decimal number within int32 (gh's `strconv.ParseInt(m, 10, 32)`) is a milestone number:
 *   gh reads it by GraphQL `repository.milestone(number)`, errors with
 *   `no milestone found with number 'N'` when it is missing, and searches its title; here
 *   `GET /repos/{o}/{r}/milestones/{n}` (route milestone_view) proves it exists and REST's
 *   `milestone=N` filter lists its issues (titles are unique within a repository);
 * - anything else is a title, searched as `milestone:"<title>"`: here every milestone
 *   (`GET /repos/{o}/{r}/milestones?state=all`, route milestone_list, all pages) and the one
 *   whose title is byte-equal. No equal title gives gh's empty result. A title that differs
 *   only in letter case runs gh (search qualifiers match case-insensitively, which this
 *   client does not prove), and so does a title the quoted qualifier may not match verbatim
 *   (a double quote, a backslash, a control character, leading, trailing or repeated
 *   whitespace); so does a signed or out-of-range number (gh reads those its own way).
 *
 * @param value - the `--milestone` value, not empty
 */
export async function resolveMilestone(
  port: RelayPort,
  repo: GhRepository,
  value: string,
): Promise<MilestoneFilter> {
  if (/^[0-9]+$/.test(value)) {
    const number = Number(value);
    if (number > INT32_MAX) return { kind: 'outcome', outcome: delegated('unsupported_flag') };
    return readMilestoneNumber(port, repo, number);
  }
  if (/^[+-][0-9]+$/.test(value) || !PLAIN_TITLE.test(value)) {
    return { kind: 'outcome', outcome: delegated('unsupported_flag') };
  }
  return findMilestoneTitle(port, repo, value);
}

async function readMilestoneNumber(
  port: RelayPort,
  repo: GhRepository,
  number: number,
): Promise<MilestoneFilter> {
  const result = await port.read({ path: `${repoPath(repo)}/milestones/${String(number)}` });
  if (result.kind === 'fallback') return { kind: 'outcome', outcome: result };
  const { envelope } = result;
  if (envelope.status === 404) return { kind: 'no_such_number', number };
  if (envelope.status === 410) return { kind: 'repository_unreadable' };
  const body = envelope.body_encoding === 'json' ? envelope.body : undefined;
  if (envelope.status !== 200 || (body as { number?: unknown } | null)?.number !== number) {
    return { kind: 'outcome', outcome: delegated('unsupported_shape') };
  }
  return { kind: 'number', number };
}

async function findMilestoneTitle(
  port: RelayPort,
  repo: GhRepository,
  title: string,
): Promise<MilestoneFilter> {
  const pages = await readAllPages(port, {
    path: `${repoPath(repo)}/milestones`,
    query: { state: 'all' },
  });
  switch (pages.kind) {
    case 'fallback':
      return { kind: 'outcome', outcome: pages };
    case 'unbounded':
      return { kind: 'outcome', outcome: delegated('unsupported_shape') };
    case 'http_error':
      return pages.envelope.status === 404 || pages.envelope.status === 410
        ? { kind: 'repository_unreadable' }
        : { kind: 'outcome', outcome: delegated('unsupported_shape') };
    case 'pages':
      break;
  }
  const milestones = pages.items;
  const shaped = milestones.every(
    (m) =>
      typeof m === 'object' &&
      m !== null &&
      typeof (m as { number?: unknown }).number === 'number' &&
      typeof (m as { title?: unknown }).title === 'string',
  );
  if (!shaped) return { kind: 'outcome', outcome: delegated('unsupported_shape') };
  const titled = milestones as readonly { readonly number: number; readonly title: string }[];
  const exact = titled.find((m) => m.title === title);
  if (exact !== undefined) return { kind: 'number', number: exact.number };
  const folded = title.toLowerCase();
  if (titled.some((m) => m.title.toLowerCase() === folded)) {
    return { kind: 'outcome', outcome: delegated('unsupported_flag') };
  }
  return { kind: 'no_such_title' };
}
