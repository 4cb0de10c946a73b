import { CALLER_CLIENTS_MAX, err, normalizeClientName, ok, type Result } from '@relay/protocol';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from './database-schema.js';
import { ensurePool, type DatabaseHandle } from './pool-store.js';
import { NO_WRITE_LOCK, type WriteLock } from './write-lock.js';

/** What an enrollment (login exchange or admin provisioning) writes. */
export interface EnrollmentInput {
  /** The immutable forge user id. */
  readonly forgeUserId: number;
  /** The account's current login. */
  readonly login: string;
  /** The pool granted (created implicitly with `newPoolPolicyJson`). */
  readonly grantPool: string;
  /** The policy text of the pool if this enrollment creates it. */
  readonly newPoolPolicyJson: string;
  /** A pool the caller must already hold a grant on (login with an explicit pool). */
  readonly requirePool?: string;
  /** The normalized client name. */
  readonly clientName: string;
  /** SHA-256 (hex) of the new token of that client. */
  readonly tokenSha256: string;
  /** The current time. */
  readonly nowIso: string;
  /** When the new token expires. */
  readonly expiresAtIso: string;
  /** When the account's organization membership was verified, if it was. */
  readonly verifiedAtIso?: string;
}

/** The enrolled caller and client. */
export interface Enrollment {
  readonly callerId: string;
  readonly clientId: string;
  /** The client name as stored. */
  readonly clientName: string;
  /** Whether the caller row is disabled (enrollment never enables it). */
  readonly disabled: boolean;
}

/**
 * Why an enrollment was refused; nothing was written.
 *
 * - `caller_ambiguous`: several active historical callers match the login and none is bound to
 *   the forge user id; an operator must decide.
 * - `client_name_ambiguous`: several historical clients of the caller match the name.
 * - `pool_forbidden`: the caller holds no grant on `requirePool`.
 */
export type EnrollmentErrorCode = 'caller_ambiguous' | 'client_name_ambiguous' | 'pool_forbidden';

/** A refused enrollment. */
export interface EnrollmentError {
  readonly code: EnrollmentErrorCode;
}

class EnrollmentRefusal extends Error {
  constructor(readonly code: EnrollmentErrorCode) {
    super(code);
  }
}

/** A caller token's owner, as authentication sees it. */
export interface TokenOwner {
  readonly callerId: string;
  readonly clientId: string;
  readonly clientName: string;
  readonly login: string;
  readonly tokenSha256: string;
  readonly expiresAtIso: string;
  readonly disabled: boolean;
  readonly lastUsedAtIso: string | null;
}

/** An active client of a caller. */
export interface CallerClient {
  readonly id: string;
  readonly name: string;
  readonly lastUsedAtIso: string | null;
  readonly updatedAtIso: string;
}

/** Caller, grant and client storage. */
export interface CallerStore {
  /**
   * Enrolls atomically: binds the caller by immutable id (creating it with role `none`),
   * updates its login, adds the grant, and rotates the named client's token under the
   * 16-client cap. Roles and the disabled flag are never changed.
   */
  enroll(input: EnrollmentInput): Promise<Result<Enrollment, EnrollmentError>>;
  /** The owner of a token hash, or undefined. */
  findTokenOwner(tokenSha256: string): Promise<TokenOwner | undefined>;
  /** Whether a caller holds a grant on a pool. */
  hasGrant(callerId: string, poolId: string): Promise<boolean>;
  /** Records a client's use. */
  touchClient(clientId: string, nowIso: string): Promise<void>;
  /** The caller's clients, most recently used first. */
  listClients(callerId: string): Promise<CallerClient[]>;
}

/** Options of {@link createCallerStore}. */
export interface CallerStoreOptions {
  /** Makes caller and client ids. */
  readonly createId: (prefix: 'cal' | 'cli') => string;
  /**
   * Serializes enrollments across processes (`RelayDatabase.writeLock`). Default: none, which
   * is right for SQLite only.
   */
  readonly writeLock?: WriteLock;
}

/**
 * Creates the caller store over Kysely (portable SQL).
 *
 * @param db - the database
 * @param options - the id factory
 */
