import type { CacheEntry } from '@relay/cache';
import { sql, type CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { DatabaseSchema } from '../storage/database-schema.js';
import type { BatchingCacheStore } from './write-behind-cache-store.js';

/** Sentinels the queries below are compiled with, replaced by the real values at each call. */
const KEY = '\u0000relay-cache-key';
const JSON_TEXT = '\u0000relay-cache-json';
const BYTES = -424_242_424;
const SCOPE = '\u0000relay-cache-scope';

/**
 * Binds a query compiled once with the sentinels to this call's values: Kysely builds and
 * compiles a query at every call otherwise, which costs more than SQLite's indexed read.
 */
function bind<R>(
  compiled: CompiledQuery<R>,
  values: { key: string; json?: string; bytes?: number; scope?: string | null },
): CompiledQuery<R> {
  return {
    ...compiled,
    parameters: compiled.parameters.map((parameter) => {
      if (parameter === KEY) return values.key;
      if (parameter === JSON_TEXT) return values.json;
      if (parameter === BYTES) return values.bytes;
      if (parameter === SCOPE) return values.scope ?? null;
      return parameter;
    }),
  };
}

/**
 * The persistent shared-cache store on the relay database (table `cache_entries`, portable
 * SQL). Entries are stored as JSON with their byte size; it makes no freshness decisions and
 * holds no bound of its own (the tiered store's LRU front bounds memory; expired entries are
 * replaced on refill).
 *
 * @param db - the database
 * @returns a cache store that can also write a batch in one transaction
 */
export function createSqliteCacheStore(db: Kysely<DatabaseSchema>): BatchingCacheStore {
  const readQuery = db
    .selectFrom('cache_entries')
    .select('entry_json')
    .where('cache_key', '=', KEY)
    .compile();
  const upsertQuery = db
    .insertInto('cache_entries')
    .values({ cache_key: KEY, entry_json: JSON_TEXT, bytes: BYTES, scope: SCOPE })
    .onConflict((oc) =>
      oc.column('cache_key').doUpdateSet({ entry_json: JSON_TEXT, bytes: BYTES, scope: SCOPE }),
    )
    .compile();
  const upsert = async (
    on: Kysely<DatabaseSchema> | Transaction<DatabaseSchema>,
    key: string,
    entry: CacheEntry,
  ): Promise<void> => {
    await on.executeQuery(
      bind(upsertQuery, {
        key,
        json: JSON.stringify(entry),
        bytes: entry.bytes,
        scope: entry.scope ?? null,
      }),
    );
  };
  return {
    async get(key) {
      const row = (await db.executeQuery(bind(readQuery, { key }))).rows[0];
      if (row === undefined) return undefined;
      try {
        return JSON.parse(row.entry_json) as CacheEntry;
      } catch {
        return undefined;
      }
    },
    async put(key, entry) {
      await upsert(db, key, entry);
    },
    async putMany(writes) {
      if (writes.length === 0) return;
      await db.transaction().execute(async (trx) => {
        for (const { key, entry } of writes) await upsert(trx, key, entry);
      });
    },
    async delete(key) {
      const result = await db
        .deleteFrom('cache_entries')
        .where('cache_key', '=', key)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
    async purgeScope(scope) {
      const result = await db
        .deleteFrom('cache_entries')
        .where('scope', '=', scope)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async count() {
      const row = await db
        .selectFrom('cache_entries')
        .select(sql<number | string>`count(*)`.as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async totalBytes() {
      const row = await db
        .selectFrom('cache_entries')
        .select(sql<number | string | null>`sum(bytes)`.as('total'))
        .executeTakeFirstOrThrow();
      return Number(row.total ?? 0);
    },
  };
}
