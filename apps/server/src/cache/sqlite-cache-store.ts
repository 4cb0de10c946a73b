import type { CacheEntry, CacheStore } from '@relay/cache';
import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../storage/database-schema.js';

/**
 * The persistent shared-cache store on the relay database (table `cache_entries`, portable
 * SQL). Entries are stored as JSON with their byte size; it makes no freshness decisions and
 * holds no bound of its own (the tiered store's LRU front bounds memory; expired entries are
 * replaced on refill).
 *
 * @param db - the database
 * @returns a {@link CacheStore}
 */
export function createSqliteCacheStore(db: Kysely<DatabaseSchema>): CacheStore {
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
      const entryJson = JSON.stringify(entry);
      await db
        .insertInto('cache_entries')
        .values({ cache_key: key, entry_json: entryJson, bytes: entry.bytes })
        .onConflict((oc) =>
          oc.column('cache_key').doUpdateSet({ entry_json: entryJson, bytes: entry.bytes }),
        )
        .execute();
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
