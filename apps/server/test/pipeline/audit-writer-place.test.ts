import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DEMO, createForgeSim, seedDemoWorld, type ForgeSim } from '@relay/forge-sim';
import { afterEach, describe, expect, it } from 'vitest';
import { loadServerConfig, startServer } from '../../src/index.js';
import { demoRelayEnv, enrollAlice, POOL } from './relay-harness.js';

/**
 * RELAY_AUDIT_WRITER on the real relay-server over a SQLite file: `event-loop` (the default)
 * writes audit batches in the server's thread, `worker` on the `relay-audit` thread; both store
 * every row, and a clean close writes what is queued.
 */
const ADMIN = 'admin-token-for-audit-writer-tests-0123';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The names of this process's threads (Linux: the worker's name is its thread's name). */
function threadNames(): string[] {
  return readdirSync('/proc/self/task').map((task) =>
    readFileSync(`/proc/self/task/${task}/comm`, 'utf8').trim(),
  );
}

async function relayTwice(auditWriter: string | undefined) {
  const sim: ForgeSim = await createForgeSim();
  cleanups.push(() => sim.close());
  seedDemoWorld(sim.world);
  const dir = mkdtempSync(join(tmpdir(), 'relay-audit-writer-'));
  cleanups.push(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const file = join(dir, 'relay.db');
  const config = loadServerConfig({
    RELAY_PORT: '0',
    RELAY_DATABASE: file,
    RELAY_ADMIN_TOKEN: ADMIN,
    ...demoRelayEnv(sim, POOL),
    ...(auditWriter === undefined ? {} : { RELAY_AUDIT_WRITER: auditWriter }),
  });
  if (!config.ok) throw new Error('invalid test configuration');
  const server = await startServer(config.value);
  let closed = false;
  cleanups.push(async () => {
    if (!closed) await server.close();
  });
  const token = await enrollAlice(server.database, Date.now());
  let threads: string[] = [];
  for (let i = 0; i < 2; i++) {
    const answer = await fetch(`${server.url}/v1/forge/request`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        pool: POOL,
        method: 'GET',
        path: `/repos/${DEMO.org}/${DEMO.publicRepo}/issues`,
      }),
    });
    expect(answer.status).toBe(200);
    if (i === 0) {
      // The first row written (through the worker, when there is one: its thread is running
      // and named once it has answered); the second is left for the close to write.
      await server.audit.flush();
      threads = threadNames();
    }
  }
  // A clean close writes every queued row (no flush before it).
  await server.close();
  closed = true;
  const reader = new Database(file, { readonly: true });
  const rows = reader
    .prepare('select route_kind, cache_result from audit order by occurred_at, cache_result desc')
    .all();
  reader.close();
  return { threads, rows };
}

describe('RELAY_AUDIT_WRITER', () => {
  it.each([
    [undefined, false],
    ['event-loop', false],
    ['worker', true],
  ] as const)('%s: audit rows stored, on the relay-audit thread: %s', async (place, onWorker) => {
    const { threads, rows } = await relayTwice(place);
    expect(threads.includes('relay-audit')).toBe(onWorker);
    expect(rows).toEqual([
      { route_kind: 'issue_list', cache_result: 'miss' },
      { route_kind: 'issue_list', cache_result: 'hit' },
    ]);
  });
});
