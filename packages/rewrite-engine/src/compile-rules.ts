import type { Result, StringRewriteRule } from '@relay/protocol';
import type { PolicyError } from './policy-error.js';
import { re2jsEngine } from './re2js-engine.js';
import { DEFAULT_CHUNK_SIZE, compileRulesWithChunks } from './rule-set.js';
import type { CompileRulesOptions, RuleSet } from './rule-set.js';

/**
 * Validates and compiles a rule list (at most 128 rules, 256 UTF-8 bytes per pattern, 1,024 per
 * replacement, 65,536 for the list written as a document; unique patterns of the rule language).
 * The engine is re2js unless `options.engine` names another; `compileRulesLazily` is the same
 * without loading re2js for an empty list.
 *
 * @returns A {@link RuleSet}, or the first {@link PolicyError}.
 * @example
 * ```ts
 * const compiled = compileRules([{ pattern: 'project-falcon', replacement: 'project-x' }]);
 * if (compiled.ok) {
 *   const out = compiled.value.rewrite('about project-falcon');
 *   // out: { ok: true, value: 'about project-x' }
 * }
 * ```
 */
export function compileRules(
  rules: readonly StringRewriteRule[],
  options: CompileRulesOptions = {},
): Result<RuleSet, PolicyError> {
  return compileRulesWithChunks(
    rules,
    { ...options, engine: options.engine ?? re2jsEngine },
    DEFAULT_CHUNK_SIZE,
  );
}
