/**
 * @relay/rewrite-engine: the string-rewrite rule language (a portable RE2 subset), policy
 * document validation, and a compiled rule set that checks, rewrites and final-scans text in
 * linear time.
 *
 * @example
 * ```ts
 * import { compileRules, parsePolicyDocument } from '@relay/rewrite-engine';
 * const doc = parsePolicyDocument(text);
 * if (!doc.ok) throw new Error(doc.error.code);
 * const guard = compileRules(doc.value.rules);
 * if (guard.ok) guard.value.rewrite('codename falcon');
 * ```
 */

// Patterns
export { parsePattern } from './pattern-parser.js';
export { estimatePatternCost } from './pattern-analysis.js';
export type { ParsedPattern } from './pattern-parser.js';
export { PATTERN_ERROR_CODES } from './pattern-error.js';
export type { PatternError, PatternErrorCode } from './pattern-error.js';
export type { AssertionKind, CodePointRange, PatternNode } from './pattern-ast.js';

// Policy documents
export { parsePolicyDocument, parsePolicyUpdate } from './policy-document-parser.js';
export type {
  PolicyDocument,
  PolicyDocumentInput,
  PolicyUpdate,
} from './policy-document-parser.js';
export { POLICY_ERROR_CODES } from './policy-error.js';
export type { PolicyError, PolicyErrorCode, PolicyField } from './policy-error.js';

// Rule sets
export { compileRules } from './compile-rules.js';
export { compileRulesLazily } from './lazy-compile.js';
export type { CompileRulesOptions, RuleSet } from './rule-set.js';
export { mergeRules } from './rule-merge.js';
export type { MatchStrategy } from './rule-matcher.js';
export type { AbortCategory, BlockCategory, GuardFailure } from './guard-outcome.js';

// Engines
export { re2jsEngine } from './re2js-engine.js';
export type { CompiledRegex, MatchVisitor, RegexEngine } from './regex-engine.js';
