import { err, ok } from '@relay/protocol';
import type { Result } from '@relay/protocol';
import { describe, expect, it } from 'vitest';
import { passesRewriteCheck } from './rewrite-check.js';
import type { RewriteCheck } from './rewrite-check.js';

describe('passesRewriteCheck', () => {
  it.each([
    ['true', () => true, true],
    ['false', () => false, false],
    ['ok result', () => ({ ok: true }), true],
    ['err result', () => ({ ok: false }), false],
    [
      'a throw',
      () => {
        throw new Error('policy');
      },
      false,
    ],
    ['a malformed verdict', () => ({ verdict: 'fine' }) as unknown as boolean, false],
    ['null', () => null as unknown as boolean, false],
    ['a promise', () => Promise.resolve(true) as unknown as boolean, false],
  ] as [string, RewriteCheck, boolean][])('%s → %s (fails closed)', (_name, check, expected) => {
    expect(passesRewriteCheck(check, 'https://api.github.com/x')).toBe(expected);
  });

  it('takes a rewrite-engine style Result<string, GuardFailure> as it is', () => {
    type GuardFailure =
      | { code: 'blocked'; category: 'pattern_match' }
      | { code: 'aborted'; category: 'zero_width_match' };
    const ruleSetCheck = (text: string): Result<string, GuardFailure> =>
      text.includes('codename') ? err({ code: 'blocked', category: 'pattern_match' }) : ok(text);
    expect(passesRewriteCheck(ruleSetCheck, 'https://api.github.com/repos/o/r')).toBe(true);
    expect(passesRewriteCheck(ruleSetCheck, 'https://api.github.com/repos/o/codename')).toBe(false);
    expect(
      passesRewriteCheck(() => err({ code: 'aborted', category: 'zero_width_match' }), 'x'),
    ).toBe(false);
  });

  it('passes the value to the check', () => {
    const seen: string[] = [];
    passesRewriteCheck((value) => (seen.push(value), true), 'v');
    expect(seen).toEqual(['v']);
  });
});
