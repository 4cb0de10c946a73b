import { afterEach, describe, it } from 'vitest';
import { runCacheStoreContract } from '@relay/cache/testing';
import { openSqliteDatabase, type RelayDatabase } from '../storage/sqlite-database.js';
import { createSqliteCacheStore } from './sqlite-cache-store.js';
import { createWriteBehindCacheStore } from './write-behind-cache-store.js';

const open: RelayDatabase[] = [];
afterEach(async () => {
  for (const database of open.splice(0)) await database.close();
});

runCacheStoreContract({
  describe,
  it,
  name: 'sqlite',
  createStore: async () => {
    const database = await openSqliteDatabase(':memory:');
    open.push(database);
    return createSqliteCacheStore(database.db);
  },
});

runCacheStoreContract({
  describe,
  it,
  name: 'sqlite behind a write-behind queue',
  createStore: async () => {
    const database = await openSqliteDatabase(':memory:');
    open.push(database);
    return createWriteBehindCacheStore(createSqliteCacheStore(database.db));
  },
});
