import { CALLER_CLIENTS_MAX, normalizeClientName } from '@relay/protocol';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../auth/caller-token.js';
import { createCallerStore } from './caller-store.js';
import { TEST_DATABASES, type TestDatabase } from './__fixtures__/test-databases.js';

const base = (n: number) => ({
  forgeUserId: 42,
  login: 'mona',
  grantPool: 'default',
  newPoolPolicyJson: '{}',
  nowIso: new Date(Date.UTC(2030, 0, 1) + n * 1000).toISOString(),
  expiresAtIso: '2031-01-01T00:00:00.000Z',
});

describe.each(TEST_DATABASES)('createCallerStore on $dialect', (engine) => {
  // One database per engine for the file; every property run starts from empty tables.
  let database: TestDatabase;
  beforeAll(async () => {
    database = await engine.open();
  });
  afterAll(async () => {
    await database.close();
  });
  it('keeps at most 16 clients, one per name, and the latest token of each enrolled name works', async () => {
    const names = fc.constantFrom(
      ...Array.from({ length: 24 }, (_, i) => `host-${String(i)}`),
      'Host-1.local',
      'HOST-2',
    );
    await fc.assert(
      fc.asyncProperty(fc.array(names, { minLength: 1, maxLength: 40 }), async (sequence) => {
        for (const table of ['caller_clients', 'caller_grants', 'callers', 'pools'] as const) {
          await database.db.deleteFrom(table).execute();
        }
        let ids = 0;
        const store = createCallerStore(database.db, { createId: (p) => `${p}_${String(++ids)}` });
        const latest = new Map<string, string>();
        for (const [step, raw] of sequence.entries()) {
          const normalized = normalizeClientName(raw);
          if (!normalized.ok) throw new Error('generator produced an invalid name');
          const token = `token-${String(step)}`;
          const result = await store.enroll({
            ...base(step),
            clientName: normalized.value,
            tokenSha256: hashToken(token),
          });
          expect(result.ok).toBe(true);
          latest.set(normalized.value.toLowerCase(), token);
          const owner = await store.findTokenOwner(hashToken(token));
          expect(owner?.clientName).toBe(normalized.value);
        }
        const clients = await database.db.selectFrom('caller_clients').select('name').execute();
        expect(clients.length).toBeLessThanOrEqual(CALLER_CLIENTS_MAX);
        const lowered = clients.map((c) => c.name.toLowerCase());
        expect(new Set(lowered).size).toBe(lowered.length);
        for (const name of lowered) {
          const token = latest.get(name);
          expect(token).toBeDefined();
          expect(await store.findTokenOwner(hashToken(token ?? ''))).toBeDefined();
        }
        expect(await database.db.selectFrom('callers').selectAll().execute()).toHaveLength(1);
      }),
      { numRuns: 30 },
    );
  }, 60_000);
});
