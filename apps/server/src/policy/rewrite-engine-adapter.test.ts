import { describe, expect, it } from 'vitest';
import type { RewriteCheckOffload } from './rewrite-check-offload.js';
import { createEngineRewriteCheckFactory } from './rewrite-engine-adapter.js';

const rules = (patterns: readonly string[]) =>
  patterns.map((pattern) => ({ pattern, replacement: '' }));

describe('engine rewrite-check factory', () => {
  it('compiles a small policy once and checks on the event loop', () => {
    const factory = createEngineRewriteCheckFactory();
    const check = factory(rules(['bluefalcon']));
    expect(check?.('/repos/acme/widgets')).toBe(true);
    expect(check?.('/repos/acme/bluefalcon')).toBe(false);
    expect(factory(rules(['bluefalcon']))).toBe(check); // unchanged rules: the same check
    expect(factory(rules(['(?<named>x)']))).toBeUndefined();
  });

  it.each<[string, string, boolean]>([
    ['https://api.forge.test/user', '^/user$', false],
    ['https://api.forge.test/orgs/acme/members/alice', '^/orgs/acme/members/[a-z]+$', false],
    ['https://api.forge.test/orgs/acme/members/alice', '^alice$', true],
    ['https://api.forge.test/user?login=alice', '^alice$', false],
    ['https://api.forge.test/users/alice', '^/user$', true],
  ])(
    'reads an outgoing URL as its path and query too: %s against %s → passes %s',
    (url, pattern, passes) => {
      const check = createEngineRewriteCheckFactory()(rules([pattern]));
      expect(check?.(url)).toBe(passes);
    },
  );

  it('sends every check of a policy too large for the event loop to the offload', async () => {
    const asked: string[] = [];
    const sent: string[][] = [];
    const offload: RewriteCheckOffload = {
      check: (stamp, _rules, values) => {
        asked.push(stamp);
        sent.push([...values]);
        return Promise.resolve(values.some((v) => v.includes('@')) ? 'deny' : 'pass');
      },
      close: () => Promise.resolve(),
    };
    const factory = createEngineRewriteCheckFactory(offload);
    const heavy = rules([1, 2, 3, 4, 5].map((n) => `.{1,1000}[@][A-Z]{${String(n)}}`));
    const check = factory(heavy);
    expect(check?.('anything')).toBe(false); // never compiled here: the sync form denies
    expect(await check?.checkAll?.(['https://api.github.com/users/a'])).toBe(true);
    expect(await check?.checkAll?.(['https://api.github.com/users/a@B'])).toBe(false);
    expect(new Set(asked).size).toBe(1);
    // The offload reads the path of an outgoing URL as well as the URL.
    expect(sent[0]).toEqual(['https://api.github.com/users/a', '/users/a']);
    // A small policy stays on the event loop even with an offload.
    expect(factory(rules(['bluefalcon']))?.checkAll).toBeUndefined();
  });
});
