import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPostgresDatabase, type OpenPostgresOptions } from '../postgres-database.js';
import type { DatabaseDialect, OpenDatabaseOptions, RelayDatabase } from '../relay-database.js';
import { openSqliteDatabase } from '../sqlite-database.js';

/** The PostgreSQL server of the tests: RELAY_TEST_POSTGRES_URL, else the machine's own. */
export const TEST_POSTGRES_URL =
  process.env.RELAY_TEST_POSTGRES_URL?.trim() === undefined ||
  process.env.RELAY_TEST_POSTGRES_URL.trim() === ''
    ? 'postgres://root@127.0.0.1:5432/test'
    : process.env.RELAY_TEST_POSTGRES_URL.trim();

/** A fresh, migrated database of one engine, dropped again by `close`. */
export interface TestDatabase extends RelayDatabase {
  /** The PostgreSQL schema holding it (undefined on SQLite). */
  readonly schema: string | undefined;
}

/** Opens fresh databases of one engine: the parameter of the store contract suites. */
export interface TestDatabaseFactory {
  readonly dialect: DatabaseDialect;
  /** Opens an empty database with the latest schema (SQLite: in memory; PostgreSQL: a new schema). */
  open(options?: OpenDatabaseOptions & Omit<OpenPostgresOptions, 'schema'>): Promise<TestDatabase>;
}

/** SQLite in memory. */
export const SQLITE_TEST_DATABASES: TestDatabaseFactory = {
  dialect: 'sqlite',
  async open(options = {}) {
    const database = await openSqliteDatabase(':memory:', options);
    return { ...database, schema: undefined };
  },
};

/** A schema name no other test file uses. */
export function createTestSchemaName(): string {
  return `relay_test_${randomBytes(6).toString('hex')}`;
}

/** Runs one statement on the test server outside any relay database (schema set-up, drops). */
export async function runOnTestServer(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** PostgreSQL: every `open` creates a schema of its own, dropped with everything in it at `close`. */
export const POSTGRES_TEST_DATABASES: TestDatabaseFactory = {
  dialect: 'postgres',
  async open(options = {}) {
    const schema = createTestSchemaName();
    const database = await openPostgresDatabase(TEST_POSTGRES_URL, {
      maxConnections: 4,
      ...options,
      schema,
    });
    let dropped = false;
    return {
      dialect: database.dialect,
      db: database.db,
      writeLock: database.writeLock,
      externalChangeVersion: () => database.externalChangeVersion(),
      schema,
      async close() {
        await database.close();
        if (dropped) return;
        dropped = true;
        await runOnTestServer(`drop schema if exists ${schema} cascade`);
      },
    };
  },
};

async function isReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Whether the PostgreSQL suites run: always when RELAY_TEST_POSTGRES_URL is set (an unreachable
 * server then fails them, as `.ci/run` wants), else when the machine's server answers.
 */
export const POSTGRES_AVAILABLE = process.env.RELAY_TEST_POSTGRES_URL?.trim()
  ? true
  : await isReachable(TEST_POSTGRES_URL);

if (!POSTGRES_AVAILABLE) {
  console.warn(
    `PostgreSQL suites skipped: ${TEST_POSTGRES_URL} does not answer and RELAY_TEST_POSTGRES_URL is not set`,
  );
}

/** The engines every store contract suite runs against (`describe.each`). */
export const TEST_DATABASES: readonly TestDatabaseFactory[] = POSTGRES_AVAILABLE
  ? [SQLITE_TEST_DATABASES, POSTGRES_TEST_DATABASES]
  : [SQLITE_TEST_DATABASES];
