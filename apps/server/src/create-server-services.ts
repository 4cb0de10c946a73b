import { randomBytes as nodeRandomBytes, randomUUID } from 'node:crypto';
import type { ForgeTransport } from '@relay/forge-transport';
import type { Coordinator, SecretResolver } from '@relay/identity-pool';
import type { RandomBytes } from './auth/caller-token.js';
import { createForgeAccountClient } from './forge/forge-account-client.js';
import { createPoolIdentityLanes } from './forge/pool-identity-lanes.js';
import { governTransport, type GovernedTransportOptions } from './governor/governed-transport.js';
import { createOverloadGuard, type OverloadGuardOptions } from './http/overload-guard.js';
import {
  createEngineRewriteCheck,
  parseEnginePolicyUpdate,
} from './policy/rewrite-engine-adapter.js';
import type {
  PolicyUpdateParser,
  RewriteCheckFactory,
  ServerServices,
  ServerSettings,
} from './server-services.js';
import { createCallerStore } from './storage/caller-store.js';
import type { RelayDatabase } from './storage/relay-database.js';
import { createIdentityStore } from './storage/identity-store.js';
import { createStringRewriteStore } from './storage/string-rewrite-store.js';

/** Options of {@link createServerServices}. */
export interface ServerServicesOptions {
  readonly settings: ServerSettings;
  /** The only door to the forge (login and provisioning calls). */
  readonly transport: ForgeTransport;
  /** The clock, epoch milliseconds. Default `Date.now`. */
  readonly now?: () => number;
  /** Random bytes for tokens. Default `crypto.randomBytes`. */
  readonly randomBytes?: RandomBytes;
  /** Caller and client ids. Default: prefix and a random UUID. */
  readonly createId?: (prefix: 'cal' | 'cli') => string;
  /** The PUT body validator. Default: @relay/rewrite-engine's `parsePolicyUpdate`. */
  readonly parsePolicyUpdate?: PolicyUpdateParser;
  /** The transport rewrite check of a policy snapshot. Default: @relay/rewrite-engine. */
  readonly createRewriteCheck?: RewriteCheckFactory;
  /** Backpressure bounds. */
  readonly overload?: OverloadGuardOptions;
  /**
   * The relay's coordinator and secrets: provisioning's forge reads then select the target
   * pool's PAT identities as relay requests do. Without it they are anonymous.
   */
  readonly poolIdentities?: {
    readonly coordinator: Coordinator;
    readonly resolveSecret: SecretResolver;
  };
  /**
   * The relay's upstream governor: every login and provisioning read then takes a permit of its
   * sender (a pooled identity's reads share that identity's window with relay reads, anonymous
   * reads `anonymous:api`'s, a user's own token its `token:<digest>` key) and a refused read
   * fails with `relay_overloaded` (nothing is sent). Without it the reads are not paced.
   */
  readonly governor?: GovernedTransportOptions;
  readonly countCoolingDown?: ServerServices['countCoolingDown'];
  readonly countCacheEntries?: ServerServices['countCacheEntries'];
}

/**
 * Builds the services of the storage-backed surfaces from an open database and the forge
 * transport.
 *
 * @param database - the open relay database
 * @param options - settings, transport, clock, randomness and engine hooks
 */
export function createServerServices(
  database: RelayDatabase,
  options: ServerServicesOptions,
): ServerServices {
  const createId =
    options.createId ?? ((prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '')}`);
  const now = options.now ?? Date.now;
  const identities = createIdentityStore(database.db, { writeLock: database.writeLock });
  return {
    settings: options.settings,
    db: database.db,
    callers: createCallerStore(database.db, { createId, writeLock: database.writeLock }),
    identities,
    stringRewrites: createStringRewriteStore(database.db, {
      externalChangeVersion: () => database.externalChangeVersion(),
      // SQLite's data_version costs a read lock, so one reading stands for 50 ms; PostgreSQL's
      // version is a counter of change notifications, free to read at every request.
      ...(database.dialect === 'postgres' ? { externalCheckIntervalMs: 0 } : {}),
    }),
    forgeAccounts: createForgeAccountClient(
      options.governor === undefined
        ? options.transport
        : governTransport(options.transport, options.governor),
    ),
    now,
    randomBytes: options.randomBytes ?? nodeRandomBytes,
    parsePolicyUpdate: options.parsePolicyUpdate ?? parseEnginePolicyUpdate,
    createRewriteCheck: options.createRewriteCheck ?? createEngineRewriteCheck,
    overload: createOverloadGuard(options.overload),
    ...(options.poolIdentities === undefined
      ? {}
      : {
          poolIdentityLane: createPoolIdentityLanes({
            identities,
            coordinator: options.poolIdentities.coordinator,
            resolveSecret: options.poolIdentities.resolveSecret,
            now,
            ...(options.governor === undefined
              ? {}
              : {
                  governor: {
                    governor: options.governor.governor,
                    registry: options.governor.registry,
                  },
                }),
          }),
        }),
    ...(options.countCoolingDown === undefined
      ? {}
      : { countCoolingDown: options.countCoolingDown }),
    ...(options.countCacheEntries === undefined
      ? {}
      : { countCacheEntries: options.countCacheEntries }),
  };
}
