import type { IdentityPool } from '@relay/identity-pool';
import type { RelayPipelineDeps } from '../pipeline/relay-pipeline.js';
import {
  createCredentialRegistry,
  governTransport,
  type CredentialRegistry,
} from './governed-transport.js';
import type { UpstreamGovernor } from './upstream-governor.js';
import type { UsageTally } from './usage-tally.js';

/** Options of {@link governRelayPipelineDeps}. */
export interface GovernedPipelineOptions {
  readonly governor: UpstreamGovernor;
  /** The caller of the request being served (the fair queue's key). */
  readonly callerOf: () => string | undefined;
  /** Counts upstream requests by identity and bucket (health's `used_last_minute`). */
  readonly usage?: UsageTally;
  /** Default: a fresh {@link createCredentialRegistry}. */
  readonly registry?: CredentialRegistry;
}

/**
 * Wraps the identity pool so that every selection sees which identities are at their pace limit
 * (they count as busy: `atPaceLimit`) and every credential handed out is registered under its
 * identity (the governed transport paces its requests by identity). Each acquisition claims the
 * selected identity's headroom at the moment selection decides ({@link UpstreamGovernor.claim}),
 * so that concurrent selections spread a burst over the identities with headroom instead of all
 * choosing the one none has spent yet; the claim ends when its request is admitted, and the
 * claims of identities whose credential failed are given back at once.
 *
 * @param pool - the pipeline's identity pool
 * @param governor - the upstream governor
 * @param registry - the credential registry of the governed transport
 */
export function governIdentityPool(
  pool: IdentityPool,
  governor: UpstreamGovernor,
  registry: CredentialRegistry,
): IdentityPool {
  const atPaceLimit = (ids: readonly string[]) => governor.atLimit(ids);
  return {
    select: (request, exclude) => pool.select({ atPaceLimit, ...request }, exclude),
    async acquire(request) {
      const claimed: { readonly id: string; readonly release: () => void }[] = [];
      const onSelected = (id: string) => {
        claimed.push({ id, release: governor.claim(id) });
      };
      let acquired: Awaited<ReturnType<IdentityPool['acquire']>> | undefined;
      try {
        acquired = await pool.acquire({ atPaceLimit, ...request, onSelected });
        return acquired;
      } finally {
        // Only the identity handed out keeps its claim (its request is admitted next).
        const kept = acquired?.ok === true ? acquired.value.identity.id : undefined;
        let keptOnce = false;
        for (const { id, release } of claimed) {
          if (id === kept && !keptOnce) keptOnce = true;
          else release();
        }
        if (acquired?.ok === true) {
          const { credential, identity } = acquired.value;
          registry.register(credential.toAuthorizationHeader(), identity.id);
        }
      }
    },
    report: (report) => pool.report(report),
  };
}

/**
 * Puts the upstream governor in front of every upstream request of the relay pipeline: its
 * transport is governed ({@link governTransport}: lanes, visibility probes, pagination, log
 * probes) and its identity pool selects with headroom ({@link governIdentityPool}). Cache hits
 * and stale answers never reach the transport, so they never wait. Coalesced duplicates share one
 * flight (the pipeline's single-flight sits before the transport), so they cost one permit.
 *
 * @param deps - the pipeline's ports
 * @param options - governor, caller, usage tally and credential registry
 * @example
 * ```ts
 * const governor = createUpstreamGovernor({ now: Date.now });
 * const pipeline = createRelayPipeline(governRelayPipelineDeps(deps, {
 *   governor, callerOf: () => requestScope.current()?.callerId }));
 * ```
 */
export function governRelayPipelineDeps(
  deps: RelayPipelineDeps,
  options: GovernedPipelineOptions,
): RelayPipelineDeps {
  const registry = options.registry ?? createCredentialRegistry();
  return {
    ...deps,
    transport: governTransport(deps.transport, {
      governor: options.governor,
      registry,
      callerOf: options.callerOf,
      ...(options.usage === undefined ? {} : { usage: options.usage }),
    }),
    identityPool: governIdentityPool(deps.identityPool, options.governor, registry),
  };
}
