import { normalizeHost } from './repo-selector.js';
import type { GhRepository } from './repo-selector.js';

/**
 * The issue a `gh issue view {<number> | <url>}` argument names, as gh's
 * `IssueNumberAndRepoFromArg` reads it (cli/cli v2.60): an http(s) URL whose path starts
 * `/OWNER/REPO/issues/N` or `/OWNER/REPO/pull/N` (its repository wins over `-R`), else a
 * number with an optional `#` (`strconv.Atoi`).
 * - `number` / `url` — served;
 * - `invalid` — gh prints `invalid issue format: "<arg>"` and exits 1;
 * - `unmodelled` — a shape whose reading by gh is not reproduced exactly (signed or zero
 *   numbers, URLs with escapes, dot segments or unusual tails, non-ASCII text): gh runs.
 */
export type IssueSelector =
  | { readonly kind: 'number'; readonly number: number }
  | { readonly kind: 'url'; readonly repo: GhRepository; readonly number: number }
  | { readonly kind: 'invalid' }
  | { readonly kind: 'unmodelled' };

const MAX_NUMBER_DIGITS = 15;
const NUMBER_SELECTOR = /^#?(\d+)$/;
const ISSUE_URL =
  /^https?:\/\/([A-Za-z0-9.-]+)(?::\d+)?\/([A-Za-z0-9._-]+)\/([A-Za-z0-9._-]+)\/(?:issues|pull)\/(\d+)(?:[/?#][\x21-\x7e]*)?$/i;
const HTTP_SCHEME = /^https?:/i;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

function toNumber(digits: string): number | undefined {
  if (digits.length > MAX_NUMBER_DIGITS) return undefined;
  const value = Number(digits);
  return value > 0 ? value : undefined;
}

/**
 * Reads an issue selector argument the way gh does. Pure; never throws.
 *
 * @example
 * ```ts
 * parseIssueSelector('#7'); // { kind: 'number', number: 7 }
 * parseIssueSelector('five'); // { kind: 'invalid' }
 * ```
 */
export function parseIssueSelector(argument: string): IssueSelector {
  if (HTTP_SCHEME.test(argument)) {
    if (/\/\.\.?(?:[/?#]|$)/.test(argument) || argument.includes('%')) {
      return { kind: 'unmodelled' };
    }
    const [, host, owner, name, digits] = ISSUE_URL.exec(argument) ?? [];
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
  if (/^#?[+-]\d+$/.test(argument) || !PRINTABLE_ASCII.test(argument)) {
    return { kind: 'unmodelled' };
  }
  return { kind: 'invalid' };
}
