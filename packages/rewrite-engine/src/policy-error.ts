import type { PatternError } from './pattern-error.js';

/** Why a policy document, a rule list or a merge was refused. */
export const POLICY_ERROR_CODES = [
  'document_too_large',
  'invalid_encoding',
  'invalid_json',
  'duplicate_key',
  'invalid_unicode',
  'invalid_type',
  'missing_field',
  'unknown_field',
  'flags_field',
  'unsupported_schema_version',
  'invalid_revision',
  'too_many_rules',
  'pattern_too_large',
  'replacement_too_large',
  'invalid_pattern',
  'duplicate_pattern',
  'conflicting_replacement',
] as const;

/** A code of {@link PolicyError}. */
export type PolicyErrorCode = (typeof POLICY_ERROR_CODES)[number];

/** A field of a policy document that an error can point at. */
export type PolicyField =
  | 'document'
  | 'schema_version'
  | 'expected_revision'
  | 'rules'
  | 'rule'
  | 'pattern'
  | 'replacement';

/**
 * A refused policy document or rule list. Structured, and free of any pattern, replacement or
 * unknown key text: only positions and known field names.
 */
export interface PolicyError {
  readonly code: PolicyErrorCode;
  /** UTF-16 offset in the JSON text, for syntax, encoding and duplicate-key errors. */
  readonly offset?: number;
  /** Index of the rule concerned (in the merged list, for merge errors). */
  readonly ruleIndex?: number;
  /** The field concerned, when it is one of the document's own. */
  readonly field?: PolicyField;
  /** For `invalid_pattern`: the construct and its offset in the pattern. */
  readonly pattern?: PatternError;
}
