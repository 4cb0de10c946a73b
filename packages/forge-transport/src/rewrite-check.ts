import { percentEncodingForms } from '@relay/protocol';

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
export type RewriteCheck = ((value: string) => RewriteVerdict) & {
  /**
   * Optional: checks many values at once and resolves to whether every one may leave. A check
   * that may be expensive offers it so that the work can run off the caller's event loop (the
   * transport uses it for every outgoing request when present); a rejection denies.
   */
  readonly checkAll?: (values: readonly string[]) => Promise<boolean>;
};

function passesOne(check: RewriteCheck, value: string): boolean {
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

/**
 * Runs a rewrite check and fails closed: a denial, a malformed verdict or a thrown error all
 * deny. The check reads every form of `percentEncodingForms` (`@relay/protocol`: the value as
 * sent, its RFC 3986 canonical form and its percent-decoded form) and a denial of any of them
 * denies the value, so a percent-encoded spelling of a protected string (`/repos/acme/%62lue…`)
 * is caught whether it is the canonical URL the transport sends or a followed redirect's
 * `location` sent as the forge wrote it.
 *
 * @param check - the request's rewrite check
 * @param value - an outgoing URL or header value
 * @returns whether the value may leave
 */
export function passesRewriteCheck(check: RewriteCheck, value: string): boolean {
  return percentEncodingForms(value).every((form) => passesOne(check, form));
}

/**
 * {@link passesRewriteCheck} for several values at once: every form of every value must pass.
 * It uses the check's `checkAll` when it has one (one call, possibly off the event loop), else
 * the check itself, value by value. Fails closed: a rejection or a malformed answer denies.
 *
 * @param check - the request's rewrite check
 * @param values - outgoing URLs and header values
 * @returns whether every value may leave
 */
export async function passesRewriteCheckAll(
  check: RewriteCheck,
  values: readonly string[],
): Promise<boolean> {
  const forms = values.flatMap((value) => percentEncodingForms(value));
  const { checkAll } = check;
  if (checkAll === undefined) return forms.every((form) => passesOne(check, form));
  try {
    // Anything but `true` (a malformed answer of an untyped caller included) denies.
    const answer: unknown = await checkAll(forms);
    return answer === true;
  } catch {
    return false;
  }
}
