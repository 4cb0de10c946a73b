import type { RewriteCheck } from '@relay/forge-transport';
import {
  err,
  ok,
  percentEncodingForms,
  type Result,
  type StringRewritePolicy,
} from '@relay/protocol';
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
 * Tells whether the stored policy may have changed: a stamp that differs from every earlier one
 * after any change, or undefined when the store cannot tell (see
 * `StringRewriteStore.changeStamp`). A rejection counts as "cannot tell".
 */
export type PolicyChangeStamp = () => string | undefined;

/**
 * Creates the loader of frozen rewrite snapshots. Without a change stamp it reads the policy at
 * every request. With one, it reads only when the stamp differs from the one taken before the
 * last successful read — a PUT through this process, or any commit by another connection —
 * and otherwise hands out the snapshot of that read; a PUT is therefore effective for every
 * request that starts after it, and a failed read (missing, corrupt, unreadable) is never
 * reused. The compiled rule set is reused while revision and update time are unchanged.
 *
 * @param read - reads the stored policy
 * @param changeStamp - the store's change detector
 */
export function createRewriteSnapshotLoader(
  read: StoredRewritePolicyReader,
  changeStamp?: PolicyChangeStamp,
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
    const stamp = `${String(policy.revision)}\n${policy.updated_at}`;
    if (compiled?.stamp !== stamp) {
      const ruleSet = compileRules(policy.rules);
      if (!ruleSet.ok) return err(UNAVAILABLE);
      const guard = ruleSet.value;
      compiled = {
        stamp,
        snapshot: {
          revision: policy.revision,
          check: (value) => {
            try {
              return guard.check(value).ok;
            } catch {
              return false;
            }
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

/** Whether every percent-encoding form of `value` passes the snapshot. */
function passesEveryForm(snapshot: RewriteSnapshot, value: string): boolean {
  return percentEncodingForms(value).every((form) => snapshot.check(form));
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
 * @returns true when every value may leave
 */
export function passesStructuralCheck(
  snapshot: RewriteSnapshot,
  values: StructuralValues,
): boolean {
  if (!passesEveryForm(snapshot, values.path)) return false;
  for (const [key, value] of Object.entries(values.query ?? {})) {
    if (!passesEveryForm(snapshot, key)) return false;
    const items = typeof value === 'string' ? [value] : value;
    if (!items.every((item) => passesEveryForm(snapshot, item))) return false;
  }
  return Object.values(values.headers ?? {}).every((value) => passesEveryForm(snapshot, value));
}

/**
 * The transport-level check of a snapshot, in the shape `@relay/forge-transport` takes. The
 * transport hands it every percent-encoding form of each outgoing URL and header value
 * (`passesRewriteCheck`), the canonical URL it sends included.
 *
 * @param snapshot - the request's frozen snapshot
 */
export function toTransportCheck(snapshot: RewriteSnapshot): RewriteCheck {
  return (value) => snapshot.check(value);
}
