import { createHash } from 'node:crypto';
import type { RewriteCheck } from '@relay/forge-transport';
import {
  err,
  ok,
  percentEncodingForms,
  type Result,
  type StringRewritePolicy,
  type StringRewriteRule,
} from '@relay/protocol';
import { compileRules } from '@relay/rewrite-engine';
import { MAIN_THREAD_POLICY_COST, estimatePolicyCost } from '../policy/policy-cost.js';
import { outgoingUrlForms } from '../policy/outgoing-url-forms.js';
import type { RewriteCheckOffload } from '../policy/rewrite-check-offload.js';

/**
 * One frozen string-rewrite policy snapshot: every check of one relay request (its structural
 * values and every outgoing URL and header) uses the same snapshot.
 */
export interface RewriteSnapshot {
  /** The policy revision the snapshot was taken from. */
  readonly revision: number;
  /**
   * Whether `value` may leave: true when no active pattern matches it. Fails closed: a policy too
   * large to compile on the event loop ({@link MAIN_THREAD_POLICY_COST}) denies every value here,
   * and is checked through `checkAll` only.
   */
  readonly check: (value: string) => boolean;
  /**
   * Whether every value may leave (`pass`), one may not (`deny`: a match, or a check past its
   * deadline), or the check could not be queued (`busy`). A check whose bound of work (the rules'
   * cost per character times the values' length) exceeds {@link INLINE_CHECK_BUDGET} runs on the
   * offload's worker thread when there is one, so that it never blocks the event loop.
   */
  readonly checkAll: (values: readonly string[]) => Promise<'pass' | 'deny' | 'busy'>;
}

/**
 * The bound of work (automaton states × characters) a check may run on the event loop: about
 * 5 ms of the slowest rules measured here; anything larger runs on the offload's worker.
 */
export const INLINE_CHECK_BUDGET = 200_000;

/** Maps an offload verdict to a snapshot's: a timeout denies. */
function fromOffload(verdict: 'pass' | 'deny' | 'timeout' | 'busy'): 'pass' | 'deny' | 'busy' {
  return verdict === 'pass' ? 'pass' : verdict === 'busy' ? 'busy' : 'deny';
}

/** The policy cannot be used: missing, corrupt, unreadable, or its rules do not compile. */
export interface RewritePolicyUnavailable {
  readonly code: 'string_rewrite_policy_unavailable';
}

/** Loads the snapshot of one request. */
export type RewriteSnapshotLoader = () => Promise<
  Result<RewriteSnapshot, RewritePolicyUnavailable>
>;

/** Reads the stored policy (from the primary store). A rejection counts as unreadable. */
export type StoredRewritePolicyReader = () => Promise<Result<StringRewritePolicy, unknown>>;

const UNAVAILABLE: RewritePolicyUnavailable = { code: 'string_rewrite_policy_unavailable' };

/**
 * Tells whether the stored policy may have changed: a stamp that differs from every earlier one
 * after any change, or undefined when the store cannot tell (see
 * `StringRewriteStore.changeStamp`). A rejection counts as "cannot tell".
 */
export type PolicyChangeStamp = () => string | undefined;

/** Digests of rule lists already seen (the store hands out one frozen list per stored row). */
const rulesDigests = new WeakMap<readonly StringRewriteRule[], string>();

/** A SHA-256 digest of a rule list's content (patterns and replacements, in order). */
function rulesDigest(rules: readonly StringRewriteRule[]): string {
  let digest = rulesDigests.get(rules);
  if (digest === undefined) {
    const content = JSON.stringify(rules.map((rule) => [rule.pattern, rule.replacement]));
    digest = createHash('sha256').update(content).digest('hex');
    rulesDigests.set(rules, digest);
  }
  return digest;
}

/**
 * What a compiled snapshot (and the offload worker's compiled rules) is reused for: the revision,
 * the update time and the rules themselves. Revision and update time alone do not name the
 * rules: a row edited outside the API (an operator's SQL, a restore) can change the rules and
 * keep both, and the stored rules must then hold from the next read.
 */
function policyStamp(policy: StringRewritePolicy): string {
  return `${String(policy.revision)}\n${policy.updated_at}\n${rulesDigest(policy.rules)}`;
}

/**
 * Creates the loader of frozen rewrite snapshots. Without a change stamp it reads the policy at
 * every request. With one, it reads only when the stamp differs from the one taken before the
 * last successful read — a PUT through this process, or any commit by another connection —
 * and otherwise hands out the snapshot of that read; a PUT is therefore effective for every
 * request that starts after it, and a failed read (missing, corrupt, unreadable) is never
 * reused. The compiled rule set is reused while revision, update time and rules are unchanged.
 *
 * @param read - reads the stored policy
 * @param changeStamp - the store's change detector
 */
