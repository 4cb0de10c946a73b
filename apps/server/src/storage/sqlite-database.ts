import { chmodSync, closeSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import type { DatabaseSchema } from './database-schema.js';
import { createMigrationProvider } from './migrations.js';
import {
  DatabaseOpenError,
  type OpenDatabaseOptions,
  type RelayDatabase,
} from './relay-database.js';
import { createStatementCache } from './statement-cache.js';
import { createShmHeaderReader, createWalChangeProbe } from './wal-change-probe.js';
import { NO_WRITE_LOCK } from './write-lock.js';

export { DatabaseOpenError } from './relay-database.js';
export type { OpenDatabaseOptions, RelayDatabase } from './relay-database.js';

/** The mode of the database file and its `-wal` and `-shm` files: the relay's user only. */
export const DATABASE_FILE_MODE = 0o600;

/** The files SQLite keeps beside a database in WAL mode. */
const WAL_SIDE_FILES = ['-wal', '-shm'] as const;

function isOnDisk(path: string): boolean {
  return path !== ':memory:' && path !== '';
}

function errorCode(error: unknown): unknown {
  return error instanceof Error && 'code' in error ? error.code : undefined;
}

/**
 * Creates the database file with {@link DATABASE_FILE_MODE} before SQLite opens it (SQLite
 * would create it with 0644 under the usual umask), and narrows an existing file to that mode.
 */
function preparePrivateFile(path: string): void {
  try {
    closeSync(openSync(path, 'wx', DATABASE_FILE_MODE));
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
    restrictMode(path);
  }
}

/** Sets {@link DATABASE_FILE_MODE}; a missing file, or one owned by another user, is left. */
function restrictMode(path: string): void {
  try {
    chmodSync(path, DATABASE_FILE_MODE);
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'ENOENT' && code !== 'EPERM') throw error;
  }
}

/**
 * Opens the embedded SQLite database at `path` (`:memory:` allowed) in WAL mode with foreign
 * keys on, and brings its schema up to date. The file and its `-wal` and `-shm` files are
 * private to the relay's user ({@link DATABASE_FILE_MODE}): created so, and narrowed to it when
 * they exist with a wider mode.
 *
 * @param path - the SQLite file, or `:memory:`
 * @param options - the clock of seeded rows
 * @throws DatabaseOpenError (`database_unavailable`) when the file cannot be opened or migrated
 */
export async function openSqliteDatabase(
  path: string,
  options: OpenDatabaseOptions = {},
): Promise<RelayDatabase> {
  let sqlite: Database.Database;
  try {
    if (isOnDisk(path)) preparePrivateFile(path);
    sqlite = new Database(path);
    if (path !== ':memory:') sqlite.pragma('journal_mode = WAL');
    // SQLite gives the WAL files the database file's mode; files left by an earlier run keep
    // theirs, so every start narrows them too.
    if (isOnDisk(path)) for (const suffix of WAL_SIDE_FILES) restrictMode(`${path}${suffix}`);
    // WAL + NORMAL: no corruption on a crash; a power loss may drop the last commits.
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    // Page cache of 4 MiB (better-sqlite3 builds SQLite with 16 MiB per connection, resident
    // once the file outgrows it): B-tree interior pages stay cached, leaves come from the OS's
    // file cache; no mmap (mmap_size stays 0).
    sqlite.pragma('cache_size = -4096');
  } catch (cause) {
    throw new DatabaseOpenError('the database could not be opened', { cause });
  }
  // Statements are prepared once per SQL text and reused (Kysely prepares at every query).
  const db = new Kysely<DatabaseSchema>({
    dialect: new SqliteDialect({ database: createStatementCache(sqlite) }),
  });
  const { error } = await new Migrator({
    db,
    provider: createMigrationProvider({ now: options.now ?? (() => new Date()) }),
  }).migrateToLatest();
  if (error !== undefined) {
    await db.destroy();
    throw new DatabaseOpenError('the database schema could not be migrated', { cause: error });
  }
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  const readVersion = () => Number(dataVersion.get());
  // On a file in WAL mode the pragma is read only when the WAL-index header moved (a commit
  // somewhere): see wal-change-probe.ts. An in-memory database has no `-shm` file.
  // Only in WAL mode: a `-shm` file left by an earlier run would otherwise never move.
  const wal = isOnDisk(path) && sqlite.pragma('journal_mode', { simple: true }) === 'wal';
  const shmHeader = wal ? createShmHeaderReader(path) : undefined;
  const externalChangeVersion =
    shmHeader === undefined ? readVersion : createWalChangeProbe(shmHeader, readVersion);
  let closed = false;
  return {
    dialect: 'sqlite',
    db,
    writeLock: NO_WRITE_LOCK,
    externalChangeVersion: () => {
      // Throws once closed, as the pragma's statement does (RelayDatabase's contract).
      if (closed) return readVersion();
      return externalChangeVersion();
    },
    async close() {
      if (closed) return;
      closed = true;
      shmHeader?.close();
      await db.destroy();
    },
  };
}
