import type { StringRewriteRule } from '@relay/protocol';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  generatedPattern,
  generatedText,
  generatedWord,
} from './__fixtures__/pattern-arbitraries.js';
import { compileRulesLazily } from './lazy-compile.js';

// Counts the evaluations of re2js in this file's module graph (nothing here imports it
// statically: compile-rules.js is imported only by the later tests, after the first).
const re2js = vi.hoisted(() => ({ loads: 0 }));
vi.mock('re2js', async (importOriginal) => {
  re2js.loads += 1;
  return importOriginal();
});

const LONE_SURROGATE = 'a\uD800b';

describe('compileRulesLazily', () => {
  it('compiles an empty policy without loading re2js, with the same input checks', async () => {
    const compiled = await compileRulesLazily([]);
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.error));
    const guard = compiled.value;
    expect(guard.rules).toEqual([]);
    expect(guard.check('codename falcon')).toEqual({ ok: true, value: 'codename falcon' });
    expect(guard.rewrite('codename falcon')).toEqual({ ok: true, value: 'codename falcon' });
    expect(guard.check(LONE_SURROGATE)).toEqual({
      ok: false,
      error: { code: 'aborted', category: 'invalid_unicode' },
    });
    expect(re2js.loads).toBe(0);
  });

  it('loads re2js for a policy with a rule, which then blocks and rewrites', async () => {
    const compiled = await compileRulesLazily([{ pattern: 'falcon', replacement: 'x' }]);
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.error));
    expect(re2js.loads).toBe(1);
    expect(compiled.value.check('codename falcon')).toMatchObject({
      ok: false,
      error: { code: 'blocked', category: 'pattern_match' },
    });
    expect(compiled.value.rewrite('codename falcon')).toEqual({ ok: true, value: 'codename x' });
  });

  it('gives what compileRules gives, for any rule list and text', async () => {
    const { compileRules } = await import('./compile-rules.js');
    const rulesArbitrary = fc.array(
      fc.record({
        pattern: fc.oneof(
          generatedPattern.map(({ source }) => source),
          generatedWord,
        ),
        replacement: fc.oneof(generatedWord, fc.constant('')),
      }),
      { maxLength: 4 },
    );
    const textArbitrary = fc.oneof(generatedText, fc.string({ unit: 'binary', maxLength: 30 }));
    await fc.assert(
      fc.asyncProperty(
        rulesArbitrary,
        textArbitrary,
        async (rules: StringRewriteRule[], text: string) => {
          const lazy = await compileRulesLazily(rules);
          const eager = compileRules(rules);
          expect(lazy.ok).toBe(eager.ok);
          if (!lazy.ok || !eager.ok) {
            expect(lazy).toEqual(eager);
            return;
          }
          expect(lazy.value.rules).toEqual(eager.value.rules);
          expect(lazy.value.costPerChar).toBe(eager.value.costPerChar);
          expect(lazy.value.check(text)).toEqual(eager.value.check(text));
          expect(lazy.value.rewrite(text)).toEqual(eager.value.rewrite(text));
        },
      ),
      { numRuns: 500 },
    );
  }, 60_000);
});
