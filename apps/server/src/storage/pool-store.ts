import type { Kysely, Transaction } from 'kysely';
import type { DatabaseSchema } from './database-schema.js';

/** A database handle or an open transaction. */
export type DatabaseHandle = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

/** A stored pool: its id and its policy text, verbatim. */
export interface StoredPool {
  readonly id: string;
  /** The stored policy JSON, never repaired: a corrupt value is detected at read. */
  readonly policyJson: string;
}

/**
 * Creates `poolId` when it does not exist yet, with `initialPolicyJson` as its policy. An
 * existing pool is left untouched: referencing a pool never resets its policy.
 *
 * @param db - the database or the enclosing transaction
 * @param poolId - the pool id
 * @param initialPolicyJson - the policy of a new pool
 * @param nowIso - the creation time
 */
export async function ensurePool(
  db: DatabaseHandle,
  poolId: string,
  initialPolicyJson: string,
  nowIso: string,
): Promise<void> {
  await db
    .insertInto('pools')
    .values({ id: poolId, policy_json: initialPolicyJson, created_at: nowIso })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/**
 * Reads a pool.
 *
 * @param db - the database
 * @param poolId - the pool id
 * @returns the pool, or undefined when it was never referenced
 */
export async function findPool(
  db: DatabaseHandle,
  poolId: string,
): Promise<StoredPool | undefined> {
  const row = await db
    .selectFrom('pools')
    .select(['id', 'policy_json'])
    .where('id', '=', poolId)
    .executeTakeFirst();
  return row === undefined ? undefined : { id: row.id, policyJson: row.policy_json };
}
