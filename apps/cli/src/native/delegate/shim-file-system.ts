import { constants } from 'node:fs';
import {
  access,
  chmod,
  lstat,
  mkdir,
  readFile,
  readlink,
  realpath,
  rename,
  rmdir,
  stat,
  symlink,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ShimLinkState } from './shim-install-plan.js';

/**
 * The file-system subset the shim installer uses (a port: Node's implementation is
 * {@link createNodeShimFileSystem}, tests pass an in-memory one).
 */
export interface ShimFileSystem {
  /** A file's bytes, or `undefined` when it does not exist. */
  readFile(path: string): Promise<Uint8Array | undefined>;
  /** What is at `path`, without following a symlink. */
  inspectLink(path: string): Promise<ShimLinkState>;
  /** The canonical path (symlinks resolved), or `undefined` when nothing is there. */
  realPath(path: string): Promise<string | undefined>;
  /** Whether `path` is a file this user may execute. */
  isExecutable(path: string): Promise<boolean>;
  /** Whether a directory exists at `path`. */
  isDirectory(path: string): Promise<boolean>;
  /** Creates `path` and its missing parents. */
  makeDirectory(path: string): Promise<void>;
  /**
   * Replaces a file's content: through a symlink to the file it points at (dotfiles kept in a
   * repository stay links), keeping an existing file's mode, atomically (a temporary file
   * renamed over it).
   */
  writeFile(path: string, content: Uint8Array): Promise<void>;
  /** Deletes a file (or a symlink). */
  deleteFile(path: string): Promise<void>;
  /** Points a new symlink at `target`, replacing a symlink already at `path`. */
  link(path: string, target: string): Promise<void>;
  /** Removes an empty directory; a directory with entries (or none at all) is left alone. */
  removeDirectoryIfEmpty(path: string): Promise<void>;
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** The real file system (node:fs/promises). */
export function createNodeShimFileSystem(): ShimFileSystem {
  return {
    readFile: async (path) => {
      try {
        return await readFile(path);
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    inspectLink: async (path) => {
      try {
        const info = await lstat(path);
        if (!info.isSymbolicLink()) return { kind: 'other' };
        return { kind: 'symlink', target: await readlink(path) };
      } catch (error) {
        if (isMissing(error)) return { kind: 'absent' };
        throw error;
      }
    },
    realPath: (path) => realpath(path).catch(() => undefined),
    isExecutable: async (path) => {
      try {
        await access(path, constants.X_OK);
        return (await stat(path)).isFile();
      } catch {
        return false;
      }
    },
    isDirectory: async (path) => {
      try {
        return (await stat(path)).isDirectory();
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    makeDirectory: async (path) => {
      await mkdir(path, { recursive: true });
    },
    writeFile: async (path, content) => {
      const target = await realpath(path).catch((error: unknown) => {
        if (isMissing(error)) return path;
        throw error;
      });
      const mode = await stat(target).then(
        (info) => info.mode & 0o7777,
        () => undefined,
      );
      await mkdir(dirname(target), { recursive: true });
      const temporary = join(dirname(target), `.relay-install-shim.${String(process.pid)}.tmp`);
      await writeFile(temporary, content, { flag: 'w' });
      if (mode !== undefined) await chmod(temporary, mode);
      await rename(temporary, target);
    },
    deleteFile: async (path) => {
      await unlink(path);
    },
    link: async (path, target) => {
      const temporary = join(dirname(path), `.relay-install-shim.${String(process.pid)}.link`);
      await unlink(temporary).catch(() => undefined);
      await symlink(target, temporary);
      await rename(temporary, path);
    },
    removeDirectoryIfEmpty: async (path) => {
      try {
        await rmdir(path);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && !isMissing(error)) throw error;
      }
    },
  };
}
