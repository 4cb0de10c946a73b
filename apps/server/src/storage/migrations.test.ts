import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createTestSchemaName,
  POSTGRES_AVAILABLE,
  runOnTestServer,
  TEST_POSTGRES_URL,
} from './__fixtures__/test-databases.js';
import { createMigrationProvider, createMigrations } from './migrations.js';
import { openPostgresDatabase } from './postgres-database.js';
import type { DatabaseDialect, RelayDatabase } from './relay-database.js';
import { openSqliteDatabase } from './sqlite-database.js';

/** One place a database lives, reopened as often as a test likes (the history runs each time). */
interface Location {
  readonly dialect: DatabaseDialect;
  /** A bare Kysely on the location, without migrations. */
  raw(): Kysely<Record<string, Record<string, unknown>>>;
  open(now: () => Date): Promise<RelayDatabase>;
  /** The migration table's schema (PostgreSQL). */
  readonly schema: string | undefined;
  remove(): Promise<void>;
}

function sqliteLocation(): Location {
  const dir = mkdtempSync(join(tmpdir(), 'relay-mig-'));
  const path = join(dir, 'relay.db');
  return {
    dialect: 'sqlite',
    schema: undefined,
    raw: () => new Kysely({ dialect: new SqliteDialect({ database: new Database(path) }) }),
    open: (now) => openSqliteDatabase(path, { now }),
    remove: () => {
      rmSync(dir, { recursive: true, force: true });
      return Promise.resolve();
    },
  };
}

async function postgresLocation(): Promise<Location> {
  const schema = createTestSchemaName();
  await runOnTestServer(`create schema ${schema}`);
  return {
    dialect: 'postgres',
    schema,
    raw: () =>
      new Kysely({
        dialect: new PostgresDialect({
          pool: new pg.Pool({
            connectionString: TEST_POSTGRES_URL,
            max: 2,
            options: `-c search_path=${schema}`,
          }),
        }),
      }),
    open: (now) => openPostgresDatabase(TEST_POSTGRES_URL, { now, schema, maxConnections: 2 }),
    remove: () => runOnTestServer(`drop schema if exists ${schema} cascade`),
  };
}

const LOCATIONS: readonly { dialect: DatabaseDialect; create: () => Promise<Location> }[] = [
  { dialect: 'sqlite', create: () => Promise.resolve(sqliteLocation()) },
  ...(POSTGRES_AVAILABLE ? [{ dialect: 'postgres' as const, create: postgresLocation }] : []),
];

const created: Location[] = [];
afterEach(async () => {
  for (const location of created.splice(0)) await location.remove();
});

const now = () => new Date(Date.UTC(2030, 0, 1));

const TABLES = [
  'audit',
  'audit_daily',
  'audit_daily_callers',
  'cache_entries',
  'caller_clients',
  'caller_grants',
  'callers',
  'identities',
  'identity_scopes',
  'pools',
  'relay_meta',
  'string_rewrite_policy',
];

describe.each(LOCATIONS)('migrations on $dialect', ({ dialect, create }) => {
  const migratorOf = (db: Kysely<Record<string, Record<string, unknown>>>, location: Location) =>
    new Migrator({
      db,
      provider: createMigrationProvider({ now, dialect }),
      ...(location.schema === undefined ? {} : { migrationTableSchema: location.schema }),
    });

  it('upgrades a database at 0001 to the latest schema, keeping its data and seeding the policy', async () => {
    const location = await create();
    created.push(location);
    const db = location.raw();
    expect((await migratorOf(db, location).migrateTo('0001_relay_meta')).error).toBeUndefined();
    await db
      .insertInto('relay_meta')
      .values({ key: 'k', value: 'v', updated_at: 'then' })
      .execute();
    await db.destroy();

    const database = await location.open(now);
    try {
      expect(await database.db.selectFrom('relay_meta').selectAll().execute()).toEqual([
        { key: 'k', value: 'v', updated_at: 'then' },
      ]);
      const policy = await database.db.selectFrom('string_rewrite_policy').selectAll().execute();
      // PostgreSQL's driver returns bigint columns as text.
      expect(policy.map((row) => ({ ...row, revision: Number(row.revision) }))).toEqual([
        {
          id: 1,
          schema_version: 1,
          revision: 1,
          updated_at: '2030-01-01T00:00:00.000Z',
          rules_json: '[]',
        },
      ]);
      const tables = await database.db.introspection.getTables();
      expect(
        tables
          .filter((t) => location.schema === undefined || t.schema === location.schema)
          .map((t) => t.name)
          .sort(),
      ).toEqual(
        // PostgreSQL alone keeps the change sequence the replicas read (0005).
        dialect === 'postgres' ? [...TABLES, 'relay_change_sequence'].sort() : TABLES,
      );
    } finally {
      await database.close();
    }
  });

  it('reopening does not reseed or reset the policy', async () => {
    const location = await create();
    created.push(location);
    const first = await location.open(now);
    await first.db.updateTable('string_rewrite_policy').set({ revision: 9 }).execute();
    await first.close();
    const second = await location.open(() => new Date(0));
    const rows = await second.db
      .selectFrom('string_rewrite_policy')
      .select(['revision', 'updated_at'])
      .execute();
    expect(rows.map((row) => ({ ...row, revision: Number(row.revision) }))).toEqual([
      { revision: 9, updated_at: '2030-01-01T00:00:00.000Z' },
    ]);
    await second.close();
  });

  // SQLite's migration lock holds within one connection only: replicas are a PostgreSQL matter.
  it.runIf(dialect === 'postgres')(
    'replicas opening at once migrate once (the migration lock)',
    async () => {
      const location = await create();
      created.push(location);
      const opened = await Promise.all([
        location.open(now),
        location.open(now),
        location.open(now),
      ]);
      for (const database of opened) {
        expect(
          (await database.db.selectFrom('string_rewrite_policy').select('id').execute()).length,
        ).toBe(1);
      }
      for (const database of opened) await database.close();
    },
  );

  it('rolls every migration back down to an empty schema', async () => {
    const location = await create();
    created.push(location);
    const db = location.raw();
    const migrator = migratorOf(db, location);
    await migrator.migrateToLatest();
    const names = Object.keys(createMigrations({ now, dialect }));
    for (const name of [...names].reverse()) {
      const { error, results } = await migrator.migrateDown();
      expect(error).toBeUndefined();
      expect(results?.[0]?.migrationName).toBe(name);
    }
    const tables = await db.introspection.getTables();
    expect(
      tables
        .filter((t) => location.schema === undefined || t.schema === location.schema)
        .map((t) => t.name),
    ).toEqual([]);
    await db.destroy();
  });
});
