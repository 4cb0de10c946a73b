import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  POSTGRES_AVAILABLE,
  POSTGRES_TEST_DATABASES,
  runOnTestServer,
  TEST_DATABASES,
  type TestDatabaseFactory,
} from './__fixtures__/test-databases.js';
import { openSqliteDatabase, type RelayDatabase } from './sqlite-database.js';
import { createStringRewriteStore } from './string-rewrite-store.js';

const open: RelayDatabase[] = [];
afterEach(async () => {
  for (const database of open.splice(0)) await database.close();
});
async function setup(engine: TestDatabaseFactory) {
  const database = await engine.open();
  open.push(database);
  return { db: database.db, store: createStringRewriteStore(database.db) };
}
const sqliteEngine = TEST_DATABASES[0];
if (sqliteEngine === undefined) throw new Error('no SQLite test engine');
const RULE = { pattern: 'secret-[0-9]+', replacement: '[redacted]' };

describe('createStringRewriteStore changeStamp', () => {
  it('is undefined without an external change detector', async () => {
    const { store } = await setup(sqliteEngine);
    expect(store.changeStamp()).toBeUndefined();
  });

  it('changes after every replace through the store, committed or refused', async () => {
    const database = await openSqliteDatabase(':memory:');
    open.push(database);
    const store = createStringRewriteStore(database.db, {
      externalChangeVersion: () => database.externalChangeVersion(),
    });
    const seen = new Set<string | undefined>([store.changeStamp()]);
    expect(store.changeStamp()).toBe(store.changeStamp());
    const before = await store.read();
    if (!before.ok) throw new Error('no seeded policy');
    await store.replace(before.value.revision, [RULE], '2030-01-01T00:00:00.000Z');
    seen.add(store.changeStamp());
    await store.replace(before.value.revision, [RULE], '2030-01-01T00:00:01.000Z'); // conflict
    seen.add(store.changeStamp());
    expect(seen.size).toBe(3);
  });

  it('changes when another connection commits to the same file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-stamp-'));
    try {
      const file = join(dir, 'relay.db');
      const database = await openSqliteDatabase(file);
      open.push(database);
      let clock = 0;
      const store = createStringRewriteStore(database.db, {
        externalChangeVersion: () => database.externalChangeVersion(),
        externalCheckIntervalMs: 50,
        now: () => clock,
      });
      const before = store.changeStamp();
      // This connection's own commits leave the stamp alone...
      await database.db.updateTable('string_rewrite_policy').set({ updated_at: 'x' }).execute();
      expect(store.changeStamp()).toBe(before);
      // ...another connection's commit changes it.
      const other = new Database(file);
      other.prepare("update string_rewrite_policy set updated_at = 'y'").run();
      other.close();
      // ...once the last reading of the external version is older than the check interval.
      clock = 49;
      expect(store.changeStamp()).toBe(before);
      clock = 50;
      expect(store.changeStamp()).not.toBe(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.runIf(POSTGRES_AVAILABLE)('createStringRewriteStore changeStamp on postgres', () => {
  it('changes once another connection commits to the policy (its change notification)', async () => {
    const database = await POSTGRES_TEST_DATABASES.open();
    open.push(database);
    const store = createStringRewriteStore(database.db, {
      externalChangeVersion: () => database.externalChangeVersion(),
      externalCheckIntervalMs: 0,
    });
    const before = store.changeStamp();
    expect(store.changeStamp()).toBe(before);
    await runOnTestServer(
      `update ${String(database.schema)}.string_rewrite_policy set updated_at = 'y'`,
    );
    await vi.waitFor(() => {
      expect(store.changeStamp()).not.toBe(before);
    });
    // An unrelated table's commit (the audit) does not notify.
    const settled = store.changeStamp();
    await runOnTestServer(
      `insert into ${String(database.schema)}.relay_meta values ('k', 'v', 'now')`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(store.changeStamp()).toBe(settled);
  });
});

describe.each(TEST_DATABASES)('createStringRewriteStore read on $dialect', (engine) => {
  it('reuses the parse of an unchanged row, frozen', async () => {
    const { store } = await setup(engine);
    const first = await store.read();
    const second = await store.read();
    expect(first.ok).toBe(true);
    expect(second).toBe(first);
    if (!first.ok) return;
    expect(Object.isFrozen(first.value)).toBe(true);
    expect(Object.isFrozen(first.value.rules)).toBe(true);
  });

  it('sees a replace at once', async () => {
    const { store } = await setup(engine);
    const before = await store.read();
    if (!before.ok) throw new Error('no seeded policy');
    const replaced = await store.replace(before.value.revision, [RULE], '2030-01-01T00:00:00.000Z');
    expect(replaced.ok).toBe(true);
    const after = await store.read();
    expect(after.ok && after.value.revision).toBe(before.value.revision + 1);
    expect(after.ok && after.value.rules).toEqual([RULE]);
  });

  it.each([
    [Number.MAX_SAFE_INTEGER - 1, true],
    [Number.MAX_SAFE_INTEGER, false],
  ])(
    'at revision %i a replace succeeds: %s (no revision past the largest safe integer is written)',
    async (revision, succeeds) => {
      const { db, store } = await setup(engine);
      await db.updateTable('string_rewrite_policy').set({ revision }).execute();
      const replaced = await store.replace(revision, [RULE], '2030-01-01T00:00:00.000Z');
      const after = await store.read();
      if (succeeds) {
        expect(replaced.ok && replaced.value.revision).toBe(Number.MAX_SAFE_INTEGER);
        expect(after.ok && after.value.rules).toEqual([RULE]);
      } else {
        expect(replaced).toEqual({
          ok: false,
          error: { code: 'string_rewrite_policy_unavailable', cause: 'revision_exhausted' },
        });
        // Nothing changed: the stored policy stays readable and in force.
        expect(after.ok && after.value.revision).toBe(Number.MAX_SAFE_INTEGER);
        expect(after.ok && after.value.rules).toEqual([]);
      }
    },
  );

  it('reports a row changed in the database, corrupt or missing, at the next read', async () => {
    const { db, store } = await setup(engine);
    expect((await store.read()).ok).toBe(true);
    await db.updateTable('string_rewrite_policy').set({ rules_json: '{not json' }).execute();
    expect(await store.read()).toEqual({
      ok: false,
      error: { code: 'string_rewrite_policy_unavailable', cause: 'corrupt' },
    });
    await db
      .updateTable('string_rewrite_policy')
      .set({ rules_json: JSON.stringify([RULE]) })
      .execute();
    const fixed = await store.read();
    expect(fixed.ok && fixed.value.rules).toEqual([RULE]);
    await db.deleteFrom('string_rewrite_policy').execute();
    expect(await store.read()).toEqual({
      ok: false,
      error: { code: 'string_rewrite_policy_unavailable', cause: 'missing' },
    });
  });
});
