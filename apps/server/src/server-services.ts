import type { RewriteCheck } from '@relay/forge-transport';
import type { PoolQuota, Result, StringRewriteRule } from '@relay/protocol';
import type { Kysely } from 'kysely';
import type { RandomBytes } from './auth/caller-token.js';
import type { ForgeAccountClient } from './forge/forge-account-client.js';
import type { PoolIdentityLane } from './forge/pooled-identity-read.js';
import type { OverloadGuard } from './http/overload-guard.js';
import type { CallerStore } from './storage/caller-store.js';
import type { DatabaseSchema } from './storage/database-schema.js';
import type { IdentityStore } from './storage/identity-store.js';
import type { StringRewriteStore } from './storage/string-rewrite-store.js';

/** A validated PUT /v1/admin/string-rewrites body. */
export interface ParsedPolicyUpdate {
  readonly expectedRevision: number;
  readonly rules: readonly StringRewriteRule[];
}

/**
 * Parses and validates a PUT body (the raw JSON text): @relay/rewrite-engine's
 * `parsePolicyUpdate` has this shape. Errors carry a code only, never rule text.
 */
export type PolicyUpdateParser = (text: string) => Result<ParsedPolicyUpdate, { code: string }>;

/**
 * Builds the transport-level rewrite check of one frozen policy snapshot; undefined when the
 * rules do not compile (the stored policy is then unusable).
 */
export type RewriteCheckFactory = (rules: readonly StringRewriteRule[]) => RewriteCheck | undefined;

/** The deployment settings the routes read (from DESIGN.md §3's environment). */
export interface ServerSettings {
  /** RELAY_ADMIN_TOKEN; unset → every /v1/admin/* answers 401. */
  readonly adminToken: string | undefined;
  /** RELAY_MEMBERSHIP_TTL_S: caller token lifetime in seconds. */
  readonly membershipTtlS: number;
  /** DEFAULT_LOGIN_POOL. */
  readonly defaultLoginPool: string;
  /** ALLOWED_FORGE_ORG; unset → login is refused. */
  readonly allowedForgeOrg: string | undefined;
  /** DEFAULT_ALLOWED_OWNERS: the owners of new pools. */
  readonly defaultAllowedOwners: readonly string[];
}

/**
 * Everything the storage-backed routes are built from: stores, the forge, the clock, the
 * randomness and the policy engine, all injected.
 */
export interface ServerServices {
  readonly settings: ServerSettings;
  readonly db: Kysely<DatabaseSchema>;
  readonly callers: CallerStore;
  readonly identities: IdentityStore;
  readonly stringRewrites: StringRewriteStore;
  readonly forgeAccounts: ForgeAccountClient;
  /** The clock, epoch milliseconds. */
  readonly now: () => number;
  /** Random bytes for tokens. */
  readonly randomBytes: RandomBytes;
  readonly parsePolicyUpdate: PolicyUpdateParser;
  readonly createRewriteCheck: RewriteCheckFactory;
  /** Backpressure of the database-backed surfaces. */
  readonly overload: OverloadGuard;
  /**
   * The identities of `poolId` for provisioning's forge reads (GET /users/{login} and the
   * organization member check), with the identity pool that selects among them as relay
   * requests do. Undefined: those reads are anonymous (the public-members check).
   */
  readonly poolIdentityLane?: (poolId: string) => Promise<PoolIdentityLane>;
  /** How many of these identities cool down globally now (the Coordinator). Default: none. */
  readonly countCoolingDown?: (identityIds: readonly string[]) => Promise<number>;
  /** Entries of the shared cache. Default: 0. */
  readonly countCacheEntries?: () => Promise<number>;
  /**
   * The quota forecast of these identities by rate-limit bucket (health's `quota`, issue 27).
   * Absent: health has no `quota`.
   */
  readonly readPoolQuota?: (
    identityIds: readonly string[],
  ) => Promise<Readonly<Record<string, PoolQuota>>>;
  /**
   * Drops the cached caller lookups (token owners, grants), when `callers` caches them: the
   * app calls it after every admin write, so that the change holds from the next request.
   */
  readonly invalidateCallerLookups?: () => void;
}
