import type { Kysely } from 'kysely';
import type { DatabaseSchema } from './database-schema.js';
import type { WriteLock } from './write-lock.js';

/** The SQL engines the relay stores its durable state in. */
export type DatabaseDialect = 'sqlite' | 'postgres';

/** An open relay database, whichever engine holds it. */
export interface RelayDatabase {
  /** The engine: embedded SQLite (the default) or PostgreSQL (the scale-out path). */
  readonly dialect: DatabaseDialect;
  readonly db: Kysely<DatabaseSchema>;
  /**
   * Serializes the read-modify-write transactions that must stay atomic under concurrent
   * writers of several processes (enrollment, identity registration): a no-op on SQLite, whose
   * one connection per process already runs transactions one at a time; a transaction-scoped
   * advisory lock on PostgreSQL.
   */
  readonly writeLock: WriteLock;
  /**
   * A number that changes whenever another connection (another process, an operator's tool)
   * may have committed to the database; commits of this connection leave it unchanged where the
   * engine can tell. SQLite: `PRAGMA data_version`, read through one prepared statement.
   * PostgreSQL: a counter of the change notifications the relay's tables send (see
   * postgres-database.ts), which changes at every reading while no listener is connected.
   * Throws once the database is closed.
   */
  externalChangeVersion(): number;
  /** Closes the connection (or pool); idempotent. */
  close(): Promise<void>;
}

/** Why the database could not be opened or migrated. */
export class DatabaseOpenError extends Error {
  override readonly name = 'DatabaseOpenError';
  readonly code = 'database_unavailable';
}

/** Options of the database openers. */
export interface OpenDatabaseOptions {
  /** The clock of rows the migrations seed. Default: the system clock. */
  readonly now?: () => Date;
}
