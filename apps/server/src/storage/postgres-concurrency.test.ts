import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CALLER_CLIENTS_MAX } from '@relay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  POSTGRES_AVAILABLE,
  POSTGRES_TEST_DATABASES,
  TEST_POSTGRES_URL,
  type TestDatabase,
} from './__fixtures__/test-databases.js';

const WRITER = join(
  dirname(fileURLToPath(import.meta.url)),
  '__fixtures__',
  'concurrent-writer.ts',
);
const PROCESSES = 4;

/** Starts `PROCESSES` writer processes on the schema at one common instant; their outputs. */
async function runWriters(schema: string, mode: 'enroll' | 'policy'): Promise<unknown[][]> {
  // Each process needs a second or so to load; they all start writing at the same instant.
  const startAt = Date.now() + 4_000;
  return Promise.all(
    Array.from({ length: PROCESSES }, (_, worker) => {
      const child = spawn(
        process.execPath,
        [
          '--conditions=@relay/source',
          '--import',
          'tsx',
          WRITER,
          TEST_POSTGRES_URL,
          schema,
          mode,
          String(worker),
          String(startAt),
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      return new Promise<unknown[]>((resolve, reject) => {
        child.on('exit', (code) => {
          if (code !== 0)
            reject(new Error(`writer ${String(worker)} exited ${String(code)}: ${stderr}`));
          else resolve(JSON.parse(stdout) as unknown[]);
        });
      });
    }),
  );
}

describe.runIf(POSTGRES_AVAILABLE)(
  'PostgreSQL store under concurrent writers of several processes',
  () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await POSTGRES_TEST_DATABASES.open();
    });
    afterAll(async () => {
      await database.close();
    });

    it('enrollment stays atomic: one caller, at most 16 clients, one row per client name', async () => {
      // The pool exists already (as after an identity registration), so that nothing but the
      // enrollment's own lock orders the first enrollments of the same forge user.
      await database.db
        .insertInto('pools')
        .values({ id: 'default', policy_json: '{}', created_at: '2030-01-01T00:00:00.000Z' })
        .execute();
      const outcomes = (await runWriters(String(database.schema), 'enroll')).flat() as {
        ok: boolean;
        callerId?: string;
      }[];
      expect(outcomes).toHaveLength(PROCESSES * 12);
      // Every enrollment succeeded (no unique-key failure of a racing insert)...
      expect(outcomes.filter((o) => !o.ok)).toEqual([]);
      // ...and bound the same caller.
      expect(new Set(outcomes.map((o) => o.callerId)).size).toBe(1);
      const callers = await database.db.selectFrom('callers').selectAll().execute();
      expect(callers).toHaveLength(1);
      const clients = await database.db.selectFrom('caller_clients').select('name').execute();
      expect(clients.length).toBeLessThanOrEqual(CALLER_CLIENTS_MAX);
      // 1 shared name + 4 × 6 own names were enrolled: the cap was reached and held.
      expect(clients.length).toBe(CALLER_CLIENTS_MAX);
      const names = clients.map((c) => c.name);
      expect(new Set(names).size).toBe(names.length);
      const grants = await database.db.selectFrom('caller_grants').selectAll().execute();
      expect(grants).toHaveLength(1);
    }, 60_000);

    it('string-rewrite PUTs: exactly one winner per expected revision, revisions strictly sequential', async () => {
      const outcomes = (await runWriters(String(database.schema), 'policy')).flat() as {
        expected?: number;
        won?: boolean;
        revision?: number;
        code?: string;
        thrown?: string;
      }[];
      expect(outcomes.filter((o) => o.thrown !== undefined)).toEqual([]);
      const winners = outcomes.filter((o) => o.won === true);
      const losers = outcomes.filter((o) => o.won === false);
      expect(losers.every((o) => o.code === 'string_rewrite_revision_conflict')).toBe(true);
      // Writers raced: some PUTs lost.
      expect(losers.length).toBeGreaterThan(0);
      const expected = winners.map((o) => o.expected ?? 0).sort((a, b) => a - b);
      // One winner per expected revision, and the winners' revisions are 2, 3, … with no gap.
      expect(expected).toEqual(Array.from({ length: winners.length }, (_, i) => i + 1));
      expect(winners.every((o) => o.revision === (o.expected ?? 0) + 1)).toBe(true);
      const row = await database.db
        .selectFrom('string_rewrite_policy')
        .select('revision')
        .executeTakeFirstOrThrow();
      expect(Number(row.revision)).toBe(winners.length + 1);
    }, 60_000);
  },
);
