import type { RewriteCheck } from '@relay/forge-transport';
import type { StringRewriteRule } from '@relay/protocol';
import { compileRules, parsePolicyUpdate } from '@relay/rewrite-engine';
import type { PolicyUpdateParser, RewriteCheckFactory } from '../server-services.js';

/**
 * The PUT body validator of @relay/rewrite-engine: exactly schema_version 1,
 * expected_revision and rules; duplicate keys, duplicate patterns, unknown fields, invalid
 * Unicode, unsupported schema versions, patterns outside the RE2 subset and patterns matching
 * empty input are refused. Errors carry codes and positions only.
 */
export const parseEnginePolicyUpdate: PolicyUpdateParser = (text) => {
  const parsed = parsePolicyUpdate(text);
  if (!parsed.ok) return { ok: false, error: { code: parsed.error.code } };
  return {
    ok: true,
    value: { expectedRevision: parsed.value.expectedRevision, rules: parsed.value.rules },
  };
};

/**
 * The transport-level rewrite check of one frozen policy snapshot, compiled by
 * @relay/rewrite-engine: a value may leave when no active pattern matches it.
 *
 * @returns the check, or undefined when the stored rules do not compile (the policy is then
 *   unusable: 503 `string_rewrite_policy_unavailable`)
 */
export const createEngineRewriteCheck: RewriteCheckFactory = (
  rules: readonly StringRewriteRule[],
): RewriteCheck | undefined => {
  const compiled = compileRules(rules);
  if (!compiled.ok) return undefined;
  const ruleSet = compiled.value;
  return (value) => ruleSet.check(value).ok;
};
