import { Worker } from 'node:worker_threads';
import type { StringRewriteRule } from '@relay/protocol';

/**
 * The outcome of an offloaded check: every value passes, one is denied, the check ran past its
 * deadline (the worker was stopped: the values count as denied), or too many checks wait.
 */
export type OffloadVerdict = 'pass' | 'deny' | 'timeout' | 'busy';

/** Runs expensive string-rewrite checks on a worker thread, one at a time, each within a deadline. */
export interface RewriteCheckOffload {
  /**
   * Checks `values` against the rules of the policy revision `stamp` names (the rules travel to
   * the worker only when it does not hold that revision).
   */
  check(
    stamp: string,
    rules: readonly StringRewriteRule[],
    values: readonly string[],
  ): Promise<OffloadVerdict>;
  /** Stops the worker; checks still waiting answer `busy`. */
  close(): Promise<void>;
}

/** The part of a worker thread the offload uses (a port, so that tests can fake it). */
export interface CheckWorker {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'error' | 'exit', listener: (value: unknown) => void): unknown;
  terminate(): Promise<number>;
  unref(): void;
}

/** Options of {@link createRewriteCheckOffload}. */
export interface RewriteCheckOffloadOptions {
  /**
   * The longest one check may run (RELAY_REWRITE_CHECK_DEADLINE_MS); past it the worker is
   * stopped and replaced, and the check answers `timeout`. Default 2,000 ms.
   */
  readonly deadlineMs?: number;
  /** Checks waiting at most (beyond it: `busy`). Default 64. */
  readonly maxQueued?: number;
  /** Starts a worker. Default: the worker thread of `rewrite-check-worker`. */
  readonly startWorker?: () => CheckWorker;
  /** Timers (tests pass fakes). */
  readonly setTimer?: (callback: () => void, ms: number) => unknown;
  readonly clearTimer?: (handle: unknown) => void;
}

/** Default of RELAY_REWRITE_CHECK_DEADLINE_MS. */
export const DEFAULT_REWRITE_CHECK_DEADLINE_MS = 2_000;

/**
 * Starts the worker thread of the checks: the built `rewrite-check-worker.js` beside the server's
 * bundle, or, when the server runs from source (tests, `pnpm relay`), the TypeScript file through
 * tsx with the workspace's source condition.
 */
export function startRewriteCheckWorker(): CheckWorker {
  const fromSource = import.meta.url.endsWith('.ts');
  const url = new URL(
    fromSource ? './rewrite-check-worker.ts' : './rewrite-check-worker.js',
    import.meta.url,
  );
  return new Worker(url, {
    execArgv: fromSource ? ['--conditions=@relay/source', '--import', 'tsx'] : [],
    // A check holds at most a few rule sets and 64 KiB of values.
    resourceLimits: { maxOldGenerationSizeMb: 128 },
  });
}

interface Job {
  readonly stamp: string;
  readonly rules: readonly StringRewriteRule[];
  readonly values: readonly string[];
  readonly resolve: (verdict: OffloadVerdict) => void;
}

/**
 * Creates the offload. One worker runs one check at a time; the others wait in order, at most
 * `maxQueued`. A check past its deadline cannot be interrupted inside the regular-expression
 * engine, so the worker is terminated (its check answers `timeout`) and a fresh one takes the
 * next check: the work of any one request is bounded by the deadline, and the event loop of the
 * server never runs it. The worker starts at the first check.
 *
 * @param options - deadline, queue bound and the worker factory
 */
