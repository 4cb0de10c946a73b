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

  it('sends every check of a policy too large for the event loop to the offload', async () => {
    const asked: string[] = [];
    const offload: RewriteCheckOffload = {
      check: (stamp, _rules, values) => {
        asked.push(stamp);
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
    // A small policy stays on the event loop even with an offload.
    expect(factory(rules(['bluefalcon']))?.checkAll).toBeUndefined();
  });
});
