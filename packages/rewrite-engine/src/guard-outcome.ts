/** Why content was blocked: a generic category, never the pattern or the matched text. */
export type BlockCategory =
  /** `check`: an active pattern matches the value. */
  | 'pattern_match'
  /** `rewrite`: after every rule ran, a pattern still matches (or a replacement created a match). */
  | 'final_scan_match';

/** Why an operation was aborted: a generic category. */
export type AbortCategory =
  /** A pattern produced a zero-width match on real input. */
  | 'zero_width_match'
  /** The input exceeds 1,048,576 UTF-8 bytes. */
  | 'input_too_large'
  /** An intermediate or final result exceeds 1,048,576 UTF-8 bytes. */
  | 'output_too_large'
  /**
   * The input is not well-formed Unicode (it holds a lone surrogate): it has no single reading
   * as code points or as UTF-8 (an encoder would send U+FFFD), so it cannot be checked as sent.
   */
  | 'invalid_unicode';

/** The failure of `check` or `rewrite`; it carries no pattern, replacement or matched text. */
export type GuardFailure =
  | { readonly code: 'blocked'; readonly category: BlockCategory }
  | { readonly code: 'aborted'; readonly category: AbortCategory };
