import type Database from 'better-sqlite3';

/** The part of a better-sqlite3 database Kysely's `SqliteDialect` uses. */
export interface StatementDatabase {
  prepare(sql: string): Database.Statement;
  close(): unknown;
}

/** A {@link StatementDatabase} whose `prepare` reuses statements. */
export interface CachedStatementDatabase extends StatementDatabase {
  /** How many statements are cached now. */
  readonly size: number;
}

/** Default bound of {@link createStatementCache}: distinct SQL texts kept prepared. */
export const DEFAULT_STATEMENT_CACHE_SIZE = 256;

/**
 * SQL texts longer than this are prepared at every call, never cached: they are multi-row
 * statements whose text changes with the row count (audit batches), large to keep and rarely
 * repeated.
 */
export const MAX_CACHED_SQL_LENGTH = 4096;

/**
 * Wraps a better-sqlite3 database so that `prepare(sql)` returns the statement prepared before
 * for the same SQL text (Kysely's SQLite driver prepares every query it runs; preparing is the
 * hottest function of the hit path). The cache is an LRU bounded to `maxStatements` SQL texts,
 * so queries with a variable shape (an `IN` list of any length) cannot grow it without bound;
 * a text longer than {@link MAX_CACHED_SQL_LENGTH} is not cached at all.
 *
 * Reuse is safe: Kysely binds every parameter at `all`/`run`, which run to completion
 * synchronously; SQLite re-prepares a statement itself when the schema changed. A cached
 * statement still iterating (`busy`, a streamed query) is not handed out twice: that call gets
 * a fresh, uncached statement. `close()` drops the cache and closes the database.
 *
 * @param database - the open database
 * @param maxStatements - the LRU bound (at least 1)
 */
export function createStatementCache(
  database: StatementDatabase,
  maxStatements: number = DEFAULT_STATEMENT_CACHE_SIZE,
): CachedStatementDatabase {
  const bound = Math.max(1, Math.floor(maxStatements));
  // A Map iterates in insertion order: re-inserting on use makes the first key the LRU one.
  const statements = new Map<string, Database.Statement>();
  return {
    get size() {
      return statements.size;
    },
    prepare(sql) {
      if (sql.length > MAX_CACHED_SQL_LENGTH) return database.prepare(sql);
      const cached = statements.get(sql);
      if (cached !== undefined) {
        if (cached.busy) return database.prepare(sql);
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = database.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > bound) {
        const oldest = statements.keys().next().value;
        if (oldest !== undefined) statements.delete(oldest);
      }
      return statement;
    },
    close() {
      statements.clear();
      return database.close();
    },
  };
}