export function createRewriteCheckOffload(
  options: RewriteCheckOffloadOptions = {},
): RewriteCheckOffload {
  const deadlineMs = options.deadlineMs ?? DEFAULT_REWRITE_CHECK_DEADLINE_MS;
  const maxQueued = options.maxQueued ?? 64;
  const start = options.startWorker ?? startRewriteCheckWorker;
  const setTimer = options.setTimer ?? ((callback, ms) => setTimeout(callback, ms));
  const clearTimer =
    options.clearTimer ??
    ((handle) => {
      clearTimeout(handle as ReturnType<typeof setTimeout>);
    });
  const queue: Job[] = [];
  let worker: CheckWorker | undefined;
  let workerStamp: string | undefined;
  let running:
    { readonly id: number; readonly job: Job; timer: unknown; compiling: boolean } | undefined;
  // The worker announced itself: a check's own deadline never counts a worker's start (which
  // has its own bound, see armDeadline).
  let ready = false;
  let nextId = 1;
  let closed = false;

  function finish(verdict: OffloadVerdict): void {
    const current = running;
    if (current === undefined) return;
    running = undefined;
    if (current.timer !== undefined) clearTimer(current.timer);
    current.job.resolve(verdict);
    pump();
  }

  function discardWorker(): void {
    const stopped = worker;
    worker = undefined;
    workerStamp = undefined;
    ready = false;
    if (stopped !== undefined) void stopped.terminate().catch(() => undefined);
  }

  function ensureWorker(): CheckWorker {
    if (worker !== undefined) return worker;
    const started = start();
    started.unref();
    started.on('message', (message: unknown) => {
      if (started !== worker) return;
      const { id, verdict, phase } = (message ?? {}) as {
        id?: unknown;
        verdict?: unknown;
        phase?: unknown;
      };
      if (phase === 'ready') {
        ready = true;
        if (running !== undefined) armDeadline(running.id);
        return;
      }
      if (running === undefined || id !== running.id) return;
      if (phase === 'compiled') {
        // The rules of a new revision were compiled: the check's own deadline starts now.
        running.compiling = false;
        armDeadline(running.id);
        return;
      }
      if (verdict === 'unknown_policy') workerStamp = undefined;
      finish(verdict === 'pass' ? 'pass' : 'deny');
    });
    const fail = () => {
      if (started !== worker) return;
      discardWorker();
      finish('deny');
    };
    started.on('error', fail);
    started.on('exit', fail);
    worker = started;
    return started;
  }

  /**
   * (Re)starts the deadline of the running check: its own deadline, or, while the worker compiles
   * the rules of a new revision (bounded by the policy's limits), ten times it (at least 5 s), or,
   * until a new worker has announced itself, a start-up bound (ten times it, at least 10 s): a
   * worker that never starts denies the check (`timeout`) instead of holding it forever.
   */
  function armDeadline(id: number): void {
    if (running?.id !== id) return;
    if (running.timer !== undefined) clearTimer(running.timer);
    const ms = !ready
      ? Math.max(10 * deadlineMs, 10_000)
      : running.compiling
        ? Math.max(10 * deadlineMs, 5_000)
        : deadlineMs;
    running.timer = setTimer(() => {
      if (running?.id !== id) return;
      discardWorker();
      finish('timeout');
    }, ms);
  }

  function pump(): void {
    if (running !== undefined || closed) return;
    const job = queue.shift();
    if (job === undefined) return;
    let target: CheckWorker;
    try {
      target = ensureWorker();
    } catch {
      job.resolve('deny');
      pump();
      return;
    }
    const id = nextId++;
    const sendRules = workerStamp !== job.stamp;
    workerStamp = job.stamp;
    running = { id, job, timer: undefined, compiling: sendRules };
    armDeadline(id);
    target.postMessage({
      id,
      stamp: job.stamp,
      values: job.values,
      ...(sendRules ? { rules: job.rules } : {}),
    });
  }

  return {
    check(stamp, rules, values) {
      if (closed || queue.length >= maxQueued) return Promise.resolve('busy');
      return new Promise<OffloadVerdict>((resolve) => {
        queue.push({ stamp, rules, values, resolve });
        pump();
      });
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.resolve('busy');
      finish('busy');
      const stopped = worker;
      worker = undefined;
      if (stopped !== undefined) await stopped.terminate().catch(() => undefined);
    },
  };
}
