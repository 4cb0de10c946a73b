import type { RewriteCheck } from '@relay/forge-transport';
import { err, ok, type Result, type StringRewritePolicy } from '@relay/protocol';
import { compileRules } from '@relay/rewrite-engine';

/**
 * One frozen string-rewrite policy snapshot: every check of one relay request (its structural
 * values and every outgoing URL and header) uses the same snapshot.
 */
export interface RewriteSnapshot {
  /** The policy revision the snapshot was taken from. */
  readonly revision: number;
  /** Whether `value` may leave: true when no active pattern matches it. Fails closed. */
  readonly check: (value: string) => boolean;
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
 * Creates the loader of frozen rewrite snapshots: reads the policy at every request (a PUT is
 * effective at once) and compiles its rules with `@relay/rewrite-engine`, reusing the compiled
 * rule set while revision and update time are unchanged.
 *
 * @param read - reads the stored policy
 */
export function createRewriteSnapshotLoader(
  read: StoredRewritePolicyReader,
): RewriteSnapshotLoader {
  let compiled: { readonly stamp: string; readonly snapshot: RewriteSnapshot } | undefined;
  return async () => {
    let stored;
    try {
      stored = await read();
    } catch {
      return err(UNAVAILABLE);
    }
    if (!stored.ok) return err(UNAVAILABLE);
    const policy = stored.value;
    const stamp = `${String(policy.revision)}\n${policy.updated_at}`;
    if (compiled?.stamp === stamp) return ok(compiled.snapshot);
    const ruleSet = compileRules(policy.rules);
    if (!ruleSet.ok) return err(UNAVAILABLE);
    const guard = ruleSet.value;
    const snapshot: RewriteSnapshot = {
      revision: policy.revision,
      check: (value) => {
        try {
          return guard.check(value).ok;
        } catch {
          return false;
        }
      },
    };
    compiled = { stamp, snapshot };
    return ok(snapshot);
  };
}

/** The structural values of a relay request that the deployment-wide check reads. */
export interface StructuralValues {
  readonly path: string;
  readonly query?: Readonly<Record<string, string | readonly string[]>> | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/**
 * Checks a request's structural values (path, query keys and values, header values) against a
 * snapshot, before any lookup. The relay only checks: it never rewrites a path, search term or
 * header.
 *
 * @returns true when every value may leave
 */
export function passesStructuralCheck(
  snapshot: RewriteSnapshot,
  values: StructuralValues,
): boolean {
  if (!snapshot.check(values.path)) return false;
  for (const [key, value] of Object.entries(values.query ?? {})) {
    if (!snapshot.check(key)) return false;
    const items = typeof value === 'string' ? [value] : value;
    if (!items.every((item) => snapshot.check(item))) return false;
  }
  return Object.values(values.headers ?? {}).every((value) => snapshot.check(value));
}

/**
 * The transport-level check of a snapshot, in the shape `@relay/forge-transport` takes.
 *
 * @param snapshot - the request's frozen snapshot
 */
export function toTransportCheck(snapshot: RewriteSnapshot): RewriteCheck {
  return (value) => snapshot.check(value);
}
