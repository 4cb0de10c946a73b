import { sql, type Kysely } from 'kysely';
import type { Migration, MigrationProvider } from 'kysely/migration';

/**
 * The schema migrations, in order. Portable SQL only (SQLite now, PostgreSQL on the scale-out
 * path): no SQLite-only statements outside the dialect setup.
 */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_relay_meta': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('relay_meta')
        .addColumn('key', 'varchar(64)', (col) => col.primaryKey())
        .addColumn('value', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'varchar(32)', (col) =>
          col.notNull().defaultTo(sql`CURRENT_TIMESTAMP`),
        )
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('relay_meta').execute();
    },
  },
};

/** Serves {@link MIGRATIONS} to Kysely's Migrator. */
export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(MIGRATIONS),
};
