import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAuditStore } from '../storage/audit-store.js';
import { openSqliteDatabase, type RelayDatabase } from '../storage/sqlite-database.js';
import { auditRecord } from './__fixtures__/audit-records.js';
import {
  AuditWriteError,
  canOffloadAuditWrites,
  createAuditWriteOffload,
  isAuditWriteRetryable,
  startAuditWriteWorker,
  type AuditWorker,
  type AuditWriteAnswer,
  type AuditWriteJob,
  type AuditWriteOffload,
} from './audit-write-offload.js';
import { createAuditWriter, type AuditWriterProblem } from './audit-writer.js';
import { manualTimers } from '../__fixtures__/manual-timers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A migrated database in a temporary file (a worker opens it by its path). */
async function fileDatabase(): Promise<{ database: RelayDatabase; path: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'relay-audit-offload-'));
  const path = join(dir, 'relay.db');
  const database = await openSqliteDatabase(path);
  cleanups.push(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  cleanups.push(() => database.close());
  return { database, path };
}

async function auditRows(database: RelayDatabase) {
  const rows = await database.db.selectFrom('audit').select('request_id').execute();
  const daily = await database.db.selectFrom('audit_daily').select('requests').execute();
  return { rows: rows.length, rolledUp: daily.reduce((sum, row) => sum + row.requests, 0) };
}

/** Workers whose answers the test gives by hand; each records what it was sent. */
function fakeWorkers() {
  const started: {
    worker: AuditWorker;
    sent: AuditWriteJob[];
    reply: (answer: AuditWriteAnswer) => void;
    emit: (event: string, value: unknown) => void;
    referenced: boolean;
    terminated: boolean;
  }[] = [];
  const start = (): AuditWorker => {
    const events = new EventEmitter();
    const fake = {
      sent: [] as AuditWriteJob[],
      reply: (answer: AuditWriteAnswer) => events.emit('message', answer),
      emit: (event: string, value: unknown) => events.emit(event, value),
      referenced: true,
      terminated: false,
      worker: undefined as unknown as AuditWorker,
    };
    fake.worker = {
      postMessage: (job) => {
        fake.sent.push(job);
        if (job.kind === 'close') queueMicrotask(() => events.emit('exit', 0));
      },
      on: (event: string, listener: (value: unknown) => void) => events.on(event, listener),
      terminate: () => {
        fake.terminated = true;
        return Promise.resolve(1);
      },
      ref: () => {
        fake.referenced = true;
      },
      unref: () => {
        fake.referenced = false;
      },
    };
    started.push(fake);
    return fake.worker;
  };
  return { started, start };
}

