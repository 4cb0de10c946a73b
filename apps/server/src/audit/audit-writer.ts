import type { AuditStore } from '../storage/audit-store.js';
import type { AuditRecord } from './audit-record.js';

/** Schedules `run` once after `ms` milliseconds; returns a cancel function. */
export type ScheduleOnce = (ms: number, run: () => void) => () => void;

/** Options of {@link createAuditWriter}. */
export interface AuditWriterOptions {
  /**
   * Where batches go: the audit store, or on a SQLite file the audit-write offload (a worker
   * thread); one batch at a time.
   */
  readonly store: Pick<AuditStore, 'insertBatch'>;
  /**
   * Rows per insert. Default 100: a batch written in this thread (`:memory:`) runs synchronously
   * on the event loop (about 10–20 µs a row with its indexes), so its size bounds the stall every
   * in-flight request sees (~2 ms); a commit per 100 rows costs little.
   */
  readonly batchSize?: number;
  /** How long a partial batch waits before it is written. Default 250 ms. */
  readonly flushDelayMs?: number;
  /** Rows held at most; later rows are dropped (and reported) until the queue drains. Default 50,000. */
  readonly maxQueued?: number;
  /** The timer of delayed flushes. Default: an unref'd `setTimeout`. */
  readonly schedule?: ScheduleOnce;
  /** Reports a failed batch (its rows are dropped) or a dropped row; never the row's content. */
  readonly onError?: (problem: AuditWriterProblem) => void;
  /**
   * Whether a batch's failure is the database being away (PostgreSQL unreachable) rather than
   * the batch: such a batch goes back to the head of the queue and is tried again after
   * `retryDelayMs`, while new rows keep queuing up to `maxQueued`. Default: never (every failed
   * batch is dropped and reported). After `close` a failed batch is dropped.
   */
  readonly isRetryable?: (cause: unknown) => boolean;
  /** How long a retryable failure waits before the next attempt. Default 1,000 ms. */
  readonly retryDelayMs?: number;
}

/** What went wrong in the writer. */
export type AuditWriterProblem =
  | { readonly code: 'audit_batch_failed'; readonly rows: number; readonly cause: unknown }
  | { readonly code: 'audit_batch_deferred'; readonly rows: number }
  | { readonly code: 'audit_queue_full'; readonly rows: 1 };

/** The audit writer: rows are queued by the request path and written in batches. */
export interface AuditWriter {
  /**
   * Queues a row; never waits for the database.
   *
   * @returns false when the queue is full and the row was dropped
   */
  enqueue(record: AuditRecord): boolean;
  /** Rows queued or being written. */
  backlog(): number;
  /** Writes everything queued so far. */
  flush(): Promise<void>;
  /** Flushes and stops; later rows are dropped. Idempotent. */
  close(): Promise<void>;
}

const defaultSchedule: ScheduleOnce = (ms, run) => {
  const handle = setTimeout(run, ms);
  handle.unref();
  return () => {
    clearTimeout(handle);
  };
};

/**
 * Creates the audit writer: one row per validated request, written in batches off the
 * response path. `enqueue` is synchronous; a full batch is written at once, a partial one after
 * `flushDelayMs`.
 *
 * @param options - the store, batch size, delay, queue bound, timer and error sink
 * @example
 * ```ts
 * const writer = createAuditWriter({ store: createAuditStore(db) });
 * writer.enqueue(record); // the response does not wait
 * ```
 */
export function createAuditWriter(options: AuditWriterOptions): AuditWriter {
  const batchSize = options.batchSize ?? 100;
  const flushDelayMs = options.flushDelayMs ?? 250;
  const maxQueued = options.maxQueued ?? 50_000;
  const schedule = options.schedule ?? defaultSchedule;
  const queue: AuditRecord[] = [];
  let writing = 0;
  let running: Promise<void> | undefined;
  let cancelTimer: (() => void) | undefined;
  let closed = false;
  const retryDelayMs = options.retryDelayMs ?? 1_000;
  // Set while a retryable failure waits for its next attempt: resolved when it is due.
  let retry: { readonly due: Promise<void>; readonly fire: () => void } | undefined;

  function scheduleRetry(): void {
    if (retry !== undefined) return;
    let resolve: () => void = () => undefined;
    const due = new Promise<void>((done) => {
      resolve = done;
    });
    const run = () => {
      if (retry?.due !== due) return;
      retry = undefined;
      resolve();
      void drain();
    };
    const cancel = schedule(retryDelayMs, run);
    retry = {
      due,
      fire: () => {
        cancel();
        run();
      },
    };
  }

  async function writeQueued(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.splice(0, batchSize);
      writing = batch.length;
      try {
        await options.store.insertBatch(batch);
      } catch (cause) {
        if (!closed && options.isRetryable?.(cause) === true) {
          queue.unshift(...batch);
          options.onError?.({ code: 'audit_batch_deferred', rows: batch.length });
          scheduleRetry();
          return;
        }
        options.onError?.({ code: 'audit_batch_failed', rows: batch.length, cause });
      } finally {
        writing = 0;
      }
    }
  }

  function drain(): Promise<void> {
    cancelTimer?.();
    cancelTimer = undefined;
    if (running === undefined) {
      // Cleared in a later microtask, after it was set: an empty queue finishes synchronously,
      // and clearing before the assignment would leave a settled promise that stops all writes.
      const run: Promise<void> = writeQueued().finally(() => {
        if (running === run) running = undefined;
      });
      running = run;
    }
    return running;
  }

  return {
    enqueue(record) {
      if (closed || queue.length + writing >= maxQueued) {
        options.onError?.({ code: 'audit_queue_full', rows: 1 });
        return false;
      }
      queue.push(record);
      if (retry !== undefined) return true;
      if (queue.length >= batchSize) void drain();
      else cancelTimer ??= schedule(flushDelayMs, () => void drain());
      return true;
    },
    backlog: () => queue.length + writing,
    async flush() {
      while (queue.length > 0 || running !== undefined) {
        await (running ?? retry?.due ?? drain());
      }
    },
    async close() {
      closed = true;
      // One last attempt at once; a batch failing now is dropped and reported.
      retry?.fire();
      await this.flush();
    },
  };
}
