/**
 * @relay/cache/testing: the {@link CacheStore} contract suite, for every implementation to run.
 *
 * @example
 * ```ts
 * import { describe, it } from 'vitest';
 * import { runCacheStoreContract } from '@relay/cache/testing';
 * runCacheStoreContract({ describe, it, name: 'sqlite', createStore: () => createSqliteCacheStore(db) });
 * ```
 */
export { createTestEntry, runCacheStoreContract } from './testing/cache-store-contract.js';
export type { CacheStoreContractOptions, ContractTestApi } from './testing/cache-store-contract.js';
export type { CacheStore } from './cache-store.js';
