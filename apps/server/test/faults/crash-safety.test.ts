import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEMO,
  createForgeSim,
  createSimClock,
  seedDemoWorld,
  type ForgeSim,
} from '@relay/forge-sim';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Crash safety of the admin surface: a real relay-server process on a temporary SQLite file
 * takes concurrent admin writes (identity registrations and updates, string-rewrite PUTs with
 * `expected_revision`, caller provisioning against forge-sim), is killed with SIGKILL while
 * writes are in flight, and is started again on the same file: every write it acknowledged
 * (a 2xx) is there, and each write it did not acknowledge is either wholly there or wholly absent.
 * `pnpm test:faults` (FAULTS_LONG=1) repeats the kill more times, with more writes each.
 */
const LONG = process.env.FAULTS_LONG === '1';
/** Kill and restart cycles on one database file. */
const CYCLES = LONG ? 4 : 1;
/** Acknowledged writes after which the process is killed, per cycle. */
const KILL_AFTER_ACKS = LONG ? 240 : 60;
/** Writes sent at once. */
const WRITERS = 8;
/** A writer's writes at most per cycle (a bound; the kill normally stops it long before). */
const MAX_WRITES_PER_WRITER = 400;
/** Caller provisionings at most over the whole test: a caller keeps at most 16 clients. */
const MAX_PROVISIONINGS = 12;

const ADMIN = 'crash-safety-admin-token-0123456789';
const POOL = 'team';
const appDir = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

/** A relay-server child process. */
interface RelayChild {
  readonly child: ChildProcessWithoutNullStreams;
  readonly url: string;
  readonly exited: Promise<number | null>;
}

let sim: ForgeSim;
let dir: string;
let databasePath: string;
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  sim = await createForgeSim({
    clock: createSimClock({ start: Date.parse('2030-01-01T00:00:00Z') }),
  });
  seedDemoWorld(sim.world);
  dir = mkdtempSync(join(tmpdir(), 'relay-crash-'));
  databasePath = join(dir, 'relay.db');
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Starts relay-server from source (as main.test.ts does) on the test's database file. */
async function startRelay(): Promise<RelayChild> {
  const child = spawn(
    process.execPath,
    ['--conditions=@relay/source', '--import', 'tsx', join(appDir, 'src/main.ts')],
    {
      cwd: appDir,
      env: {
        PATH: process.env.PATH ?? '',
        RELAY_HOST: '127.0.0.1',
        RELAY_PORT: '0',
        RELAY_DATABASE: databasePath,
        RELAY_ADMIN_TOKEN: ADMIN,
        RELAY_FORGE_API_URL: sim.urls.api,
        RELAY_FORGE_WEB_URL: sim.urls.web,
        RELAY_FORGE_RAW_URL: sim.urls.raw,
        RELAY_FORGE_LOG_HOSTS: new URL(sim.urls.log).hostname,
        ALLOWED_FORGE_ORG: DEMO.org,
        DEFAULT_LOGIN_POOL: POOL,
        DEFAULT_ALLOWED_OWNERS: DEMO.org,
        RELAY_MAX_CONNECTIONS_PER_PEER: '0',
      },
    },
  );
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      resolve(code);
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /relay-server listening on (http:\/\/[^\s"]+)/.exec(stdout);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    void exited.then((code) => {
      reject(new Error(`relay-server exited ${String(code)}: ${stderr}`));
    });
  });
  // The access log keeps coming; only the start-up line was needed.
  child.stdout.removeAllListeners('data');
  child.stdout.resume();
  return { child, url, exited };
}

