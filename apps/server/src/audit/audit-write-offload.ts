import { Worker } from 'node:worker_threads';
import type { AuditStore } from '../storage/audit-store.js';
import type { AuditRecord } from './audit-record.js';

/** What the worker is sent: a batch to write, or the order to close its connection and end. */
export type AuditWriteJob =
  | { readonly kind: 'batch'; readonly id: number; readonly records: readonly AuditRecord[] }
  | { readonly kind: 'close' };

/** The worker's answer to a batch: committed, or refused with SQLite's code and message. */
export type AuditWriteAnswer =
  | { readonly id: number; readonly ok: true }
  | {
      readonly id: number;
      readonly ok: false;
      readonly sqliteCode?: string;
      readonly message: string;
    };

/** The worker's start data: the database file (opened and migrated by the main thread). */
export interface AuditWriteWorkerData {
  readonly path: string;
}

/**
 * Why a batch was not acknowledged: the worker ended (or could not start) with the batch in
 * flight, the batch ran past its deadline (the worker was stopped), or the worker's SQLite
 * refused it (`sqliteCode`: `SQLITE_CONSTRAINT_PRIMARYKEY` for a request id already stored).
 */
export type AuditWriteErrorCode =
  'audit_worker_lost' | 'audit_worker_timeout' | 'audit_batch_refused';

/** A batch the offload could not confirm as written; its message never holds a row's content. */
export class AuditWriteError extends Error {
  override readonly name = 'AuditWriteError';
  readonly code: AuditWriteErrorCode;
  /** SQLite's extended code of a refused batch. */
  readonly sqliteCode: string | undefined;

  constructor(code: AuditWriteErrorCode, message: string, sqliteCode?: string) {
    super(message);
    this.code = code;
    this.sqliteCode = sqliteCode;
  }
}

/**
 * Whether an offloaded batch failed without being refused by the database, so that the audit
 * writer keeps it and tries again (its `isRetryable`): the worker ended or ran past the deadline
 * (a fresh worker takes the retry), or the file was locked past the busy timeout. A batch that
 * had in fact committed before its worker ended then fails on its request ids
 * (`SQLITE_CONSTRAINT_PRIMARYKEY`, not retryable): it is dropped and reported, never written
 * twice.
 *
 * @param cause - what `insertBatch` rejected with
 */
export function isAuditWriteRetryable(cause: unknown): boolean {
  if (!(cause instanceof AuditWriteError)) return false;
  switch (cause.code) {
    case 'audit_worker_lost':
    case 'audit_worker_timeout':
      return true;
    case 'audit_batch_refused':
      return cause.sqliteCode?.startsWith('SQLITE_BUSY') === true;
  }
}

/**
 * Whether audit batches of the SQLite database at `path` can be written by a worker thread: a
 * file, which a second connection opens; not `:memory:` or `''` (a temporary database), private
 * to the connection that created it.
 *
 * @param path - RELAY_DATABASE
 */
export function canOffloadAuditWrites(path: string): boolean {
  return path !== ':memory:' && path !== '';
}

/** The part of a worker thread the offload uses (a port, so that tests can fake it). */
export interface AuditWorker {
  postMessage(message: AuditWriteJob): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'error' | 'exit', listener: (value: unknown) => void): unknown;
  terminate(): Promise<number>;
  ref(): void;
  unref(): void;
}

/** Options of {@link createAuditWriteOffload}. */
export interface AuditWriteOffloadOptions {
  /** The SQLite database file, opened and migrated by the main thread. */
  readonly path: string;
  /**
   * The longest a batch may wait for its acknowledgement (its wait for the file's lock
   * included); past it the worker is stopped and the batch fails with `audit_worker_timeout`
   * (retryable). Default 60,000 ms.
   */
  readonly batchDeadlineMs?: number;
  /** How long `close` waits for the worker to close its connection before stopping it. Default 5,000 ms. */
  readonly closeDeadlineMs?: number;
  /** Starts a worker. Default: the worker thread of `audit-write-worker`. */
  readonly startWorker?: (data: AuditWriteWorkerData) => AuditWorker;
  /** Timers (tests pass fakes). */
  readonly setTimer?: (callback: () => void, ms: number) => unknown;
  readonly clearTimer?: (handle: unknown) => void;
}

/** An {@link AuditStore} writing on a worker thread; `close` ends the thread. */
export interface AuditWriteOffload extends Pick<AuditStore, 'insertBatch'> {
  /** Closes the worker's connection and ends the thread; later batches fail. Idempotent. */
  close(): Promise<void>;
}

/**
 * Starts the worker thread of the audit writes: the built `audit-write-worker.js` beside the
 * server's bundle, or, when the server runs from source (tests, `pnpm relay`), the TypeScript
 * file through tsx with the workspace's source condition. Named `relay-audit` (the OS thread
 * name on Linux): it is not mistaken for the rewrite-check worker.
 *
 * @param data - the database file
 */
export function startAuditWriteWorker(data: AuditWriteWorkerData): AuditWorker {
  const fromSource = import.meta.url.endsWith('.ts');
  const url = new URL(
    fromSource ? './audit-write-worker.ts' : './audit-write-worker.js',
    import.meta.url,
  );
  return new Worker(url, {
    name: 'relay-audit',
    workerData: data,
    execArgv: fromSource ? ['--conditions=@relay/source', '--import', 'tsx'] : [],
    // One batch of rows at a time, and SQLite's page cache (outside the heap).
    resourceLimits: { maxOldGenerationSizeMb: 64 },
  });
}

