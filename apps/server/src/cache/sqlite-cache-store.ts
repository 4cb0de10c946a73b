import type { CacheEntry } from '@relay/cache';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DatabaseSchema } from '../storage/database-schema.js';
import type { BatchingCacheStore } from './write-behind-cache-store.js';

async function upsert(
  db: Kysely<DatabaseSchema> | Transaction<DatabaseSchema>,
  key: string,
  entry: CacheEntry,
): Promise<void> {
  const entryJson = JSON.stringify(entry);
  await db
    .insertInto('cache_entries')
    .values({ cache_key: key, entry_json: entryJson, bytes: entry.bytes })
    .onConflict((oc) =>
      oc.column('cache_key').doUpdateSet({ entry_json: entryJson, bytes: entry.bytes }),
    )
    .execute();
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
  return {
    async get(key) {
      const row = await db
        .selectFrom('cache_entries')
        .select('entry_json')
        .where('cache_key', '=', key)
        .executeTakeFirst();
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
