import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterEach, describe, expect, it } from 'vitest';
import { createMigrationProvider, createMigrations } from './migrations.js';
import { openSqliteDatabase } from './sqlite-database.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const now = () => new Date(Date.UTC(2030, 0, 1));

describe('migrations', () => {
  it('upgrades a database at 0001 to the latest schema, keeping its data and seeding the policy', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-mig-'));
    dirs.push(dir);
    const path = join(dir, 'relay.db');
    const db = new Kysely<Record<string, Record<string, unknown>>>({
      dialect: new SqliteDialect({ database: new Database(path) }),
    });
    const migrator = new Migrator({ db, provider: createMigrationProvider({ now }) });
    expect((await migrator.migrateTo('0001_relay_meta')).error).toBeUndefined();
    await db
      .insertInto('relay_meta')
      .values({ key: 'k', value: 'v', updated_at: 'then' })
      .execute();
    await db.destroy();

    const database = await openSqliteDatabase(path, { now });
    try {
      expect(await database.db.selectFrom('relay_meta').selectAll().execute()).toEqual([
        { key: 'k', value: 'v', updated_at: 'then' },
      ]);
      expect(await database.db.selectFrom('string_rewrite_policy').selectAll().execute()).toEqual([
        {
          id: 1,
          schema_version: 1,
          revision: 1,
          updated_at: '2030-01-01T00:00:00.000Z',
          rules_json: '[]',
        },
      ]);
      const tables = await database.db.introspection.getTables();
      expect(tables.map((t) => t.name).sort()).toEqual([
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
      ]);
    } finally {
      await database.close();
    }
  });

  it('reopening does not reseed or reset the policy', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-mig-'));
    dirs.push(dir);
    const path = join(dir, 'relay.db');
    const first = await openSqliteDatabase(path, { now });
    await first.db.updateTable('string_rewrite_policy').set({ revision: 9 }).execute();
    await first.close();
    const second = await openSqliteDatabase(path, { now: () => new Date(0) });
    const rows = await second.db
      .selectFrom('string_rewrite_policy')
      .select(['revision', 'updated_at'])
      .execute();
    expect(rows).toEqual([{ revision: 9, updated_at: '2030-01-01T00:00:00.000Z' }]);
    await second.close();
  });

  it('rolls every migration back down to an empty schema', async () => {
    const db = new Kysely<unknown>({
      dialect: new SqliteDialect({ database: new Database(':memory:') }),
    });
    const migrator = new Migrator({ db, provider: createMigrationProvider({ now }) });
    await migrator.migrateToLatest();
    const names = Object.keys(createMigrations({ now }));
    for (const name of [...names].reverse()) {
      const { error, results } = await migrator.migrateDown();
      expect(error).toBeUndefined();
      expect(results?.[0]?.migrationName).toBe(name);
    }
    const tables = await db.introspection.getTables();
    expect(tables.map((t) => t.name)).toEqual([]);
    await db.destroy();
  });
});
