import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../storage/database-schema.js';
import { CHANGE_SEQUENCE_TABLE } from '../storage/migrations.js';
import type { RelayDatabase } from '../storage/relay-database.js';

/**
 * Makes admin changes hold on every replica from the next request. The caches of a replica
 * (caller lookups, the string-rewrite snapshot) are dropped when PostgreSQL's change
 * notification arrives — a moment after the commit, so a request sent to replica B right after
 * an admin call on A returned (or an operator's `psql` commit) could still be answered from B's
 * old caches. With several replicas, each request therefore reads the change sequence that the
 * same commits bump in their own transaction (`0005_change_sequence`): one indexed read, one
 * round trip per request, made at its caller lookup.
 */
export interface ReplicaChangeSync {
  /**
   * Reads the change sequence: once it resolves, {@link ReplicaChangeSync.version} reflects every
   * commit made before the call. A failed read counts as a change (the caches read through).
   */
  sync(): Promise<void>;
  /** A number that changes whenever a {@link ReplicaChangeSync.sync} saw the sequence move. */
  version(): number;
}

/**
 * Creates the change sync over a reader of the sequence.
 *
 * @param read - reads the current sequence value (undefined when there is none)
 */
export function createReplicaChangeSync(
  read: () => Promise<string | undefined>,
): ReplicaChangeSync {
  let last: string | undefined;
  let version = 0;
  return {
    async sync() {
      let seen: string | undefined;
      try {
        seen = await read();
      } catch {
        seen = undefined;
      }
      if (seen === undefined || seen !== last) version++;
      last = seen;
    },
    version: () => version,
  };
}

/**
 * Reads PostgreSQL's change sequence (table `relay_change_sequence`).
 *
 * @param db - the relay database
 */
export function readChangeSequence(db: Kysely<DatabaseSchema>): () => Promise<string | undefined> {
  // bigint: node-postgres returns it as text (a driver set to parse it gives a number).
  const query = sql<{
    value: string | number;
  }>`select value from ${sql.table(CHANGE_SEQUENCE_TABLE)} where id = 1`.compile(db);
  return async () => {
    const value = (await db.executeQuery(query)).rows[0]?.value;
    return value === undefined ? undefined : String(value);
  };
}

/**
 * The same database whose `externalChangeVersion` also moves with `changes` (what the stores'
 * caches check at every use).
 *
 * @param database - the relay database
 * @param changes - the replica change sync
 */
export function withReplicaChanges(
  database: RelayDatabase,
  changes: ReplicaChangeSync,
): RelayDatabase {
  return {
    ...database,
    externalChangeVersion: () => database.externalChangeVersion() + changes.version(),
  };
}
