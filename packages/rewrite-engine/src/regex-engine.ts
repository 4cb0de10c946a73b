/**
 * The port to a linear-time regular-expression engine. The rule set needs only this much, so a
 * native RE2 binding can replace re2js without touching the rest of the package.
 */

/**
 * Receives one match as UTF-16 code-unit offsets; returns false to stop the scan.
 */
export type MatchVisitor = (start: number, end: number) => boolean;

/** One compiled pattern. */
export interface CompiledRegex {
  /** Whether the pattern matches anywhere in `text` (an empty match counts). */
  test(text: string): boolean;
  /**
   * Visits successive non-overlapping leftmost-first matches of `text`, left to right, as a
   * global replace would find them, until the visitor returns false.
   */
  forEachMatch(text: string, visit: MatchVisitor): void;
}

/** A regular-expression engine with RE2 semantics (leftmost-first, linear time, `$` = end). */
export interface RegexEngine {
  /** A short name for diagnostics and benchmarks. */
  readonly name: string;
  /**
   * Compiles a pattern already validated by `parsePattern`.
   *
   * @returns The compiled pattern, or null when the engine refuses it.
   */
  compile(source: string): CompiledRegex | null;
}
