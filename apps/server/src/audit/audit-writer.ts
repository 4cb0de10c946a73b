import type { AuditStore } from '../storage/audit-store.js';
import type { AuditRecord } from './audit-record.js';

/** Schedules `run` once after `ms` milliseconds; returns a cancel function. */
export type ScheduleOnce = (ms: number, run: () => void) => () => void;

/** Options of {@link createAuditWriter}. */
export interface AuditWriterOptions {
  readonly store: AuditStore;
  /**
   * Rows per insert. Default 100: a batch runs synchronously on the event loop (about 20 µs a
   * row with its indexes), so its size bounds the stall every in-flight request sees (~2 ms);
   * a commit per 100 rows costs little.
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
}

/** What went wrong in the writer. */
export type AuditWriterProblem =
  | { readonly code: 'audit_batch_failed'; readonly rows: number; readonly cause: unknown }
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

  async function writeQueued(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.splice(0, batchSize);
      writing = batch.length;
      try {
        await options.store.insertBatch(batch);
      } catch (cause) {
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
      if (queue.length >= batchSize) void drain();
      else cancelTimer ??= schedule(flushDelayMs, () => void drain());
      return true;
    },
    backlog: () => queue.length + writing,
    async flush() {
      while (queue.length > 0 || running !== undefined) {
        await (running ?? drain());
      }
    },
    async close() {
      closed = true;
      await this.flush();
    },
  };
}
