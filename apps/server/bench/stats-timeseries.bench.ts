/**
 * The dashboard's audit reads at a million audit rows (the rows of stats-query.bench.ts): the
 * median time of `queryStatsTimeseries` over 30 days in hourly buckets and over 24 hours in
 * 5-minute buckets, and of `queryPoolDenials` (50 rows), each against a baseline measured in the
 * same run: one `count(*)` scan of the same pool's window.
 *
 * Run: node --conditions=@relay/source --import tsx bench/stats-timeseries.bench.ts
 *      (from apps/server; ROWS=200000 for a quicker run)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ROUTE_KINDS } from '@relay/protocol';
import { sql } from 'kysely';
import type { AuditRecord } from '../src/audit/audit-record.js';
import { createAuditStore } from '../src/storage/audit-store.js';
import { openSqliteDatabase } from '../src/storage/sqlite-database.js';
import { queryPoolDenials } from '../src/storage/pool-denials-query.js';
import { queryStatsTimeseries } from '../src/storage/stats-timeseries-query.js';

const ROWS = Number(process.env.ROWS ?? 1_000_000);
const NOW = Date.UTC(2030, 0, 31);
const DAY = 86_400_000;
const RUNS = 7;
const BATCH = 1000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const dir = mkdtempSync(join(tmpdir(), 'relay-bench-'));
try {
  const path = join(dir, 'relay.db');
  // Load through the real write path (the audit writer's batches: rows and daily rollups).
  const loader = await openSqliteDatabase(path);
  const store = createAuditStore(loader.db);
  const kinds = ROUTE_KINDS.slice(0, 40);
  const backends = [null, null, 'forge_identity', 'forge_api', 'forge_web'] as const;
  const caches = ['hit', 'hit', 'miss', 'stale', 'bypass'] as const;
  let seed = 1;
  const next = () => (seed = (seed * 48_271) % 2_147_483_647);
  const started = performance.now();
  for (let offset = 0; offset < ROWS; offset += BATCH) {
    const batch: AuditRecord[] = [];
    for (let i = offset; i < Math.min(ROWS, offset + BATCH); i++) {
      const r = next();
      const fallback = r % 50 === 0;
      const failed = !fallback && r % 97 === 0;
      batch.push({
        requestId: `req_${String(i)}`,
        // Rows arrive in time order, as the writer sees them: 35 days up to NOW.
        occurredAt: NOW - 35 * DAY + Math.floor((i * 35 * DAY) / ROWS),
        poolId: r % 10 === 0 ? 'other' : 'default',
        callerId: `cal_${String(r % 200)}`,
        clientId: `cli_${String(r % 600)}`,
        routeKey: `repo_view:org/repo${String(r % 1000)}`,
        routeKind: kinds[r % kinds.length] ?? null,
        identityId: r % 3 === 0 ? 'pat-1' : null,
        status: fallback ? 424 : failed ? 503 : 200,
        errorCode: fallback ? 'fallback_local' : failed ? 'identities_cooling_down' : null,
        fallbackReason: fallback ? 'repo_not_public' : null,
        backend: backends[r % backends.length] ?? null,
        cacheResult: caches[r % caches.length] ?? null,
        cacheable: r % 4 !== 0,
        coalesced: r % 31 === 0,
        durationMs: r % 400,
      });
    }
    await store.insertBatch(batch);
  }
  await sql`PRAGMA optimize`.execute(loader.db);
  await loader.close();
  const loadMs = performance.now() - started;

  const reopened = await openSqliteDatabase(path);
  const db = reopened.db;
  const HOUR = 3_600_000;
  const measure = async (windowMs: number, read: (sinceMs: number) => Promise<unknown>) => {
    const sinceIso = new Date(NOW - windowMs).toISOString();
    const baseline: number[] = [];
    const timed: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      let t = performance.now();
      await sql`select count(*) as n from audit where pool_id = ${'default'} and occurred_at >= ${sinceIso}`.execute(
        db,
      );
      baseline.push(performance.now() - t);
      t = performance.now();
      await read(NOW - windowMs);
      timed.push(performance.now() - t);
    }
    const b = median(baseline);
    const m = median(timed);
    return {
      baseline_count_scan_ms: Math.round(b * 10) / 10,
      query_ms: Math.round(m * 10) / 10,
      ratio_vs_baseline: Math.round((m / b) * 100) / 100,
    };
  };
  const series = (bucketMs: number) => (sinceMs: number) =>
    queryStatsTimeseries(db, { poolId: 'default', sinceMs, untilMs: NOW, bucketMs });
  const results = {
    rows: ROWS,
    load_ms: Math.round(loadMs),
    timeseries_30d_1h: await measure(30 * DAY, series(HOUR)),
    timeseries_24h_5m: await measure(DAY, series(300_000)),
    denials_30d_50: await measure(30 * DAY, (sinceMs) =>
      queryPoolDenials(db, {
        poolId: 'default',
        sinceIso: new Date(sinceMs).toISOString(),
        limit: 50,
      }),
    ),
  };
  await reopened.close();
  console.log(JSON.stringify(results, null, 2));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
