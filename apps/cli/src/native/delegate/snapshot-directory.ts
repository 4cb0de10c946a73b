import { rmSync } from 'node:fs';
import { chmod, lstat, mkdtemp, open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The directory mode of a snapshot directory (SPEC.md client rule 16). */
export const SNAPSHOT_DIRECTORY_MODE = 0o700;
/** The file mode of a snapshot file. */
export const SNAPSHOT_FILE_MODE = 0o600;
/** The signals that remove the snapshot directory before the process ends by them. */
export const SNAPSHOT_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** A private directory of sanitized snapshots, alive while a native child runs. */
export interface SnapshotDirectory {
  /** The directory's path. */
  readonly path: string;
  /**
   * Writes one snapshot file (created exclusively, mode 0600) and returns its path.
   *
   * @param name - a plain file name chosen by relay (`field-0`)
   */
  write(name: string, text: string): Promise<string>;
}

/** Options of {@link withSnapshotDirectory}. */
export interface SnapshotDirectoryOptions {
  /** Where the directory is created. Default: the system temporary directory (TMPDIR). */
  readonly parent?: string;
}

async function createDirectory(parent: string): Promise<string> {
  const path = await mkdtemp(join(parent, 'relay-publication-'));
  await chmod(path, SNAPSHOT_DIRECTORY_MODE);
  const stats = await lstat(path);
  const uid = process.getuid?.();
  if (
    !stats.isDirectory() ||
    (stats.mode & 0o777) !== SNAPSHOT_DIRECTORY_MODE ||
    (uid !== undefined && stats.uid !== uid)
  ) {
    rmSync(path, { recursive: true, force: true });
    throw new Error('the snapshot directory is not private');
  }
  return path;
}

async function writeSnapshot(directory: string, name: string, text: string): Promise<string> {
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error('invalid snapshot name');
  const path = join(directory, name);
  const handle = await open(path, 'wx', SNAPSHOT_FILE_MODE);
  try {
    await handle.chmod(SNAPSHOT_FILE_MODE);
    await handle.writeFile(text, 'utf8');
  } finally {
    await handle.close();
  }
  return path;
}

/**
 * Runs `use` with a fresh private snapshot directory (SPEC.md client rule 16: mode 0700, files
 * 0600) and removes the directory afterwards: when `use` resolves, when it rejects, and when
 * SIGINT, SIGTERM or SIGHUP arrives meanwhile — then the directory is removed at once and the
 * signal is raised again, so that the process ends by it as it would have without relay (a
 * native child that has not read its snapshot yet finds it gone and publishes nothing).
 *
 * @param use - what runs while the snapshots exist
 * @param options - where to create the directory
 * @returns what `use` resolves
 * @example
 * ```ts
 * const code = await withSnapshotDirectory(async (dir) => {
 *   const body = await dir.write('field-0', 'sanitized text');
 *   return runGh(['issue', 'comment', '3', `--body-file=${body}`]);
 * });
 * ```
 */
export async function withSnapshotDirectory<T>(
  use: (directory: SnapshotDirectory) => Promise<T>,
  options: SnapshotDirectoryOptions = {},
): Promise<T> {
  const path = await createDirectory(options.parent ?? tmpdir());
  const remove = (): void => {
    rmSync(path, { recursive: true, force: true });
  };
  const handlers = new Map<NodeJS.Signals, () => void>();
  const detach = (): void => {
    for (const [signal, handler] of handlers) process.removeListener(signal, handler);
    handlers.clear();
  };
  for (const signal of SNAPSHOT_SIGNALS) {
    const handler = (): void => {
      remove();
      detach();
      process.kill(process.pid, signal);
    };
    handlers.set(signal, handler);
    process.on(signal, handler);
  }
  try {
    return await use({ path, write: (name, text) => writeSnapshot(path, name, text) });
  } finally {
    detach();
    remove();
  }
}
