import type { FallbackReason, RelayEnvelope } from '@relay/protocol';
import type { CurrentBranchSelection } from '../argv/current-branch-pr.js';
import { NOT_ON_BRANCH_ERROR } from '../argv/current-branch-pr.js';
import type { DelegateReason, ServePlan } from '../argv/native-plan.js';
import { parsePrSelector } from '../argv/pr-selector.js';
import { GITHUB_HOST } from '../argv/repo-selector.js';
import type { GhRepository } from '../argv/repo-selector.js';
import type { RelayPort } from '../relay-port.js';

/**
 * gh v2.60's PR finder (`shared.Finder.Find`) for `pr view` and `pr diff` over REST: a number
 * or a PR URL names the PR without a read; a branch (`feature` or `owner:feature`), or the
 * current branch's selector, is looked up by head as gh's `findForBranch`:
 *
 * gh asks GraphQL for the 30 newest PRs (any state) whose head branch is named like the
 * selector's branch, sorts the open ones first (stably), and takes the first whose
 * `HeadLabel` (`owner:branch` across repositories, else `branch`) equals the selector and
 * which is open or whose head is not named like the repository's default branch; none is
 * `no pull requests found for branch "<selector>"` (exit 1).
 *
 * REST reads the same candidates by owner (route `pr_list`): `head=<owner>:<branch>` (the
 * base repository's owner for a plain branch), `state=all`, newest first, 30 a page; a plain
 * selector keeps the PRs from the base repository itself, `owner:branch` those from another
 * repository of that owner. The default branch (route `repo_view`) is read only when a PR
 * that is not open is the candidate and the selector could name it.
 *
 * Not reproduced: gh's 30 newest are counted over every fork's head of that name, so when
 * more than 30 PRs share a head branch name, gh may not see an older PR that REST finds.
 */

/** The PR the finder found (or was given), and the relay answers read to find it. */
export interface FoundPull {
  readonly kind: 'found';
  readonly repo: GhRepository;
  readonly number: number;
  /** The lookup's answers (`pr_list`, `repo_view`), in read order; `[]` for a number or URL. */
  readonly envelopes: readonly RelayEnvelope[];
}

/** What the finder ends with. */
export type FindPullResult =
  | FoundPull
  /** gh's finder error, printed with its newline, exit 1. */
  | { readonly kind: 'error'; readonly stderr: string }
  /** A shape or answer the finder does not reproduce exactly: gh runs. */
  | { readonly kind: 'delegate'; readonly reason: DelegateReason }
  /** The relay asked for a local run. */
  | { readonly kind: 'fallback'; readonly reason: FallbackReason };

/** What {@link findPull} reads besides the port and the plan. */
export interface FindPullOptions {
  /** The current branch's selector (no argument); without a reader, no argument runs gh. */
  readonly currentBranch?: (repo: GhRepository) => Promise<CurrentBranchSelection>;
  /** Send `cache-control: max-age=0` on the lookup (client rule 8's live `--json` reads). */
  readonly maxAgeZero?: boolean;
}

/** A head lookup's REST `head` filter: the head repository's owner and the branch. */
export interface HeadQuery {
  readonly owner: string;
  readonly branch: string;
}

/** A GitHub login as a repository owner can have it. */
const LOGIN = /^[A-Za-z0-9-]+$/;

/**
 * The REST `head` filter of a selector: `branch` → the base repository's owner (the match
 * then keeps PRs from the base repository itself), `owner:branch` → that owner (the match
 * keeps PRs from another repository); `undefined` for shapes whose GraphQL reading by gh is
 * not reproduced (an empty or non-login owner, an empty branch, a branch with `:`).
 */
export function toHeadQuery(selector: string, baseOwner: string): HeadQuery | undefined {
  const colon = selector.indexOf(':');
  if (colon < 0) return selector === '' ? undefined : { owner: baseOwner, branch: selector };
  const owner = selector.slice(0, colon);
  const branch = selector.slice(colon + 1);
  if (!LOGIN.test(owner) || branch === '' || branch.includes(':')) return undefined;
  return { owner, branch };
}

