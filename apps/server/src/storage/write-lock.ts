import { sql, type Transaction } from 'kysely';
import type { DatabaseSchema } from './database-schema.js';

/**
 * The read-modify-write operations that hold a write lock for their whole transaction: at most
 * one of each name runs at a time across every process on the database.
 */
export type WriteLockName = 'enrollment' | 'identity_registration';

/** Takes the named lock inside `trx`; it is released when `trx` commits or rolls back. */
export type WriteLock = (trx: Transaction<DatabaseSchema>, name: WriteLockName) => Promise<void>;

/** The lock of SQLite: none is needed (one connection per process runs one transaction at once). */
export const NO_WRITE_LOCK: WriteLock = () => Promise.resolve();

/** The first key of the relay's PostgreSQL advisory locks ("RLAY" in ASCII). */
export const POSTGRES_LOCK_NAMESPACE = 0x524c4159;

/** The second key of each named lock. */
const POSTGRES_LOCK_KEYS: Readonly<Record<WriteLockName, number>> = {
  enrollment: 1,
  identity_registration: 2,
};

/**
 * The lock of PostgreSQL: `pg_advisory_xact_lock(namespace, key)`, held until the transaction
 * ends. Enrollment reads a caller's clients, then retires the oldest and inserts a new one; two
 * replicas doing that at once under READ COMMITTED would both see 16 clients and leave 17, or
 * both create the same forge user's caller and one would fail on the unique key. Serializing
 * the whole transaction (enrollments are rare: logins and provisioning) keeps every invariant
 * of the single-process store.
 */
export const POSTGRES_WRITE_LOCK: WriteLock = async (trx, name) => {
  await sql`select pg_advisory_xact_lock(${sql.lit(POSTGRES_LOCK_NAMESPACE)}, ${sql.lit(POSTGRES_LOCK_KEYS[name])})`.execute(
    trx,
  );
};
