/**
 * A/B of the cached caller lookups of one relay request (issue 23, item 1), in one process,
 * interleaved round by round, over a SQLite file in WAL mode whose `PRAGMA data_version` is the
 * external change counter (as relay-server runs it: read at every lookup).
 *
 * - `two checks` (before): `findTokenOwner` then `hasGrant`, each reading the counter.
 * - `one check`: `findTokenOwnerChecked` then `hasGrantSince` with its reading.
 * - baseline: the same two cached lookups with no external change counter.
 *
 * Run: node --conditions=@relay/source --import tsx bench/caller-lookup.bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ok } from '@relay/protocol';
import { createCachingCallerStore } from '../src/auth/caller-lookup-cache.js';
import type { CallerStore, TokenOwner } from '../src/storage/caller-store.js';
import { QUICK, median, reportResult, round } from './bench-report.js';

const ROUNDS = QUICK ? 3 : 9;
const OPS = QUICK ? 10_000 : 50_000;

const dir = mkdtempSync(join(tmpdir(), 'relay-bench-callers-'));
const sqlite = new Database(join(dir, 'relay.db'));
sqlite.pragma('journal_mode = WAL');
sqlite.exec('CREATE TABLE t (a INTEGER)');
sqlite.prepare('INSERT INTO t VALUES (1)').run();
const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();

const owner: TokenOwner = {
  callerId: 'cal_1',
  clientId: 'cli_1',
  clientName: 'bench',
  login: 'bench-agent',
  tokenSha256: 'a'.repeat(64),
  expiresAtIso: '2030-01-01T00:00:00.000Z',
  disabled: false,
  lastUsedAtIso: null,
};
const store: CallerStore = {
  enroll: () =>
    Promise.resolve(ok({ callerId: 'cal_1', clientId: 'cli_1', clientName: 'x', disabled: false })),
  findTokenOwner: () => Promise.resolve(owner),
  hasGrant: () => Promise.resolve(true),
  touchClient: () => Promise.resolve(),
  listClients: () => Promise.resolve([]),
};
const now = () => 1_000_000;
const counted = createCachingCallerStore(store, {
  now,
  externalChangeVersion: () => dataVersion.get() as number,
  externalCheckIntervalMs: 0,
});
const uncounted = createCachingCallerStore(store, { now });

const arms = {
  baseline: async () => {
    await uncounted.findTokenOwner(owner.tokenSha256);
    return uncounted.hasGrant('cal_1', 'bench');
  },
  twoChecks: async () => {
    await counted.findTokenOwner(owner.tokenSha256);
    return counted.hasGrant('cal_1', 'bench');
  },
  oneCheck: async () => {
    const { reading } = await counted.findTokenOwnerChecked(owner.tokenSha256);
    return counted.hasGrantSince('cal_1', 'bench', reading);
  },
} as const;
type Arm = keyof typeof arms;

const timings: Record<Arm, number[]> = { baseline: [], twoChecks: [], oneCheck: [] };
try {
  for (const arm of Object.keys(arms) as Arm[])
    for (let i = 0; i < OPS / 10; i++) await arms[arm]();
  for (let r = 0; r < ROUNDS; r++) {
    for (const arm of Object.keys(arms) as Arm[]) {
      const run = arms[arm];
      const start = process.hrtime.bigint();
      for (let i = 0; i < OPS; i++) await run();
      timings[arm].push(Number(process.hrtime.bigint() - start) / OPS);
    }
  }
} finally {
  sqlite.close();
  rmSync(dir, { recursive: true, force: true });
}
const ns = (arm: Arm) => round(median(timings[arm]), 0);
reportResult('caller-lookup', {
  rounds: ROUNDS,
  ops_per_round: OPS,
  ns_per_request: {
    baseline: ns('baseline'),
    two_checks: ns('twoChecks'),
    one_check: ns('oneCheck'),
  },
  ratio_to_baseline: {
    two_checks: round(ns('twoChecks') / ns('baseline'), 2),
    one_check: round(ns('oneCheck') / ns('baseline'), 2),
  },
  one_vs_two: round(ns('oneCheck') / ns('twoChecks'), 2),
});
