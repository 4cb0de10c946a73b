import type { PatternNode } from './pattern-ast.js';

/**
 * Whether the pattern matches the empty input (the text ""). Exact: in the empty text every
 * position is both the beginning and the end, and no word character is near, so `^`, `$` and
 * `\B` hold while `\b` does not.
 */
export function matchesEmptyInput(node: PatternNode): boolean {
  switch (node.type) {
    case 'empty':
      return true;
    case 'literal':
    case 'class':
      return false;
    case 'assertion':
      return node.kind !== 'word_boundary';
    case 'group':
      return matchesEmptyInput(node.child);
    case 'concat':
      return node.children.every(matchesEmptyInput);
    case 'alternate':
      return node.children.some(matchesEmptyInput);
    case 'repeat':
      return node.min === 0 || matchesEmptyInput(node.child);
  }
}

/**
 * Whether the pattern might match an empty string somewhere in some text (assertions assumed to
 * hold). A valid pattern for which this is true can still produce a contextual zero-width match,
 * such as `\b` alone, which the rule set detects at run time.
 */
export function mayMatchEmpty(node: PatternNode): boolean {
  switch (node.type) {
    case 'empty':
    case 'assertion':
      return true;
    case 'literal':
    case 'class':
      return false;
    case 'group':
      return mayMatchEmpty(node.child);
    case 'concat':
      return node.children.every(mayMatchEmpty);
    case 'alternate':
      return node.children.some(mayMatchEmpty);
    case 'repeat':
      return node.min === 0 || mayMatchEmpty(node.child);
  }
}

/** Whether any `^` or `$` occurs in the pattern. */
export function hasTextAnchor(node: PatternNode): boolean {
  switch (node.type) {
    case 'assertion':
      return node.kind === 'begin_text' || node.kind === 'end_text';
    case 'group':
    case 'repeat':
      return hasTextAnchor(node.child);
    case 'concat':
    case 'alternate':
      return node.children.some(hasTextAnchor);
    case 'empty':
    case 'literal':
    case 'class':
      return false;
  }
}

/** Literal facts about a node: the single string it can match, and strings every match contains. */
export interface LiteralFacts {
  /**
   * The only string the node can match, or null. Assertions count as the empty string here, so a
   * node with assertions is exact only together with {@link LiteralFacts.hasAssertion}.
   */
  readonly exact: string | null;
  /** Strings that occur contiguously in every match of the node. */
  readonly required: readonly string[];
  /** Whether the node contains an assertion. */
  readonly hasAssertion: boolean;
}

const EXACT_MAX_LENGTH = 4096;

/** Derives {@link LiteralFacts} from the syntax tree. */
export function literalFacts(node: PatternNode): LiteralFacts {
  switch (node.type) {
    case 'empty':
      return { exact: '', required: [], hasAssertion: false };
    case 'literal':
      return { exact: String.fromCodePoint(node.codePoint), required: [], hasAssertion: false };
    case 'class': {
      const [only] = node.ranges;
      const single = node.ranges.length === 1 && only !== undefined && only[0] === only[1];
      return {
        exact: single ? String.fromCodePoint(only[0]) : null,
        required: [],
        hasAssertion: false,
      };
    }
    case 'assertion':
      return { exact: '', required: [], hasAssertion: true };
    case 'group':
      return literalFacts(node.child);
    case 'concat': {
      const required: string[] = [];
      let run = '';
      let exact: string | null = '';
      let hasAssertion = false;
      for (const child of node.children) {
        const facts = literalFacts(child);
        hasAssertion ||= facts.hasAssertion;
        if (facts.exact !== null) {
          run += facts.exact;
          if (exact !== null) exact += facts.exact;
          continue;
        }
        exact = null;
        if (run !== '') required.push(run);
        run = '';
        required.push(...facts.required);
      }
      if (run !== '') required.push(run);
      return { exact, required: exact === null ? required : [], hasAssertion };
    }
    case 'alternate': {
      const all = node.children.map(literalFacts);
      const first = all[0]?.exact ?? null;
      const same = first !== null && all.every((facts) => facts.exact === first);
      return {
        exact: same ? first : null,
        required: [],
        hasAssertion: all.some((facts) => facts.hasAssertion),
      };
    }
    case 'repeat': {
      const facts = literalFacts(node.child);
      const exact =
        facts.exact !== null &&
        node.max === node.min &&
        facts.exact.length * node.min <= EXACT_MAX_LENGTH
          ? facts.exact.repeat(node.min)
          : null;
      if (exact !== null) return { exact, required: [], hasAssertion: facts.hasAssertion };
      if (node.min === 0) return { exact: null, required: [], hasAssertion: facts.hasAssertion };
      const required = facts.exact !== null && facts.exact !== '' ? [facts.exact] : facts.required;
      return { exact: null, required, hasAssertion: facts.hasAssertion };
    }
  }
}

/**
 * The ASCII characters the pattern can never consume, as a 128-entry table (1 = never consumed).
 * A match never contains such a character, so text can be cut at them.
 */
export function unconsumableAscii(node: PatternNode): Uint8Array {
  const table = new Uint8Array(128).fill(1);
  markConsumable(node, table);
  return table;
}

function markConsumable(node: PatternNode, table: Uint8Array): void {
  switch (node.type) {
    case 'literal':
      if (node.codePoint < 128) table[node.codePoint] = 0;
      return;
    case 'class':
      for (const [low, high] of node.ranges) {
        for (let cp = low; cp <= Math.min(high, 127); cp++) table[cp] = 0;
      }
      return;
    case 'group':
    case 'repeat':
      markConsumable(node.child, table);
      return;
    case 'concat':
    case 'alternate':
      for (const child of node.children) markConsumable(child, table);
      return;
    case 'empty':
    case 'assertion':
      return;
  }
}

/**
 * An upper bound of the work a pattern costs per input character: the size of its Thompson
 * automaton, where a bounded repetition `{m,n}` holds `n` copies of its body (an unbounded one
 * `m + 1`) and each alternative, character set and assertion is one state. A linear-time engine
 * (RE2's NFA simulation, as re2js runs it) visits at most this many states per character, so the
 * work of checking a text is at most `cost × length`. Engines often do far less (literal
 * prefilters, one-pass and DFA paths): this bound is what a caller may plan for, not a forecast.
 *
 * @param node - the root of a parsed pattern
 * @returns the number of automaton states, at least 1
 */
export function estimatePatternCost(node: PatternNode): number {
  switch (node.type) {
    case 'empty':
      return 1;
    case 'literal':
    case 'class':
    case 'assertion':
      return 1;
    case 'group':
      return estimatePatternCost(node.child) + (node.capture ? 2 : 0);
    case 'concat':
      return Math.max(
        1,
        node.children.reduce((sum, child) => sum + estimatePatternCost(child), 0),
      );
    case 'alternate':
      return node.children.reduce((sum, child) => sum + estimatePatternCost(child) + 1, 0);
    case 'repeat': {
      const copies = node.max ?? node.min + 1;
      return Math.max(1, copies) * estimatePatternCost(node.child) + 1;
    }
  }
}
