/**
 * The syntax tree of a parsed rewrite pattern. Character sets are resolved to sorted, merged,
 * inclusive code-point ranges, so negation, `.` and the class escapes need no later handling.
 */

/** An inclusive code-point range. */
export type CodePointRange = readonly [low: number, high: number];

/** A zero-width assertion of the rule language. */
export type AssertionKind = 'begin_text' | 'end_text' | 'word_boundary' | 'not_word_boundary';

/** One node of a parsed pattern. */
export type PatternNode =
  | { readonly type: 'empty' }
  | { readonly type: 'literal'; readonly codePoint: number }
  | { readonly type: 'class'; readonly ranges: readonly CodePointRange[] }
  | { readonly type: 'assertion'; readonly kind: AssertionKind }
  | { readonly type: 'group'; readonly capture: boolean; readonly child: PatternNode }
  | { readonly type: 'concat'; readonly children: readonly PatternNode[] }
  | { readonly type: 'alternate'; readonly children: readonly PatternNode[] }
  | {
      readonly type: 'repeat';
      readonly min: number;
      /** `null` when unbounded. */
      readonly max: number | null;
      readonly greedy: boolean;
      readonly child: PatternNode;
    };

/** The largest Unicode code point. */
export const MAX_CODE_POINT = 0x10ffff;
