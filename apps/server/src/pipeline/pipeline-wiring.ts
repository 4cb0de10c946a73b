import { AsyncLocalStorage } from 'node:async_hooks';
import type { CacheStore } from '@relay/cache';
import type { ForgeTransport } from '@relay/forge-transport';
import {
  combineCredentialProviders,
  createForgeAppCredentialProvider,
  createIdentityPool,
  createPatCredentialProvider,
  toPoolIdentity,
  type Coordinator,
  type ExchangeFetch,
  type SecretResolver,
} from '@relay/identity-pool';
import { DEFAULT_REQUEST_TIMEOUT_MS, callerTokenSchema } from '@relay/protocol';
import type { AuditRecord } from '../audit/audit-record.js';
import { readBearerToken } from '../auth/caller-authenticator.js';
import { isCachingCallerStore, type LookupReading } from '../auth/caller-lookup-cache.js';
import { digestsEqual, hashToken } from '../auth/caller-token.js';
import type { ServerServices } from '../server-services.js';
import type { TokenOwner } from '../storage/caller-store.js';
import { findPool } from '../storage/pool-store.js';
import { createPoolPolicyCache } from './pool-policy-cache.js';
import type { PipelineCaller, RelayPipelineDeps } from './relay-pipeline.js';
import { createRewriteSnapshotLoader, type RewriteSnapshot } from './rewrite-snapshot.js';
import { createVisibilityGuard, type VisibilityGuard } from './visibility-guard.js';
import type { RewriteCheckOffload } from '../policy/rewrite-check-offload.js';

/** What {@link createRelayPipelineDeps} builds the pipeline's ports from. */
export interface RelayPipelineWiring {
  /** The storage-backed services of the server (callers, identities, rewrites, pools). */
  readonly services: ServerServices;
  /** The only door to the forge. */
  readonly transport: ForgeTransport;
  /** Leases, cooldowns and rate state. */
  readonly coordinator: Coordinator;
  /** The shared cache. */
  readonly cache: CacheStore;
  /** Coalesces identical misses; default within this process (see `RelayPipelineDeps`). */
  readonly createFlights?: RelayPipelineDeps['createFlights'];
  /** The public-visibility guard; default one of this process (`createVisibilityGuard`). */
  readonly guard?: VisibilityGuard;
  /** The anonymous lane's spent marks; default this process's (see `RelayPipelineDeps`). */
  readonly anonymousBudget?: RelayPipelineDeps['anonymousBudget'];
  /** Queues an audit row. */
  readonly audit: (record: AuditRecord) => void;
  /** Reads secret bindings (PATs and app keys); without it every pooled credential is missing. */
  readonly readSecret?: SecretResolver | undefined;
  /** RELAY_FORGE_APP_ID. */
  readonly forgeAppId?: number | undefined;
  /** RELAY_FORGE_API_URL. */
  readonly forgeApiUrl: string;
  /** MAX_RESPONSE_BYTES: the largest stored cache entry too. */
  readonly maxResponseBytes?: number;
  /**
   * The token exchange's fetch. Default: the global `fetch`, after the rewrite check, within
   * {@link RelayPipelineWiring.requestTimeoutMs}.
   */
  readonly exchangeFetch?: ExchangeFetch;
  /**
   * REQUEST_TIMEOUT_MS: the deadline of an installation token exchange, its body included (the
   * transport bounds every other upstream request itself). Default 15 s.
   */
  readonly requestTimeoutMs?: number;
  /** How often a client's last use is written at most. Default 60 s. */
  readonly touchIntervalMs?: number;
  /** How long a public-visibility proof is reused (RELAY_VISIBILITY_PROOF_TTL_S). Default 60 s. */
  readonly visibilityProofTtlMs?: number;
  /**
   * Runs one installation token exchange under the upstream governor (it waits for a permit, and
   * throws when refused). Default: sent at once.
   */
  readonly paceExchange?: (send: () => Promise<Response>) => Promise<Response>;
  /**
   * Runs expensive string-rewrite checks off the event loop, within a deadline. Without it every
   * check runs inline.
   */
  readonly rewriteCheckOffload?: RewriteCheckOffload;
}

/**
 * Adapts the server's storage, auth and forge services to the ports of the relay pipeline.
 *
 * @param wiring - the services, transport, coordinator, cache, audit sink and secrets
 */