/** An admin or caller request; a connection failure (the process is gone) is `undefined`. */
async function call(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  token = ADMIN,
): Promise<{ status: number; json: unknown } | undefined> {
  try {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, json: text === '' ? undefined : JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** What the writers sent and what the relay acknowledged. */
interface WriteLedger {
  /** Identity id → the weight of its last acknowledged registration. */
  readonly identities: Map<string, number>;
  /** Identity id → weights sent after its last acknowledgement (in flight at the kill). */
  readonly identitiesInFlight: Map<string, number[]>;
  /** Acknowledged string-rewrite revisions → their rules. */
  readonly revisions: Map<number, string>;
  /** Rules of PUTs that got no answer (in flight at the kill). */
  readonly rulesInFlight: Set<string>;
  /** Acknowledged caller tokens → the pool of their grant. */
  readonly callers: Map<string, string>;
  provisionings: number;
  /** Acknowledged writes so far. */
  acks: number;
}

/** One rule set per write, told apart by its replacement. */
function rulesOf(tag: string): { pattern: string; replacement: string }[] {
  return [{ pattern: `crash-[0-9]+-${tag}`, replacement: `[${tag}]` }];
}

/**
 * Sends admin writes from {@link WRITERS} writers until `stop()` says so or each has sent its
 * bound: identity registrations (new ids and updates of a writer's own ids, so that the last
 * acknowledgement of an id is its latest write), string-rewrite PUTs against the last revision
 * seen, and a few caller provisionings; records every acknowledgement in the ledger.
 */
async function writeUntil(
  url: string,
  ledger: WriteLedger,
  cycle: number,
  stop: () => boolean,
): Promise<void> {
  let revision = 1;
  const writer = async (w: number): Promise<void> => {
    for (let n = 0; n < MAX_WRITES_PER_WRITER && !stop(); n++) {
      const kind = n % 4;
      if (kind === 0 || kind === 1) {
        const id = `crash-${String(w)}-${String(n % 12)}`;
        const weight = 1 + ((cycle * 7919 + n * 31 + w) % 1000);
        const inFlight = ledger.identitiesInFlight.get(id) ?? [];
        inFlight.push(weight);
        ledger.identitiesInFlight.set(id, inFlight);
        const answer = await call(url, 'POST', `/v1/admin/pools/${POOL}/identities`, {
          id,
          kind: 'pat',
          login: DEMO.users.alice,
          secret_ref: `crash_${String(w)}`,
          scopes: [{ owner: DEMO.org }],
          weight,
        });
        if (answer === undefined) return;
        expect([200, 201]).toContain(answer.status);
        ledger.identities.set(id, weight);
        ledger.identitiesInFlight.delete(id);
        ledger.acks++;
      } else if (kind === 2) {
        const tag = `c${String(cycle)}w${String(w)}n${String(n)}`;
        const rules = JSON.stringify(rulesOf(tag));
        ledger.rulesInFlight.add(rules);
        const answer = await call(url, 'PUT', '/v1/admin/string-rewrites', {
          schema_version: 1,
          expected_revision: revision,
          rules: rulesOf(tag),
        });
        if (answer === undefined) return;
        ledger.rulesInFlight.delete(rules);
        if (answer.status === 409) {
          const current = await call(url, 'GET', '/v1/admin/string-rewrites');
          if (current === undefined) return;
          revision = Math.max(revision, (current.json as { revision: number }).revision);
          continue;
        }
        expect(answer.status).toBe(200);
        const acked = (answer.json as { revision: number }).revision;
        ledger.revisions.set(acked, rules);
        ledger.acks++;
        revision = Math.max(revision, acked);
      } else if (ledger.provisionings < MAX_PROVISIONINGS) {
        ledger.provisionings++;
        const pool = `crash-pool-${String(ledger.provisionings)}`;
        const answer = await call(url, 'POST', '/v1/admin/callers', {
          pool,
          forge_login: DEMO.users.alice,
          name: `crash-client-${String(ledger.provisionings)}`,
        });
        if (answer === undefined) return;
        expect(answer.status).toBe(201);
        ledger.callers.set((answer.json as { token: string }).token, pool);
        ledger.acks++;
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
}

/** Everything wrong with the restarted relay's state against the ledger. */
async function findLostWrites(url: string, ledger: WriteLedger): Promise<string[]> {
  const lost: string[] = [];
  const policy = await call(url, 'GET', '/v1/admin/string-rewrites');
  const current = policy?.json as { revision: number; rules: unknown } | undefined;
  if (policy?.status !== 200 || current === undefined) return ['the policy cannot be read'];
  const acked = Math.max(1, ...ledger.revisions.keys());
  const rules = JSON.stringify(current.rules);
  if (current.revision < acked) {
    lost.push(`policy revision ${String(current.revision)} < acknowledged ${String(acked)}`);
  } else if (current.revision === acked && ledger.revisions.has(acked)) {
    if (rules !== ledger.revisions.get(acked)) lost.push(`policy ${String(acked)}: other rules`);
  } else if (current.revision > acked && !ledger.rulesInFlight.has(rules)) {
    lost.push(`policy ${String(current.revision)} holds rules nobody sent unacknowledged`);
  }

  const db = new Database(databasePath, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(
        `select id, weight, (select count(*) from identity_scopes s where s.identity_id = i.id)
           as scopes from identities i where id like 'crash-%'`,
      )
      .all() as { id: string; weight: number; scopes: number }[];
    const stored = new Map(rows.map((row) => [row.id, row.weight]));
    for (const row of rows) {
      if (row.scopes !== 1) lost.push(`identity ${row.id}: ${String(row.scopes)} scopes, not 1`);
    }
    for (const [id, weight] of ledger.identities) {
      const found = stored.get(id);
      const inFlight = ledger.identitiesInFlight.get(id) ?? [];
      if (found === undefined) lost.push(`identity ${id} missing`);
      else if (found !== weight && !inFlight.includes(found)) {
        lost.push(`identity ${id}: weight ${String(found)}, acknowledged ${String(weight)}`);
      }
    }
    for (const id of stored.keys()) {
      if (!ledger.identities.has(id) && !ledger.identitiesInFlight.has(id)) {
        lost.push(`identity ${id} nobody registered`);
      }
    }
  } finally {
    db.close();
  }

  for (const [token, pool] of ledger.callers) {
    const health = await call(url, 'GET', `/v1/pools/${pool}/health`, undefined, token);
    if (health?.status !== 200) lost.push(`caller token of ${pool}: ${String(health?.status)}`);
  }
  return lost;
}

describe('kill -9 during admin writes', () => {
  it(
    'keeps every acknowledged write after a restart on the same database file',
    async () => {
      const ledger: WriteLedger = {
        identities: new Map(),
        identitiesInFlight: new Map(),
        revisions: new Map(),
        rulesInFlight: new Set(),
        callers: new Map(),
        provisionings: 0,
        acks: 0,
      };
      for (let cycle = 0; cycle < CYCLES; cycle++) {
        const relay = await startRelay();
        const ackedAtStart = countAcks(ledger);
        // SIGKILL once enough writes were acknowledged, while the other writers' are in flight.
        await writeUntil(relay.url, ledger, cycle, () => {
          if (relay.child.killed) return true;
          if (countAcks(ledger) - ackedAtStart < KILL_AFTER_ACKS) return false;
          relay.child.kill('SIGKILL');
          return true;
        });
        relay.child.kill('SIGKILL'); // when every writer reached its bound first
        expect(await relay.exited).toBeNull(); // killed by the signal, not exited
        expect(countAcks(ledger) - ackedAtStart).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);

        const restarted = await startRelay();
        try {
          expect(await findLostWrites(restarted.url, ledger)).toEqual([]);
        } finally {
          restarted.child.kill('SIGTERM');
          await restarted.exited;
        }
      }
      expect(ledger.callers.size).toBeGreaterThan(0);
      expect(ledger.revisions.size).toBeGreaterThan(0);
    },
    LONG ? 600_000 : 60_000,
  );
});

function countAcks(ledger: WriteLedger): number {
  return ledger.acks;
}
