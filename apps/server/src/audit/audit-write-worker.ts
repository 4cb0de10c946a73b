/**
 * The worker thread of the audit-write offload (`audit-write-offload.ts`): it holds a
 * better-sqlite3 connection of its own to the relay's database file and writes the audit batches
 * it is sent through the same `createAuditStore` as the main thread, so that a batch's statements
 * and its commit never run on the server's event loop. The main thread opened and migrated the
 * file before this thread starts: no migration runs here, and the file must exist.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { createAuditStore } from '../storage/audit-store.js';
import type { DatabaseSchema } from '../storage/database-schema.js';
import { createStatementCache } from '../storage/statement-cache.js';
import type {
  AuditWriteAnswer,
  AuditWriteJob,
  AuditWriteWorkerData,
} from './audit-write-offload.js';

const { path } = workerData as AuditWriteWorkerData;

// Thrown here (a missing file, a file that is no database): the thread ends with an error, and
// the offload counts the batch it was sent as not written.
const sqlite = new Database(path, { fileMustExist: true });
// The pragmas of sqlite-database.ts, which are per connection (WAL is the file's, set there).
sqlite.pragma('journal_mode = WAL');
sqlite.pragma('synchronous = NORMAL');
sqlite.pragma('foreign_keys = ON');
// The main connection writes too (cache entries, admin changes, retention): one of the two waits
// for the other's commit, up to 5 s, as two processes on one file would.
sqlite.pragma('busy_timeout = 5000');
sqlite.pragma('cache_size = -4096');
const db = new Kysely<DatabaseSchema>({
  dialect: new SqliteDialect({ database: createStatementCache(sqlite) }),
});
const store = createAuditStore(db);

/** What a failed batch reports: its SQLite code and message (never a row's content). */
function toFailure(id: number, error: unknown): AuditWriteAnswer {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  return {
    id,
    ok: false,
    ...(typeof code === 'string' ? { sqliteCode: code } : {}),
    message: error instanceof Error ? error.message : 'audit batch failed',
  };
}

parentPort?.on('message', (job: AuditWriteJob) => {
  if (job.kind === 'close') {
    // Destroying Kysely closes the connection; the thread then has nothing left to run.
    void db.destroy().finally(() => {
      parentPort?.close();
    });
    return;
  }
  store.insertBatch(job.records).then(
    () => {
      parentPort?.postMessage({ id: job.id, ok: true } satisfies AuditWriteAnswer);
    },
    (error: unknown) => {
      parentPort?.postMessage(toFailure(job.id, error));
    },
  );
});