export function createRelayPipelineDeps(wiring: RelayPipelineWiring): RelayPipelineDeps {
  const { services } = wiring;
  const now = services.now;
  const touchIntervalMs = wiring.touchIntervalMs ?? 60_000;
  const resolveSecret: SecretResolver = wiring.readSecret ?? (() => Promise.resolve(undefined));
  const exchangeTimeoutMs = wiring.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const loadRewriteSnapshot = createRewriteSnapshotLoader(
    () => services.stringRewrites.read(),
    () => services.stringRewrites.changeStamp(),
    wiring.rewriteCheckOffload,
  );
  // The frozen snapshot of the request on whose behalf a token exchange runs (SPEC.md
  // "Transport-level enforcement": app token exchanges use the request's one snapshot).
  const requestSnapshot = new AsyncLocalStorage<RewriteSnapshot>();
  const exchangeFetch: ExchangeFetch =
    wiring.exchangeFetch ??
    (async (url, init) => {
      let snapshot = requestSnapshot.getStore();
      if (snapshot === undefined) {
        const loaded = await loadRewriteSnapshot();
        if (!loaded.ok) throw new Error('token exchange denied: no string-rewrite policy');
        snapshot = loaded.value;
      }
      if ((await snapshot.checkAll([url])) !== 'pass') {
        throw new Error('token exchange denied by the string-rewrite policy');
      }
      // An upstream request like any other: a forge that never answers (or trickles its body)
      // must not hold the relay request, nor every later exchange of the installation, open.
      const send = () => {
        const deadline = AbortSignal.timeout(exchangeTimeoutMs);
        return fetch(url, {
          ...init,
          redirect: 'manual',
          signal: init.signal ? AbortSignal.any([init.signal, deadline]) : deadline,
        });
      };
      // The upstream governor paces exchanges like any upstream request (the app's JWT is their
      // sender); the deadline starts once the permit is held.
      return wiring.paceExchange === undefined ? send() : wiring.paceExchange(send);
    });
  const credentials = combineCredentialProviders({
    pat: createPatCredentialProvider({ resolveSecret }),
    forge_app: createForgeAppCredentialProvider({
      appId: wiring.forgeAppId === undefined ? undefined : String(wiring.forgeAppId),
      resolveSecret,
      fetch: exchangeFetch,
      apiBaseUrl: wiring.forgeApiUrl,
      now,
    }),
  });

  // With cached caller lookups, each authenticated caller's lookup reading, for the grant check
  // of the same request (one external change check per request: `hasGrantSince`).
  const callers = services.callers;
  const cachedCallers = isCachingCallerStore(callers) ? callers : undefined;
  const readings = new WeakMap<PipelineCaller, LookupReading>();

  async function authenticate(
    authorization: string | undefined,
  ): Promise<PipelineCaller | undefined> {
    const token = readBearerToken(authorization);
    if (token === undefined || !callerTokenSchema.safeParse(token).success) return undefined;
    const digest = hashToken(token);
    let owner: TokenOwner | undefined;
    let reading: LookupReading | undefined;
    if (cachedCallers === undefined) owner = await callers.findTokenOwner(digest);
    else ({ owner, reading } = await cachedCallers.findTokenOwnerChecked(digest));
    const at = now();
    if (
      owner === undefined ||
      !digestsEqual(owner.tokenSha256, digest) ||
      Date.parse(owner.expiresAtIso) <= at ||
      owner.disabled
    ) {
      return undefined;
    }
    if (owner.lastUsedAtIso === null || at - Date.parse(owner.lastUsedAtIso) >= touchIntervalMs) {
      await services.callers.touchClient(owner.clientId, new Date(at).toISOString());
    }
    const caller = { callerId: owner.callerId, clientId: owner.clientId, login: owner.login };
    if (reading !== undefined) readings.set(caller, reading);
    return caller;
  }

  return {
    authenticate,
    hasGrant: (callerId, poolId, caller) => {
      const reading = caller === undefined ? undefined : readings.get(caller);
      return cachedCallers === undefined || reading === undefined || caller?.callerId !== callerId
        ? callers.hasGrant(callerId, poolId)
        : cachedCallers.hasGrantSince(callerId, poolId, reading);
    },
    loadRewriteSnapshot,
    bindRewriteSnapshot: (snapshot) => {
      requestSnapshot.enterWith(snapshot);
    },
    policies: createPoolPolicyCache({
      read: async (poolId) => (await findPool(services.db, poolId))?.policyJson,
      defaults: { allowedOwners: services.settings.defaultAllowedOwners },
      now,
      // A policy edit committed anywhere (another replica, an operator) moves this stamp.
      changeStamp: () => services.stringRewrites.changeStamp(),
    }),
    listIdentities: async (poolId) => (await services.identities.list(poolId)).map(toPoolIdentity),
    identityPool: createIdentityPool({ coordinator: wiring.coordinator, credentials, now }),
    transport: wiring.transport,
    cache: wiring.cache,
    ...(wiring.createFlights === undefined ? {} : { createFlights: wiring.createFlights }),
    ...(wiring.anonymousBudget === undefined ? {} : { anonymousBudget: wiring.anonymousBudget }),
    guard:
      wiring.guard ??
      createVisibilityGuard({
        now,
        ...(wiring.visibilityProofTtlMs === undefined
          ? {}
          : { publicTtlMs: wiring.visibilityProofTtlMs }),
      }),
    audit: wiring.audit,
    isOverloaded: () => services.overload.isOverloaded(),
    now,
    apiOrigin: new URL(wiring.forgeApiUrl).origin,
    ...(wiring.maxResponseBytes === undefined ? {} : { maxEntryBytes: wiring.maxResponseBytes }),
  };
}
