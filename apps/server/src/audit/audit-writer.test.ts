import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteDatabase, type RelayDatabase } from '../storage/sqlite-database.js';
import { createAuditStore, type AuditStore } from '../storage/audit-store.js';
import type { AuditRecord } from './audit-record.js';
import { auditRecord } from './__fixtures__/audit-records.js';
import { createAuditWriter, type AuditWriterProblem } from './audit-writer.js';

const open: RelayDatabase[] = [];
afterEach(async () => {
  for (const database of open.splice(0)) await database.close();
});

/** A manual timer: `fire()` runs what was scheduled. */
function manualTimer() {
  const pending: (() => void)[] = [];
  return {
    schedule: (_ms: number, run: () => void) => {
      pending.push(run);
      return () => {
        pending.splice(pending.indexOf(run), 1);
      };
    },
    fire: () => {
      for (const run of pending.splice(0)) run();
    },
    pending: () => pending.length,
  };
}

/** A store whose inserts wait until released. */
function gatedStore(inner: AuditStore) {
  const batches: number[] = [];
  let release: () => void = () => undefined;
  let gate = new Promise<void>((resolve) => (release = resolve));
  return {
    batches,
    open: () => {
      release();
    },
    store: {
      async insertBatch(records: readonly AuditRecord[]) {
        batches.push(records.length);
        await gate;
        await inner.insertBatch(records);
      },
      deleteOlderThan: inner.deleteOlderThan.bind(inner),
      deleteRollupsBefore: inner.deleteRollupsBefore.bind(inner),
    } satisfies AuditStore,
    reset: () => {
      gate = new Promise<void>((resolve) => (release = resolve));
    },
  };
}

async function database() {
  const db = await openSqliteDatabase(':memory:');
  open.push(db);
  return db;
}

