import type { StringRewriteRule } from '@relay/protocol';
import { estimatePatternCost, parsePattern } from '@relay/rewrite-engine';

/**
 * The largest policy (the sum of its patterns' automaton states, `estimatePatternCost`) compiled
 * on the event loop: compiling costs about 4 µs a state here, so this is about 15 ms. A larger
 * policy is compiled on the rewrite-check offload's worker only, and every check of it runs
 * there.
 */
export const MAIN_THREAD_POLICY_COST = 4_000;

/**
 * The sum of a rule list's pattern costs (`estimatePatternCost`), from parsing alone (no
 * compilation), or undefined when a pattern does not parse.
 *
 * @param rules - the policy's rules
 */
export function estimatePolicyCost(rules: readonly StringRewriteRule[]): number | undefined {
  let cost = 0;
  for (const rule of rules) {
    const parsed = parsePattern(rule.pattern);
    if (!parsed.ok) return undefined;
    cost += estimatePatternCost(parsed.value.root);
  }
  return cost;
}
