import { createHash } from 'node:crypto';
import type { RewriteCheck } from '@relay/forge-transport';
import { compileRules, parsePolicyUpdate } from '@relay/rewrite-engine';
import type { PolicyUpdateParser, RewriteCheckFactory } from '../server-services.js';
import { MAIN_THREAD_POLICY_COST, estimatePolicyCost } from './policy-cost.js';
import { outgoingUrlForms } from './outgoing-url-forms.js';
import type { RewriteCheckOffload } from './rewrite-check-offload.js';

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
 * Creates the factory of transport-level rewrite checks of one frozen policy snapshot (login,
 * provisioning), compiled by @relay/rewrite-engine: a value may leave when no active pattern
 * matches it; an outgoing URL is also read as its path and query keys and values
 * (`outgoingUrlForms`). The last compiled rule list is reused while the rules are unchanged. With an
 * offload, a policy too large to compile on the event loop (`MAIN_THREAD_POLICY_COST`) is checked
 * on the offload's worker only (the check's `checkAll`, which the transport uses).
 *
 * @param offload - the worker thread of expensive checks, if any
 * @returns the factory: a check, or undefined when the stored rules do not compile (the policy
 *   is then unusable: 503 `string_rewrite_policy_unavailable`)
 */
export function createEngineRewriteCheckFactory(
  offload?: RewriteCheckOffload,
): RewriteCheckFactory {
  let last: { readonly key: string; readonly check: RewriteCheck | undefined } | undefined;
  return (rules) => {
    const key = JSON.stringify(rules);
    if (last?.key === key) return last.check;
    let check: RewriteCheck | undefined;
    const cost = offload === undefined ? 0 : estimatePolicyCost(rules);
    if (cost === undefined) {
      check = undefined;
    } else if (offload !== undefined && cost > MAIN_THREAD_POLICY_COST) {
      const stamp = `rules:${createHash('sha256').update(key).digest('hex')}`;
      check = Object.assign(() => false, {
        checkAll: async (values: readonly string[]) =>
          (await offload.check(stamp, rules, outgoingUrlForms(values))) === 'pass',
      });
    } else {
      const compiled = compileRules(rules);
      const ruleSet = compiled.ok ? compiled.value : undefined;
      check =
        ruleSet === undefined
          ? undefined
          : (value) => outgoingUrlForms([value]).every((form) => ruleSet.check(form).ok);
    }
    last = { key, check };
    return check;
  };
}

/** {@link createEngineRewriteCheckFactory} without an offload: every check on the event loop. */
export const createEngineRewriteCheck: RewriteCheckFactory = createEngineRewriteCheckFactory();