interface PendingBatch {
  readonly id: number;
  readonly resolve: () => void;
  readonly reject: (error: AuditWriteError) => void;
  readonly timer: unknown;
}

/**
 * Creates the offload of the audit writes on SQLite: `insertBatch` posts the batch to a worker
 * thread holding its own connection to the same file (WAL: one writer beside the readers) and
 * resolves when the worker has committed it, so a batch's CPU (about 10 µs a row with the
 * audit table's indexes and the rollups) leaves the event loop. The worker starts at once
 * (about 50 ms of CPU, paid at the server's start rather than by its first requests); a worker
 * that ends, cannot start or runs past the deadline fails its batch with a retryable
 * {@link AuditWriteError} ({@link isAuditWriteRetryable}), and a fresh one starts at the next
 * batch.
 *
 * The worker's commits are another connection's to the main one: its `PRAGMA data_version`
 * changes at every audit batch, which drops the caller-lookup caches (caller-lookup-cache.ts)
 * once per batch — one uncached lookup per batch, accepted for the event loop's time.
 *
 * What a crash keeps: a batch is durable once acknowledged (WAL, synchronous NORMAL: a power loss
 * may still drop the last commits). A clean shutdown (the audit writer's `close`, then this
 * `close`) writes every queued row; a crash of the process loses the rows not yet committed: the
 * queue of the last flush delay (250 ms), or all of it when the database fell behind.
 *
 * @param options - the database file, deadlines, the worker factory and timers
 */
export function createAuditWriteOffload(options: AuditWriteOffloadOptions): AuditWriteOffload {
  const batchDeadlineMs = options.batchDeadlineMs ?? 60_000;
  const closeDeadlineMs = options.closeDeadlineMs ?? 5_000;
  const start = options.startWorker ?? startAuditWriteWorker;
  const setTimer =
    options.setTimer ??
    ((callback, ms) => {
      const handle = setTimeout(callback, ms);
      handle.unref();
      return handle;
    });
  const clearTimer =
    options.clearTimer ??
    ((handle) => {
      clearTimeout(handle as ReturnType<typeof setTimeout>);
    });
  let worker: AuditWorker | undefined;
  let pending: PendingBatch | undefined;
  let nextId = 1;
  let closing: Promise<void> | undefined;

  function settle(): PendingBatch | undefined {
    const batch = pending;
    pending = undefined;
    if (batch !== undefined) clearTimer(batch.timer);
    // Unreferenced between batches: an idle worker never keeps the process alive.
    worker?.unref();
    return batch;
  }

  function discardWorker(code: 'audit_worker_lost' | 'audit_worker_timeout'): void {
    const stopped = worker;
    worker = undefined;
    if (stopped !== undefined) void stopped.terminate().catch(() => undefined);
    settle()?.reject(
      new AuditWriteError(
        code,
        code === 'audit_worker_lost'
          ? 'the audit worker ended with the batch in flight'
          : 'the audit batch ran past its deadline',
      ),
    );
  }

  function ensureWorker(): AuditWorker {
    if (worker !== undefined) return worker;
    const started = start({ path: options.path });
    started.unref();
    started.on('message', (message: unknown) => {
      if (started !== worker) return;
      const answer = message as AuditWriteAnswer;
      if (answer.id !== pending?.id) return;
      const batch = settle();
      if (answer.ok) batch?.resolve();
      else
        batch?.reject(
          new AuditWriteError('audit_batch_refused', answer.message, answer.sqliteCode),
        );
    });
    const fail = () => {
      if (started === worker) discardWorker('audit_worker_lost');
    };
    started.on('error', fail);
    started.on('exit', fail);
    worker = started;
    return started;
  }

  try {
    ensureWorker();
  } catch {
    // Started again at the first batch, which fails (retryable) if it still cannot start.
  }

  return {
    insertBatch(records) {
      if (records.length === 0) return Promise.resolve();
      if (closing !== undefined) {
        return Promise.reject(
          new AuditWriteError('audit_worker_lost', 'the audit worker is closed'),
        );
      }
      if (pending !== undefined) {
        // The audit writer sends one batch at a time; a second is a broken invariant.
        throw new Error('an audit batch is already in flight');
      }
      return new Promise<void>((resolve, reject) => {
        let target: AuditWorker;
        try {
          target = ensureWorker();
        } catch {
          reject(new AuditWriteError('audit_worker_lost', 'the audit worker could not start'));
          return;
        }
        const id = nextId++;
        const timer = setTimer(() => {
          if (pending?.id === id) discardWorker('audit_worker_timeout');
        }, batchDeadlineMs);
        pending = { id, resolve, reject, timer };
        // Referenced while a batch is in flight: a shutdown awaiting it keeps the process alive.
        target.ref();
        target.postMessage({ kind: 'batch', id, records });
      });
    },
    close() {
      closing ??= (async () => {
        const stopping = worker;
        worker = undefined;
        settle()?.reject(new AuditWriteError('audit_worker_lost', 'the audit worker is closed'));
        if (stopping === undefined) return;
        // The worker closes its connection and ends; one that does not within the deadline is
        // stopped (its connection is closed as the thread is torn down).
        stopping.ref();
        await new Promise<void>((resolve) => {
          const timer = setTimer(() => {
            void stopping.terminate().catch(() => undefined);
            resolve();
          }, closeDeadlineMs);
          stopping.on('exit', () => {
            clearTimer(timer);
            resolve();
          });
          stopping.postMessage({ kind: 'close' });
        });
      })();
      return closing;
    },
  };
}
