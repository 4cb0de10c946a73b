import { Kysely, PostgresDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { describeDatabaseLocation } from './database-location.js';
import type { DatabaseSchema } from './database-schema.js';
import { CHANGE_CHANNEL, createMigrationProvider } from './migrations.js';
import {
  DatabaseOpenError,
  type OpenDatabaseOptions,
  type RelayDatabase,
} from './relay-database.js';
import { POSTGRES_LOCK_NAMESPACE, POSTGRES_WRITE_LOCK } from './write-lock.js';

/** The second key of the advisory lock a single relay without a shared coordinator holds. */
const SINGLE_REPLICA_LOCK_KEY = 100;

/** Options of {@link openPostgresDatabase}. */
export interface OpenPostgresOptions extends OpenDatabaseOptions {
  /**
   * The schema the relay's tables live in (created when missing). Default `public`. Tests give
   * each file a schema of its own.
   */
  readonly schema?: string;
  /** Connections of the pool at most. Default 10. */
  readonly maxConnections?: number;
  /** How long acquiring a connection may take before the store call fails, ms. Default 5,000. */
  readonly connectionTimeoutMs?: number;
  /**
   * Hold a session advisory lock for as long as this process runs, and refuse to open while
   * another process holds it: a relay whose leases, cooldowns and quota live in its own memory
   * must be the only replica on its database. Default false.
   */
  readonly exclusive?: boolean;
  /** How long the change listener waits before it reconnects, ms. Default 1,000. */
  readonly listenerRetryMs?: number;
  /**
   * How often the change listener proves its connection alive (`select 1`, which must answer
   * within the same time), ms. A connection that stops answering without closing (a network
   * partition) would otherwise miss notifications unnoticed. Default 5,000.
   */
  readonly listenerCheckMs?: number;
  /**
   * How long one statement may wait for its answer before it fails as unavailable, ms: a server
   * that stops answering without closing its connections holds no request longer. Default 15,000.
   */
  readonly queryTimeoutMs?: number;
  /** Reports a lost change listener or a lost exclusive lock (never the URL). */
  readonly onProblem?: (problem: { code: PostgresProblemCode }) => void;
}

/**
 * Background problems of the PostgreSQL database: `database_listener_lost` (caches are read
 * through until the listener is back), `database_exclusive_lock_lost` (another replica took the
 * single-replica lock while the connection holding it was down).
 */
export type PostgresProblemCode = 'database_listener_lost' | 'database_exclusive_lock_lost';

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** Swallows an error nobody waits for (a connection already lost being closed). */
const ignore = (): void => undefined;

/**
 * Opens the relay's PostgreSQL database through a connection pool and Kysely's Postgres
 * dialect, and brings its schema up to date (the same migration history as SQLite; Kysely's
 * migration lock lets several replicas start at once).
 *
 * Change detection: the migrations install statement triggers on the tables whose rows the relay
 * caches (callers, grants, clients, the string-rewrite policy) that `NOTIFY` on
 * {@link CHANGE_CHANNEL} at every commit that touches them, from any connection (another
 * replica, an operator's `psql`). One dedicated connection listens; every notification bumps
 * {@link RelayDatabase.externalChangeVersion}, so the caller lookups and the policy snapshot
 * are dropped as soon as the notification arrives (on a LAN, well under a millisecond after the
 * commit). While that connection is down the version changes at every reading: every lookup
 * goes to the database until the listener is back, so nothing stale is served meanwhile.
 *
 * @param url - a `postgres://` or `postgresql://` URL (never logged)
 * @param options - schema, pool bounds, exclusivity, clock of seeded rows
 * @throws DatabaseOpenError (`database_unavailable`) when the server cannot be reached, the
 *   schema cannot be migrated, or (with `exclusive`) another relay holds the database
 */
export async function openPostgresDatabase(
  url: string,
  options: OpenPostgresOptions = {},
): Promise<RelayDatabase> {
  const schema = options.schema ?? 'public';
  if (!IDENTIFIER.test(schema)) throw new TypeError('schema must be a lowercase SQL identifier');
  const searchPath = `-c search_path=${schema}`;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    query_timeout: options.queryTimeoutMs ?? 15_000,
    options: searchPath,
  });
  // An idle connection that breaks (the server restarts) is discarded by the pool, which then
  // reports it here; without a listener node would treat it as an uncaught error.
  pool.on('error', ignore);
  // A connection Kysely holds between two statements reports its loss as an 'error' event of
  // its own (the pool listens only while it is idle): the next statement on it fails, typed, and
  // the pool replaces it at release. Without a listener the event would end the process.
  pool.on('connect', (client) => {
    client.on('error', ignore);
  });
  const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
  const listener = createChangeListener(url, searchPath, options);
  try {
    const { error } = await new Migrator({
      db,
      provider: createMigrationProvider({
        now: options.now ?? (() => new Date()),
        dialect: 'postgres',
      }),
      migrationTableSchema: schema,
    }).migrateToLatest();
    if (error !== undefined)
      throw error instanceof Error ? error : new Error('migration failed', { cause: error });
    await listener.start();
  } catch (cause) {
    await listener.stop();
    await db.destroy();
    if (cause instanceof DatabaseOpenError) throw cause;
    // The location names the server, never the password (the URL may hold one).
    const where = describeDatabaseLocation({ dialect: 'postgres', url });
    throw new DatabaseOpenError(`the database ${where} could not be opened or migrated`, { cause });
  }
  let closed = false;
  return {
    dialect: 'postgres',
    db,
    writeLock: POSTGRES_WRITE_LOCK,
    externalChangeVersion: () => {
      if (closed) throw new Error('the database is closed');
      return listener.version();
    },
    async close() {
      if (closed) return;
      closed = true;
      await listener.stop();
      await db.destroy();
    },
  };
}

