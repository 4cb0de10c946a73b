/**
 * Lookups per second on a hot 100,000-entry cache, and memory per entry.
 *
 * Run: pnpm --filter @relay/cache bench. Figures are ratios against baselines measured in the
 * same run: a bare `Map.get` with a precomputed key (lookups), and the same entries held in a
 * bare `Map` (memory).
 */
import { performance } from 'node:perf_hooks';
import {
  createCacheKey,
  createMemoryCacheStore,
  createTieredCacheStore,
  decideLookup,
  planCacheWrite,
  type CacheEntry,
} from '../src/index.js';

const ENTRIES = 100_000;
const LOOKUPS = 300_000;
const T0 = Date.UTC(2026, 0, 1);

const gc = (globalThis as { gc?: () => void }).gc;
function heapUsed(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

function urlOf(i: number): string {
  return `https://api.github.com/repos/owner${i % 997}/repo${i}/issues/${i}`;
}

function entryOf(i: number): CacheEntry {
  const plan = planCacheWrite({
    routeKind: 'issue_view',
    answer: {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8', etag: `W/"${i.toString(16)}"` },
      body: {
        id: i,
        number: i,
        title: `Issue number ${i}`,
        state: 'open',
        user: { login: `user${i % 5000}`, id: i % 5000 },
        labels: [{ name: 'bug' }],
        comments: i % 17,
        created_at: '2026-01-01T00:00:00Z',
        body: 'A short description of the problem, as most issues have.',
      },
      bodyEncoding: 'json',
    },
    lane: { kind: 'identity', id: 'pat-1' },
    now: T0,
  });
  if (!plan.ok) throw new Error(plan.error.code);
  return plan.value;
}

function keyOf(i: number): string {
  return createCacheKey({ method: 'GET', routeKind: 'issue_view', url: urlOf(i) });
}

// Deterministic pseudo-random access order (xorshift), so runs compare.
const order: number[] = [];
let seed = 2463534242;
for (let i = 0; i < LOOKUPS; i++) {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  order.push((seed >>> 0) % ENTRIES);
}

// Memory: the baseline holds the same keys and entries in a bare Map.
const before = heapUsed();
const baseline = new Map<string, CacheEntry>();
for (let i = 0; i < ENTRIES; i++) baseline.set(keyOf(i), entryOf(i));
const baselineBytes = heapUsed() - before;

const beforeStore = heapUsed();
const store = createTieredCacheStore({
  back: createMemoryCacheStore(),
  frontMaxBytes: 512 * 1024 * 1024,
});
for (let i = 0; i < ENTRIES; i++) await store.put(keyOf(i), entryOf(i));
const storeBytes = heapUsed() - beforeStore;
const front = store.frontSize();
if (front.entries !== ENTRIES) throw new Error('front does not hold every entry');

const lookupKeys = order.map((i) => keyOf(i));

function measureBaseline(): number {
  const start = performance.now();
  let hits = 0;
  for (const key of lookupKeys) if (baseline.get(key) !== undefined) hits++;
  if (hits !== LOOKUPS) throw new Error('baseline missed');
  return LOOKUPS / ((performance.now() - start) / 1000);
}

async function measureRelay(withKey: boolean): Promise<number> {
  const start = performance.now();
  let hits = 0;
  for (const [i, index] of order.entries()) {
    const key = withKey ? keyOf(index) : (lookupKeys[i] ?? '');
    const decision = decideLookup({
      routeKind: 'issue_view',
      headers: { accept: 'application/vnd.github+json' },
      entry: await store.get(key),
      now: T0 + 30_000,
    });
    if (decision.kind === 'hit') hits++;
  }
  if (hits !== LOOKUPS) throw new Error('relay lookup missed');
  return LOOKUPS / ((performance.now() - start) / 1000);
}

// Warm up, then take the best of three of each, interleaved.
measureBaseline();
await measureRelay(false);
const base: number[] = [];
const lookup: number[] = [];
const keyed: number[] = [];
for (let round = 0; round < 3; round++) {
  base.push(measureBaseline());
  lookup.push(await measureRelay(false));
  keyed.push(await measureRelay(true));
}
const best = (values: number[]) => Math.max(...values);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

console.log(`@relay/cache lookup benchmark: ${fmt(ENTRIES)} hot entries, ${fmt(LOOKUPS)} lookups`);
console.log(`  baseline Map.get:                    ${fmt(best(base))} lookups/s (1.00x)`);
console.log(
  `  store.get + decideLookup:            ${fmt(best(lookup))} lookups/s (${(best(lookup) / best(base)).toFixed(3)}x)`,
);
console.log(
  `  createCacheKey + get + decideLookup: ${fmt(best(keyed))} lookups/s (${(best(keyed) / best(base)).toFixed(3)}x)`,
);
console.log(
  `  memory per entry: ${fmt(storeBytes / ENTRIES)} B in the two-level store vs ${fmt(baselineBytes / ENTRIES)} B in a bare Map (${(storeBytes / baselineBytes).toFixed(2)}x); accounted entry.bytes ${fmt(front.bytes / ENTRIES)} B`,
);
if (gc === undefined) console.log('  (run with --expose-gc for steadier memory figures)');
