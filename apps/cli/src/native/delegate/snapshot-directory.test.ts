import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from '../../../test/cli-harness.js';
import { withSnapshotDirectory } from './snapshot-directory.js';

describe('withSnapshotDirectory (client rule 16: private sanitized snapshots)', () => {
  let parent: ReturnType<typeof createTempDir>;
  beforeEach(() => {
    parent = createTempDir();
  });
  afterEach(() => {
    parent.remove();
  });

  it('writes 0600 files in a fresh 0700 directory and removes it afterwards', async () => {
    let seen: { dir: string; dirMode: number; fileMode: number; text: string } | undefined;
    const result = await withSnapshotDirectory(
      async (directory) => {
        const file = await directory.write('field-0', 'sanitized é');
        seen = {
          dir: directory.path,
          dirMode: statSync(directory.path).mode & 0o777,
          fileMode: statSync(file).mode & 0o777,
          text: readFileSync(file, 'utf8'),
        };
        expect(dirname(file)).toBe(directory.path);
        return 7;
      },
      { parent: parent.path },
    );
    expect(result).toBe(7);
    expect(seen).toMatchObject({ dirMode: 0o700, fileMode: 0o600, text: 'sanitized é' });
    expect(existsSync(seen?.dir ?? '')).toBe(false);
  });

  it('keeps the modes under a permissive umask', async () => {
    const previous = process.umask(0);
    try {
      await withSnapshotDirectory(
        async (directory) => {
          const file = await directory.write('field-1', 'x');
          expect(statSync(directory.path).mode & 0o777).toBe(0o700);
          expect(statSync(file).mode & 0o777).toBe(0o600);
        },
        { parent: parent.path },
      );
    } finally {
      process.umask(previous);
    }
  });

  it('removes the directory when the run fails, and rethrows', async () => {
    let path = '';
    await expect(
      withSnapshotDirectory(
        async (directory) => {
          path = directory.path;
          await directory.write('field-0', 'x');
          throw new Error('gh failed');
        },
        { parent: parent.path },
      ),
    ).rejects.toThrow('gh failed');
    expect(path).not.toBe('');
    expect(existsSync(path)).toBe(false);
  });

  it('never overwrites a file, and takes only plain names', async () => {
    await withSnapshotDirectory(
      async (directory) => {
        await directory.write('field-0', 'x');
        await expect(directory.write('field-0', 'y')).rejects.toThrow();
        await expect(directory.write('../escape', 'y')).rejects.toThrow('invalid snapshot name');
      },
      { parent: parent.path },
    );
  });

  it('leaves no signal handler behind', async () => {
    const before = process.listenerCount('SIGTERM');
    await withSnapshotDirectory(
      async () => {
        expect(process.listenerCount('SIGTERM')).toBe(before + 1);
        await Promise.resolve();
      },
      { parent: parent.path },
    );
    expect(process.listenerCount('SIGTERM')).toBe(before);
  });
});
