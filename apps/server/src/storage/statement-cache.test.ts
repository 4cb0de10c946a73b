import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, type Generated } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStatementCache, MAX_CACHED_SQL_LENGTH } from './statement-cache.js';

const open: Database.Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
});
function memoryDb(): Database.Database {
  const db = new Database(':memory:');
  open.push(db);
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
  return db;
}

describe('createStatementCache', () => {
  it('prepares each SQL text once and reuses the statement', () => {
    const db = memoryDb();
    const prepare = vi.spyOn(db, 'prepare');
    const cache = createStatementCache(db);
    const first = cache.prepare('SELECT v FROM t WHERE id = ?');
    const second = cache.prepare('SELECT v FROM t WHERE id = ?');
    expect(second).toBe(first);
    cache.prepare('SELECT id FROM t');
    expect(prepare).toHaveBeenCalledTimes(2);
    expect(cache.size).toBe(2);
  });

  it('evicts the least recently used statement beyond the bound', () => {
    const db = memoryDb();
    const prepare = vi.spyOn(db, 'prepare');
    const cache = createStatementCache(db, 2);
    const a = cache.prepare('SELECT 1');
    cache.prepare('SELECT 2');
    expect(cache.prepare('SELECT 1')).toBe(a); // 1 is now the most recent
    cache.prepare('SELECT 3'); // evicts 2
    expect(cache.size).toBe(2);
    expect(cache.prepare('SELECT 1')).toBe(a);
    prepare.mockClear();
    cache.prepare('SELECT 2');
    expect(prepare).toHaveBeenCalledTimes(1);
  });

  it('never caches a very long SQL text (multi-row statements of any row count)', () => {
    const db = memoryDb();
    const cache = createStatementCache(db);
    const long = `SELECT 1${' '.repeat(MAX_CACHED_SQL_LENGTH)}`;
    const first = cache.prepare(long);
    expect(cache.prepare(long)).not.toBe(first);
    expect(cache.size).toBe(0);
  });

  it('hands out a fresh statement while the cached one is still iterating', () => {
    const db = memoryDb();
    db.exec("INSERT INTO t (v) VALUES ('a'), ('b')");
    const cache = createStatementCache(db);
    const sql = 'SELECT v FROM t ORDER BY id';
    const iterating = cache.prepare(sql);
    const rows = iterating.iterate();
    rows.next();
    const other = cache.prepare(sql);
    expect(other).not.toBe(iterating);
    expect(other.all()).toEqual([{ v: 'a' }, { v: 'b' }]);
    rows.return?.();
    expect(cache.prepare(sql)).toBe(iterating);
  });

  it('does not cache a statement that fails to prepare, and closes the database', () => {
    const db = memoryDb();
    const cache = createStatementCache(db);
    expect(() => cache.prepare('SELECT FROM nowhere')).toThrow();
    expect(cache.size).toBe(0);
    cache.prepare('SELECT 1');
    cache.close();
    expect(cache.size).toBe(0);
    expect(db.open).toBe(false);
  });

  it('serves Kysely reads and writes with bound parameters through reused statements', async () => {
    const db = memoryDb();
    const prepare = vi.spyOn(db, 'prepare');
    const kysely = new Kysely<{ t: { id: Generated<number>; v: string } }>({
      dialect: new SqliteDialect({ database: createStatementCache(db) }),
    });
    for (const v of ['x', 'y', 'z']) await kysely.insertInto('t').values({ v }).execute();
    const read = (id: number) =>
      kysely.selectFrom('t').select('v').where('id', '=', id).executeTakeFirst();
    expect(await read(1)).toEqual({ v: 'x' });
    expect(await read(3)).toEqual({ v: 'z' });
    expect(await read(9)).toBeUndefined();
    expect(prepare).toHaveBeenCalledTimes(2);
    await kysely.destroy();
    expect(db.open).toBe(false);
  });
});
