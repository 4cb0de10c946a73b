import type { RelayRequestInput } from '@relay/protocol';
import type { GuardFailure, RuleSet } from '@relay/rewrite-engine';
import {
  base64DecodedViews,
  graphqlStringViews,
  percentDecodedViews,
} from './outbound-decoded-views.js';

/**
 * The verdict of the outbound guard on what is about to leave the machine. A refusal names
 * where (an argument's 1-based position, or a part of a relay request) and a generic category,
 * never the pattern or the matched text.
 */
export type OutboundVerdict =
  | { readonly kind: 'pass' }
  | {
      readonly kind: 'refuse';
      /** What matched: `argument N` of gh's argv, or `path`, `query`, `header` of a read. */
      readonly where: string;
      readonly failure: GuardFailure;
    };

const PASS: OutboundVerdict = { kind: 'pass' };

/**
 * The texts one argv element stands for: the element itself, and its value where the element
 * carries one (`--name=value`, `-xVALUE`, `key=value` of `-f`), so that anchored patterns see
 * the value as gh and the forge will; then the percent-decoded readings of the element
 * ({@link percentDecodedViews}): gh puts `gh api`'s endpoint into the URL as given and the
 * forge decodes it, so `repos/o/r/issues?labels=%41` is checked as `…labels=A` too; and the
 * escaped GraphQL strings of the element decoded ({@link graphqlStringViews}: `gh api graphql
 * -f query=…` sends the query as written, and the forge reads `"\u0041"` in it as `A`); and the
 * base64 reading of a text that is base64 ({@link base64DecodedViews}: `-f content=QQ==` of the
 * contents API commits `A`).
 */
export function argumentTexts(element: string): readonly string[] {
  const texts = [element];
  if (element.startsWith('--')) {
    const equals = element.indexOf('=');
    if (equals > 2) texts.push(element.slice(equals + 1));
  } else if (element.startsWith('-') && element.length > 2) {
    texts.push(element.slice(2));
  }
  const equals = element.indexOf('=');
  if (equals > 0 && !element.startsWith('-')) texts.push(element.slice(equals + 1));
  return [
    ...texts,
    ...texts.flatMap(percentDecodedViews),
    ...texts.flatMap(graphqlStringViews),
    ...texts.flatMap(base64DecodedViews),
  ];
}

function firstFailure(ruleSet: RuleSet, texts: readonly string[]): GuardFailure | undefined {
  for (const text of texts) {
    const checked = ruleSet.check(text);
    if (!checked.ok) return checked.error;
  }
  return undefined;
}

/**
 * Checks gh's argv before the native gh runs (SPEC.md client rule 15): every element (flag
 * values such as `--body`, `--title`, `-f key=value` are elements too) against every active
 * pattern. A match, or a text the engine cannot check (a zero-width match, more than 1 MiB, a
 * lone surrogate), refuses. This is the seam of client rule 16: a structural publication model
 * would rewrite modeled fields here instead of refusing.
 *
 * @param ruleSet - the merged guard of this dispatch
 * @param argv - gh's argv
 */
export function checkNativeArgv(ruleSet: RuleSet, argv: readonly string[]): OutboundVerdict {
  for (const [index, element] of argv.entries()) {
    const failure = firstFailure(ruleSet, argumentTexts(element));
    if (failure !== undefined)
      return { kind: 'refuse', where: `argument ${String(index + 1)}`, failure };
  }
  return PASS;
}

/**
 * Checks one relay request before it is sent (the relay checks it again): the path, every
 * query key and value, and every header value.
 */
export function checkRelayRequest(ruleSet: RuleSet, request: RelayRequestInput): OutboundVerdict {
  const pathFailure = firstFailure(ruleSet, [request.path]);
  if (pathFailure !== undefined) return { kind: 'refuse', where: 'path', failure: pathFailure };
  for (const [key, value] of Object.entries(request.query ?? {})) {
    const values = typeof value === 'string' ? [value] : value;
    const failure = firstFailure(ruleSet, [key, ...values]);
    if (failure !== undefined) return { kind: 'refuse', where: 'query', failure };
  }
  for (const value of Object.values(request.headers ?? {})) {
    const failure = firstFailure(ruleSet, [value]);
    if (failure !== undefined) return { kind: 'refuse', where: 'header', failure };
  }
  return PASS;
}

/** The message of a refusal (the exit path adds `relay: ` and ` (string_rewrite_blocked)`). */
export function formatRefusal(verdict: Extract<OutboundVerdict, { kind: 'refuse' }>): string {
  if (verdict.failure.code === 'blocked') {
    return `refused: ${verdict.where} matches the string-rewrite policy`;
  }
  return `refused: ${verdict.where} cannot be checked against the string-rewrite policy: ${verdict.failure.category}`;
}