/** The part of a REST pull (list item) the finder reads. */
export interface BranchCandidate {
  readonly number: number;
  readonly state: string;
  readonly head: {
    readonly ref: string;
    readonly repo: { readonly id: number; readonly owner: { readonly login: string } } | null;
  };
  readonly base: { readonly repo: { readonly id: number } };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether a list item has the fields the finder reads, with their REST types. */
export function isBranchCandidate(value: unknown): value is BranchCandidate {
  if (!isObject(value) || !isObject(value.head) || !isObject(value.base)) return false;
  const { head, base } = value;
  const headRepo = head.repo;
  const headRepoOk =
    headRepo === null ||
    (isObject(headRepo) &&
      typeof headRepo.id === 'number' &&
      isObject(headRepo.owner) &&
      typeof headRepo.owner.login === 'string');
  return (
    typeof value.number === 'number' &&
    typeof value.state === 'string' &&
    typeof head.ref === 'string' &&
    headRepoOk &&
    isObject(base.repo) &&
    typeof base.repo.id === 'number'
  );
}

/**
 * gh's `HeadLabel` of a REST pull: `owner:branch` when head and base repositories differ (a
 * deleted head repository has no owner: `:branch`), else `branch`.
 */
export function headLabel(pull: BranchCandidate): string {
  const { repo } = pull.head;
  if (repo !== null && repo.id === pull.base.repo.id) return pull.head.ref;
  return `${repo?.owner.login ?? ''}:${pull.head.ref}`;
}

/** What {@link choosePull} decided. */
export type PullChoice =
  | { readonly kind: 'found'; readonly number: number }
  | { readonly kind: 'not_found' }
  /** A PR that is not open is next: whether it counts depends on the default branch. */
  | { readonly kind: 'needs_default_branch' };

/**
 * gh's pick among the candidates (newest first): open ones first (a stable sort), then the
 * first whose head label equals the selector and which is open or whose selector is not the
 * default branch's name. Pure.
 *
 * @param defaultBranch - the repository's default branch, `undefined` when not read yet
 */
export function choosePull(
  candidates: readonly BranchCandidate[],
  selector: string,
  defaultBranch: string | undefined,
): PullChoice {
  const matches = candidates.filter((pull) => headLabel(pull) === selector);
  const open = matches.find((pull) => pull.state === 'open');
  if (open !== undefined) return { kind: 'found', number: open.number };
  const [newest] = matches;
  if (newest === undefined) return { kind: 'not_found' };
  // A default branch name never has `:`; for any other selector the name must be read.
  if (!selector.includes(':') && defaultBranch === undefined) {
    return { kind: 'needs_default_branch' };
  }
  return defaultBranch === selector
    ? { kind: 'not_found' }
    : { kind: 'found', number: newest.number };
}

/** Go's `unicode.IsPrint`: letters, marks, numbers, punctuation, symbols, ASCII space. */
const GO_PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const GO_ESCAPES: Readonly<Record<string, string>> = {
  '\u0007': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '"': '\\"',
  '\\': '\\\\',
};

/**
 * Go's `%q` (`strconv.Quote`) of a string; `undefined` when it holds a lone surrogate or
 * U+FFFD (bytes Go would see that JavaScript no longer has).
 */
export function quoteGoString(text: string): string | undefined {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code === 0xfffd || (code >= 0xd800 && code <= 0xdfff)) return undefined;
    const escape = GO_ESCAPES[char];
    if (escape !== undefined) out += escape;
    else if (GO_PRINTABLE.test(char)) out += char;
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code < 0x10000) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += `\\U${code.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

/** gh's `NotFoundError` of a head lookup (`no pull requests found for branch %q`). */
export function formatBranchNotFound(selector: string): string | undefined {
  const quoted = quoteGoString(selector);
  return quoted === undefined ? undefined : `no pull requests found for branch ${quoted}\n`;
}

function repoPath(repo: GhRepository): string {
  return `/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.name)}`;
}

const jsonBody = (envelope: RelayEnvelope): unknown =>
  envelope.body_encoding === 'json' ? envelope.body : undefined;

/**
 * Looks a head selector up in `repo` as gh's `findForBranch` (see the module comment): one
 * `pr_list` read, and a `repo_view` read only when the default branch decides.
 *
 * @throws CliError for relay failures (from the port)
 */
export async function findPullForBranch(
  port: RelayPort,
  repo: GhRepository,
  selector: string,
  options: Pick<FindPullOptions, 'maxAgeZero'> = {},
): Promise<FindPullResult> {
  const query = toHeadQuery(selector, repo.owner);
  if (query === undefined) return { kind: 'delegate', reason: 'unsupported_shape' };
  const list = await port.read({
    path: `${repoPath(repo)}/pulls`,
    query: {
      head: `${query.owner}:${query.branch}`,
      state: 'all',
      sort: 'created',
      direction: 'desc',
      per_page: '30',
    },
    ...(options.maxAgeZero === true ? { headers: { 'cache-control': 'max-age=0' } } : {}),
  });
  if (list.kind === 'fallback') return list;
  const body = jsonBody(list.envelope);
  // A missing repository is GraphQL's own error to gh: it runs.
  if (list.envelope.status !== 200 || !Array.isArray(body) || !body.every(isBranchCandidate)) {
    return { kind: 'delegate', reason: 'unsupported_shape' };
  }
  const envelopes: RelayEnvelope[] = [list.envelope];
  let choice = choosePull(body, selector, undefined);
  if (choice.kind === 'needs_default_branch') {
    const read = await port.read({ path: repoPath(repo) });
    if (read.kind === 'fallback') return read;
    envelopes.push(read.envelope);
    const repository = jsonBody(read.envelope);
    const defaultBranch = isObject(repository) ? repository.default_branch : undefined;
    if (read.envelope.status !== 200 || typeof defaultBranch !== 'string') {
      return { kind: 'delegate', reason: 'unsupported_shape' };
    }
    choice = choosePull(body, selector, defaultBranch);
  }
  if (choice.kind === 'found') return { kind: 'found', repo, number: choice.number, envelopes };
  const stderr = formatBranchNotFound(selector);
  return stderr === undefined
    ? { kind: 'delegate', reason: 'unsupported_shape' }
    : { kind: 'error', stderr };
}

/**
 * gh's finder for a `pr view`/`pr diff` plan: a number in the selected repository, a PR
 * URL's repository (github.com only), a branch looked up in the selected repository, or with
 * no argument the current branch's PR ({@link FindPullOptions.currentBranch}; HEAD not on a
 * branch is gh's error).
 *
 * @throws CliError for relay failures (from the port)
 */
export async function findPull(
  port: RelayPort,
  plan: Pick<ServePlan, 'args' | 'repo'>,
  options: FindPullOptions = {},
): Promise<FindPullResult> {
  const selector = parsePrSelector(plan.args[0]);
  if (selector.kind === 'url') {
    return selector.repo.host === GITHUB_HOST
      ? { kind: 'found', repo: selector.repo, number: selector.number, envelopes: [] }
      : { kind: 'delegate', reason: 'other_host' };
  }
  if (selector.kind === 'unmodelled') return { kind: 'delegate', reason: 'unsupported_shape' };
  if (plan.repo === undefined) return { kind: 'delegate', reason: 'repo_unresolved' };
  const { repo } = plan.repo;
  switch (selector.kind) {
    case 'number':
      return { kind: 'found', repo, number: selector.number, envelopes: [] };
    case 'branch':
      return findPullForBranch(port, repo, selector.branch, options);
    case 'current_branch': {
      if (options.currentBranch === undefined) {
        return { kind: 'delegate', reason: 'unsupported_shape' };
      }
      const current = await options.currentBranch(repo);
      switch (current.kind) {
        case 'number':
          return { kind: 'found', repo, number: current.number, envelopes: [] };
        case 'branch':
          return findPullForBranch(port, repo, current.selector, options);
        case 'not_on_branch':
          return { kind: 'error', stderr: NOT_ON_BRANCH_ERROR };
        case 'unmodelled':
          return { kind: 'delegate', reason: 'unsupported_shape' };
      }
    }
  }
}
