import { COOLDOWN_MS, LEASE_TTL_MS, err, ok, type LeaseReason, type Result } from '@relay/protocol';
import { CoordinatorError, type Coordinator, type CoordinatorErrorCode } from './coordinator.js';
import {
  isLocalCredentialError,
  toCredentialErrorCode,
  type CredentialError,
  type CredentialProvider,
  type PooledCredential,
} from './credential.js';
import {
  decideHealthFeedback,
  type HealthFeedback,
  type UpstreamOutcome,
} from './health-feedback.js';
import type { EligibilityPolicy, SelectionRoute } from './identity-eligibility.js';
import { selectIdentity, type Selection, type SelectionFailure } from './identity-selector.js';
import type { PoolIdentity } from './pool-identity.js';
import { parseRateLimitHeaders } from './rate-state.js';

/** Options of {@link createIdentityPool}. */
export interface IdentityPoolOptions {
  /** Leases, cooldowns and rate state. */
  readonly coordinator: Coordinator;
  /** Resolves credentials of selected identities (see {@link combineCredentialProviders}). */
  readonly credentials: CredentialProvider;
  /** The clock, epoch milliseconds. */
  readonly now: () => number;
  /** Lease lifetime. Default {@link LEASE_TTL_MS} (10 s). */
  readonly leaseTtlMs?: number;
  /** Default cooldown. Default {@link COOLDOWN_MS} (120 s). */
  readonly cooldownMs?: number;
  /**
   * The identities among `identityIds` at their pace limit now (the relay's upstream governor):
   * selection treats them as busy (`busy` of {@link selectIdentity}). Default: none is.
   */
  readonly atPaceLimit?: (identityIds: readonly string[]) => Promise<ReadonlySet<string>>;
}

/** What to select an identity for. */
export interface IdentityRequest {
  /** The route. */
  readonly route: SelectionRoute;
  /** The pool policy. */
  readonly policy: EligibilityPolicy;
  /** The pool's active identities. */
  readonly identities: readonly PoolIdentity[];
  /**
   * The identities at their pace limit now, for this request (overrides the pool's
   * {@link IdentityPoolOptions.atPaceLimit}).
   */
  readonly atPaceLimit?: (identityIds: readonly string[]) => Promise<ReadonlySet<string>>;
  /**
   * Called with the selected identity's id synchronously when selection decides, before any
   * other await of the request, so that a pacer can count the choice against that identity's
   * headroom before a concurrent selection reads it (`atPaceLimit`). Called once per identity
   * tried by {@link IdentityPool.acquire} (a credential that fails moves on to another one).
   */
  readonly onSelected?: (identityId: string) => void;
}

/** The coordinator failed (infrastructure failure; maps to a 5xx, never to another identity). */
export interface CoordinatorFailure {
  readonly code: 'coordinator_unavailable';
  /** `unavailable`, or `method_unsupported` for an older coordinator (Versioning 5). */
  readonly cause: CoordinatorErrorCode;
}

/**
 * Every selected credential failed; `error` is the first failure and `errorCode` the catalogue
 * code to answer with ({@link toCredentialErrorCode}). Never names a secret binding.
 */
export interface CredentialFailure {
  readonly code: 'credential_failed';
  readonly error: CredentialError;
  readonly errorCode: ReturnType<typeof toCredentialErrorCode>;
}

/** Why {@link IdentityPool.acquire} found no usable identity. */
export type AcquireFailure = SelectionFailure | CredentialFailure | CoordinatorFailure;

/** An identity with its credential, ready for the upstream call. */
export interface Acquisition {
  /** The identity. */
  readonly identity: PoolIdentity;
  /** Its credential. */
  readonly credential: PooledCredential;
  /** The lease reason for `relay.lease_reason`. */
  readonly reason: LeaseReason;
  /** Identities tried, this one included. */
  readonly attempts: number;
}

/** One upstream call's result, reported back to the pool. */
export interface CallReport {
  /** The identity used. */
  readonly identity: PoolIdentity;
  /** The route served. */
  readonly route: SelectionRoute;
  /** What came back. */
  readonly outcome: UpstreamOutcome;
  /** The credential used (its mint time protects fresh installation tokens). */
  readonly credential?: PooledCredential | undefined;
}

/** Selection, credentials and health feedback of a pool, over a {@link Coordinator}. */
export interface IdentityPool {
  /**
   * Selects an identity ({@link selectIdentity}) with the coordinator's state, and records a
   * fresh lease unless the selection was sticky.
   */
  select(
    request: IdentityRequest,
    exclude?: ReadonlySet<string>,
  ): Promise<Result<Selection, SelectionFailure | CoordinatorFailure>>;
  /**
   * Selects an identity and resolves its credential. A local credential failure records the
   * shared credential cooldown and tries another eligible identity; a failed token exchange
   * records the cooldown its status calls for and tries another; an exchange the relay's own
   * pacing refused (`token_exchange_refused`) records nothing and tries another. When every
   * selected credential failed, the first failure is returned.
   */
  acquire(request: IdentityRequest): Promise<Result<Acquisition, AcquireFailure>>;
  /**
   * Records an upstream call's result: the rate state from `x-ratelimit-*` (every call), and the
   * cooldown of {@link decideHealthFeedback}; drops a rejected cached credential.
   */
  report(report: CallReport): Promise<Result<HealthFeedback, CoordinatorFailure>>;
}