interface ChangeListener {
  /** Connects, takes the exclusive lock if asked, and listens; throws when it cannot. */
  start(): Promise<void>;
  version(): number;
  stop(): Promise<void>;
}

function createChangeListener(
  url: string,
  searchPath: string,
  options: OpenPostgresOptions,
): ChangeListener {
  const retryMs = options.listenerRetryMs ?? 1_000;
  let version = 0;
  let listening = false;
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const checkMs = options.listenerCheckMs ?? 5_000;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({
      connectionString: url,
      options: searchPath,
      connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
    });
    next.on('error', () => {
      lost(next);
    });
    next.on('end', () => {
      lost(next);
    });
    next.on('notification', () => {
      version++;
    });
    client = next;
    await next.connect();
    if (options.exclusive === true) {
      const { rows } = await next.query<{ locked: boolean }>(
        'select pg_try_advisory_lock($1, $2) as locked',
        [POSTGRES_LOCK_NAMESPACE, SINGLE_REPLICA_LOCK_KEY],
      );
      if (rows[0]?.locked !== true) {
        await next.end().catch(ignore);
        throw new DatabaseOpenError(
          'another relay-server holds this database; several replicas need a shared coordinator (RELAY_REDIS_URL)',
        );
      }
    }
    await next.query(`listen ${CHANGE_CHANNEL}`);
    // Changes committed while nobody listened are not replayed: count one.
    version++;
    listening = true;
    watch(next);
  };

  /** Proves the listener's connection alive every `checkMs`; one that does not answer is lost. */
  const watch = (which: pg.Client) => {
    const timer = setInterval(() => {
      if (which !== client) {
        clearInterval(timer);
        return;
      }
      let answered = false;
      const deadline = setTimeout(() => {
        if (!answered) drop(which);
      }, checkMs);
      deadline.unref();
      which.query('select 1').then(
        () => {
          answered = true;
          clearTimeout(deadline);
        },
        () => {
          answered = true;
          clearTimeout(deadline);
          drop(which);
        },
      );
    }, checkMs);
    timer.unref();
  };

  /** Gives up a listener connection that stopped answering: its socket is destroyed. */
  const drop = (which: pg.Client) => {
    const stream = (which as unknown as { connection?: { stream?: { destroy(): void } } })
      .connection?.stream;
    lost(which);
    stream?.destroy();
  };

  const lost = (which: pg.Client) => {
    if (which !== client) return;
    client = undefined;
    if (listening) options.onProblem?.({ code: 'database_listener_lost' });
    listening = false;
    which.removeAllListeners('notification');
    void which.end().catch(ignore);
    schedule();
  };

  const schedule = () => {
    if (stopped || retry !== undefined) return;
    retry = setTimeout(() => {
      retry = undefined;
      if (stopped) return;
      connect().catch((error: unknown) => {
        if (error instanceof DatabaseOpenError) {
          options.onProblem?.({ code: 'database_exclusive_lock_lost' });
        }
        const failed = client;
        client = undefined;
        void failed?.end().catch(ignore);
        schedule();
      });
    }, retryMs);
    retry.unref();
  };

  return {
    start: connect,
    // Without a listener, every reading is a change: readers go to the database each time.
    version: () => (listening ? version : ++version),
    async stop() {
      stopped = true;
      if (retry !== undefined) clearTimeout(retry);
      const current = client;
      client = undefined;
      listening = false;
      await current?.end().catch(ignore);
    },
  };
}
