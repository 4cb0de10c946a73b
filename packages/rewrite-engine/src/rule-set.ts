import { REWRITE_INPUT_MAX_BYTES, err, ok } from '@relay/protocol';
import type { Result, StringRewriteRule } from '@relay/protocol';
import type { GuardFailure } from './guard-outcome.js';
import type { PolicyError } from './policy-error.js';
import type { RegexEngine } from './regex-engine.js';
import { ZERO_WIDTH, createRuleMatcher } from './rule-matcher.js';
import type { MatchStrategy, RuleMatcher } from './rule-matcher.js';
import { exceedsDocumentLimit, validateRules } from './rule-validator.js';
import type { ValidatedRule } from './rule-validator.js';
import {
  estimatePatternCost,
  hasTextAnchor,
  mayMatchEmpty,
  unconsumableAscii,
} from './pattern-analysis.js';
import { exceedsUtf8Bytes, isWellFormedUnicode, utf8ByteLength } from './text-encoding.js';

/** Options of {@link compileRules}. */
export interface CompileRulesOptions {
  /** The regular-expression engine. Default: re2js. */
  readonly engine?: RegexEngine;
  /**
   * `fast` (default) uses the literal fast path and the required-literal prefilter; `plain` runs
   * the engine over the whole text for every rule. Both give identical results.
   */
  readonly strategy?: MatchStrategy;
}

/** A validated, compiled rule list: the guard of one policy snapshot. Immutable. */
export interface RuleSet {
  /** The rules, in order. */
  readonly rules: readonly StringRewriteRule[];
  /**
   * An upper bound of the work `check` costs per character of its text: the sum of the rules'
   * `estimatePatternCost`. A caller that bounds its work per request multiplies it by the text's
   * length (and may run expensive checks off its main thread).
   */
  readonly costPerChar: number;
  /**
   * Whether any active pattern matches `text` (request values, outgoing URLs and headers).
   *
   * @returns `ok` with the text unchanged; `blocked` (`pattern_match`) when a pattern matches;
   *   `aborted` (`zero_width_match`, `input_too_large`, `invalid_unicode` for a text holding a
   *   lone surrogate).
   */
  check(text: string): Result<string, GuardFailure>;
  /**
   * Applies every rule once, globally, in order, with literal replacements (`$1`, `$&` and `$$`
   * are not expanded); later rules see earlier output. A final scan of every pattern then blocks
   * any remaining or newly created match.
   *
   * @returns `ok` with the rewritten text; `blocked` (`final_scan_match`); `aborted`
   *   (`zero_width_match`, `input_too_large`, `output_too_large`, `invalid_unicode` for a text
   *   holding a lone surrogate).
   */
  rewrite(text: string): Result<string, GuardFailure>;
}

interface CompiledRule {
  readonly replacement: string;
  readonly replacementBytes: number;
  readonly matcher: RuleMatcher;
}

/** How `rewrite` may cut its input: at a separator, into chunks of about this many units. */
export interface Chunking {
  readonly separator: string | null;
  readonly chunkSize: number;
}

/** Chunk size of `rewrite`: small enough that rebuilding a chunk is cheap. */
export const DEFAULT_CHUNK_SIZE = 16_384;

/** Preferred chunk separators, most natural first. */
const SEPARATOR_CANDIDATES = ['\n', ' ', '\t', '"', ',', ';', '<', '>', '\0'];

/** A separator no rule can consume, or null when the rules do not allow cutting. */
function chooseSeparator(rules: readonly ValidatedRule[]): string | null {
  const usable = new Uint8Array(128).fill(1);
  for (const { parsed } of rules) {
    if (mayMatchEmpty(parsed.root) || hasTextAnchor(parsed.root)) return null;
    const table = unconsumableAscii(parsed.root);
    for (let unit = 0; unit < 128; unit++) usable[unit] = (usable[unit] ?? 0) & (table[unit] ?? 0);
  }
  return SEPARATOR_CANDIDATES.find((candidate) => usable[candidate.charCodeAt(0)] === 1) ?? null;
}

const BLOCKED_CHECK: GuardFailure = { code: 'blocked', category: 'pattern_match' };
const BLOCKED_FINAL: GuardFailure = { code: 'blocked', category: 'final_scan_match' };
const ZERO_WIDTH_ABORT: GuardFailure = { code: 'aborted', category: 'zero_width_match' };
const INPUT_TOO_LARGE: GuardFailure = { code: 'aborted', category: 'input_too_large' };
const OUTPUT_TOO_LARGE: GuardFailure = { code: 'aborted', category: 'output_too_large' };
const INVALID_UNICODE: GuardFailure = { code: 'aborted', category: 'invalid_unicode' };

class CompiledRuleSet implements RuleSet {
  constructor(
    readonly rules: readonly StringRewriteRule[],
    private readonly compiled: readonly CompiledRule[],
    private readonly chunking: Chunking,
    readonly costPerChar: number,
  ) {}

