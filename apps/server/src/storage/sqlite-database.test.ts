import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE_MODE, DatabaseOpenError, openSqliteDatabase } from './sqlite-database.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'relay-db-'));
  dirs.push(dir);
  return dir;
}

describe('openSqliteDatabase', () => {
  it('creates the schema in WAL mode with foreign keys on, and reopens it unchanged', async () => {
    const path = join(tempDir(), 'relay.db');
    const first = await openSqliteDatabase(path);
    const mode = await sql<{ journal_mode: string }>`PRAGMA journal_mode`.execute(first.db);
    expect(mode.rows[0]?.journal_mode).toBe('wal');
    const fk = await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(first.db);
    expect(fk.rows[0]?.foreign_keys).toBe(1);
    await first.db
      .insertInto('relay_meta')
      .values({ key: 'k', value: 'v', updated_at: 'now' })
      .execute();
    await first.close();
    await first.close();

    const second = await openSqliteDatabase(path);
    const rows = await second.db.selectFrom('relay_meta').selectAll().execute();
    expect(rows).toEqual([{ key: 'k', value: 'v', updated_at: 'now' }]);
    await second.close();
  });

  const modeOf = (file: string) => statSync(file).mode & 0o777;
  it.each([
    ['a new database', () => undefined],
    [
      'files left 0644 by an earlier version',
      (path: string) => {
        for (const file of [path, `${path}-wal`, `${path}-shm`]) {
          writeFileSync(file, '');
          chmodSync(file, 0o644);
        }
      },
    ],
  ])('keeps relay.db, -wal and -shm private to its user (0600): %s', async (_what, prepare) => {
    const path = join(tempDir(), 'relay.db');
    prepare(path);
    const database = await openSqliteDatabase(path);
    await database.db
      .insertInto('relay_meta')
      .values({ key: 'k', value: 'v', updated_at: 'now' })
      .execute();
    expect(DATABASE_FILE_MODE).toBe(0o600);
    expect([path, `${path}-wal`, `${path}-shm`].map(modeOf)).toEqual([0o600, 0o600, 0o600]);
    await database.close();
  });

  it('opens an in-memory database', async () => {
    const database = await openSqliteDatabase(':memory:');
    expect(await database.db.selectFrom('relay_meta').selectAll().execute()).toEqual([]);
    await database.close();
  });

  it('fails with a typed error when the file cannot be opened', async () => {
    await expect(
      openSqliteDatabase(join(tempDir(), 'missing', 'dir', 'relay.db')),
    ).rejects.toBeInstanceOf(DatabaseOpenError);
  });
});
