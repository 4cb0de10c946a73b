import {
  REWRITE_DOCUMENT_MAX_BYTES,
  STRING_REWRITE_SCHEMA_VERSION,
  type StringRewritePolicy,
  type StringRewriteRule,
} from '@relay/protocol';

/**
 * The largest revision a policy can reach (`revisionSchema`'s bound, 16 digits). The GET
 * envelope of a stored policy is measured at this revision, so that no later revision (every PUT,
 * even of an unchanged ruleset, adds one) can push it past the limit.
 */
export const MAX_POLICY_REVISION = Number.MAX_SAFE_INTEGER;

/**
 * The UTF-8 size of the GET envelope (`{schema_version, revision, updated_at, rules}`, as the
 * string-rewrite GET endpoints write it) that a policy with these rules, stored at `updatedAt`,
 * produces at any revision: measured at {@link MAX_POLICY_REVISION}.
 *
 * @param rules - the rules to be stored
 * @param updatedAt - the `updated_at` they are stored with (an ISO timestamp)
 * @returns the largest byte size any GET of that policy can have
 */
export function measurePolicyEnvelopeBytes(
  rules: readonly StringRewriteRule[],
  updatedAt: string,
): number {
  const envelope: StringRewritePolicy = {
    schema_version: STRING_REWRITE_SCHEMA_VERSION,
    revision: MAX_POLICY_REVISION,
    updated_at: updatedAt,
    rules: rules.map((rule) => ({ pattern: rule.pattern, replacement: rule.replacement })),
  };
  return Buffer.byteLength(JSON.stringify(envelope), 'utf8');
}

/**
 * Whether a policy with these rules, stored at `updatedAt`, keeps every GET envelope within
 * SPEC.md's 65,536 bytes per policy document or API body ({@link REWRITE_DOCUMENT_MAX_BYTES}),
 * whatever revision it reaches.
 *
 * @param rules - the rules to be stored
 * @param updatedAt - the `updated_at` they are stored with
 */
export function isPolicyEnvelopeWithinLimit(
  rules: readonly StringRewriteRule[],
  updatedAt: string,
): boolean {
  return measurePolicyEnvelopeBytes(rules, updatedAt) <= REWRITE_DOCUMENT_MAX_BYTES;
}
