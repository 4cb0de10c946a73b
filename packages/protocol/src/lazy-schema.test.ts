import { describe, expect, it } from 'vitest';
import * as protocol from './index.js';
import { lazySchema } from './lazy-schema.js';

describe('lazySchema', () => {
  it('builds on the first call only and returns that instance after', () => {
    let builds = 0;
    const get = lazySchema(() => ({ built: (builds += 1) }));
    expect(builds).toBe(0);
    const first = get();
    expect(get()).toBe(first);
    expect(builds).toBe(1);
  });
});

// Every exported `xSchema` has `getXSchema()`, and both name one instance: an importer of the
// constant and a reader through the getter validate with the same schema.
const schemaNames = Object.keys(protocol).filter(
  (name) => name.endsWith('Schema') && !name.startsWith('get'),
);

describe('schema getters', () => {
  it('cover every exported schema', () => {
    expect(schemaNames.length).toBeGreaterThan(30);
    const getters = Object.keys(protocol).filter((name) => /^get[A-Z]\w*Schema$/.test(name));
    expect(getters.sort()).toEqual(
      schemaNames.map((name) => `get${name[0]?.toUpperCase() ?? ''}${name.slice(1)}`).sort(),
    );
  });

  it.each(schemaNames)('get… returns %s itself', (name) => {
    const exports = protocol as Record<string, unknown>;
    const getter = exports[`get${name[0]?.toUpperCase() ?? ''}${name.slice(1)}`];
    expect(typeof getter).toBe('function');
    expect((getter as () => unknown)()).toBe(exports[name]);
  });
});
