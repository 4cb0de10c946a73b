import { err, ok } from '@relay/protocol';
import type { Result, StringRewriteRule } from '@relay/protocol';
import type { PolicyError } from './policy-error.js';
import { exceedsDocumentLimit, validateRules } from './rule-validator.js';

/**
 * Merges the server's rules with the client's local rules (SPEC.md client rule 15): server rules
 * first, then local ones; an entry identical to an earlier one (same pattern and replacement) is
 * dropped; one pattern with two different replacements fails with `conflicting_replacement`.
 * The combined list must satisfy every policy limit (128 rules, sizes, the 65,536-byte document).
 *
 * @returns The merged rules, or a {@link PolicyError} whose `ruleIndex` is the position in the
 *   concatenation of both lists.
 * @example
 * ```ts
 * const merged = mergeRules(serverPolicy.rules, localFile.rules);
 * const guard = merged.ok ? compileRules(merged.value) : merged;
 * ```
 */
export function mergeRules(
  serverRules: readonly StringRewriteRule[],
  localRules: readonly StringRewriteRule[],
): Result<readonly StringRewriteRule[], PolicyError> {
  const byPattern = new Map<string, string>();
  const merged: StringRewriteRule[] = [];
  for (const [ruleIndex, rule] of [...serverRules, ...localRules].entries()) {
    const earlier = byPattern.get(rule.pattern);
    if (earlier === undefined) {
      byPattern.set(rule.pattern, rule.replacement);
      merged.push({ pattern: rule.pattern, replacement: rule.replacement });
    } else if (earlier !== rule.replacement) {
      return err({ code: 'conflicting_replacement', ruleIndex, field: 'replacement' });
    }
  }
  const validated = validateRules(merged);
  if (!validated.ok) return validated;
  if (exceedsDocumentLimit(merged)) return err({ code: 'document_too_large', field: 'rules' });
  return ok(merged);
}
