import type { StringRewriteRule } from '@relay/protocol';
import { describe, expect, it } from 'vitest';
import type { PolicyError } from './policy-error.js';
import { mergeRules } from './rule-merge.js';

const r = (pattern: string, replacement = ''): StringRewriteRule => ({ pattern, replacement });

describe('mergeRules', () => {
  it.each<[string, StringRewriteRule[], StringRewriteRule[], StringRewriteRule[]]>([
    ['server rules run first', [r('a'), r('b')], [r('c')], [r('a'), r('b'), r('c')]],
    [
      'identical entries are deduplicated',
      [r('a', 'x')],
      [r('b'), r('a', 'x')],
      [r('a', 'x'), r('b')],
    ],
    ['empty lists', [], [], []],
    ['only local rules', [], [r('a')], [r('a')]],
  ])('%s', (_name, server, local, expected) => {
    expect(mergeRules(server, local)).toEqual({ ok: true, value: expected });
  });

  it.each<[string, StringRewriteRule[], StringRewriteRule[], PolicyError]>([
    [
      'conflicting replacements for one pattern fail',
      [r('a', 'x')],
      [r('a', 'y')],
      { code: 'conflicting_replacement', ruleIndex: 1, field: 'replacement' },
    ],
    [
      'combined count over 128 fails',
      Array.from({ length: 100 }, (_, i) => r(`s${String(i)}`)),
      Array.from({ length: 29 }, (_, i) => r(`l${String(i)}`)),
      { code: 'too_many_rules', field: 'rules' },
    ],
    [
      'an invalid local pattern fails with its merged index',
      [r('a')],
      [r('(?i)b')],
      {
        code: 'invalid_pattern',
        ruleIndex: 1,
        field: 'pattern',
        pattern: { code: 'inline_flags', offset: 0 },
      },
    ],
    [
      'combined document size over 65,536 bytes fails',
      Array.from({ length: 40 }, (_, i) => r(`s${String(i)}`, 'x'.repeat(1000))),
      Array.from({ length: 40 }, (_, i) => r(`l${String(i)}`, 'y'.repeat(1000))),
      { code: 'document_too_large', field: 'rules' },
    ],
  ])('%s', (_name, server, local, error) => {
    expect(mergeRules(server, local)).toEqual({ ok: false, error });
  });

  it('128 combined rules after deduplication are fine', () => {
    const shared = Array.from({ length: 64 }, (_, i) => r(`s${String(i)}`));
    const local = [...shared, ...Array.from({ length: 64 }, (_, i) => r(`l${String(i)}`))];
    const merged = mergeRules(shared, local);
    expect(merged.ok && merged.value.length).toBe(128);
  });
});
