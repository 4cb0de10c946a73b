import { AUDIT_RETENTION_MS } from '@relay/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { createAuditStore, type AuditStore } from '../storage/audit-store.js';
import { TEST_DATABASES } from '../storage/__fixtures__/test-databases.js';
import type { RelayDatabase } from '../storage/relay-database.js';
import type { AuditRecord } from './audit-record.js';
import { createAuditRetention } from './audit-retention.js';

const open: RelayDatabase[] = [];
afterEach(async () => {
  for (const database of open.splice(0)) await database.close();
});

const NOW = Date.UTC(2030, 5, 1);
const DAY = 86_400_000;

function record(i: number, occurredAt: number): AuditRecord {
  return {
    requestId: `req-${String(i)}`,
    occurredAt,
    poolId: 'p',
    callerId: 'c',
    clientId: null,
    routeKey: null,
    routeKind: null,
    identityId: null,
    status: 200,
    errorCode: null,
    fallbackReason: null,
    backend: null,
    cacheResult: null,
    cacheable: false,
    coalesced: false,
    durationMs: 0,
  };
}

describe.each(TEST_DATABASES)('createAuditRetention on $dialect', (engine) => {
  it('deletes rows older than 30 days in bounded batches, and keeps the rest', async () => {
    const database = await engine.open();
    open.push(database);
    const store = createAuditStore(database.db);
    const old = Array.from({ length: 25 }, (_, i) => record(i, NOW - 31 * DAY - i));
    const fresh = [
      record(100, NOW - 29 * DAY),
      record(101, NOW - AUDIT_RETENTION_MS),
      record(102, NOW),
    ];
    await store.insertBatch([...old, ...fresh]);
    const deletes: number[] = [];
    const counting: AuditStore = {
      insertBatch: (r) => store.insertBatch(r),
      deleteRollupsBefore: (day) => store.deleteRollupsBefore(day),
      deleteOlderThan: async (cutoff, limit) => {
        const deleted = await store.deleteOlderThan(cutoff, limit);
        deletes.push(deleted);
        return deleted;
      },
    };
    let yields = 0;
    const clock = { now: NOW };
    const retention = createAuditRetention({
      store: counting,
      now: () => clock.now,
      batchSize: 10,
      yieldBetweenBatches: () => {
        yields++;
        return Promise.resolve();
      },
    });
    expect(await retention.runOnce()).toBe(25);
    expect(deletes).toEqual([10, 10, 5]);
    expect(yields).toBe(2);
    const left = await database.db
      .selectFrom('audit')
      .select('request_id')
      .orderBy('request_id')
      .execute();
    expect(left.map((r) => r.request_id)).toEqual(['req-100', 'req-101', 'req-102']);

    clock.now += 2 * DAY;
    expect(await retention.runOnce()).toBe(2);
  });

  it('drops the daily rollups of days wholly past the cutoff', async () => {
    const database = await engine.open();
    open.push(database);
    const store = createAuditStore(database.db);
    await store.insertBatch([
      record(1, NOW - 32 * DAY),
      record(2, NOW - 30 * DAY - 1000),
      record(3, NOW - DAY),
      record(4, NOW - 30 * DAY + 1000),
    ]);
    const retention = createAuditRetention({ store, now: () => NOW });
    expect(await retention.runOnce()).toBe(2);
    const days = await database.db
      .selectFrom('audit_daily')
      .select(['day', 'requests'])
      .orderBy('day')
      .execute();
    // The cutoff falls at the start of 2030-05-02: that day stays, the day before goes.
    expect(days).toEqual([
      { day: '2030-05-02', requests: 1 },
      { day: '2030-05-31', requests: 1 },
    ]);
    const callers = await database.db.selectFrom('audit_daily_callers').select('day').execute();
    expect(callers.map((c) => c.day).sort()).toEqual(['2030-05-02', '2030-05-31']);
  });

  it('stops after maxBatches and leaves the rest to the next run', async () => {
    const database = await engine.open();
    open.push(database);
    const store = createAuditStore(database.db);
    await store.insertBatch(Array.from({ length: 30 }, (_, i) => record(i, NOW - 40 * DAY)));
    const retention = createAuditRetention({
      store,
      now: () => NOW,
      batchSize: 10,
      maxBatches: 2,
      yieldBetweenBatches: () => Promise.resolve(),
    });
    expect(await retention.runOnce()).toBe(20);
    expect(await retention.runOnce()).toBe(10);
  });

  it('runs hourly through the injected scheduler until stopped', async () => {
    const database = await engine.open();
    open.push(database);
    const store = createAuditStore(database.db);
    let tick: (() => void) | undefined;
    let interval = 0;
    let stopped = false;
    const retention = createAuditRetention({
      store,
      now: () => NOW,
      scheduleEvery: (ms, run) => {
        interval = ms;
        tick = run;
        return () => {
          stopped = true;
        };
      },
    });
    const stop = retention.start();
    expect(interval).toBe(3_600_000);
    await store.insertBatch([record(1, NOW - 31 * DAY)]);
    tick?.();
    await retention.runOnce();
    expect(await database.db.selectFrom('audit').selectAll().execute()).toEqual([]);
    stop();
    expect(stopped).toBe(true);
  });
});
