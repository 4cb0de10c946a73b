import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The CLI reads @relay/protocol's schemas only through their getters: a schema constant read
// anywhere in the bundle is built when the protocol chunk loads, on every read's start-up.
const sources = readdirSync(import.meta.dirname, { recursive: true, encoding: 'utf8' }).filter(
  (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
);

describe('protocol schema imports', () => {
  it.each(sources)('%s reads no schema constant of @relay/protocol', (file) => {
    const text = readFileSync(join(import.meta.dirname, file), 'utf8');
    const imported = [
      ...text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'@relay\/protocol'/g),
      ...text.matchAll(/const\s*\{([^}]*)\}\s*=\s*await import\('@relay\/protocol'\)/g),
    ].flatMap((match) => (match[1] ?? '').split(',').map((name) => name.trim()));
    expect(imported.filter((name) => /^(?!get[A-Z])[a-z]\w*Schema$/.test(name))).toEqual([]);
  });
});
