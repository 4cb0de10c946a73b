import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteDatabase, type RelayDatabase } from './sqlite-database.js';
import { createWalChangeProbe, WAL_INDEX_HEADER_BYTES } from './wal-change-probe.js';

describe('createWalChangeProbe', () => {
  function fakes() {
    const state = { header: 1, version: 10, readable: true, versionReads: 0 };
    const probe = createWalChangeProbe(
      (into) => {
        into.fill(0);
        into.writeUInt32LE(state.header, 8);
        return state.readable;
      },
      () => {
        state.versionReads += 1;
        return state.version;
      },
    );
    return { state, probe };
  }

  it('reads the version once while the header stays', () => {
    const { state, probe } = fakes();
    expect([probe(), probe(), probe()]).toEqual([10, 10, 10]);
    expect(state.versionReads).toBe(1);
  });

  it('reads the version again once the header moved', () => {
    const { state, probe } = fakes();
    probe();
    state.header = 2;
    state.version = 11;
    expect(probe()).toBe(11);
    expect(probe()).toBe(11);
    expect(state.versionReads).toBe(2);
  });

  it('reads the header before the version: a commit between them forces the next reading', () => {
    const state = { header: 1, version: 10, versionReads: 0 };
    const probe = createWalChangeProbe(
      (into) => {
        into.fill(0);
        into.writeUInt32LE(state.header, 8);
        return true;
      },
      () => {
        state.versionReads += 1;
        // Another process commits right after the header was read: the pragma sees it.
        const seen = state.version;
        state.header += 1;
        state.version += 1;
        return seen;
      },
    );
    expect(probe()).toBe(10);
    // The kept header is the older one: the next call reads the version, which moved.
    expect(probe()).toBe(11);
    expect(state.versionReads).toBe(2);
  });

  it('reads the version at every call when the header cannot be read', () => {
    const { state, probe } = fakes();
    state.readable = false;
    probe();
    probe();
    expect(state.versionReads).toBe(2);
    state.readable = true;
    probe();
    probe();
    expect(state.versionReads).toBe(3);
  });

  it('compares the whole header', () => {
    const bytes = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
    let reads = 0;
    const probe = createWalChangeProbe(
      (into) => {
        bytes.copy(into);
        return true;
      },
      () => ++reads,
    );
    probe();
    bytes[WAL_INDEX_HEADER_BYTES - 1] = 1;
    expect(probe()).toBe(2);
  });
});

describe('externalChangeVersion of a SQLite file (through the WAL-index header)', () => {
  const dirs: string[] = [];
  const open: { close(): unknown }[] = [];
  afterEach(async () => {
    for (const item of open.splice(0)) await item.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function fixture(): Promise<{
    file: string;
    database: RelayDatabase;
    pragma: () => Promise<number>;
  }> {
    const dir = mkdtempSync(join(tmpdir(), 'relay-wal-probe-'));
    dirs.push(dir);
    const file = join(dir, 'relay.db');
    const database = await openSqliteDatabase(file);
    open.push(database);
    // The oracle: the pragma itself, read on the same connection (through Kysely).
    const pragma = async () => {
      const { rows } = await sql<{ data_version: number }>`PRAGMA data_version`.execute(
        database.db,
      );
      return Number(rows[0]?.data_version);
    };
    return { file, database, pragma };
  }

  it('stays while only this connection commits, and moves at another connection’s commit', async () => {
    const { file, database } = await fixture();
    const first = database.externalChangeVersion();
    await database.db.updateTable('string_rewrite_policy').set({ updated_at: 'a' }).execute();
    expect(database.externalChangeVersion()).toBe(first);
    const other = new Database(file);
    other.prepare("update string_rewrite_policy set updated_at = 'b'").run();
    other.close();
    const second = database.externalChangeVersion();
    expect(second).not.toBe(first);
    expect(database.externalChangeVersion()).toBe(second);
  });

  it('moves at a commit by another process', async () => {
    const { file, database } = await fixture();
    const before = database.externalChangeVersion();
    execFileSync(
      process.execPath,
      [
        '-e',
        `const D = require('better-sqlite3'); const d = new D(process.argv[1]); d.prepare("update string_rewrite_policy set updated_at = 'p'").run(); d.close();`,
        file,
      ],
      { cwd: import.meta.dirname },
    );
    expect(database.externalChangeVersion()).not.toBe(before);
  });

  it('answers what the pragma answers, whatever the interleaving of commits and checkpoints', async () => {
    const { file, database, pragma } = await fixture();
    const other = new Database(file);
    open.push(other);
    let n = 0;
    const steps = {
      own: () =>
        database.db
          .updateTable('string_rewrite_policy')
          .set({ updated_at: `own-${String(++n)}` })
          .execute(),
      other: () => {
        other
          .prepare('update string_rewrite_policy set updated_at = ?')
          .run(`other-${String(++n)}`);
      },
      otherCheckpoint: () => {
        other.pragma('wal_checkpoint(RESTART)');
      },
      ownCheckpoint: () => sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(database.db),
    };
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('own', 'other', 'otherCheckpoint', 'ownCheckpoint', 'check'), {
          maxLength: 30,
        }),
        async (plan) => {
          for (const step of plan) {
            if (step === 'check') expect(database.externalChangeVersion()).toBe(await pragma());
            else await steps[step]();
          }
          expect(database.externalChangeVersion()).toBe(await pragma());
        },
      ),
      { numRuns: 80 },
    );
  });
});
