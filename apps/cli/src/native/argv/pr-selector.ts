import { normalizeHost } from './repo-selector.js';
import type { GhRepository } from './repo-selector.js';

/**
 * The pull request a `gh pr <verb> [<number> | <url> | <branch>]` argument names, as gh's
 * `shared.Finder` reads it (cli/cli v2.60): a URL first (`ParseURL`), else a number with an
 * optional `#` (`strconv.Atoi`), else a branch name; no argument means the current branch's
 * pull request.
 * - `number` — `12` or `#12`: the PR of the selected repository;
 * - `url` — `https://github.com/OWNER/REPO/pull/12[/files…]`: that repository's PR (the URL's
 *   repository wins over `-R`);
 * - `branch` — anything else gh would look up by head branch (GraphQL);
 * - `current_branch` — no argument: gh reads git's branch configuration, then looks it up;
 * - `unmodelled` — a shape whose reading by gh the relay does not reproduce exactly (`+12`,
 *   `0`, a URL with escapes, dot segments or an unusual tail): it runs the native gh.
 */
export type PrSelector =
  | { readonly kind: 'number'; readonly number: number }
  | { readonly kind: 'url'; readonly repo: GhRepository; readonly number: number }
  | { readonly kind: 'branch'; readonly branch: string }
  | { readonly kind: 'current_branch' }
  | { readonly kind: 'unmodelled' };

/** The most digits of a served PR number (beyond, JavaScript numbers stop being exact). */
const MAX_NUMBER_DIGITS = 15;

const NUMBER_SELECTOR = /^#?(\d+)$/;
// A plain https/http PR URL: host, optional port, OWNER/REPO/pull/N, then nothing or a tail
// that starts a new path segment, a query or a fragment (gh keeps and ignores the tail).
const PULL_URL =
  /^https?:\/\/([A-Za-z0-9.-]+)(?::\d+)?\/([A-Za-z0-9._-]+)\/([A-Za-z0-9._-]+)\/pull\/(\d+)(?:[/?#][\x21-\x7e]*)?$/i;
// What gh's ParseURL would read as a URL (scheme http or https): everything else is a branch.
const HTTP_SCHEME = /^https?:/i;

function toNumber(digits: string): number | undefined {
  if (digits.length > MAX_NUMBER_DIGITS) return undefined;
  const value = Number(digits);
  return value > 0 ? value : undefined;
}

/**
 * Reads a PR selector argument the way gh's finder does. Pure; never throws.
 *
 * @param argument - the positional argument, or `undefined` when there is none
 * @returns the selector, `unmodelled` when gh's reading is not reproduced exactly
 *
 * @example
 * ```ts
 * parsePrSelector('#12'); // { kind: 'number', number: 12 }
 * parsePrSelector('https://github.com/acme/widgets/pull/3/files');
 * // { kind: 'url', repo: { host: 'github.com', owner: 'acme', name: 'widgets' }, number: 3 }
 * ```
 */
export function parsePrSelector(argument: string | undefined): PrSelector {
  if (argument === undefined || argument === '') return { kind: 'current_branch' };
  if (HTTP_SCHEME.test(argument)) {
    // Dot segments and percent escapes: Go's url.Parse and WHATWG URL disagree on them.
    if (/\/\.\.?(?:[/?#]|$)/.test(argument) || argument.includes('%')) {
      return { kind: 'unmodelled' };
    }
    const match = PULL_URL.exec(argument);
    const [, host, owner, name, digits] = match ?? [];
    if (host === undefined || owner === undefined || name === undefined || digits === undefined) {
      return { kind: 'unmodelled' };
    }
    const number = toNumber(digits);
    if (number === undefined) return { kind: 'unmodelled' };
    return { kind: 'url', repo: { host: normalizeHost(host), owner, name }, number };
  }
  const numeric = NUMBER_SELECTOR.exec(argument);
  if (numeric?.[1] !== undefined) {
    const number = toNumber(numeric[1]);
    return number === undefined ? { kind: 'unmodelled' } : { kind: 'number', number };
  }
  // Signed numbers (`+12`, `-3`) are numbers to Go's Atoi; gh's handling of them is not modelled.
  if (/^#?[+-]\d+$/.test(argument)) return { kind: 'unmodelled' };
  return { kind: 'branch', branch: argument };
}
