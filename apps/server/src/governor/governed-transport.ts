import { createHash } from 'node:crypto';
import {
  createTransportError,
  type ForgeRequest,
  type ForgeTransport,
  type ForgeTransportError,
} from '@relay/forge-transport';
import type { PacedBucket, UpstreamGovernor } from './upstream-governor.js';
import type { UsageTally } from './usage-tally.js';

/**
 * Which pooled identity an `Authorization` header belongs to. The pipeline's credential
 * provider registers each credential it hands out ({@link createCredentialRegistry}); the
 * governed transport reads it to pace the request under its identity. Only SHA-256 digests of
 * header values are kept, never a header.
 */
export interface CredentialRegistry {
  /** Records that `authorization` is `identityId`'s credential. */
  register(authorization: string, identityId: string): void;
  /** The identity of `authorization`, if registered. */
  identityOf(authorization: string): string | undefined;
}

/** The most credentials remembered; the oldest is forgotten first (installation tokens rotate). */
const REGISTRY_LIMIT = 10_000;

function digestOf(authorization: string): string {
  return createHash('sha256').update(authorization).digest('base64url');
}

/** Creates an in-process {@link CredentialRegistry} (digests of header values only). */
export function createCredentialRegistry(): CredentialRegistry {
  const owners = new Map<string, string>();
  return {
    register(authorization, identityId) {
      const digest = digestOf(authorization);
      owners.delete(digest);
      owners.set(digest, identityId);
      if (owners.size > REGISTRY_LIMIT) {
        const oldest = owners.keys().next().value;
        if (oldest !== undefined) owners.delete(oldest);
      }
    },
    identityOf(authorization) {
      return owners.get(digestOf(authorization));
    },
  };
}

const refusals = new WeakSet<ForgeTransportError>();

/**
 * Whether a transport failure is the governor's refusal (no headroom within the wait): the
 * relay answers it 424 `fallback_local` with reason `relay_overloaded`.
 *
 * @param error - a transport failure
 */
export function isGovernorRefusal(error: ForgeTransportError): boolean {
  return refusals.has(error);
}

/**
 * The governor's key of an upstream request: the pooled identity of its credential, else
 * `token:<digest>` for an unregistered credential, else the token-free source
 * (`anonymous:api`, `anonymous:web`, `anonymous:raw`, `anonymous:patch`).
 *
 * @param request - the transport request
 * @param registry - the credential registry
 */
export function toGovernorKey(
  request: Pick<ForgeRequest, 'host' | 'authorization'>,
  registry: CredentialRegistry,
): string {
  if (request.authorization === undefined) return `anonymous:${request.host}`;
  return (
    registry.identityOf(request.authorization) ??
    `token:${digestOf(request.authorization).slice(0, 16)}`
  );
}

/**
 * The rate-limit bucket an API path spends: `code_search` for code search, `search` for the
 * other searches, else `core`.
 *
 * @param request - the transport request
 */
export function toRequestBucket(request: Pick<ForgeRequest, 'host' | 'path'>): string {
  if (request.host !== 'api') return request.host;
  if (request.path === '/search/code' || request.path.startsWith('/search/code/')) {
    return 'code_search';
  }
  return request.path.startsWith('/search/') ? 'search' : 'core';
}

/** Options of {@link governTransport}. */
export interface GovernedTransportOptions {
  readonly governor: UpstreamGovernor;
  /** Maps credentials to identities. */
  readonly registry: CredentialRegistry;
  /** The caller of the request being served (fairness); undefined outside a request. */
  readonly callerOf: () => string | undefined;
  /** Counts sent requests by key and bucket (the health forecast's `used_last_minute`). */
  readonly usage?: UsageTally;
}

/**
 * Wraps the forge transport so that every upstream request — lanes, visibility probes,
 * pagination, log probes — first takes a permit of the governor for its sender
 * ({@link toGovernorKey}) and, for searches, of the search bucket; a refused request fails with a
 * transport error that {@link isGovernorRefusal} recognizes (nothing is sent). Each answer is
 * read back for the adaptive pace ({@link UpstreamGovernor.observe}).
 *
 * @param transport - the transport to wrap
 * @param options - governor, credential registry, caller and usage tally
 */
export function governTransport<T extends Pick<ForgeTransport, 'request'>>(
  transport: T,
  options: GovernedTransportOptions,
): T {
  const { governor, registry, callerOf, usage } = options;
  const request: ForgeTransport['request'] = async (forgeRequest) => {
    const key = toGovernorKey(forgeRequest, registry);
    const bucket = toRequestBucket(forgeRequest);
    const paced: PacedBucket | undefined =
      bucket === 'search' || bucket === 'code_search' ? { bucket } : undefined;
    const permit = await governor.admit(key, callerOf() ?? '', paced);
    if (!permit.ok) {
      const refusal = createTransportError('aborted');
      refusals.add(refusal);
      return { ok: false, error: refusal };
    }
    try {
      usage?.record(key, bucket);
      const result = await transport.request(forgeRequest);
      if (result.ok) {
        const { rateLimit } = result.value;
        await governor.observe(key, {
          status: result.value.status,
          remaining: rateLimit.remaining,
          limit: rateLimit.limit,
          resource: rateLimit.resource,
          retryAfter: rateLimit.retryAfterSeconds !== undefined,
        });
      }
      return result;
    } finally {
      permit.value.release();
    }
  };
  return { ...transport, request };
}

/** The governor's key of installation token exchanges: the app's JWT is their sender. */
export function toExchangeKey(appId: number | undefined): string {
  return `forge_app:${appId === undefined ? 'unset' : String(appId)}`;
}

/** Thrown by {@link governExchange} when the governor refused the exchange (nothing was sent). */
export class GovernorRefusalError extends Error {
  readonly code = 'relay_overloaded';

  constructor() {
    super('token exchange refused by the upstream governor: relay_overloaded');
    this.name = 'GovernorRefusalError';
  }
}

/**
 * Runs one installation token exchange under the governor's pace of the app (`key`): it waits for
 * a permit like any upstream request and throws {@link GovernorRefusalError} when refused.
 *
 * @param governor - the upstream governor
 * @param key - the app's key ({@link toExchangeKey})
 * @param caller - the caller the exchange runs for
 * @param send - the exchange
 */
export async function governExchange<T>(
  governor: UpstreamGovernor,
  key: string,
  caller: string,
  send: () => Promise<T>,
): Promise<T> {
  const permit = await governor.admit(key, caller);
  if (!permit.ok) throw new GovernorRefusalError();
  try {
    return await send();
  } finally {
    permit.value.release();
  }
}
