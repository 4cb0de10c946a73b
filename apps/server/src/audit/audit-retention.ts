import { AUDIT_MAINTENANCE_INTERVAL_MS, AUDIT_RETENTION_MS } from '@relay/protocol';
import type { AuditStore } from '../storage/audit-store.js';
import { toDay } from '../storage/audit-rollup.js';

/** Schedules `run` every `ms` milliseconds; returns a cancel function. */
export type ScheduleEvery = (ms: number, run: () => void) => () => void;

/** Options of {@link createAuditRetention}. */
export interface AuditRetentionOptions {
  readonly store: AuditStore;
  /** The clock, epoch milliseconds. */
  readonly now: () => number;
  /** Age past which rows are deleted. Default 30 days. */
  readonly retentionMs?: number;
  /** Rows deleted per statement. Default 5,000. */
  readonly batchSize?: number;
  /** Statements per run at most (the rest waits for the next run). Default 1,000. */
  readonly maxBatches?: number;
  /** Lets other work run between two batches. Default: `setImmediate`. */
  readonly yieldBetweenBatches?: () => Promise<void>;
  /** The interval timer. Default: an unref'd `setInterval`. */
  readonly scheduleEvery?: ScheduleEvery;
  /** Interval of runs. Default one hour. */
  readonly intervalMs?: number;
  /** Reports a failed run. */
  readonly onError?: (cause: unknown) => void;
}

/** The hourly audit maintenance task. */
export interface AuditRetention {
  /**
   * Deletes rows older than the retention period in bounded batches.
   *
   * @returns how many rows were deleted
   */
  runOnce(): Promise<number>;
  /** Starts the hourly runs; returns a function that stops them. */
  start(): () => void;
}

const defaultScheduleEvery: ScheduleEvery = (ms, run) => {
  const handle = setInterval(run, ms);
  handle.unref();
  return () => {
    clearInterval(handle);
  };
};

/**
 * Creates the audit retention task: rows older than 30 days are deleted hourly, in bounded
 * batches so that no statement holds the database for long.
 *
 * @param options - the store, clock, bounds and timers
 */
export function createAuditRetention(options: AuditRetentionOptions): AuditRetention {
  const retentionMs = options.retentionMs ?? AUDIT_RETENTION_MS;
  const batchSize = options.batchSize ?? 5_000;
  const maxBatches = options.maxBatches ?? 1_000;
  const yieldBetweenBatches =
    options.yieldBetweenBatches ??
    (() =>
      new Promise<void>((resolve) => {
        setImmediate(resolve);
      }));
  let running: Promise<number> | undefined;

  async function run(): Promise<number> {
    const cutoff = options.now() - retentionMs;
    const cutoffIso = new Date(cutoff).toISOString();
    // A rollup day goes once all of it is past the cutoff.
    await options.store.deleteRollupsBefore(toDay(cutoff));
    let total = 0;
    for (let batch = 0; batch < maxBatches; batch++) {
      const deleted = await options.store.deleteOlderThan(cutoffIso, batchSize);
      total += deleted;
      if (deleted < batchSize) break;
      await yieldBetweenBatches();
    }
    return total;
  }

  const runOnce = (): Promise<number> => {
    running ??= run().finally(() => {
      running = undefined;
    });
    return running;
  };

  return {
    runOnce,
    start() {
      const schedule = options.scheduleEvery ?? defaultScheduleEvery;
      return schedule(options.intervalMs ?? AUDIT_MAINTENANCE_INTERVAL_MS, () => {
        runOnce().catch((cause: unknown) => options.onError?.(cause));
      });
    },
  };
}
