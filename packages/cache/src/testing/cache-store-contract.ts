import assert from 'node:assert/strict';
import type { CacheEntry } from '../cache-entry.js';
import type { CacheStore } from '../cache-store.js';

/** The subset of a test framework the contract needs (vitest and node:test both fit). */
export interface ContractTestApi {
  readonly describe: (name: string, body: () => void) => unknown;
  readonly it: (name: string, body: () => Promise<void>) => unknown;
}

/** Options of {@link runCacheStoreContract}. */
export interface CacheStoreContractOptions extends ContractTestApi {
  /** The implementation's name, shown in the suite title. */
  readonly name: string;
  /** Creates an empty store for one test. */
  readonly createStore: () => CacheStore | Promise<CacheStore>;
  /** Closes what `createStore` opened (a database, a connection), after each test. */
  readonly disposeStore?: (store: CacheStore) => void | Promise<void>;
}

/**
 * Builds a cache entry for the contract tests.
 *
 * @param overrides - fields to change; `bytes` defaults to 100.
 * @returns an entry for `repo_view`.
 */
export function createTestEntry(overrides: Partial<CacheEntry> = {}): CacheEntry {
  return {
    routeKind: 'repo_view',
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: { id: 1, name: 'hello', topics: ['a', 'b'], nested: { ok: true, none: null } },
    bodyEncoding: 'json',
    validators: { etag: 'W/"abc"', lane: { kind: 'identity', id: 'pat-1' } },
    validatedAt: 1_700_000_000_000,
    expiresAt: 1_700_000_060_000,
    staleUntil: 1_700_003_660_000,
    bytes: 100,
    ...overrides,
  };
}

/**
 * The contract every {@link CacheStore} implementation passes: round trips keep every field,
 * puts replace, deletes report, and counts and byte totals follow. Run it from a test file of
 * the implementation:
 *
 * @param options - the test API, the implementation's name and its factory.
 *
 * @example
 * ```ts
 * import { describe, it } from 'vitest';
 * import { runCacheStoreContract } from '@relay/cache/testing';
 * runCacheStoreContract({ describe, it, name: 'sqlite', createStore: () => createSqliteCacheStore(db) });
 * ```
 */
export function runCacheStoreContract(options: CacheStoreContractOptions): void {
  const { describe, it, createStore, disposeStore } = options;
  const withStore = (body: (store: CacheStore) => Promise<void>) => async () => {
    const store = await createStore();
    try {
      await body(store);
    } finally {
      await disposeStore?.(store);
    }
  };

  describe(`CacheStore contract: ${options.name}`, () => {
    it(
      'starts empty',
      withStore(async (store) => {
        assert.equal(await store.count(), 0);
        assert.equal(await store.totalBytes(), 0);
        assert.equal(await store.get('missing'), undefined);
      }),
    );

    it(
      'returns a stored entry with every field intact',
      withStore(async (store) => {
        const entry = createTestEntry();
        await store.put('k', entry);
        assert.deepEqual(await store.get('k'), entry);
      }),
    );

    it(
      'keeps entries without validators, with text and base64 bodies',
      withStore(async (store) => {
        const { validators: _v, ...plain } = createTestEntry();
        const text: CacheEntry = {
          ...plain,
          body: 'line\r\n\u00e9\u{1f600}',
          bodyEncoding: 'text',
        };
        const empty: CacheEntry = { ...plain, status: 204, body: null, bodyEncoding: 'text' };
        const binary: CacheEntry = {
          ...plain,
          validators: {
            lastModified: 'Tue, 01 Jan 2030 00:00:00 GMT',
            lane: { kind: 'anonymous' },
          },
          body: 'AAEC/w==',
          bodyEncoding: 'base64',
        };
        await store.put('text', text);
        await store.put('empty', empty);
        await store.put('binary', binary);
        assert.deepEqual(await store.get('text'), text);
        assert.deepEqual(await store.get('empty'), empty);
        assert.deepEqual(await store.get('binary'), binary);
      }),
    );

    it(
      'keeps the forge’s JSON text of a json body, byte for byte',
      withStore(async (store) => {
        const source = '{ "score": 1.0, "s": "\\u003c/a\\u003e", "100": 1, "+1": 2 }\n';
        const entry = createTestEntry({ body: JSON.parse(source) as unknown, bodySource: source });
        await store.put('source', entry);
        const read = await store.get('source');
        assert.equal(read?.bodySource, source);
        assert.deepEqual(read, entry);
      }),
    );

    it(
      'replaces an entry under the same key and adjusts the byte total',
      withStore(async (store) => {
        await store.put('k', createTestEntry({ bytes: 100 }));
        const replacement = createTestEntry({ bytes: 250, status: 204, body: null });
        await store.put('k', replacement);
        assert.deepEqual(await store.get('k'), replacement);
        assert.equal(await store.count(), 1);
        assert.equal(await store.totalBytes(), 250);
      }),
    );

    it(
      'keeps keys apart, including keys that differ only in case or a separator',
      withStore(async (store) => {
        const keys = ['["GET","/a"]', '["GET","/A"]', '["GET","/a",""]', 'k k', 'k\u00e9'];
        for (const [index, key] of keys.entries()) {
          await store.put(key, createTestEntry({ bytes: 10 + index, status: 200 + index }));
        }
        for (const [index, key] of keys.entries()) {
          assert.equal((await store.get(key))?.status, 200 + index);
        }
        assert.equal(await store.count(), keys.length);
        assert.equal(await store.totalBytes(), 10 + 11 + 12 + 13 + 14);
      }),
    );

    it(
      'deletes and reports whether there was an entry',
      withStore(async (store) => {
        await store.put('a', createTestEntry({ bytes: 40 }));
        await store.put('b', createTestEntry({ bytes: 60 }));
        assert.equal(await store.delete('a'), true);
        assert.equal(await store.delete('a'), false);
        assert.equal(await store.delete('never'), false);
        assert.equal(await store.get('a'), undefined);
        assert.equal(await store.count(), 1);
        assert.equal(await store.totalBytes(), 60);
      }),
    );

    it(
      'purges every entry of a scope and nothing else',
      withStore(async (store) => {
        await store.put('a1', createTestEntry({ bytes: 10, scope: 'acme/widgets' }));
        await store.put('a2', createTestEntry({ bytes: 20, scope: 'acme/widgets' }));
        await store.put('b', createTestEntry({ bytes: 30, scope: 'acme/gadgets' }));
        await store.put('c', createTestEntry({ bytes: 40 }));
        assert.deepEqual(
          await store.get('a1'),
          createTestEntry({ bytes: 10, scope: 'acme/widgets' }),
        );
        assert.equal(await store.purgeScope('acme/widgets'), 2);
        assert.equal(await store.get('a1'), undefined);
        assert.equal(await store.get('a2'), undefined);
        assert.equal((await store.get('b'))?.scope, 'acme/gadgets');
        assert.equal((await store.get('c'))?.bytes, 40);
        assert.equal(await store.count(), 2);
        assert.equal(await store.totalBytes(), 70);
        assert.equal(await store.purgeScope('acme/widgets'), 0);
        await store.put('a1', createTestEntry({ bytes: 10, scope: 'acme/widgets' }));
        assert.equal((await store.get('a1'))?.scope, 'acme/widgets');
      }),
    );
  });
}
