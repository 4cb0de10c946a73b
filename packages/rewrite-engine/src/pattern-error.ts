/**
 * Why a pattern is not in the rule language. Each code names the construct; the error's offset
 * says where it starts. Errors never carry the pattern text.
 */
export const PATTERN_ERROR_CODES = [
  'pattern_too_large',
  'invalid_unicode',
  'control_character',
  'matches_empty',
  'inline_flags',
  'lookaround',
  'backreference',
  'named_capture',
  'unsupported_group',
  'unicode_class',
  'octal_escape',
  'any_byte_escape',
  'posix_class',
  'hex_escape',
  'unicode_escape',
  'quoted_literal',
  'text_anchor_escape',
  'unknown_escape',
  'trailing_backslash',
  'missing_paren',
  'unmatched_paren',
  'missing_bracket',
  'unescaped_bracket',
  'empty_class',
  'invalid_range',
  'missing_repeat_argument',
  'repeated_quantifier',
  'invalid_repeat',
  'repeat_count_too_large',
  'engine_rejected',
] as const;

/** A code of {@link PatternError}. */
export type PatternErrorCode = (typeof PATTERN_ERROR_CODES)[number];

/** A pattern outside the rule language. */
export interface PatternError {
  /** The rejected construct. */
  readonly code: PatternErrorCode;
  /** UTF-16 code-unit index in the pattern where the construct starts (0 for whole-pattern faults). */
  readonly offset: number;
}