function toCoordinatorFailure(error: unknown): CoordinatorFailure {
  return {
    code: 'coordinator_unavailable',
    cause: error instanceof CoordinatorError ? error.code : 'unavailable',
  };
}

/**
 * Creates the identity pool of a relay process.
 *
 * @example
 * ```ts
 * const pool = createIdentityPool({ coordinator: createMemoryCoordinator({ now: Date.now }),
 *   credentials: combineCredentialProviders({ pat, forge_app: app }), now: Date.now });
 * const acquired = await pool.acquire({ route, policy, identities });
 * if (acquired.ok) {
 *   const response = await transport.get(path, acquired.value.credential);
 *   await pool.report({ identity: acquired.value.identity, route, credential: acquired.value.credential,
 *     outcome: { kind: 'response', status: response.status, headers: response.headers } });
 * }
 * ```
 */
export function createIdentityPool(options: IdentityPoolOptions): IdentityPool {
  const { coordinator, credentials, now } = options;
  const leaseTtlMs = options.leaseTtlMs ?? LEASE_TTL_MS;
  const cooldownMs = options.cooldownMs ?? COOLDOWN_MS;

  async function select(
    request: IdentityRequest,
    exclude?: ReadonlySet<string>,
  ): Promise<Result<Selection, SelectionFailure | CoordinatorFailure>> {
    const { route, policy, identities } = request;
    try {
      const state = await coordinator.readSelectionState({
        routeKey: route.key,
        bucket: route.bucket,
        identityIds: identities.map((identity) => identity.id),
      });
      const atPaceLimit = request.atPaceLimit ?? options.atPaceLimit;
      const busy = await atPaceLimit?.(identities.map((identity) => identity.id));
      const selected = selectIdentity({
        route,
        policy,
        identities,
        state,
        now: now(),
        exclude,
        busy,
      });
      if (selected.ok) request.onSelected?.(selected.value.identity.id);
      if (selected.ok && selected.value.renewLease) {
        await coordinator.setLease(route.key, selected.value.identity.id, leaseTtlMs);
      }
      return selected;
    } catch (error) {
      return err(toCoordinatorFailure(error));
    }
  }

  async function recordCredentialFailure(
    identity: PoolIdentity,
    route: SelectionRoute,
    error: CredentialError,
  ): Promise<CoordinatorFailure | undefined> {
    // The relay's own pacing held the exchange back: nothing was sent, the identity is not at
    // fault (a cooldown would take it from the pool for the relay's own doing).
    if (error.code === 'token_exchange_refused') return undefined;
    try {
      if (isLocalCredentialError(error)) {
        // Versioning 5: an older coordinator without the method is an infrastructure failure.
        const method = (coordinator as Partial<Coordinator>).recordCredentialFailure;
        if (typeof method !== 'function') {
          return { code: 'coordinator_unavailable', cause: 'method_unsupported' };
        }
        await method.call(coordinator, identity.id, cooldownMs);
        return undefined;
      }
      if (error.code !== 'token_exchange_failed') return undefined;
      const outcome: UpstreamOutcome =
        error.status === undefined
          ? { kind: 'transport_error' }
          : {
              kind: 'response',
              status: error.status,
              headers:
                error.retryAfterMs === undefined
                  ? {}
                  : { 'retry-after': String(Math.ceil(error.retryAfterMs / 1000)) },
            };
      const feedback = decideHealthFeedback({
        outcome,
        routeKey: route.key,
        bucket: route.bucket,
        now: now(),
        cooldownMs,
      });
      await coordinator.addCooldown(
        identity.id,
        feedback.cooldown ?? {
          scope: { kind: 'route', routeKey: route.key },
          durationMs: cooldownMs,
          cause: 'failure',
        },
      );
      return undefined;
    } catch (failure) {
      return toCoordinatorFailure(failure);
    }
  }

  return {
    select,

    async acquire(request: IdentityRequest): Promise<Result<Acquisition, AcquireFailure>> {
      const tried = new Set<string>();
      let first: CredentialError | undefined;
      for (;;) {
        const selected = await select(request, tried);
        if (!selected.ok) {
          if (first === undefined || selected.error.code === 'coordinator_unavailable')
            return selected;
          return err({
            code: 'credential_failed',
            error: first,
            errorCode: toCredentialErrorCode(first),
          });
        }
        const { identity, reason } = selected.value;
        tried.add(identity.id);
        const credential = await credentials.resolve(identity);
        if (credential.ok) {
          return ok({ identity, credential: credential.value, reason, attempts: tried.size });
        }
        first ??= credential.error;
        const failure = await recordCredentialFailure(identity, request.route, credential.error);
        if (failure !== undefined) return err(failure);
      }
    },

    async report(report: CallReport): Promise<Result<HealthFeedback, CoordinatorFailure>> {
      const { identity, route, outcome } = report;
      const at = now();
      const feedback = decideHealthFeedback({
        outcome,
        routeKey: route.key,
        bucket: route.bucket,
        now: at,
        credentialMintedAt: report.credential?.mintedAt,
        cooldownMs,
      });
      if (feedback.invalidateCredential) credentials.invalidate(identity);
      try {
        if (outcome.kind === 'response') {
          const rate = parseRateLimitHeaders(outcome.headers, route.bucket, at);
          if (rate !== undefined) await coordinator.recordRateState(identity.id, rate);
        }
        if (feedback.cooldown !== undefined)
          await coordinator.addCooldown(identity.id, feedback.cooldown);
      } catch (error) {
        return err(toCoordinatorFailure(error));
      }
      return ok(feedback);
    },
  };
}
