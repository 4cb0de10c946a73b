import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from '../../../test/cli-harness.js';
import {
  checkAttachments,
  checkReleaseAssets,
  isValidAssetName,
  readFileFacts,
} from './publication-assets.js';
import type { FileFacts } from './publication-assets.js';

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

function file(size: number): FileFacts {
  return { kind: 'file', size };
}

function assets(...sizes: number[]) {
  return sizes.map((size, index) => ({ basename: `a${String(index)}.bin`, facts: file(size) }));
}

describe('release assets (client rule 16)', () => {
  it.each<[string, ReturnType<typeof assets>, unknown]>([
    ['16 files', assets(...Array.from({ length: 16 }, () => 1)), undefined],
    [
      '17 files',
      assets(...Array.from({ length: 17 }, () => 1)),
      { code: 'too_many_files', limit: 16 },
    ],
    ['a file of 1 GiB', assets(GIB), undefined],
    ['a file of 1 GiB + 1', assets(1, GIB + 1), { code: 'file_too_large', index: 1, limit: GIB }],
    ['an empty file', assets(1, 0), { code: 'empty_file', index: 1 }],
    ['4 GiB together', assets(GIB, GIB, GIB, GIB), undefined],
    [
      '4 GiB + 1 together',
      assets(GIB, GIB, GIB, GIB, 1),
      { code: 'total_too_large', limit: 4 * GIB },
    ],
  ])('%s', (_name, list, error) => {
    expect(checkReleaseAssets(list)).toEqual(
      error === undefined ? { ok: true, value: undefined } : { ok: false, error },
    );
  });

  it.each<[FileFacts, string]>([
    [{ kind: 'other' }, 'not_regular_file'],
    [{ kind: 'missing' }, 'not_regular_file'],
  ])('refuses %j', (facts, code) => {
    expect(checkReleaseAssets([{ basename: 'a.bin', facts }])).toEqual({
      ok: false,
      error: { code, index: 0 },
    });
  });

  it.each<[string, boolean]>([
    ['app-1.2.3_linux.tar.gz', true],
    ['a', true],
    ['_x-', true],
    ['a'.repeat(255), true],
    ['a'.repeat(256), false],
    ['.hidden', false],
    ['trailing.', false],
    ['with space', false],
    ['é.bin', false],
    ['a+b', false],
    ['', false],
  ])('asset name %j valid: %s', (name, valid) => {
    expect(isValidAssetName(name)).toBe(valid);
    expect(checkReleaseAssets([{ basename: name, facts: file(1) }]).ok).toBe(valid);
  });
});

describe('attachments (client rule 16)', () => {
  function attach(...entries: [string, number][]) {
    return entries.map(([name, size]) => ({ name, facts: file(size) }));
  }

  it.each<[string, ReturnType<typeof attach>, unknown]>([
    ['an image of 10 MiB', attach(['a.PNG', 10 * MIB]), undefined],
    [
      'an image of 10 MiB + 1',
      attach(['a.jpeg', 10 * MIB + 1]),
      { code: 'file_too_large', index: 0, limit: 10 * MIB },
    ],
    ['a video of 100 MiB', attach(['a.mp4', 100 * MIB]), undefined],
    [
      'a video of 100 MiB + 1',
      attach(['a.webm', 100 * MIB + 1]),
      { code: 'file_too_large', index: 0, limit: 100 * MIB },
    ],
    ['100 MiB together', attach(['a.mov', 90 * MIB], ['b.gif', 10 * MIB]), undefined],
    [
      '100 MiB + 1 together',
      attach(['a.mov', 90 * MIB], ['b.webp', 10 * MIB], ['c.jpg', 1]),
      { code: 'total_too_large', limit: 100 * MIB },
    ],
    [
      '16 attachments',
      attach(...Array.from({ length: 16 }, (): [string, number] => ['x.png', 1])),
      undefined,
    ],
    [
      '17 attachments',
      attach(...Array.from({ length: 17 }, (): [string, number] => ['x.png', 1])),
      { code: 'too_many_files', limit: 16 },
    ],
    ['another type', attach(['a.svg', 1]), { code: 'unsupported_attachment_type', index: 0 }],
  ])('%s', (_name, list, error) => {
    expect(checkAttachments(list)).toEqual(
      error === undefined ? { ok: true, value: undefined } : { ok: false, error },
    );
  });
});

describe('readFileFacts (sparse files: no GiB is written)', () => {
  let dir: ReturnType<typeof createTempDir>;
  beforeEach(() => {
    dir = createTempDir();
  });
  afterEach(() => {
    dir.remove();
  });

  it('reads the size of a sparse file at and past 1 GiB, and refuses one past it', async () => {
    const at = join(dir.path, 'at.bin');
    const past = join(dir.path, 'past.bin');
    writeFileSync(at, '');
    truncateSync(at, GIB);
    writeFileSync(past, '');
    truncateSync(past, GIB + 1);
    const facts = [await readFileFacts(at), await readFileFacts(past)];
    expect(facts).toEqual([file(GIB), file(GIB + 1)]);
    expect(checkReleaseAssets([{ basename: 'at.bin', facts: facts[0] ?? file(0) }]).ok).toBe(true);
    expect(checkReleaseAssets([{ basename: 'past.bin', facts: facts[1] ?? file(0) }]).ok).toBe(
      false,
    );
  });

  it('calls a directory, a symbolic link and a missing path what they are', async () => {
    const target = join(dir.path, 't.bin');
    writeFileSync(target, 'x');
    symlinkSync(target, join(dir.path, 'link.bin'));
    mkdirSync(join(dir.path, 'sub'));
    expect(await readFileFacts(join(dir.path, 'link.bin'))).toEqual({ kind: 'other' });
    expect(await readFileFacts(join(dir.path, 'sub'))).toEqual({ kind: 'other' });
    expect(await readFileFacts(join(dir.path, 'none'))).toEqual({ kind: 'missing' });
  });
});
