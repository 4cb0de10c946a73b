/**
 * Small helpers shared by the server benchmarks: order statistics, and the machine-readable
 * result each benchmark leaves for `scripts/bench/run-benchmarks.mjs` (which writes
 * BENCHMARKS.md).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The q-quantile (0..1) of values by the nearest-rank method; NaN when empty. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

/** The median of values. */
export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** Rounds to `digits` decimals. */
export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/**
 * Writes `result` as `<name>.json` into BENCH_RESULTS_DIR when the runner set it, and prints it
 * as JSON either way.
 */
export function reportResult(name: string, result: Record<string, unknown>): void {
  const text = JSON.stringify(result, null, 2);
  console.log(text);
  const dir = process.env.BENCH_RESULTS_DIR;
  if (dir !== undefined && dir !== '') writeFileSync(join(dir, `${name}.json`), `${text}\n`);
}

/** True when the runner asked for shorter runs (BENCH_QUICK=1). */
export const QUICK = process.env.BENCH_QUICK === '1';
