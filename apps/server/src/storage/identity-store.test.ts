import { identityRegistrationSchema } from '@relay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES, type TestDatabase } from './__fixtures__/test-databases.js';
import { createIdentityStore, type IdentityStore } from './identity-store.js';

const NOW = '2030-01-01T00:00:00.000Z';
const LATER = '2030-01-02T00:00:00.000Z';
const registration = (fields: Record<string, unknown>) =>
  identityRegistrationSchema.parse({
    id: 'app-1',
    kind: 'forge_app',
    login: 'relay-app',
    secret_ref: 'app_key',
    installation_id: 9_007_199_254_740_000,
    scopes: [{ owner: 'octo-org' }, { owner: 'octo-org', repo: 'site' }],
    ...fields,
  });

describe.each(TEST_DATABASES)('createIdentityStore on $dialect', (engine) => {
  let database: TestDatabase;
  let store: IdentityStore;
  beforeAll(async () => {
    database = await engine.open();
    store = createIdentityStore(database.db, { writeLock: database.writeLock });
  });
  afterAll(async () => {
    await database.close();
  });

  it('creates, then updates in place with its scopes replaced, and lists with numbers intact', async () => {
    const created = await store.upsert('team', registration({}), NOW, '{}');
    expect(created.ok && created.value.created).toBe(true);
    const updated = await store.upsert(
      'team',
      registration({ login: 'relay-app-2', weight: 7, scopes: [{ owner: 'acme' }] }),
      LATER,
      '{}',
    );
    expect(updated.ok && updated.value.created).toBe(false);
    const [listed] = await store.list('team');
    expect(listed).toMatchObject({
      id: 'app-1',
      pool: 'team',
      kind: 'forge_app',
      login: 'relay-app-2',
      installation_id: 9_007_199_254_740_000,
      weight: 7,
      scopes: [{ owner: 'acme', allow_private: false }],
      created_at: NOW,
      updated_at: LATER,
    });
  });

  it('refuses a changed pool or kind and writes nothing', async () => {
    expect(await store.upsert('other', registration({}), LATER, '{}')).toEqual({
      ok: false,
      error: { code: 'identity_conflict' },
    });
    expect(await store.list('other')).toEqual([]);
  });

  it('registers one new id from many concurrent calls exactly once', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        store.upsert(
          'team',
          registration({ id: 'pat-race', kind: 'pat', installation_id: null }),
          NOW,
          '{}',
        ),
      ),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    expect(results.filter((r) => r.ok && r.value.created)).toHaveLength(1);
  });
});