describe('audit-write offload', () => {
  it('offloads file databases only, never :memory: or a temporary database', () => {
    expect(canOffloadAuditWrites('/var/lib/relay/relay.db')).toBe(true);
    expect(canOffloadAuditWrites('relay.db')).toBe(true);
    expect(canOffloadAuditWrites(':memory:')).toBe(false);
    expect(canOffloadAuditWrites('')).toBe(false);
  });

  it('starts the worker at once, resolves on its acknowledgement, and holds the process only while a batch is in flight', async () => {
    const workers = fakeWorkers();
    const timers = manualTimers();
    const offload = createAuditWriteOffload({
      path: 'relay.db',
      startWorker: workers.start,
      ...timers,
    });
    expect(workers.started).toHaveLength(1);
    expect(workers.started[0]?.referenced).toBe(false);
    let done = false;
    const first = offload.insertBatch([auditRecord(1), auditRecord(2)]).then(() => (done = true));
    const fake = workers.started[0];
    expect(fake?.sent).toEqual([
      { kind: 'batch', id: 1, records: [auditRecord(1), auditRecord(2)] },
    ]);
    expect(fake?.referenced).toBe(true);
    await Promise.resolve();
    expect(done).toBe(false);
    fake?.reply({ id: 1, ok: true });
    await first;
    expect(fake?.referenced).toBe(false);
    const second = offload.insertBatch([auditRecord(3)]);
    fake?.reply({ id: 2, ok: true });
    await second;
    expect(workers.started).toHaveLength(1);
    await offload.insertBatch([]); // nothing to send
    expect(fake?.sent).toHaveLength(2);
  });

  it('fails a refused batch with its SQLite code; only a busy file is retried', async () => {
    const workers = fakeWorkers();
    const offload = createAuditWriteOffload({
      path: 'relay.db',
      startWorker: workers.start,
      ...manualTimers(),
    });
    const refused = offload.insertBatch([auditRecord(1)]);
    workers.started[0]?.reply({
      id: 1,
      ok: false,
      sqliteCode: 'SQLITE_CONSTRAINT_PRIMARYKEY',
      message: 'UNIQUE constraint failed: audit.request_id',
    });
    const error: unknown = await refused.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuditWriteError);
    expect(error).toMatchObject({
      code: 'audit_batch_refused',
      sqliteCode: 'SQLITE_CONSTRAINT_PRIMARYKEY',
    });
    expect(isAuditWriteRetryable(error)).toBe(false);
    expect(
      isAuditWriteRetryable(new AuditWriteError('audit_batch_refused', 'locked', 'SQLITE_BUSY')),
    ).toBe(true);
    expect(isAuditWriteRetryable(new Error('audit_worker_lost'))).toBe(false);
  });

  it('fails the batch in flight when the worker ends (retryable), and starts a fresh worker for the next', async () => {
    const workers = fakeWorkers();
    const offload = createAuditWriteOffload({
      path: 'relay.db',
      startWorker: workers.start,
      ...manualTimers(),
    });
    const lost = offload.insertBatch([auditRecord(1)]);
    workers.started[0]?.emit('error', new Error('worker crashed'));
    workers.started[0]?.emit('exit', 1);
    const error: unknown = await lost.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'audit_worker_lost' });
    expect(isAuditWriteRetryable(error)).toBe(true);
    expect(workers.started[0]?.terminated).toBe(true);

    const retried = offload.insertBatch([auditRecord(1)]);
    expect(workers.started).toHaveLength(2);
    workers.started[0]?.reply({ id: 2, ok: true }); // a stale worker's answer is ignored
    workers.started[1]?.reply({ id: 2, ok: true });
    await retried;
  });

  it('stops a worker whose batch runs past the deadline (retryable)', async () => {
    const workers = fakeWorkers();
    const timers = manualTimers();
    const offload = createAuditWriteOffload({
      path: 'relay.db',
      startWorker: workers.start,
      ...timers,
    });
    const slow = offload.insertBatch([auditRecord(1)]);
    timers.fire();
    const error: unknown = await slow.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'audit_worker_timeout' });
    expect(isAuditWriteRetryable(error)).toBe(true);
    expect(workers.started[0]?.terminated).toBe(true);
  });

  it('close asks the worker to close its connection and waits for the thread to end; one that does not end is stopped', async () => {
    const workers = fakeWorkers();
    const offload = createAuditWriteOffload({
      path: 'relay.db',
      startWorker: workers.start,
      ...manualTimers(),
    });
    const written = offload.insertBatch([auditRecord(1)]);
    workers.started[0]?.reply({ id: 1, ok: true });
    await written;
    await offload.close();
    expect(workers.started[0]?.sent.at(-1)).toEqual({ kind: 'close' });
    expect(workers.started[0]?.terminated).toBe(false);
    await offload.close(); // idempotent
    await expect(offload.insertBatch([auditRecord(2)])).rejects.toMatchObject({
      code: 'audit_worker_lost',
    });

    // A worker that never ends is stopped at the close deadline.
    const stuck = fakeWorkers();
    const timers = manualTimers();
    const other = createAuditWriteOffload({
      path: 'relay.db',
      ...timers,
      startWorker: () => {
        const worker = stuck.start();
        return { ...worker, postMessage: (job) => stuck.started[0]?.sent.push(job) };
      },
    });
    const batch = other.insertBatch([auditRecord(1)]);
    stuck.started[0]?.reply({ id: 1, ok: true });
    await batch;
    const closing = other.close();
    timers.fire();
    await closing;
    expect(stuck.started[0]?.terminated).toBe(true);
    // A worker that could not start: nothing to end; the first batch tries again.
    let attempts = 0;
    const unstartable = createAuditWriteOffload({
      path: 'relay.db',
      startWorker: () => {
        attempts++;
        throw new Error('no worker');
      },
    });
    await expect(unstartable.insertBatch([auditRecord(1)])).rejects.toMatchObject({
      code: 'audit_worker_lost',
    });
    expect(attempts).toBe(2);
    await unstartable.close();
  });

  it('a worker that committed and died before answering: the retry fails on its request ids and the batch is dropped and reported, never written twice', async () => {
    const { database } = await fileDatabase();
    const inner = createAuditStore(database.db);
    const workers = fakeWorkers();
    const problems: AuditWriterProblem[] = [];
    // Each fake worker writes through the real store; the first one dies right after its commit.
    const offload = createAuditWriteOffload({
      path: 'relay.db',
      startWorker: () => {
        const worker = workers.start();
        const fake = workers.started.at(-1);
        const dies = workers.started.length === 1;
        return {
          ...worker,
          postMessage: (job) => {
            if (job.kind !== 'batch') {
              worker.postMessage(job);
              return;
            }
            void inner.insertBatch(job.records).then(
              () => {
                if (dies) fake?.emit('exit', 1);
                else fake?.reply({ id: job.id, ok: true });
              },
              (error: unknown) => {
                fake?.reply({
                  id: job.id,
                  ok: false,
                  sqliteCode: (error as { code: string }).code,
                  message: (error as Error).message,
                });
              },
            );
          },
        };
      },
    });
    const writer = createAuditWriter({
      store: offload,
      batchSize: 3,
      retryDelayMs: 1,
      isRetryable: isAuditWriteRetryable,
      onError: (problem) => problems.push(problem),
    });
    for (let i = 0; i < 4; i++) writer.enqueue(auditRecord(i));
    // Flushed before close: after close a failed batch is dropped at once, not retried.
    await writer.flush();
    await writer.close();
    await offload.close();
    expect(problems.map((p) => [p.code, p.rows])).toEqual([
      ['audit_batch_deferred', 3],
      ['audit_batch_failed', 3],
    ]);
    expect(problems[1]).toMatchObject({
      cause: { code: 'audit_batch_refused', sqliteCode: 'SQLITE_CONSTRAINT_PRIMARYKEY' },
    });
    expect(await auditRows(database)).toEqual({ rows: 4, rolledUp: 4 });
  });
});

