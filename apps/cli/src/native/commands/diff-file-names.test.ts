import { describe, expect, it } from 'vitest';
import { changedFileNames } from './diff-file-names.js';

const names = (diff: string | Buffer): string =>
  changedFileNames(typeof diff === 'string' ? Buffer.from(diff, 'utf8') : diff).toString('latin1');

describe("changedFileNames (gh's changedFilesNames)", () => {
  it.each<[string, string | Buffer, string]>([
    ['none', '', ''],
    [
      'two files',
      'diff --git a/a.txt b/a.txt\nindex 1..2 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-x\n+y\ndiff --git a/src/b c.ts b/src/b c.ts\nnew file mode 100644\n',
      'a.txt\nsrc/b c.ts\n',
    ],
    [
      'a quoted name keeps its leading quote',
      'diff --git "a/hello-\\360\\237\\230\\200-world" "b/hello-\\360\\237\\230\\200-world"\n',
      '"hello-\\360\\237\\230\\200-world"\n',
    ],
    [
      'a renamed file gives the new name',
      'diff --git a/old.md b/new.md\nsimilarity index 100%\n',
      'new.md\n',
    ],
    ['CRLF is trimmed', 'diff --git a/x b/x\r\nindex 1..2\r\n', 'x\n'],
    ['not at a line start', ' diff --git a/x b/x\n+diff --git a/y b/y\n', ''],
    [
      'raw bytes survive',
      Buffer.concat([Buffer.from('diff --git a/\xff b/', 'latin1'), Buffer.from([0xff, 0x0a])]),
      'ÿ\n',
    ],
    ['a trailing NBSP is white space to Go', 'diff --git a/x b/x\u00a0\n', 'x\n'],
    [
      'a trailing BOM is not',
      'diff --git a/x b/x\ufeff\n',
      Buffer.from('x\ufeff\n').toString('latin1'),
    ],
  ])('%s', (_name, diff, expected) => {
    expect(names(diff)).toBe(expected);
  });
});
