import { createHash } from 'node:crypto';

/** A repository snapshot: file path → file content (UTF-8 text). */
export type FileTree = ReadonlyMap<string, string>;

/** Git's SHA-1 of a blob with this content (`git hash-object`). */
export function hashBlob(content: string): string {
  const bytes = Buffer.from(content, 'utf8');
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** A deterministic SHA-1 for any other object (trees, commits, tags) from its parts. */
export function hashObject(kind: string, ...parts: readonly string[]): string {
  const hash = createHash('sha1').update(kind);
  for (const part of parts) hash.update('\0').update(part);
  return hash.digest('hex');
}

/** The SHA of a tree from its sorted entries. */
export function hashTree(files: FileTree, prefix = ''): string {
  const entries = [...files.entries()]
    .filter(([path]) => path.startsWith(prefix))
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([path, content]) => `${path.slice(prefix.length)}:${hashBlob(content)}`);
  return hashObject('tree', ...entries);
}

/** How one file changed between two snapshots. */
export interface FileChange {
  readonly filename: string;
  readonly status: 'added' | 'removed' | 'modified';
  readonly additions: number;
  readonly deletions: number;
  readonly patch: string;
  readonly before: string | undefined;
  readonly after: string | undefined;
}

function linesOf(text: string | undefined): string[] {
  if (text === undefined || text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** A unified-diff hunk that removes every old line and adds every new one. */
function hunkFor(before: string | undefined, after: string | undefined): string {
  const oldLines = linesOf(before);
  const newLines = linesOf(after);
  const header = `@@ -${oldLines.length === 0 ? 0 : 1},${oldLines.length} +${newLines.length === 0 ? 0 : 1},${newLines.length} @@`;
  return [header, ...oldLines.map((l) => `-${l}`), ...newLines.map((l) => `+${l}`)].join('\n');
}

/** The files that differ between two snapshots, sorted by path. */
export function diffTrees(before: FileTree, after: FileTree): FileChange[] {
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
  const changes: FileChange[] = [];
  for (const filename of paths) {
    const a = before.get(filename);
    const b = after.get(filename);
    if (a === b) continue;
    changes.push({
      filename,
      status: a === undefined ? 'added' : b === undefined ? 'removed' : 'modified',
      additions: linesOf(b).length,
      deletions: linesOf(a).length,
      patch: hunkFor(a, b),
      before: a,
      after: b,
    });
  }
  return changes;
}

/** The body of a `.diff` page (or `application/vnd.github.diff`) for these changes. */
export function renderDiff(changes: readonly FileChange[]): string {
  return changes
    .map((c) => {
      const from = c.status === 'added' ? '/dev/null' : `a/${c.filename}`;
      const to = c.status === 'removed' ? '/dev/null' : `b/${c.filename}`;
      const mode =
        c.status === 'added'
          ? 'new file mode 100644\n'
          : c.status === 'removed'
            ? 'deleted file mode 100644\n'
            : '';
      const index = `index ${c.before === undefined ? '0000000' : hashBlob(c.before).slice(0, 7)}..${c.after === undefined ? '0000000' : hashBlob(c.after).slice(0, 7)}`;
      return `diff --git a/${c.filename} b/${c.filename}\n${mode}${index}\n--- ${from}\n+++ ${to}\n${c.patch}\n`;
    })
    .join('');
}

/** What a `.patch` page needs to know about one commit. */
export interface PatchCommit {
  readonly sha: string;
  readonly authorName: string;
  readonly authorEmail: string;
  readonly date: string;
  readonly message: string;
  readonly changes: readonly FileChange[];
}

/** The body of a `.patch` page (or `application/vnd.github.patch`): mbox-formatted commits. */
export function renderPatch(commits: readonly PatchCommit[]): string {
  return commits
    .map((c, i) => {
      const subject = commits.length > 1 ? `[PATCH ${i + 1}/${commits.length}]` : '[PATCH]';
      const stat = c.changes
        .map(
          (f) =>
            ` ${f.filename} | ${f.additions + f.deletions} ${'+'.repeat(Math.min(f.additions, 20))}${'-'.repeat(Math.min(f.deletions, 20))}`,
        )
        .join('\n');
      return `From ${c.sha} Mon Sep 17 00:00:00 2001\nFrom: ${c.authorName} <${c.authorEmail}>\nDate: ${new Date(c.date).toUTCString()}\nSubject: ${subject} ${c.message.split('\n')[0] ?? ''}\n\n---\n${stat}\n ${c.changes.length} file${c.changes.length === 1 ? '' : 's'} changed\n\n${renderDiff(c.changes)}--\n2.45.0\n\n`;
    })
    .join('');
}
