/**
 * The verdict of a rewrite check: `true` or `{ ok: true }` lets the value leave; `false` or
 * `{ ok: false, … }` denies it. (Mind the polarity when wiring a "does any pattern match"
 * predicate: pass its negation.)
 */
export type RewriteVerdict = boolean | { readonly ok: boolean };

/**
 * The transport-level string-rewrite check, bound to one request's frozen policy snapshot. It
 * receives the canonical URL of every outgoing request, and every non-credential header value.
 * @relay/rewrite-engine's `RuleSet.check` fits as it is: `(value) => ruleSet.check(value)`
 * (`ok` when no pattern matches; `blocked` or `aborted` deny).
 */
export type RewriteCheck = (value: string) => RewriteVerdict;

/**
 * Runs a rewrite check and fails closed: a denial, a malformed verdict or a thrown error all
 * deny.
 *
 * @param check - the request's rewrite check
 * @param value - an outgoing URL or header value
 * @returns whether the value may leave
 */
export function passesRewriteCheck(check: RewriteCheck, value: string): boolean {
  try {
    const verdict: unknown = check(value);
    if (typeof verdict === 'boolean') return verdict;
    return (
      typeof verdict === 'object' && verdict !== null && 'ok' in verdict && verdict.ok === true
    );
  } catch {
    return false;
  }
}
