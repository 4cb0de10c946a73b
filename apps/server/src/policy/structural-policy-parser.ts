import type { RewriteCheck } from '@relay/forge-transport';
import {
  err,
  ok,
  REWRITE_PATTERN_MAX_BYTES,
  REWRITE_REPLACEMENT_MAX_BYTES,
  stringRewritePutSchema,
  type StringRewriteRule,
} from '@relay/protocol';
import type { PolicyUpdateParser, RewriteCheckFactory } from '../server-services.js';

const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

function compile(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

/**
 * A stand-in PUT body parser for deployments built without @relay/rewrite-engine's
 * `parsePolicyUpdate`: exactly schema_version 1, expected_revision and rules; each rule exactly
 * pattern and replacement within the byte limits; no duplicate pattern; every pattern compiles
 * and does not match empty input. It does not check the RE2 subset: the engine's parser
 * replaces it as soon as it is available (see startServer).
 */
export const parsePolicyUpdateStructurally: PolicyUpdateParser = (text) => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return err({ code: 'invalid_json' });
  }
  const parsed = stringRewritePutSchema.safeParse(value);
  if (!parsed.success) return err({ code: 'invalid_type' });
  const seen = new Set<string>();
  for (const rule of parsed.data.rules) {
    if (seen.has(rule.pattern)) return err({ code: 'duplicate_pattern' });
    seen.add(rule.pattern);
    if (utf8Bytes(rule.pattern) > REWRITE_PATTERN_MAX_BYTES) {
      return err({ code: 'pattern_too_large' });
    }
    if (utf8Bytes(rule.replacement) > REWRITE_REPLACEMENT_MAX_BYTES) {
      return err({ code: 'replacement_too_large' });
    }
    const regex = compile(rule.pattern);
    if (regex === undefined || regex.test('')) return err({ code: 'invalid_pattern' });
  }
  return ok({ expectedRevision: parsed.data.expected_revision, rules: parsed.data.rules });
};

/**
 * A stand-in rewrite check: a value may leave when no rule's pattern matches it. Fails closed
 * (a pattern that does not compile denies everything).
 */
export const createRegExpRewriteCheck: RewriteCheckFactory = (
  rules: readonly StringRewriteRule[],
): RewriteCheck => {
  const compiled = rules.map((rule) => compile(rule.pattern));
  return (value) => compiled.every((regex) => regex !== undefined && !regex.test(value));
};