export function createRewriteSnapshotLoader(
  read: StoredRewritePolicyReader,
  changeStamp?: PolicyChangeStamp,
  offload?: RewriteCheckOffload,
): RewriteSnapshotLoader {
  let compiled: { readonly stamp: string; readonly snapshot: RewriteSnapshot } | undefined;
  let current: { readonly changeStamp: string; readonly snapshot: RewriteSnapshot } | undefined;
  const stampNow = (): string | undefined => {
    try {
      return changeStamp?.();
    } catch {
      return undefined;
    }
  };
  return async () => {
    const before = stampNow();
    if (before !== undefined && current?.changeStamp === before) return ok(current.snapshot);
    current = undefined;
    let stored;
    try {
      stored = await read();
    } catch {
      return err(UNAVAILABLE);
    }
    if (!stored.ok) return err(UNAVAILABLE);
    const policy = stored.value;
    const stamp = policyStamp(policy);
    if (compiled?.stamp !== stamp && offload !== undefined) {
      const cost = estimatePolicyCost(policy.rules);
      if (cost === undefined) return err(UNAVAILABLE);
      if (cost > MAIN_THREAD_POLICY_COST) {
        // Too large to compile on the event loop: every check runs on the offload's worker
        // (which compiles it once), the synchronous check included, answered there first.
        const { rules, revision } = policy;
        const heavyStamp = stamp;
        compiled = {
          stamp,
          snapshot: {
            revision,
            check: () => false,
            checkAll: async (values) => fromOffload(await offload.check(heavyStamp, rules, values)),
          },
        };
      }
    }
    if (compiled?.stamp !== stamp) {
      const ruleSet = compileRules(policy.rules);
      if (!ruleSet.ok) return err(UNAVAILABLE);
      const guard = ruleSet.value;
      const check = (value: string): boolean => {
        try {
          return guard.check(value).ok;
        } catch {
          return false;
        }
      };
      const { rules } = policy;
      const compiledStamp = stamp;
      compiled = {
        stamp,
        snapshot: {
          revision: policy.revision,
          check,
          async checkAll(values) {
            const length = values.reduce((sum, value) => sum + value.length, 0);
            if (offload === undefined || guard.costPerChar * length <= INLINE_CHECK_BUDGET) {
              return values.every(check) ? 'pass' : 'deny';
            }
            return fromOffload(await offload.check(compiledStamp, rules, values));
          },
        },
      };
    }
    if (before !== undefined) current = { changeStamp: before, snapshot: compiled.snapshot };
    return ok(compiled.snapshot);
  };
}

/** The structural values of a relay request that the deployment-wide check reads. */
export interface StructuralValues {
  readonly path: string;
  readonly query?: Readonly<Record<string, string | readonly string[]>> | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/**
 * A header value as the forge reads it: HTTP strips the optional whitespace (space and tab)
 * around a field value (RFC 9110 §5.5), and Node's and undici's HTTP code do so on the wire.
 */
function headerFieldValue(value: string): string {
  return value.replace(/^[\t ]+|[\t ]+$/gu, '');
}

/**
 * Every value of a request's structural values, in every percent-encoding form; a header value
 * also as the forge reads it (without surrounding spaces and tabs), so that `^…$` holds there.
 */
function structuralForms(values: StructuralValues): string[] {
  const forms = [...percentEncodingForms(values.path)];
  for (const [key, value] of Object.entries(values.query ?? {})) {
    forms.push(...percentEncodingForms(key));
    for (const item of typeof value === 'string' ? [value] : value) {
      forms.push(...percentEncodingForms(item));
    }
  }
  for (const value of Object.values(values.headers ?? {})) {
    forms.push(...percentEncodingForms(value));
    const fieldValue = headerFieldValue(value);
    if (fieldValue !== value) forms.push(...percentEncodingForms(fieldValue));
  }
  return forms;
}

/**
 * Checks a request's structural values (path, query keys and values, header values) against a
 * snapshot, before any lookup. The relay only checks: it never rewrites a path, search term or
 * header.
 *
 * Each value is read in every form of `percentEncodingForms` (`@relay/protocol`): as sent, in
 * its RFC 3986 canonical form (`%62` read as `b`, the form the transport sends) and
 * percent-decoded once (`bluefalc%C3%B3n` read as `bluefalcón`); a match in any form denies.
 * Decoding is single: a double-encoded path (`%2562`) is read as `%2562` and `%62` and is then
 * refused by path validation (`double_encoding`), so it is never sent; a double-encoded query
 * value reaches the forge as that literal text (the transport form-encodes it once more).
 *
 * The check runs through the snapshot's `checkAll`: an expensive one runs off the event loop
 * and within a deadline (a check past it denies).
 *
 * @returns `pass` when every value may leave, `deny`, or `busy` when the check could not be
 *   queued
 */
export function checkStructuralValues(
  snapshot: RewriteSnapshot,
  values: StructuralValues,
): Promise<'pass' | 'deny' | 'busy'> {
  return snapshot.checkAll(structuralForms(values));
}

/**
 * {@link checkStructuralValues} on the event loop, for callers without an offload: true when every
 * value may leave.
 */
export function passesStructuralCheck(
  snapshot: RewriteSnapshot,
  values: StructuralValues,
): boolean {
  return structuralForms(values).every((form) => snapshot.check(form));
}

/**
 * The transport-level check of a snapshot, in the shape `@relay/forge-transport` takes. The
 * transport hands it every percent-encoding form of each outgoing URL and header value
 * (`passesRewriteCheck`), the canonical URL it sends included; each URL is also read as the
 * structural values of the request it makes, its path and query keys and values
 * (`outgoingUrlForms`), so that a path-anchored pattern holds for a visibility probe or a
 * pagination request as it does for the caller's own path.
 *
 * @param snapshot - the request's frozen snapshot
 */
export function toTransportCheck(snapshot: RewriteSnapshot): RewriteCheck {
  const check = (value: string) => outgoingUrlForms([value]).every((form) => snapshot.check(form));
  // A busy offload denies: the outgoing request is refused rather than checked less.
  return Object.assign(check, {
    checkAll: async (values: readonly string[]) =>
      (await snapshot.checkAll(outgoingUrlForms(values))) === 'pass',
  });
}