  check(text: string): Result<string, GuardFailure> {
    if (exceedsUtf8Bytes(text, REWRITE_INPUT_MAX_BYTES)) return err(INPUT_TOO_LARGE);
    if (!isWellFormedUnicode(text)) return err(INVALID_UNICODE);
    const failure = this.scan(text, BLOCKED_CHECK);
    return failure === null ? ok(text) : err(failure);
  }

  rewrite(text: string): Result<string, GuardFailure> {
    if (text.length > REWRITE_INPUT_MAX_BYTES) return err(INPUT_TOO_LARGE);
    // The UTF-8 size is counted once, then kept up to date from the replaced spans alone.
    let bytes = utf8ByteLength(text);
    if (bytes > REWRITE_INPUT_MAX_BYTES) return err(INPUT_TOO_LARGE);
    // Replacements are well formed too, so no lone surrogate can appear later on.
    if (!isWellFormedUnicode(text)) return err(INVALID_UNICODE);
    const chunks = this.split(text);
    for (const rule of this.compiled) {
      for (const [index, chunk] of chunks.entries()) {
        const spans = rule.matcher.matches(chunk, false);
        if (spans === ZERO_WIDTH) return err(ZERO_WIDTH_ABORT);
        if (spans.length === 0) continue;
        bytes += (spans.length / 2) * rule.replacementBytes;
        for (let i = 0; i + 1 < spans.length; i += 2) {
          bytes -= utf8ByteLength(chunk.slice(spans[i], spans[i + 1]));
        }
        if (bytes > REWRITE_INPUT_MAX_BYTES) return err(OUTPUT_TOO_LARGE);
        chunks[index] = splice(chunk, spans, rule.replacement);
      }
    }
    for (const chunk of chunks) {
      const failure = this.scan(chunk, BLOCKED_FINAL);
      if (failure !== null) return err(failure);
    }
    return ok(chunks.join(''));
  }

  /**
   * Cuts the text after separators no rule can consume, so that a rule with a few matches
   * rebuilds one chunk instead of the whole text. Sound only because no match of any rule, at
   * any stage, can contain the separator, and no rule has `^`, `$` or a zero-width match: each
   * chunk then matches exactly as the same stretch of the whole text does.
   */
  private split(text: string): string[] {
    const { separator, chunkSize } = this.chunking;
    if (separator === null || text.length < 2 * chunkSize) return [text];
    const chunks: string[] = [];
    let start = 0;
    while (start < text.length) {
      const cut = text.indexOf(separator, start + chunkSize);
      const end = cut < 0 ? text.length : cut + 1;
      chunks.push(text.slice(start, end));
      start = end;
    }
    return chunks;
  }

  /** The failure of the first rule that matches (or matches empty), or null. */
  private scan(text: string, blocked: GuardFailure): GuardFailure | null {
    for (const rule of this.compiled) {
      const spans = rule.matcher.matches(text, true);
      if (spans === ZERO_WIDTH) return ZERO_WIDTH_ABORT;
      if (spans.length > 0) return blocked;
    }
    return null;
  }
}

/** Replaces each span with the literal replacement. */
function splice(text: string, spans: readonly number[], replacement: string): string {
  const parts: string[] = [];
  let last = 0;
  for (let i = 0; i + 1 < spans.length; i += 2) {
    const start = spans[i] ?? last;
    parts.push(text.slice(last, start), replacement);
    last = spans[i + 1] ?? start;
  }
  parts.push(text.slice(last));
  return parts.join('');
}

/**
 * `compileRules` with a given engine and chunk size (tests use tiny chunks). This module imports
 * no engine, so that `compileRulesLazily` can load re2js only when a rule needs it. Not exported
 * publicly.
 */
export function compileRulesWithChunks(
  rules: readonly StringRewriteRule[],
  options: CompileRulesOptions & { readonly engine: RegexEngine },
  chunkSize: number,
): Result<RuleSet, PolicyError> {
  const validated = validateRules(rules);
  if (!validated.ok) return validated;
  if (exceedsDocumentLimit(rules)) return err({ code: 'document_too_large', field: 'rules' });
  const { engine } = options;
  const strategy = options.strategy ?? 'fast';
  const compiled: CompiledRule[] = [];
  for (const [ruleIndex, rule] of validated.value.entries()) {
    const regex = engine.compile(rule.pattern);
    if (regex === null) {
      return err({
        code: 'invalid_pattern',
        ruleIndex,
        field: 'pattern',
        pattern: { code: 'engine_rejected', offset: 0 },
      });
    }
    compiled.push({
      replacement: rule.replacement,
      replacementBytes: utf8ByteLength(rule.replacement),
      matcher: createRuleMatcher(rule.parsed, regex, strategy),
    });
  }
  const frozen = Object.freeze(
    validated.value.map(({ pattern, replacement }) => Object.freeze({ pattern, replacement })),
  );
  const separator = strategy === 'plain' ? null : chooseSeparator(validated.value);
  const costPerChar = validated.value.reduce(
    (sum, rule) => sum + estimatePatternCost(rule.parsed.root),
    0,
  );
  return ok(new CompiledRuleSet(frozen, compiled, { separator, chunkSize }, costPerChar));
}
