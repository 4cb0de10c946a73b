import type { Result, StringRewriteRule } from '@relay/protocol';
import type { PolicyError } from './policy-error.js';
import type { RegexEngine } from './regex-engine.js';
import { DEFAULT_CHUNK_SIZE, compileRulesWithChunks } from './rule-set.js';
import type { CompileRulesOptions, RuleSet } from './rule-set.js';

/**
 * The engine of an empty rule list: compiling a rule list without rules compiles no pattern, so
 * it is never asked to.
 */
const NO_PATTERNS: RegexEngine = {
  name: 'none',
  compile(): never {
    throw new Error('rewrite-engine: an empty rule list compiles no pattern');
  },
};

/**
 * `compileRules`, except that the default engine, re2js (about 300 KB of JavaScript), is
 * imported only when the list has a rule: an empty policy — the common case — needs no regex
 * engine, and a short-lived process (the `relay` CLI's outbound guard) should not load one.
 * The result is the same as `compileRules`' for every list, empty or not: the same validation,
 * the same checks of the input (size, well-formed Unicode) and, with rules, the same engine.
 *
 * @example
 * ```ts
 * const guard = await compileRulesLazily(policy.rules);
 * if (guard.ok) guard.value.check('a request value');
 * ```
 */
export async function compileRulesLazily(
  rules: readonly StringRewriteRule[],
  options: CompileRulesOptions = {},
): Promise<Result<RuleSet, PolicyError>> {
  const engine =
    options.engine ??
    (rules.length === 0 ? NO_PATTERNS : (await import('./re2js-engine.js')).re2jsEngine);
  return compileRulesWithChunks(rules, { ...options, engine }, DEFAULT_CHUNK_SIZE);
}
