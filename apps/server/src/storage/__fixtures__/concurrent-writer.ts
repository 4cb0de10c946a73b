/**
 * One writer process of the PostgreSQL concurrency test (postgres-concurrency.test.ts): opens
 * the test's schema through the relay's own store, waits for the common start time, then runs
 * its share of enrollments or string-rewrite PUTs, several at once, and prints one JSON line of
 * outcomes. Arguments: url, schema, mode (`enroll` | `policy`), worker number, start time (ms).
 */
import { hashToken } from '../../auth/caller-token.js';
import { createCallerStore } from '../caller-store.js';
import { openPostgresDatabase } from '../postgres-database.js';
import { createStringRewriteStore } from '../string-rewrite-store.js';

const [url = '', schema = '', mode = '', workerRaw = '0', startRaw = '0'] = process.argv.slice(2);
const worker = Number(workerRaw);
const database = await openPostgresDatabase(url, { schema, maxConnections: 4 });
const sleepUntil = (ms: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, ms - Date.now())));
await sleepUntil(Number(startRaw));

/** Runs `count` tasks, `width` at a time. */
async function inParallel<T>(
  count: number,
  width: number,
  task: (i: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}

let output: unknown;
if (mode === 'enroll') {
  let ids = 0;
  const store = createCallerStore(database.db, {
    createId: (prefix) => `${prefix}_w${String(worker)}_${String(++ids)}`,
    writeLock: database.writeLock,
  });
  output = await inParallel(12, 4, async (i) => {
    // Half the enrollments rotate a client every worker shares; the rest add new clients.
    const clientName = i % 2 === 0 ? 'shared' : `w${String(worker)}-${String(i)}`;
    const nowIso = new Date(Date.UTC(2030, 0, 1) + worker * 1000 + i).toISOString();
    try {
      const result = await store.enroll({
        forgeUserId: 4242,
        login: 'mona',
        grantPool: 'default',
        newPoolPolicyJson: '{}',
        clientName,
        tokenSha256: hashToken(`token-${String(worker)}-${String(i)}`),
        nowIso,
        expiresAtIso: '2031-01-01T00:00:00.000Z',
      });
      return result.ok
        ? { ok: true, callerId: result.value.callerId }
        : { ok: false, code: result.error.code };
    } catch (error) {
      return { ok: false, thrown: error instanceof Error ? error.message : String(error) };
    }
  });
} else {
  const store = createStringRewriteStore(database.db);
  output = await inParallel(20, 4, async (i) => {
    try {
      const current = await store.read();
      if (!current.ok) return { read: current.error.cause };
      const expected = current.value.revision;
      const rules = [{ pattern: `w${String(worker)}-${String(i)}`, replacement: 'x' }];
      const result = await store.replace(expected, rules, new Date().toISOString());
      return result.ok
        ? { expected, won: true, revision: result.value.revision }
        : { expected, won: false, code: result.error.code };
    } catch (error) {
      return { thrown: error instanceof Error ? error.message : String(error) };
    }
  });
}
await database.close();
process.stdout.write(`${JSON.stringify(output)}\n`);
