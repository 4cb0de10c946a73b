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

  it.each([
    ['as sent', 'https://api.github.com/repos/acme/bluefalcon', false],
    ['%62', 'https://api.github.com/repos/acme/%62luefalcon', false],
    ['%42 (uppercase B)', 'https://api.github.com/repos/acme/%42luefalcon', true],
    ['lowercase hex', 'https://api.github.com/repos/acme/blue%66%61lcon', false],
    ['mixed hex case', 'https://api.github.com/repos/acme/%62%6C%75%65falcon', false],
    ['in a query value', 'https://api.github.com/search/issues?q=%62luefalcon', false],
    ['UTF-8 of a protected non-ASCII string', 'https://x.example/bluefalc%C3%B3n', false],
    ['double encoding, decoded once only', 'https://api.github.com/x/%2562luefalcon', true],
    ['a header value', '%62luefalcon', false],
  ])('reads the percent-encoded forms of a value: %s', (_name, value, passes) => {
    const check = (text: string) => !/bluefalcon|bluefalcón/.test(text);
    expect(passesRewriteCheck(check, value)).toBe(passes);
  });

  it('hands the check the value, then its canonical and decoded forms', () => {
    const seen: string[] = [];
    passesRewriteCheck((value) => (seen.push(value), true), '/a%2fb%62');
    expect(seen).toEqual(['/a%2fb%62', '/a%2Fbb', '/a/bb']);
  });

  it('passes the value to the check', () => {
    const seen: string[] = [];
    passesRewriteCheck((value) => (seen.push(value), true), 'v');
    expect(seen).toEqual(['v']);
  });
});
