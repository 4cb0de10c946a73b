import { sql, type Kysely } from 'kysely';
import type { Migration, MigrationProvider } from 'kysely/migration';
import type { DatabaseDialect } from './relay-database.js';

/** What the migrations need from outside: the clock of seeded rows and the engine. */
export interface MigrationOptions {
  /** The current time; seeds `updated_at` of the initial string-rewrite policy. */
  readonly now: () => Date;
  /**
   * The engine the history runs on. Default `sqlite`. Every migration runs on both; a few
   * steps differ where only one engine has the feature (PostgreSQL's change notifications).
   */
  readonly dialect?: DatabaseDialect;
}

/**
 * The PostgreSQL notification channel the relay's tables notify on after a commit that changes
 * what the relay caches (callers, grants, clients, the string-rewrite policy).
 */
export const CHANGE_CHANNEL = 'relay_changes';

/**
 * The PostgreSQL table of the change sequence (one row, id 1): bumped by the same commits that
 * notify {@link CHANGE_CHANNEL}, within their transaction.
 */
export const CHANGE_SEQUENCE_TABLE = 'relay_change_sequence';

/**
 * The tables whose changes the relay caches must see at once, with the columns whose update
 * counts (a client's `last_used_at`, written at most once a minute per client, does not).
 */
const NOTIFYING_TABLES: readonly { table: string; columns?: readonly string[] }[] = [
  { table: 'callers' },
  { table: 'caller_grants' },
  { table: 'caller_clients', columns: ['id', 'caller_id', 'name', 'token_sha256', 'expires_at'] },
  { table: 'string_rewrite_policy' },
];

/**
 * The schema migrations, in order. Portable SQL only (SQLite now, PostgreSQL on the scale-out
 * path): no SQLite-only statements outside the dialect setup, no auto-increment columns.
 *
 * @param options - the clock of seeded rows
 * @returns the migrations by name
 */
