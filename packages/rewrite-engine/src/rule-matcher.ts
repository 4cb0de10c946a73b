import {
  hasTextAnchor,
  literalFacts,
  mayMatchEmpty,
  unconsumableAscii,
} from './pattern-analysis.js';
import type { ParsedPattern } from './pattern-parser.js';
import type { CompiledRegex } from './regex-engine.js';

/** Match spans as flat `[start0, end0, start1, end1, ...]` UTF-16 offsets. */
export type MatchSpans = number[];

/** Returned instead of spans when a pattern matched the empty string. */
export const ZERO_WIDTH = 'zero_width';

/** How one rule finds its matches. */
export interface RuleMatcher {
  /**
   * The spans of all non-overlapping leftmost-first matches (or only the first when
   * `firstOnly`), or {@link ZERO_WIDTH} as soon as a match is empty.
   */
  matches(text: string, firstOnly: boolean): MatchSpans | typeof ZERO_WIDTH;
}

/** Literal fast path: the pattern matches exactly one string, so `indexOf` finds every match. */
class LiteralMatcher implements RuleMatcher {
  constructor(private readonly literal: string) {}

  matches(text: string, firstOnly: boolean): MatchSpans {
    const spans: MatchSpans = [];
    const { literal } = this;
    let at = text.indexOf(literal);
    while (at >= 0) {
      spans.push(at, at + literal.length);
      if (firstOnly) break;
      at = text.indexOf(literal, at + literal.length);
    }
    return spans;
  }
}

/** Runs the engine over the whole text: the reference behaviour. */
class PlainMatcher implements RuleMatcher {
  constructor(private readonly regex: CompiledRegex) {}

  matches(text: string, firstOnly: boolean): MatchSpans | typeof ZERO_WIDTH {
    const spans: MatchSpans = [];
    let zeroWidth = false as boolean;
    this.regex.forEachMatch(text, (start, end) => {
      if (start === end) {
        zeroWidth = true;
        return false;
      }
      spans.push(start, end);
      return !firstOnly;
    });
    return zeroWidth ? ZERO_WIDTH : spans;
  }
}

/**
 * A pattern that never matches empty text. Skips the text when a required literal is missing;
 * otherwise, when the pattern has characters it can never consume ("separators") and no `^`/`$`,
 * runs the engine only on the separator-delimited segments that contain the anchor literal.
 * No match can contain a separator, each slice keeps one separator of context on both sides,
 * and each segment is scanned once, so the result is exactly the plain scan's, in linear time.
 */
class PrefilteredMatcher implements RuleMatcher {
  constructor(
    private readonly regex: CompiledRegex,
    private readonly required: readonly string[],
    private readonly anchor: string | null,
    private readonly separators: Uint8Array | null,
  ) {}

  matches(text: string, firstOnly: boolean): MatchSpans {
    for (const literal of this.required) {
      if (!text.includes(literal)) return [];
    }
    const { anchor, separators } = this;
    if (anchor === null || separators === null) {
      if (firstOnly) return this.regex.test(text) ? this.firstPlain(text) : [];
      return this.collect(text, 0, firstOnly, []);
    }
    const spans: MatchSpans = [];
    const isSeparator = (unit: number): boolean => unit < 128 && separators[unit] === 1;
    const length = text.length;
    let pos = 0;
    while (pos < length) {
      const at = text.indexOf(anchor, pos);
      if (at < 0) break;
      let segmentStart = at;
      while (segmentStart > pos && !isSeparator(text.charCodeAt(segmentStart - 1))) segmentStart--;
      let segmentEnd = at + anchor.length;
      while (segmentEnd < length && !isSeparator(text.charCodeAt(segmentEnd))) segmentEnd++;
      const from = segmentStart > 0 ? segmentStart - 1 : 0;
      const to = segmentEnd < length ? segmentEnd + 1 : length;
      this.collect(text.slice(from, to), from, firstOnly, spans);
      if (firstOnly && spans.length > 0) break;
      pos = segmentEnd;
    }
    return spans;
  }

  private firstPlain(text: string): MatchSpans {
    return this.collect(text, 0, true, []);
  }

  private collect(text: string, offset: number, firstOnly: boolean, spans: MatchSpans): MatchSpans {
    this.regex.forEachMatch(text, (start, end) => {
      spans.push(start + offset, end + offset);
      return !firstOnly;
    });
    return spans;
  }
}

/** Which matchers a rule set uses. */
export type MatchStrategy = 'fast' | 'plain';

/** Chooses the matcher of one rule from its parsed pattern. */
export function createRuleMatcher(
  parsed: ParsedPattern,
  regex: CompiledRegex,
  strategy: MatchStrategy,
): RuleMatcher {
  if (strategy === 'plain' || mayMatchEmpty(parsed.root)) return new PlainMatcher(regex);
  const facts = literalFacts(parsed.root);
  if (facts.exact !== null && !facts.hasAssertion) return new LiteralMatcher(facts.exact);
  // An exact string with assertions (`\bword\b`) is itself the one required literal.
  const literals = facts.exact === null ? facts.required : [facts.exact];
  const required = [...new Set(literals)].sort((a, b) => b.length - a.length);
  const anchor = required[0] ?? null;
  const table = unconsumableAscii(parsed.root);
  const separators = hasTextAnchor(parsed.root) || !table.includes(1) ? null : table;
  return new PrefilteredMatcher(regex, required, anchor, separators);
}
