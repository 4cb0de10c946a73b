import { err, ok } from '@relay/protocol';
import type { Result } from '@relay/protocol';
import type { GuardFailure, RuleSet } from '@relay/rewrite-engine';
import { argumentTexts } from './outbound-content-check.js';
import type { PublicationPlan } from './publication-model.js';
import { containsActiveRuleJson } from './publication-rule-json.js';

/** SPEC.md client rule 16: the text and aggregate content budget of one command, in UTF-8 bytes. */
export const CONTENT_BUDGET_BYTES = 1_048_576;

/** Why a publication's content is refused; it names a field or value, never content. */
export type ContentRefusal =
  /** A structural value (a label, a path, a repository, a sha) matches the policy. */
  | { readonly code: 'value_blocked'; readonly failure: GuardFailure }
  /** A content field could not be rewritten clean (a final-scan match, an abort). */
  | { readonly code: 'content_blocked'; readonly field: string; readonly failure: GuardFailure }
  /** A content file of an unmodeled command matches the policy (it is checked, not rewritten). */
  | { readonly code: 'file_blocked'; readonly failure: GuardFailure }
  /** Standard input is named more than once, or cannot be read. */
  | { readonly code: 'stdin_twice' }
  /** A named content file cannot be read. */
  | { readonly code: 'content_unreadable'; readonly field: string }
  /** A content field holds a JSON member with an active rule's pattern. */
  | { readonly code: 'active_rule_json'; readonly field: string }
  /** One text, or all texts together (before or after the rewrite), exceed 1 MiB. */
  | { readonly code: 'content_budget'; readonly field?: string }
  /** A file or standard input is not UTF-8 text. */
  | { readonly code: 'content_not_text'; readonly field: string };

/** The message of a {@link ContentRefusal} (the exit path adds `relay: ` and the code). */
export function formatContentRefusal(refusal: ContentRefusal): string {
  switch (refusal.code) {
    case 'value_blocked':
      return refusal.failure.code === 'blocked'
        ? 'refused: a value of the command matches the string-rewrite policy'
        : `refused: a value of the command cannot be checked against the string-rewrite policy: ${refusal.failure.category}`;
    case 'content_blocked':
      return refusal.failure.code === 'blocked'
        ? `refused: the ${refusal.field} still matches the string-rewrite policy after the rewrite`
        : `refused: the ${refusal.field} cannot be rewritten by the string-rewrite policy: ${refusal.failure.category}`;
    case 'file_blocked':
      return refusal.failure.code === 'blocked'
        ? 'refused: a content file matches the string-rewrite policy'
        : `refused: a content file cannot be checked against the string-rewrite policy: ${refusal.failure.category}`;
    case 'stdin_twice':
      return 'refused: standard input is named more than once';
    case 'content_unreadable':
      return `refused: the ${refusal.field} cannot be read`;
    case 'active_rule_json':
      return `refused: the ${refusal.field} contains an active string-rewrite rule`;
    case 'content_budget':
      return refusal.field === undefined
        ? 'refused: the content of the command exceeds the 1 MiB content budget'
        : `refused: the ${refusal.field} exceeds the 1 MiB content budget`;
    case 'content_not_text':
      return `refused: the ${refusal.field} is not UTF-8 text`;
  }
}

const encoder = new TextEncoder();

function utf8Bytes(text: string): number {
  return encoder.encode(text).byteLength;
}

/** The plan's texts that are published as they are: its literal tokens and asset paths. */
function structuralValues(plan: PublicationPlan): string[] {
  const values: string[] = [];
  for (const part of plan.parts) {
    if (part.kind === 'literal') values.push(...argumentTexts(part.value));
  }
  for (const asset of plan.assets) values.push(asset.path);
  return values;
}

/**
 * Sanitizes the content of a modeled publication with the policy of this dispatch (SPEC.md
 * client rule 16), in this order:
 * 1. the budget: each text and all texts together at most 1 MiB of UTF-8;
 * 2. no text holds active rule JSON ({@link containsActiveRuleJson});
 * 3. every structural value passes `check` (it is not rewritten: it names an existing object);
 * 4. every text is rewritten (`rewrite`: each rule once, in order, then the final scan);
 * 5. the rewritten texts together are at most 1 MiB.
 *
 * @param ruleSet - the merged guard of this dispatch
 * @param plan - the publication
 * @param texts - the text of each of `plan.fields`, in order
 * @returns the rewritten texts, in order, or the first refusal
 */
export function sanitizePublication(
  ruleSet: RuleSet,
  plan: PublicationPlan,
  texts: readonly string[],
): Result<readonly string[], ContentRefusal> {
  let total = 0;
  for (const [index, text] of texts.entries()) {
    const bytes = utf8Bytes(text);
    if (bytes > CONTENT_BUDGET_BYTES) {
      return err({ code: 'content_budget', field: plan.fields[index]?.name ?? 'content' });
    }
    total += bytes;
  }
  if (total > CONTENT_BUDGET_BYTES) return err({ code: 'content_budget' });
  const patterns = ruleSet.rules.map((rule) => rule.pattern);
  for (const [index, text] of texts.entries()) {
    if (containsActiveRuleJson(text, patterns)) {
      return err({ code: 'active_rule_json', field: plan.fields[index]?.name ?? 'content' });
    }
  }
  for (const value of structuralValues(plan)) {
    const checked = ruleSet.check(value);
    if (!checked.ok) return err({ code: 'value_blocked', failure: checked.error });
  }
  const rewritten: string[] = [];
  let rewrittenTotal = 0;
  for (const [index, text] of texts.entries()) {
    const result = ruleSet.rewrite(text);
    if (!result.ok) {
      return err({
        code: 'content_blocked',
        field: plan.fields[index]?.name ?? 'content',
        failure: result.error,
      });
    }
    rewrittenTotal += utf8Bytes(result.value);
    rewritten.push(result.value);
  }
  if (rewrittenTotal > CONTENT_BUDGET_BYTES) return err({ code: 'content_budget' });
  return ok(rewritten);
}

/**
 * Decodes the bytes of a content file or of standard input: UTF-8, strictly (a byte sequence
 * that is not UTF-8 has no single reading, so it cannot be checked as it will be published).
 *
 * @returns the text, or null when the bytes are not UTF-8
 */
export function decodeContent(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}