describe('createAuditWriter', () => {
  it('queues without waiting and writes a partial batch when the timer fires', async () => {
    const db = await database();
    const timer = manualTimer();
    const writer = createAuditWriter({ store: createAuditStore(db.db), schedule: timer.schedule });
    expect(writer.enqueue(auditRecord(1))).toBe(true);
    expect(writer.enqueue(auditRecord(2))).toBe(true);
    expect(timer.pending()).toBe(1);
    expect(await db.db.selectFrom('audit').selectAll().execute()).toEqual([]);
    timer.fire();
    await writer.flush();
    const rows = await db.db.selectFrom('audit').selectAll().orderBy('request_id').execute();
    expect(rows.map((r) => r.request_id)).toEqual(['req-1', 'req-2']);
    expect(rows[0]).toMatchObject({
      occurred_at: '2030-01-01T00:00:00.001Z',
      duration_ms: 1,
      cacheable: 1,
    });
  });

  it('writes full batches at once, in batches of batchSize', async () => {
    const db = await database();
    const gated = gatedStore(createAuditStore(db.db));
    const writer = createAuditWriter({
      store: gated.store,
      batchSize: 3,
      schedule: manualTimer().schedule,
    });
    for (let i = 0; i < 7; i++) writer.enqueue(auditRecord(i));
    expect(writer.backlog()).toBe(7);
    gated.open();
    await writer.flush();
    expect(gated.batches).toEqual([3, 3, 1]);
    expect(writer.backlog()).toBe(0);
    expect(await db.db.selectFrom('audit').selectAll().execute()).toHaveLength(7);
  });

  it('a clean shutdown loses nothing: close writes every queued row, the batch in flight included, then refuses rows', async () => {
    const db = await database();
    const gated = gatedStore(createAuditStore(db.db));
    const problems: AuditWriterProblem[] = [];
    const writer = createAuditWriter({
      store: gated.store,
      batchSize: 3,
      schedule: manualTimer().schedule,
      onError: (problem) => problems.push(problem),
    });
    for (let i = 0; i < 5; i++) writer.enqueue(auditRecord(i));
    expect(gated.batches).toEqual([3]);
    const closed = writer.close();
    gated.open();
    await closed;
    expect(gated.batches).toEqual([3, 2]);
    expect(await db.db.selectFrom('audit').selectAll().execute()).toHaveLength(5);
    expect(writer.enqueue(auditRecord(9))).toBe(false);
    expect(problems).toEqual([{ code: 'audit_queue_full', rows: 1 }]);
  });

  it('keeps a batch the database was away for and writes it once it is back; close drops what still fails', async () => {
    const db = await database();
    const inner = createAuditStore(db.db);
    const away = Object.assign(new Error('Connection terminated unexpectedly'), { away: true });
    let failures = 2;
    const store: AuditStore = {
      ...inner,
      insertBatch: (rows) => (failures-- > 0 ? Promise.reject(away) : inner.insertBatch(rows)),
    };
    const timer = manualTimer();
    const problems: AuditWriterProblem[] = [];
    const writer = createAuditWriter({
      store,
      batchSize: 2,
      schedule: timer.schedule,
      isRetryable: (cause) => cause === away,
      onError: (problem) => problems.push(problem),
    });
    for (let i = 0; i < 3; i++) writer.enqueue(auditRecord(i));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(problems).toEqual([{ code: 'audit_batch_deferred', rows: 2 }]);
    expect(writer.backlog()).toBe(3);
    timer.fire(); // the retry (and the partial batch's timer): fails once more, then succeeds
    await new Promise((resolve) => setTimeout(resolve, 0));
    timer.fire();
    await writer.flush();
    expect((await db.db.selectFrom('audit').select('request_id').execute()).length).toBe(3);
    expect(problems.map((p) => p.code)).toEqual(['audit_batch_deferred', 'audit_batch_deferred']);

    failures = Number.POSITIVE_INFINITY;
    writer.enqueue(auditRecord(7));
    await writer.close();
    expect(problems.at(-1)).toMatchObject({ code: 'audit_batch_failed', rows: 1 });
  });

  it('drops rows past the queue bound and reports it, without blocking', async () => {
    const db = await database();
    const gated = gatedStore(createAuditStore(db.db));
    const problems: AuditWriterProblem[] = [];
    const writer = createAuditWriter({
      store: gated.store,
      batchSize: 2,
      maxQueued: 4,
      schedule: manualTimer().schedule,
      onError: (p) => problems.push(p),
    });
    const accepted = [1, 2, 3, 4, 5].map((i) => writer.enqueue(auditRecord(i)));
    expect(accepted).toEqual([true, true, true, true, false]);
    expect(problems).toEqual([{ code: 'audit_queue_full', rows: 1 }]);
    gated.open();
    await writer.close();
    expect(await db.db.selectFrom('audit').selectAll().execute()).toHaveLength(4);
    expect(writer.enqueue(auditRecord(9))).toBe(false);
  });

  it('reports a failed batch and keeps writing later ones', async () => {
    const db = await database();
    const inner = createAuditStore(db.db);
    let fail = true;
    const problems: AuditWriterProblem[] = [];
    const writer = createAuditWriter({
      store: {
        insertBatch: (records) => {
          if (fail) {
            fail = false;
            return Promise.reject(new Error('disk full'));
          }
          return inner.insertBatch(records);
        },
      },
      batchSize: 1,
      schedule: manualTimer().schedule,
      onError: (p) => problems.push(p),
    });
    writer.enqueue(auditRecord(1));
    writer.enqueue(auditRecord(2));
    await writer.flush();
    expect(problems.map((p) => p.code)).toEqual(['audit_batch_failed']);
    expect(
      (await db.db.selectFrom('audit').select('request_id').execute()).map((r) => r.request_id),
    ).toEqual(['req-2']);
  });

  it('keeps writing after a timer fires on an already empty queue (an async store)', async () => {
    const db = await database();
    const gated = gatedStore(createAuditStore(db.db));
    const timer = manualTimer();
    const writer = createAuditWriter({
      store: gated.store,
      batchSize: 2,
      schedule: timer.schedule,
    });
    // A full batch starts writing; a row queued meanwhile arms the partial-batch timer.
    writer.enqueue(auditRecord(1));
    writer.enqueue(auditRecord(2));
    writer.enqueue(auditRecord(3));
    expect(timer.pending()).toBe(1);
    gated.open();
    await writer.flush();
    // The timer fires with nothing left to write...
    timer.fire();
    // ...and later rows are still written, and flush still returns.
    writer.enqueue(auditRecord(4));
    writer.enqueue(auditRecord(5));
    await writer.flush();
    expect(writer.backlog()).toBe(0);
    expect(await db.db.selectFrom('audit').selectAll().execute()).toHaveLength(5);
  });
});
