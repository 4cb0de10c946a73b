import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createRewriteCheckOffload,
  type CheckWorker,
  type RewriteCheckOffload,
} from './rewrite-check-offload.js';
import { manualTimers } from '../__fixtures__/manual-timers.js';

const RULES = [{ pattern: 'bluefalcon', replacement: '' }];

/** A worker whose answers the test gives by hand; records what it was sent. */
function fakeWorkers(options: { silent?: boolean } = {}) {
  const started: {
    worker: CheckWorker;
    sent: unknown[];
    reply: (m: unknown) => void;
    emit: (event: string, value: unknown) => void;
    terminated: boolean;
  }[] = [];
  const start = (): CheckWorker => {
    const events = new EventEmitter();
    const record = {
      sent: [] as unknown[],
      reply: (message: unknown) => events.emit('message', message),
      emit: (event: string, value: unknown) => events.emit(event, value),
      terminated: false,
      worker: undefined as unknown as CheckWorker,
    };
    record.worker = {
      postMessage: (message) => record.sent.push(message),
      on: (event: string, listener: (value: unknown) => void) => events.on(event, listener),
      terminate: () => {
        record.terminated = true;
        return Promise.resolve(0);
      },
      unref: () => undefined,
    };
    started.push(record);
    if (options.silent !== true) queueMicrotask(() => record.reply({ phase: 'ready' }));
    return record.worker;
  };
  return { started, start };
}

let offload: RewriteCheckOffload | undefined;
afterEach(async () => {
  await offload?.close();
});

describe('rewrite-check offload', () => {
  it('runs one check at a time, sends the rules once per revision, maps the verdicts', async () => {
    const workers = fakeWorkers();
    offload = createRewriteCheckOffload({ startWorker: workers.start });
    const first = offload.check('r1', RULES, ['a']);
    const second = offload.check('r1', RULES, ['bluefalcon']);
    const [worker] = workers.started;
    expect(workers.started).toHaveLength(1);
    expect(worker?.sent).toEqual([{ id: 1, stamp: 'r1', values: ['a'], rules: RULES }]);
    worker?.reply({ id: 1, verdict: 'pass' });
    expect(await first).toBe('pass');
    expect(worker?.sent[1]).toEqual({ id: 2, stamp: 'r1', values: ['bluefalcon'] });
    worker?.reply({ id: 2, verdict: 'deny' });
    expect(await second).toBe('deny');
    const third = offload.check('r2', RULES, ['x']);
    expect(worker?.sent[2]).toMatchObject({ stamp: 'r2', rules: RULES });
    worker?.reply({ id: 3, verdict: 'unknown_policy' });
    expect(await third).toBe('deny');
  });

  it('stops a check past its deadline, denies it, and serves the next on a fresh worker', async () => {
    const workers = fakeWorkers();
    const timers = manualTimers();
    offload = createRewriteCheckOffload({ startWorker: workers.start, ...timers });
    const slow = offload.check('r1', RULES, ['heavy']);
    const next = offload.check('r1', RULES, ['light']);
    await new Promise((resolve) => setImmediate(resolve)); // the worker is ready
    workers.started[0]?.reply({ id: 1, phase: 'compiled' });
    timers.fire();
    expect(await slow).toBe('timeout');
    expect(workers.started[0]?.terminated).toBe(true);
    expect(workers.started).toHaveLength(2);
    // The fresh worker is sent the rules again.
    expect(workers.started[1]?.sent[0]).toMatchObject({ values: ['light'], rules: RULES });
    workers.started[0]?.reply({ id: 2, verdict: 'pass' }); // a late answer of the old worker
    workers.started[1]?.reply({ id: 2, verdict: 'pass' });
    expect(await next).toBe('pass');
  });

  it('denies a check whose worker never announces itself, once the start-up bound passes', async () => {
    const workers = fakeWorkers({ silent: true });
    const timers = manualTimers();
    offload = createRewriteCheckOffload({ startWorker: workers.start, ...timers });
    const stuck = offload.check('r1', RULES, ['x']);
    await new Promise((resolve) => setImmediate(resolve));
    timers.fire();
    expect(await stuck).toBe('timeout');
    expect(workers.started[0]?.terminated).toBe(true);
  });

  it('answers busy past its queue bound, and denies the running check when the worker dies', async () => {
    const workers = fakeWorkers();
    offload = createRewriteCheckOffload({ startWorker: workers.start, maxQueued: 1 });
    const running = offload.check('r1', RULES, ['a']);
    const queued = offload.check('r1', RULES, ['b']);
    expect(await offload.check('r1', RULES, ['c'])).toBe('busy');
    workers.started[0]?.reply({ id: 99, verdict: 'pass' }); // an unknown id is ignored
    workers.started[0]?.emit('exit', 1);
    expect(await running).toBe('deny');
    // The queued check runs on a fresh worker, which is sent the rules.
    expect(workers.started).toHaveLength(2);
    expect(workers.started[1]?.sent[0]).toMatchObject({ values: ['b'], rules: RULES });
    workers.started[1]?.reply({ id: 2, verdict: 'pass' });
    expect(await queued).toBe('pass');
  });

  it('answers busy once closed', async () => {
    const workers = fakeWorkers();
    offload = createRewriteCheckOffload({ startWorker: workers.start });
    const running = offload.check('r1', RULES, ['a']);
    await offload.close();
    expect(await running).toBe('busy');
    expect(await offload.check('r1', RULES, ['a'])).toBe('busy');
    expect(workers.started[0]?.terminated).toBe(true);
  });
});

describe('rewrite-check offload on a real worker thread', () => {
  it('checks on the worker, and a check past its deadline is stopped and denied', async () => {
    offload = createRewriteCheckOffload({ deadlineMs: 10_000 });
    const heavy = Array.from({ length: 64 }, (_, i) => ({
      pattern: `.{1,1000}[@][A-Z]{${String(i + 1)}}`,
      replacement: '',
    }));
    expect(await offload.check('h1', heavy, ['a short value'])).toBe('pass');
    expect(await offload.check('h1', heavy, ['x@' + 'Z'.repeat(70)])).toBe('deny');
    await offload.close();
    // 64 rules that each take about half a second over 15 KB cannot finish in 50 ms.
    offload = createRewriteCheckOffload({ deadlineMs: 50 });
    const value = 'abcdefg1-@'.repeat(1500);
    expect(await offload.check('h1', heavy, [value])).toBe('timeout');
    expect(await offload.check('h1', heavy, ['fine'])).toBe('pass');
  }, 60_000);
});