export function createMigrations(options: MigrationOptions): Readonly<Record<string, Migration>> {
  const dialect = options.dialect ?? 'sqlite';
  return {
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
    '0002_relay_core': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('pools')
          .addColumn('id', 'varchar(100)', (col) => col.primaryKey())
          .addColumn('policy_json', 'text', (col) => col.notNull())
          .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
          .execute();

        await db.schema
          .createTable('callers')
          .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
          .addColumn('forge_user_id', 'bigint', (col) => col.unique())
          .addColumn('login', 'varchar(39)', (col) => col.notNull())
          .addColumn('role', 'varchar(32)', (col) => col.notNull().defaultTo('none'))
          .addColumn('disabled', 'integer', (col) => col.notNull().defaultTo(0))
          .addColumn('org_identity_verified_at', 'varchar(32)')
          .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
          .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
          .execute();
        await db.schema.createIndex('callers_login').on('callers').column('login').execute();

        await db.schema
          .createTable('caller_grants')
          .addColumn('caller_id', 'varchar(64)', (col) =>
            col.notNull().references('callers.id').onDelete('cascade'),
          )
          .addColumn('pool_id', 'varchar(100)', (col) =>
            col.notNull().references('pools.id').onDelete('cascade'),
          )
          .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
          .addPrimaryKeyConstraint('caller_grants_pk', ['caller_id', 'pool_id'])
          .execute();

        await db.schema
          .createTable('caller_clients')
          .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
          .addColumn('caller_id', 'varchar(64)', (col) =>
            col.notNull().references('callers.id').onDelete('cascade'),
          )
          .addColumn('name', 'varchar(400)', (col) => col.notNull())
          .addColumn('token_sha256', 'char(64)', (col) => col.notNull().unique())
          .addColumn('expires_at', 'varchar(32)', (col) => col.notNull())
          .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
          .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
          .addColumn('last_used_at', 'varchar(32)')
          .execute();
        await db.schema
          .createIndex('caller_clients_caller')
          .on('caller_clients')
          .columns(['caller_id', 'updated_at'])
          .execute();

        await db.schema
          .createTable('identities')
          .addColumn('id', 'varchar(128)', (col) => col.primaryKey())
          .addColumn('pool_id', 'varchar(100)', (col) =>
            col.notNull().references('pools.id').onDelete('cascade'),
          )
          .addColumn('kind', 'varchar(16)', (col) => col.notNull())
          .addColumn('login', 'varchar(39)', (col) => col.notNull())
          .addColumn('secret_ref', 'varchar(128)', (col) => col.notNull())
          .addColumn('installation_id', 'bigint')
          .addColumn('weight', 'integer', (col) => col.notNull())
          .addColumn('active', 'integer', (col) => col.notNull().defaultTo(1))
          .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
          .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
          .execute();
        await db.schema.createIndex('identities_pool').on('identities').column('pool_id').execute();

        await db.schema
          .createTable('identity_scopes')
          .addColumn('identity_id', 'varchar(128)', (col) =>
            col.notNull().references('identities.id').onDelete('cascade'),
          )
          .addColumn('position', 'integer', (col) => col.notNull())
          .addColumn('owner', 'varchar(39)', (col) => col.notNull())
          .addColumn('repo', 'varchar(100)')
          .addColumn('allow_private', 'integer', (col) => col.notNull().defaultTo(0))
          .addPrimaryKeyConstraint('identity_scopes_pk', ['identity_id', 'position'])
          .execute();

        await db.schema
          .createTable('string_rewrite_policy')
          .addColumn('id', 'integer', (col) => col.primaryKey())
          .addColumn('schema_version', 'integer', (col) => col.notNull())
          .addColumn('revision', 'bigint', (col) => col.notNull())
          .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
          .addColumn('rules_json', 'text', (col) => col.notNull())
          .execute();
        // A fresh deployment has an explicit empty policy at revision 1.
        await sql`insert into string_rewrite_policy (id, schema_version, revision, updated_at, rules_json) values (1, 1, 1, ${options.now().toISOString()}, '[]')`.execute(
          db,
        );

        await db.schema
          .createTable('audit')
          .addColumn('request_id', 'varchar(64)', (col) => col.primaryKey())
          .addColumn('occurred_at', 'varchar(32)', (col) => col.notNull())
          .addColumn('pool_id', 'varchar(100)', (col) => col.notNull())
          .addColumn('caller_id', 'varchar(64)', (col) => col.notNull())
          .addColumn('client_id', 'varchar(64)')
          .addColumn('route_key', 'varchar(512)')
          .addColumn('route_kind', 'varchar(64)')
          .addColumn('identity_id', 'varchar(128)')
          .addColumn('status', 'integer', (col) => col.notNull())
          .addColumn('error_code', 'varchar(64)')
          .addColumn('fallback_reason', 'varchar(64)')
          .addColumn('backend', 'varchar(16)')
          .addColumn('cache_result', 'varchar(8)')
          .addColumn('cacheable', 'integer', (col) => col.notNull())
          .addColumn('coalesced', 'integer', (col) => col.notNull())
          .addColumn('duration_ms', 'integer', (col) => col.notNull())
          .execute();
        // Stats read one pool's window from covering indexes (no table lookups at a million
        // rows); retention deletes by age.
        await db.schema
          .createIndex('audit_pool_window')
          .on('audit')
          .columns([
            'pool_id',
            'occurred_at',
            'route_kind',
            'backend',
            'fallback_reason',
            'error_code',
            'status',
            'cache_result',
            'cacheable',
            'coalesced',
            'caller_id',
          ])
          .execute();
        await db.schema
          .createIndex('audit_pool_caller')
          .on('audit')
          .columns(['pool_id', 'caller_id', 'occurred_at', 'client_id', 'route_kind'])
          .execute();
        await db.schema.createIndex('audit_time').on('audit').column('occurred_at').execute();

        await db.schema
          .createTable('audit_daily')
          .addColumn('pool_id', 'varchar(100)', (col) => col.notNull())
          .addColumn('day', 'varchar(10)', (col) => col.notNull())
          .addColumn('route_kind', 'varchar(64)', (col) => col.notNull())
          .addColumn('backend', 'varchar(16)', (col) => col.notNull())
          .addColumn('fallback_reason', 'varchar(64)', (col) => col.notNull())
          .addColumn('requests', 'integer', (col) => col.notNull())
          .addColumn('service_errors', 'integer', (col) => col.notNull())
          .addColumn('local_fallbacks', 'integer', (col) => col.notNull())
          .addColumn('hits', 'integer', (col) => col.notNull())
          .addColumn('eligible', 'integer', (col) => col.notNull())
          .addColumn('eligible_hits', 'integer', (col) => col.notNull())
          .addColumn('coalesced', 'integer', (col) => col.notNull())
          .addPrimaryKeyConstraint('audit_daily_pk', [
            'pool_id',
            'day',
            'route_kind',
            'backend',
            'fallback_reason',
          ])
          .execute();
        await db.schema
          .createTable('audit_daily_callers')
          .addColumn('pool_id', 'varchar(100)', (col) => col.notNull())
          .addColumn('day', 'varchar(10)', (col) => col.notNull())
          .addColumn('caller_id', 'varchar(64)', (col) => col.notNull())
          .addColumn('requests', 'integer', (col) => col.notNull())
          .addPrimaryKeyConstraint('audit_daily_callers_pk', ['pool_id', 'day', 'caller_id'])
          .execute();

        await db.schema
          .createTable('cache_entries')
          .addColumn('cache_key', 'varchar(2048)', (col) => col.primaryKey())
          .addColumn('entry_json', 'text', (col) => col.notNull())
          .addColumn('bytes', 'bigint', (col) => col.notNull())
          .execute();
      },
      async down(db: Kysely<unknown>) {
        for (const table of [
          'cache_entries',
          'audit_daily_callers',
          'audit_daily',
          'audit',
          'string_rewrite_policy',
          'identity_scopes',
          'identities',
          'caller_clients',
          'caller_grants',
          'callers',
          'pools',
        ]) {
          await db.schema.dropTable(table).execute();
        }
      },
    },
    '0003_public_only_cache': {
      // Entries written before the public-only screen were never screened: they are dropped
      // (the cache refills), and every entry now records the repository it belongs to, so that
      // a repository that turns out private is purged at once.
      async up(db: Kysely<unknown>) {
        await sql`DELETE FROM cache_entries`.execute(db);
        await db.schema.alterTable('cache_entries').addColumn('scope', 'varchar(300)').execute();
        await db.schema
          .createIndex('cache_entries_scope')
          .on('cache_entries')
          .column('scope')
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropIndex('cache_entries_scope').execute();
        await db.schema.alterTable('cache_entries').dropColumn('scope').execute();
      },
    },
    '0004_change_notifications': {
      // PostgreSQL: every commit that changes a cached table notifies CHANGE_CHANNEL, whichever
      // connection made it, so that each replica drops its caller lookups and policy snapshot.
      // SQLite needs nothing: its `data_version` already changes at another connection's commit.
      async up(db: Kysely<unknown>) {
        if (dialect !== 'postgres') return;
        await sql`create or replace function relay_notify_change() returns trigger language plpgsql as $$
begin
  perform pg_notify(${sql.lit(CHANGE_CHANNEL)}, tg_table_name);
  return null;
end
$$`.execute(db);
        for (const { table, columns } of NOTIFYING_TABLES) {
          const update =
            columns === undefined
              ? sql`update`
              : sql`update of ${sql.join(columns.map((column) => sql.ref(column)))}`;
          await sql`create trigger ${sql.id(`${table}_notify_change`)} after insert or ${update} or delete or truncate on ${sql.table(table)} for each statement execute function relay_notify_change()`.execute(
            db,
          );
        }
      },
      async down(db: Kysely<unknown>) {
        if (dialect !== 'postgres') return;
        for (const { table } of NOTIFYING_TABLES) {
          await sql`drop trigger if exists ${sql.id(`${table}_notify_change`)} on ${sql.table(table)}`.execute(
            db,
          );
        }
        await sql`drop function if exists relay_notify_change()`.execute(db);
      },
    },
    '0005_change_sequence': {
      // PostgreSQL: the same commits also bump the one row of CHANGE_SEQUENCE_TABLE, in their
      // own transaction, so that a replica that reads it at the start of a request sees every
      // commit made before (a notification arrives a moment later). The table's schema is the
      // trigger's: a session committing with another search_path (psql) bumps the same row.
      // SQLite: nothing.
      async up(db: Kysely<unknown>) {
        if (dialect !== 'postgres') return;
        await db.schema
          .createTable(CHANGE_SEQUENCE_TABLE)
          .addColumn('id', 'integer', (col) => col.primaryKey())
          .addColumn('value', 'bigint', (col) => col.notNull())
          .execute();
        await sql`insert into ${sql.table(CHANGE_SEQUENCE_TABLE)} (id, value) values (1, 0)`.execute(
          db,
        );
        // A pool's policy too: replicas drop their pool policy caches with the sequence.
        await sql`create trigger pools_notify_change after update of policy_json on pools for each statement execute function relay_notify_change()`.execute(
          db,
        );
        await sql`create or replace function relay_notify_change() returns trigger language plpgsql as $$
begin
  execute format('update %I.%I set value = value + 1 where id = 1', tg_table_schema, ${sql.lit(CHANGE_SEQUENCE_TABLE)});
  perform pg_notify(${sql.lit(CHANGE_CHANNEL)}, tg_table_name);
  return null;
end
$$`.execute(db);
      },
      async down(db: Kysely<unknown>) {
        if (dialect !== 'postgres') return;
        await sql`create or replace function relay_notify_change() returns trigger language plpgsql as $$
begin
  perform pg_notify(${sql.lit(CHANGE_CHANNEL)}, tg_table_name);
  return null;
end
$$`.execute(db);
        await sql`drop trigger if exists pools_notify_change on pools`.execute(db);
        await db.schema.dropTable(CHANGE_SEQUENCE_TABLE).execute();
      },
    },
  };
}

/**
 * Serves the migrations of {@link createMigrations} to Kysely's Migrator.
 *
 * @param options - the clock of seeded rows
 */
export function createMigrationProvider(options: MigrationOptions): MigrationProvider {
  const migrations = createMigrations(options);
  return { getMigrations: () => Promise.resolve(migrations) };
}