describe('audit-write offload on a real worker thread', () => {
  it('writes every queued row through the worker and ends the thread at close', async () => {
    const { database, path } = await fileDatabase();
    let thread: AuditWorker | undefined;
    let ended = false;
    const offload: AuditWriteOffload = createAuditWriteOffload({
      path,
      startWorker: (data) => {
        thread = startAuditWriteWorker(data);
        thread.on('exit', () => (ended = true));
        return thread;
      },
    });
    const problems: AuditWriterProblem[] = [];
    const writer = createAuditWriter({
      store: offload,
      isRetryable: isAuditWriteRetryable,
      onError: (problem) => problems.push(problem),
    });
    for (let i = 0; i < 250; i++) writer.enqueue(auditRecord(i));
    await writer.close();
    // Committed by the worker's connection, read by the main one.
    expect(await auditRows(database)).toEqual({ rows: 250, rolledUp: 250 });
    await offload.close();
    expect(thread).toBeDefined();
    expect(ended).toBe(true);
    expect(problems).toEqual([]);
  }, 30_000);

  it('a worker ended after its commit: the retry on a fresh worker is refused and dropped, the rows are stored once', async () => {
    const { database, path } = await fileDatabase();
    let starts = 0;
    const offload = createAuditWriteOffload({
      path,
      startWorker: (data) => {
        const real = startAuditWriteWorker(data);
        if (++starts > 1) return real;
        // The first worker's answer never arrives: it is stopped right after it committed.
        return {
          ...real,
          postMessage: (job) => {
            real.postMessage(job);
          },
          on: (event: string, listener: (value: unknown) => void) =>
            event === 'message'
              ? real.on('message', () => void real.terminate())
              : real.on(event as 'exit', listener),
          terminate: () => real.terminate(),
          ref: () => {
            real.ref();
          },
          unref: () => {
            real.unref();
          },
        };
      },
    });
    const problems: AuditWriterProblem[] = [];
    const writer = createAuditWriter({
      store: offload,
      batchSize: 10,
      retryDelayMs: 1,
      isRetryable: isAuditWriteRetryable,
      onError: (problem) => problems.push(problem),
    });
    for (let i = 0; i < 15; i++) writer.enqueue(auditRecord(i));
    await writer.flush();
    await writer.close();
    await offload.close();
    expect(starts).toBe(2);
    expect(problems.map((p) => [p.code, p.rows])).toEqual([
      ['audit_batch_deferred', 10],
      ['audit_batch_failed', 10],
    ]);
    expect(problems[0]).toMatchObject({ code: 'audit_batch_deferred' });
    expect(problems[1]).toMatchObject({
      cause: { code: 'audit_batch_refused', sqliteCode: 'SQLITE_CONSTRAINT_PRIMARYKEY' },
    });
    expect(await auditRows(database)).toEqual({ rows: 15, rolledUp: 15 });
  }, 30_000);

  it('a worker that cannot open the database fails its batch as retryable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-audit-offload-'));
    cleanups.push(() => {
      rmSync(dir, { recursive: true, force: true });
    });
    const offload = createAuditWriteOffload({ path: join(dir, 'missing.db') });
    cleanups.push(() => offload.close());
    const error: unknown = await offload.insertBatch([auditRecord(1)]).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'audit_worker_lost' });
    expect(isAuditWriteRetryable(error)).toBe(true);
  }, 30_000);
});
