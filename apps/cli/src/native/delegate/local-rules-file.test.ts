import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from '../../../test/cli-harness.js';
import { loadLocalRules, resolveLocalRulesSource } from './local-rules-file.js';
import type { LocalRulesSource } from './local-rules-file.js';
import { readBoundedFile, readRulesFile } from './outbound-guard.js';

describe('resolveLocalRulesSource', () => {
  it.each<[string, Record<string, string>, LocalRulesSource]>([
    [
      'the default file beside auth.json',
      {},
      { path: '/cfg/string-rewrites.json', explicit: false },
    ],
    [
      'a blank variable is unset',
      { RELAY_STRING_REWRITE_FILE: '  ' },
      { path: '/cfg/string-rewrites.json', explicit: false },
    ],
    [
      'an absolute explicit file',
      { RELAY_STRING_REWRITE_FILE: '/etc/rules.json' },
      { path: '/etc/rules.json', explicit: true },
    ],
    [
      'a relative explicit file, from the working directory',
      { RELAY_STRING_REWRITE_FILE: 'rules.json' },
      { path: '/work/rules.json', explicit: true },
    ],
  ])('%s', (_name, env, expected) => {
    expect(resolveLocalRulesSource(env, '/cfg', '/work')).toEqual(expected);
  });
});

describe('loadLocalRules', () => {
  let dir: ReturnType<typeof createTempDir>;
  beforeEach(() => {
    dir = createTempDir();
  });
  afterEach(() => {
    dir.remove();
  });

  const rule = { pattern: 'falcon', replacement: 'bird' };
  const write = (name: string, text: string) => {
    writeFileSync(join(dir.path, name), text);
    return join(dir.path, name);
  };

  it('an absent default file is no local rules', async () => {
    const source = { path: join(dir.path, 'string-rewrites.json'), explicit: false };
    expect(await loadLocalRules(source, readBoundedFile)).toEqual({ ok: true, value: [] });
  });

  it('an absent explicit file fails closed (local_read)', async () => {
    const source = { path: join(dir.path, 'missing.json'), explicit: true };
    expect(await loadLocalRules(source, readBoundedFile)).toEqual({
      ok: false,
      error: 'local_read',
    });
  });

  it('a default path that cannot be read (a directory) is local_read', async () => {
    mkdirSync(join(dir.path, 'string-rewrites.json'));
    const source = { path: join(dir.path, 'string-rewrites.json'), explicit: false };
    expect(await loadLocalRules(source, readBoundedFile)).toEqual({
      ok: false,
      error: 'local_read',
    });
  });

  it.each([false, true])(
    'a FIFO fails closed at once (local_read) instead of waiting for a writer (explicit: %s)',
    async (explicit) => {
      const path = join(dir.path, 'string-rewrites.json');
      execFileSync('mkfifo', [path]);
      expect(await loadLocalRules({ path, explicit }, readRulesFile)).toEqual({
        ok: false,
        error: 'local_read',
      });
    },
  );

  it('a regular file is read by the rules reader as by the bounded reader', async () => {
    const path = write('rules.json', JSON.stringify({ schema_version: 1, rules: [rule] }));
    expect(await loadLocalRules({ path, explicit: true }, readRulesFile)).toEqual({
      ok: true,
      value: [rule],
    });
    const absent = { path: join(dir.path, 'string-rewrites.json'), explicit: false };
    expect(await loadLocalRules(absent, readRulesFile)).toEqual({ ok: true, value: [] });
  });

  it.each([false, true])('a valid file gives its rules (explicit: %s)', async (explicit) => {
    const path = write('rules.json', JSON.stringify({ schema_version: 1, rules: [rule] }));
    expect(await loadLocalRules({ path, explicit }, readBoundedFile)).toEqual({
      ok: true,
      value: [rule],
    });
  });

  it.each<[string, string]>([
    ['not JSON', '{'],
    ['a duplicate key', '{"schema_version":1,"schema_version":1,"rules":[]}'],
    [
      'a server envelope (revision is not an import field)',
      JSON.stringify({
        schema_version: 1,
        revision: 2,
        updated_at: '2030-01-01T00:00:00.000Z',
        rules: [],
      }),
    ],
    ['schema_version 2', JSON.stringify({ schema_version: 2, rules: [] })],
    [
      'an invalid pattern',
      JSON.stringify({ schema_version: 1, rules: [{ pattern: '(?i)x', replacement: '' }] }),
    ],
    [
      'a pattern matching empty input',
      JSON.stringify({ schema_version: 1, rules: [{ pattern: 'a*', replacement: '' }] }),
    ],
    ['a duplicate pattern', JSON.stringify({ schema_version: 1, rules: [rule, rule] })],
    [
      'more than 65,536 bytes',
      JSON.stringify({
        schema_version: 1,
        rules: [{ pattern: 'x', replacement: 'y'.repeat(70_000) }],
      }),
    ],
  ])('%s is local_validation', async (_name, text) => {
    const path = write('rules.json', text);
    expect(await loadLocalRules({ path, explicit: false }, readBoundedFile)).toEqual({
      ok: false,
      error: 'local_validation',
    });
  });

  it('reads no more than one byte past the limit', async () => {
    const asked: number[] = [];
    await loadLocalRules({ path: '/x', explicit: true }, (_path, maxBytes) => {
      asked.push(maxBytes);
      return Promise.resolve(new Uint8Array());
    });
    expect(asked).toEqual([65_537]);
  });
});
