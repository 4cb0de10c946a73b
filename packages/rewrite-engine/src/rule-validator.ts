import {
  REWRITE_DOCUMENT_MAX_BYTES,
  REWRITE_PATTERN_MAX_BYTES,
  REWRITE_REPLACEMENT_MAX_BYTES,
  REWRITE_RULES_MAX,
  err,
  ok,
} from '@relay/protocol';
import type { Result, StringRewriteRule } from '@relay/protocol';
import { parsePattern } from './pattern-parser.js';
import type { ParsedPattern } from './pattern-parser.js';
import type { PolicyError } from './policy-error.js';
import { exceedsUtf8Bytes, findLoneSurrogate, utf8ByteLength } from './text-encoding.js';

/** A rule that passed validation, with its parsed pattern. */
export interface ValidatedRule {
  readonly pattern: string;
  readonly replacement: string;
  readonly parsed: ParsedPattern;
}

/**
 * Validates a rule list against the policy rules: count, byte sizes, well-formed Unicode, the
 * pattern language, and unique patterns. Reports the first fault in list order.
 */
export function validateRules(
  rules: readonly StringRewriteRule[],
): Result<readonly ValidatedRule[], PolicyError> {
  if (rules.length > REWRITE_RULES_MAX) return err({ code: 'too_many_rules', field: 'rules' });
  const seen = new Map<string, number>();
  const validated: ValidatedRule[] = [];
  for (const [ruleIndex, rule] of rules.entries()) {
    const { pattern, replacement } = rule;
    if (exceedsUtf8Bytes(pattern, REWRITE_PATTERN_MAX_BYTES)) {
      return err({ code: 'pattern_too_large', ruleIndex, field: 'pattern' });
    }
    if (exceedsUtf8Bytes(replacement, REWRITE_REPLACEMENT_MAX_BYTES)) {
      return err({ code: 'replacement_too_large', ruleIndex, field: 'replacement' });
    }
    if (findLoneSurrogate(pattern) >= 0) {
      return err({ code: 'invalid_unicode', ruleIndex, field: 'pattern' });
    }
    if (findLoneSurrogate(replacement) >= 0) {
      return err({ code: 'invalid_unicode', ruleIndex, field: 'replacement' });
    }
    const parsed = parsePattern(pattern);
    if (!parsed.ok) {
      return err({ code: 'invalid_pattern', ruleIndex, field: 'pattern', pattern: parsed.error });
    }
    if (seen.has(pattern)) return err({ code: 'duplicate_pattern', ruleIndex, field: 'pattern' });
    seen.set(pattern, ruleIndex);
    validated.push({ pattern, replacement, parsed: parsed.value });
  }
  return ok(validated);
}

/** The UTF-8 size of the rules written as an import document, as JSON.stringify writes it. */
export function importDocumentBytes(rules: readonly StringRewriteRule[]): number {
  const body = rules.map((rule) => ({ pattern: rule.pattern, replacement: rule.replacement }));
  return utf8ByteLength(JSON.stringify({ schema_version: 1, rules: body }));
}

/** Whether the rules, written as an import document, exceed the document limit. */
export function exceedsDocumentLimit(rules: readonly StringRewriteRule[]): boolean {
  return importDocumentBytes(rules) > REWRITE_DOCUMENT_MAX_BYTES;
}
