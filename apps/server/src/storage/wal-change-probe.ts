import { closeSync, openSync, readSync } from 'node:fs';

/**
 * Bytes of the WAL-index header at the start of a database's `-shm` file: SQLite keeps two
 * copies of its 48-byte header there (https://sqlite.org/walformat.html, "The WAL-Index
 * Header"); a commit writes the second copy, then the first, with `iChange` incremented and the
 * new last frame, and so does a checkpoint that restarts the WAL.
 */
export const WAL_INDEX_HEADER_BYTES = 96;

/** Reads the WAL-index header into `into`; false when it cannot (no `-shm`, a short read). */
export type ReadWalIndexHeader = (into: Buffer) => boolean;

/**
 * Makes a cheap `PRAGMA data_version`. That pragma costs about 10 µs in WAL mode (it starts a
 * read transaction: two `fcntl` locks and the WAL-index header), and the relay reads it at
 * every request to see another process's commits at once (caller lookups, the string-rewrite
 * snapshot). No commit — of any connection, in any process — leaves the WAL-index header
 * unchanged, so while its bytes are those seen at the last reading, the version read then still
 * stands; otherwise the pragma is read again (then own commits, which also change the header,
 * leave the version unchanged, as the pragma says).
 *
 * The header is read before the pragma, so a commit between the two changes the header after
 * the bytes kept and forces the next reading: a version is never reused past a commit it did
 * not see. A torn read (a writer updating the header meanwhile) differs from the kept bytes and
 * falls back to the pragma, which takes SQLite's locks. When the header cannot be read, every
 * call reads the pragma.
 *
 * @param readHeader - reads the current WAL-index header
 * @param readVersion - `PRAGMA data_version` of the connection
 * @returns the external change version, equal at every call to what the pragma would answer
 */
export function createWalChangeProbe(
  readHeader: ReadWalIndexHeader,
  readVersion: () => number,
): () => number {
  const current = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  const seen = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  let version: number | undefined;
  return () => {
    const readable = readHeader(current);
    if (readable && version !== undefined && current.equals(seen)) return version;
    const read = readVersion();
    if (readable) {
      current.copy(seen);
      version = read;
    } else version = undefined;
    return read;
  };
}

/**
 * Reads the WAL-index header of the database at `path` from its `-shm` file (opened read-only
 * at the first call; one `pread` a call). Gives false (the caller reads the pragma) when the
 * file cannot be opened or read.
 *
 * @param path - the database file (its `-shm` sits beside it)
 */
export function createShmHeaderReader(path: string): ReadWalIndexHeader & { close(): void } {
  let fd: number | undefined;
  let failed = false;
  const reader = (into: Buffer): boolean => {
    if (failed) return false;
    try {
      fd ??= openSync(`${path}-shm`, 'r');
      return readSync(fd, into, 0, WAL_INDEX_HEADER_BYTES, 0) === WAL_INDEX_HEADER_BYTES;
    } catch {
      failed = true;
      reader.close();
      return false;
    }
  };
  reader.close = () => {
    if (fd === undefined) return;
    try {
      closeSync(fd);
    } catch {
      // Already closed.
    }
    fd = undefined;
  };
  return reader;
}