export function createCallerStore(
  db: Kysely<DatabaseSchema>,
  options: CallerStoreOptions,
): CallerStore {
  const writeLock = options.writeLock ?? NO_WRITE_LOCK;
  async function bindCaller(trx: DatabaseHandle, input: EnrollmentInput): Promise<string> {
    const bound = await trx
      .selectFrom('callers')
      .select(['id'])
      .where('forge_user_id', '=', input.forgeUserId)
      .executeTakeFirst();
    if (bound !== undefined) {
      await trx
        .updateTable('callers')
        .set({ login: input.login, updated_at: input.nowIso })
        .where('id', '=', bound.id)
        .execute();
      return bound.id;
    }
    const legacy = await trx
      .selectFrom('callers')
      .select(['id'])
      .where('forge_user_id', 'is', null)
      .where('disabled', '=', 0)
      .where((eb) => eb(eb.fn('lower', ['login']), '=', input.login.toLowerCase()))
      .execute();
    if (legacy.length > 1) throw new EnrollmentRefusal('caller_ambiguous');
    const [only] = legacy;
    if (only !== undefined) {
      await trx
        .updateTable('callers')
        .set({ forge_user_id: input.forgeUserId, login: input.login, updated_at: input.nowIso })
        .where('id', '=', only.id)
        .execute();
      return only.id;
    }
    const id = options.createId('cal');
    await trx
      .insertInto('callers')
      .values({
        id,
        forge_user_id: input.forgeUserId,
        login: input.login,
        role: 'none',
        disabled: 0,
        org_identity_verified_at: null,
        created_at: input.nowIso,
        updated_at: input.nowIso,
      })
      .execute();
    return id;
  }

  async function rotateClient(
    trx: DatabaseHandle,
    callerId: string,
    input: EnrollmentInput,
  ): Promise<{ id: string; name: string }> {
    const clients = await trx
      .selectFrom('caller_clients')
      .select(['id', 'name', 'updated_at'])
      .where('caller_id', '=', callerId)
      .orderBy('updated_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
    const wanted = input.clientName.toLowerCase();
    const family = clients.filter((client) => {
      const normalized = normalizeClientName(client.name);
      return (normalized.ok ? normalized.value : client.name).toLowerCase() === wanted;
    });
    const exact = family.filter((client) => client.name === input.clientName);
    const target = exact.length === 1 ? exact[0] : family.length === 1 ? family[0] : undefined;
    if (target === undefined && family.length > 0) {
      throw new EnrollmentRefusal('client_name_ambiguous');
    }
    if (target !== undefined) {
      await trx
        .updateTable('caller_clients')
        .set({
          name: input.clientName,
          token_sha256: input.tokenSha256,
          expires_at: input.expiresAtIso,
          updated_at: input.nowIso,
        })
        .where('id', '=', target.id)
        .execute();
      return { id: target.id, name: input.clientName };
    }
    const excess = clients.length - (CALLER_CLIENTS_MAX - 1);
    if (excess > 0) {
      const retired = clients.slice(0, excess).map((client) => client.id);
      await trx.deleteFrom('caller_clients').where('id', 'in', retired).execute();
    }
    const id = options.createId('cli');
    await trx
      .insertInto('caller_clients')
      .values({
        id,
        caller_id: callerId,
        name: input.clientName,
        token_sha256: input.tokenSha256,
        expires_at: input.expiresAtIso,
        created_at: input.nowIso,
        updated_at: input.nowIso,
        last_used_at: null,
      })
      .execute();
    return { id, name: input.clientName };
  }

  return {
    async enroll(input) {
      try {
        const enrollment = await db.transaction().execute(async (trx) => {
          // One enrollment at a time across replicas: the client cap and the binding of a forge
          // user to one caller are read-then-write (see write-lock.ts).
          await writeLock(trx, 'enrollment');
          await ensurePool(trx, input.grantPool, input.newPoolPolicyJson, input.nowIso);
          const callerId = await bindCaller(trx, input);
          if (input.verifiedAtIso !== undefined) {
            await trx
              .updateTable('callers')
              .set({ org_identity_verified_at: input.verifiedAtIso })
              .where('id', '=', callerId)
              .execute();
          }
          await trx
            .insertInto('caller_grants')
            .values({ caller_id: callerId, pool_id: input.grantPool, created_at: input.nowIso })
            .onConflict((oc) => oc.columns(['caller_id', 'pool_id']).doNothing())
            .execute();
          if (input.requirePool !== undefined && input.requirePool !== input.grantPool) {
            const grant = await trx
              .selectFrom('caller_grants')
              .select('pool_id')
              .where('caller_id', '=', callerId)
              .where('pool_id', '=', input.requirePool)
              .executeTakeFirst();
            if (grant === undefined) throw new EnrollmentRefusal('pool_forbidden');
          }
          const client = await rotateClient(trx, callerId, input);
          const caller = await trx
            .selectFrom('callers')
            .select('disabled')
            .where('id', '=', callerId)
            .executeTakeFirstOrThrow();
          return {
            callerId,
            clientId: client.id,
            clientName: client.name,
            disabled: caller.disabled !== 0,
          };
        });
        return ok(enrollment);
      } catch (error) {
        if (error instanceof EnrollmentRefusal) return err({ code: error.code });
        throw error;
      }
    },

    async findTokenOwner(tokenSha256) {
      const row = await db
        .selectFrom('caller_clients')
        .innerJoin('callers', 'callers.id', 'caller_clients.caller_id')
        .select([
          'caller_clients.id as client_id',
          'caller_clients.name as client_name',
          'caller_clients.token_sha256',
          'caller_clients.expires_at',
          'caller_clients.last_used_at',
          'callers.id as caller_id',
          'callers.login',
          'callers.disabled',
        ])
        .where('caller_clients.token_sha256', '=', tokenSha256)
        .executeTakeFirst();
      if (row === undefined) return undefined;
      return {
        callerId: row.caller_id,
        clientId: row.client_id,
        clientName: row.client_name,
        login: row.login,
        tokenSha256: row.token_sha256,
        expiresAtIso: row.expires_at,
        disabled: row.disabled !== 0,
        lastUsedAtIso: row.last_used_at,
      };
    },

    async hasGrant(callerId, poolId) {
      const row = await db
        .selectFrom('caller_grants')
        .select('pool_id')
        .where('caller_id', '=', callerId)
        .where('pool_id', '=', poolId)
        .executeTakeFirst();
      return row !== undefined;
    },

    async touchClient(clientId, nowIso) {
      await db
        .updateTable('caller_clients')
        .set({ last_used_at: nowIso })
        .where('id', '=', clientId)
        .execute();
    },

    async listClients(callerId) {
      const rows = await db
        .selectFrom('caller_clients')
        .select(['id', 'name', 'last_used_at', 'updated_at'])
        .where('caller_id', '=', callerId)
        .orderBy('updated_at', 'desc')
        .execute();
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        lastUsedAtIso: row.last_used_at,
        updatedAtIso: row.updated_at,
      }));
    },
  };
}
