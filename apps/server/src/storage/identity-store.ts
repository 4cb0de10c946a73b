import {
  err,
  ok,
  type IdentityRecord,
  type IdentityRegistration,
  type Result,
} from '@relay/protocol';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from './database-schema.js';
import { ensurePool, type DatabaseHandle } from './pool-store.js';
import { NO_WRITE_LOCK, type WriteLock } from './write-lock.js';

/** The outcome of a registration: the stored identity and whether it was created. */
export interface IdentityUpsert {
  readonly identity: IdentityRecord;
  readonly created: boolean;
}

/** A registration refused because the id exists with another pool or kind. */
export interface IdentityConflict {
  readonly code: 'identity_conflict';
}

/** Identity storage. */
export interface IdentityStore {
  /**
   * Creates or updates an identity of `poolId` (created implicitly). Re-registering updates
   * login, secret_ref, installation_id, weight and replaces the scopes; a changed pool or kind
   * is a conflict and writes nothing.
   */
  upsert(
    poolId: string,
    registration: IdentityRegistration,
    nowIso: string,
    newPoolPolicyJson: string,
  ): Promise<Result<IdentityUpsert, IdentityConflict>>;
  /** Every identity of a pool, with its scopes. */
  list(poolId: string): Promise<IdentityRecord[]>;
}

async function readIdentities(
  db: DatabaseHandle,
  filter: { poolId: string } | { id: string },
): Promise<IdentityRecord[]> {
  const query = db.selectFrom('identities').selectAll();
  const rows = await (
    'id' in filter
      ? query.where('id', '=', filter.id)
      : query.where('pool_id', '=', filter.poolId).orderBy('id')
  ).execute();
  if (rows.length === 0) return [];
  const scopes = await db
    .selectFrom('identity_scopes')
    .selectAll()
    .where(
      'identity_id',
      'in',
      rows.map((row) => row.id),
    )
    .orderBy('identity_id')
    .orderBy('position')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    pool: row.pool_id,
    kind: row.kind as IdentityRecord['kind'],
    login: row.login,
    secret_ref: row.secret_ref,
    installation_id: row.installation_id === null ? null : Number(row.installation_id),
    scopes: scopes
      .filter((scope) => scope.identity_id === row.id)
      .map((scope) => ({
        owner: scope.owner,
        ...(scope.repo === null ? {} : { repo: scope.repo }),
        allow_private: scope.allow_private !== 0,
      })),
    weight: row.weight,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }));
}

class ConflictSignal extends Error {}

/** Options of {@link createIdentityStore}. */
export interface IdentityStoreOptions {
  /**
   * Serializes registrations across processes (`RelayDatabase.writeLock`). Default: none, which
   * is right for SQLite only.
   */
  readonly writeLock?: WriteLock;
}

/**
 * Creates the identity store over Kysely (portable SQL).
 *
 * @param db - the database
 * @param options - the cross-process write lock
 */
export function createIdentityStore(
  db: Kysely<DatabaseSchema>,
  options: IdentityStoreOptions = {},
): IdentityStore {
  const writeLock = options.writeLock ?? NO_WRITE_LOCK;
  return {
    async upsert(poolId, registration, nowIso, newPoolPolicyJson) {
      try {
        const created = await db.transaction().execute(async (trx) => {
          // Two replicas registering one new id would both insert it: one at a time.
          await writeLock(trx, 'identity_registration');
          const existing = await trx
            .selectFrom('identities')
            .select(['pool_id', 'kind'])
            .where('id', '=', registration.id)
            .executeTakeFirst();
          if (
            existing !== undefined &&
            (existing.pool_id !== poolId || existing.kind !== registration.kind)
          ) {
            throw new ConflictSignal();
          }
          await ensurePool(trx, poolId, newPoolPolicyJson, nowIso);
          const fields = {
            login: registration.login,
            secret_ref: registration.secret_ref,
            installation_id: registration.installation_id,
            weight: registration.weight,
            updated_at: nowIso,
          };
          if (existing === undefined) {
            await trx
              .insertInto('identities')
              .values({
                id: registration.id,
                pool_id: poolId,
                kind: registration.kind,
                active: 1,
                created_at: nowIso,
                ...fields,
              })
              .execute();
          } else {
            await trx
              .updateTable('identities')
              .set(fields)
              .where('id', '=', registration.id)
              .execute();
            await trx
              .deleteFrom('identity_scopes')
              .where('identity_id', '=', registration.id)
              .execute();
          }
          if (registration.scopes.length > 0) {
            await trx
              .insertInto('identity_scopes')
              .values(
                registration.scopes.map((scope, position) => ({
                  identity_id: registration.id,
                  position,
                  owner: scope.owner,
                  repo: scope.repo ?? null,
                  allow_private: scope.allow_private ? 1 : 0,
                })),
              )
              .execute();
          }
          return existing === undefined;
        });
        const [identity] = await readIdentities(db, { id: registration.id });
        if (identity === undefined) throw new Error('identity vanished after its registration');
        return ok({ identity, created });
      } catch (error) {
        if (error instanceof ConflictSignal) return err({ code: 'identity_conflict' });
        throw error;
      }
    },

    list(poolId) {
      return readIdentities(db, { poolId });
    },
  };
}
