import { FALLBACK_REASONS, ROUTE_KINDS } from '@relay/protocol';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../audit/audit-record.js';
import { isCacheHit, isServiceError } from './audit-rollup.js';
import { createAuditStore } from './audit-store.js';
import { TEST_DATABASES, type TestDatabase } from './__fixtures__/test-databases.js';
import { queryPoolStats } from './stats-query.js';

const NOW = Date.UTC(2030, 0, 31, 13, 37);
const DAY = 86_400_000;

const recordArbitrary = fc.record({
  occurredAt: fc.integer({ min: NOW - 33 * DAY, max: NOW }),
  poolId: fc.constantFrom('p', 'q'),
  callerId: fc.constantFrom('c1', 'c2', 'c3'),
  clientId: fc.constantFrom('k1', 'k2', null),
  routeKind: fc.constantFrom(...ROUTE_KINDS.slice(0, 4), null),
  status: fc.constantFrom(200, 404, 424, 500, 503),
  errorCode: fc.constantFrom('fallback_local', 'internal_error', 'identities_cooling_down', null),
  fallbackReason: fc.constantFrom(...FALLBACK_REASONS.slice(0, 3), null),
  backend: fc.constantFrom('forge_web', 'forge_api', 'forge_identity', null),
  cacheResult: fc.constantFrom('hit', 'stale', 'miss', 'bypass', null),
  cacheable: fc.boolean(),
  coalesced: fc.boolean(),
}) as fc.Arbitrary<Omit<AuditRecord, 'requestId' | 'routeKey' | 'identityId' | 'durationMs'>>;

describe.each(TEST_DATABASES)('queryPoolStats on $dialect', (engine) => {
  // One database per engine for the file; every property run starts from empty audit tables.
  let database: TestDatabase;
  beforeAll(async () => {
    database = await engine.open();
  });
  afterAll(async () => {
    await database.close();
  });
  it('equals a direct count over the audit rows, for any rows, batching and window', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(recordArbitrary, { maxLength: 60 }),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 60_000, max: 30 * DAY }),
        async (partial, batchSize, windowMs) => {
          const records: AuditRecord[] = partial.map((r, i) => ({
            ...r,
            requestId: `r${String(i)}`,
            routeKey: null,
            identityId: null,
            durationMs: 1,
          }));
          for (const table of ['audit', 'audit_daily', 'audit_daily_callers'] as const) {
            await database.db.deleteFrom(table).execute();
          }
          {
            const store = createAuditStore(database.db);
            for (let i = 0; i < records.length; i += batchSize) {
              await store.insertBatch(records.slice(i, i + batchSize));
            }
            const since = NOW - windowMs;
            const figures = await queryPoolStats(database.db, {
              poolId: 'p',
              sinceIso: new Date(since).toISOString(),
              callerId: 'c1',
            });
            const inWindow = records.filter((r) => r.poolId === 'p' && r.occurredAt >= since);
            const countOf = (pick: (r: AuditRecord) => boolean) => inWindow.filter(pick).length;
            expect(figures).toMatchObject({
              requests: inWindow.length,
              serviceErrors: countOf(isServiceError),
              localFallbacks: countOf((r) => r.errorCode === 'fallback_local'),
              hits: countOf(isCacheHit),
              eligible: countOf((r) => r.cacheable),
              eligibleHits: countOf((r) => r.cacheable && isCacheHit(r)),
              coalescedMisses: countOf((r) => r.coalesced),
            });
            const byCaller = new Map<string, number>();
            for (const r of inWindow) byCaller.set(r.callerId, (byCaller.get(r.callerId) ?? 0) + 1);
            expect(figures.callerUsage.reduce((sum, row) => sum + row.requests, 0)).toBe(
              inWindow.length,
            );
            const mine = inWindow.filter((r) => r.callerId === 'c1' && r.clientId !== null);
            expect(figures.clientUsage.reduce((sum, row) => sum + row.requests, 0)).toBe(
              mine.length,
            );
            const reasons: Record<string, number> = {};
            for (const r of inWindow) {
              if (r.fallbackReason !== null) {
                reasons[r.fallbackReason] = (reasons[r.fallbackReason] ?? 0) + 1;
              }
            }
            expect(figures.fallbackReasons).toEqual(reasons);
            expect(figures.upstream.reduce((sum, row) => sum + row.count, 0)).toBe(
              countOf((r) => r.backend !== null && r.routeKind !== null),
            );
          }
        },
      ),
      { numRuns: 60 },
    );
  }, 60_000);

  it('takes one batch of 1,000 rows (the PostgreSQL writer batch) in one insert', async () => {
    for (const table of ['audit', 'audit_daily', 'audit_daily_callers'] as const) {
      await database.db.deleteFrom(table).execute();
    }
    const records: AuditRecord[] = Array.from({ length: 1_000 }, (_, i) => ({
      requestId: `big${String(i)}`,
      occurredAt: NOW - i,
      poolId: 'p',
      callerId: `c${String(i % 7)}`,
      clientId: null,
      routeKey: null,
      routeKind: ROUTE_KINDS[i % 4] ?? null,
      identityId: null,
      status: 200,
      errorCode: null,
      fallbackReason: null,
      backend: null,
      cacheResult: 'hit',
      cacheable: true,
      coalesced: false,
      durationMs: 1,
    }));
    await createAuditStore(database.db).insertBatch(records);
    const figures = await queryPoolStats(database.db, {
      poolId: 'p',
      sinceIso: new Date(NOW - DAY).toISOString(),
      callerId: 'c1',
    });
    expect(figures.requests).toBe(1_000);
    expect(figures.callerUsage.reduce((sum, row) => sum + row.requests, 0)).toBe(1_000);
  });
});
