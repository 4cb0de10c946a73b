import {
  applyNotModified,
  confirmEntry,
  confirmFromItem,
  createCacheKey,
  createSingleFlight,
  decideLookup,
  type SingleFlight,
  decideStale,
  planCacheWrite,
  reduceResponseBody,
  type CacheEntry,
  type CacheHints,
  type CacheStore,
  type LookupDecision,
} from '@relay/cache';
import type { ForgeTransport, JsonValue, RewriteCheck } from '@relay/forge-transport';
import { isGovernorRefusal } from '../governor/governed-transport.js';
import type { AcquireFailure, IdentityPool, PoolIdentity } from '@relay/identity-pool';
import {
  relayRequestSchema,
  statusOf,
  type CacheResult,
  type PoolPolicy,
  type RelayEnvelope,
  type RelayRequest,
  type RouteKind,
  type UpstreamSource,
} from '@relay/protocol';
import {
  classify,
  type ClassifiedRoute,
  type ClassifyError,
  type QueryRule,
} from '@relay/route-classifier';
import type { AuditRecord } from '../audit/audit-record.js';
import { buildEnvelope, type EnvelopeAnswer, type EnvelopeFacts } from './envelope-builder.js';
import { isRunCompleted, judgeLogProbe } from './job-log-checks.js';
import { failWith, fallBackLocal, type PipelineFailure } from './pipeline-failure.js';
import type { PoolPolicyCache } from './pool-policy-cache.js';
import { screenAnswer } from './public-only-screen.js';
import { PRIVATE_PROFILE_FIELDS, toPublicProfile } from './public-profile-filter.js';
import {
  checkStructuralValues,
  toTransportCheck,
  type RewriteSnapshot,
  type RewriteSnapshotLoader,
} from './rewrite-snapshot.js';
import { createProbeValidators } from './probe-validators.js';
import { toRouteKey, toSelectionRoute } from './route-identity.js';
import { createAnonymousBudget, type AnonymousBudget } from './token-free-lanes.js';
import {
  readUpstream,
  toAcquireFailure,
  toTransportFailure,
  type LaneContext,
  type LaneFailure,
  type ServedAnswer,
} from './upstream-lanes.js';
import type { VisibilityGuard } from './visibility-guard.js';

/** The authenticated caller of a relay request. */
export interface PipelineCaller {
  readonly callerId: string;
  readonly clientId: string | null;
  /** The caller's forge login (GET /user becomes GET /users/{login}). */
  readonly login: string;
}

/**
 * The ports of the relay pipeline. Every effect is injected: storage, the forge, the pool
 * coordinator, the cache, the audit sink and the clock.
 */
export interface RelayPipelineDeps {
  /** Authenticates a caller bearer token (the Authorization header value); undefined if invalid. */
  readonly authenticate: (authorization: string | undefined) => Promise<PipelineCaller | undefined>;
  /**
   * Whether the caller holds a grant on the pool. `caller` is the object `authenticate` returned
   * for this request, when it did: the grant check may reuse what its token lookup checked.
   */
  readonly hasGrant: (
    callerId: string,
    poolId: string,
    caller?: PipelineCaller,
  ) => Promise<boolean>;
  /** One frozen string-rewrite snapshot per request. */
  readonly loadRewriteSnapshot: RewriteSnapshotLoader;
  /**
   * Binds the request's frozen snapshot to the rest of its asynchronous flow, so that work done
   * on its behalf outside the transport (app token exchanges) is checked against the same one.
   */
  readonly bindRewriteSnapshot?: (snapshot: RewriteSnapshot) => void;
  /** Pool lookup and policy load (30 s cache). */
  readonly policies: PoolPolicyCache;
  /** The pool's active identities. */
  readonly listIdentities: (poolId: string) => Promise<readonly PoolIdentity[]>;
  readonly identityPool: IdentityPool;
  readonly transport: Pick<ForgeTransport, 'request'>;
  readonly cache: CacheStore;
  /**
   * Creates the group that coalesces identical misses. Default `createSingleFlight` (this
   * process); with several replicas, one that spans them (`createRedisFlights`).
   */
  readonly createFlights?: <T>() => SingleFlight<T>;
  readonly guard: VisibilityGuard;
  /**
   * The anonymous lane's spent marks. Default: this process's (`createAnonymousBudget`); with
   * several replicas, the ones they share (`createRedisAnonymousBudget`).
   */
  readonly anonymousBudget?: AnonymousBudget;
  /** Queues an audit row; never awaited by the response. */
  readonly audit: (record: AuditRecord) => void;
  /** Whether the database queue is backed up (answered 424 `relay_overloaded`). */
  readonly isOverloaded?: () => boolean;
  /** The clock, epoch milliseconds. */
  readonly now: () => number;
  /** The forge API origin, part of every cache key. Default `https://api.github.com`. */
  readonly apiOrigin?: string;
  /** Largest stored cache entry, bytes (MAX_RESPONSE_BYTES). */
  readonly maxEntryBytes?: number;
  /**
   * Requests of one caller in progress at most (RELAY_MAX_CALLER_CONCURRENCY); the excess is
   * answered 424 `relay_overloaded` at once, so that one caller cannot hold every upstream
   * connection while others wait. Default: unbounded.
   */
  readonly maxCallerConcurrency?: number;
}

/** One POST /v1/forge/request. */
export interface RelayPipelineInput {
  readonly requestId: string;
  /** The Authorization header value. */
  readonly authorization: string | undefined;
  /**
   * The caller, when the route authenticated `authorization` already (before reading the body);
   * then `authenticate` is not called again.
   */
  readonly caller?: PipelineCaller;
  /** The parsed JSON body. */
  readonly body: unknown;
}

/** What the route answers: an envelope (HTTP 200) or a relay error. */
export type RelayPipelineOutcome =
  | {
      readonly kind: 'envelope';
      readonly envelope: RelayEnvelope;
      /**
       * The immutable cache entry the envelope's answer fields were taken from, unchanged (a
       * hit or a stale entry): `serializeEnvelope` reuses their JSON by it.
       */
      readonly answerSource?: CacheEntry | undefined;
      /**
       * The forge's own JSON text of the envelope's `json` body, when `JSON.stringify(body)`
       * would not give it back: `serializeEnvelope` writes it in place of the body's JSON.
       */
      readonly bodySource?: string | undefined;
    }
  | { readonly kind: 'failure'; readonly failure: PipelineFailure };

/** The relay pipeline: one call per request. */
export type RelayPipeline = (input: RelayPipelineInput) => Promise<RelayPipelineOutcome>;

/** What the audit row of a request records besides the request's identity. */
interface AuditTrace {
  routeKey: string | null;
  routeKind: AuditRecord['routeKind'];
  identityId: string | null;
  backend: UpstreamSource | null;
  cacheResult: AuditRecord['cacheResult'];
  cacheable: boolean;
  coalesced: boolean;
}

/** What one request works with after the audit boundary. */
interface RequestContext {
  readonly requestId: string;
  readonly request: RelayRequest;
  readonly policy: PoolPolicy;
  readonly route: ClassifiedRoute;
  readonly rewriteCheck: RewriteCheck;
  readonly trace: AuditTrace;
}

/** The result of the upstream step as shared by coalesced duplicates. */
type FlightOutcome =
  | {
      readonly ok: true;
      readonly answer: EnvelopeAnswer;
      readonly served: ServedAnswer;
      readonly cache: Exclude<CacheResult, 'stale'>;
      readonly cacheable: boolean;
    }
  | { readonly ok: false; readonly error: LaneFailure }
  /** A flight across processes found the entry another replica's flight had just stored. */
  | { readonly ok: 'hit'; readonly entry: CacheEntry };

const BACKEND_SOURCES = { web: 'forge_web', forge_public: 'forge_api' } as const;

/** Collections whose items are single reads' bodies: the items' member, their kind and path. */
const ITEM_READS: Partial<
  Record<
    RouteKind,
    {
      readonly at: string;
      readonly kind: RouteKind;
      readonly path: (owner: string, repo: string, id: number) => string;
    }
  >
> = {
  run_list: {
    at: 'workflow_runs',
    kind: 'run_view',
    path: (owner, repo, id) => `/repos/${owner}/${repo}/actions/runs/${String(id)}`,
  },
  workflow_run_list: {
    at: 'workflow_runs',
    kind: 'run_view',
    path: (owner, repo, id) => `/repos/${owner}/${repo}/actions/runs/${String(id)}`,
  },
};

/** The message of each query rule: which rule, never the key or the value. */
const INVALID_QUERY_MESSAGES: Readonly<Record<QueryRule, string>> = {
  secret_key: 'A query key looks secret-bearing.',
  invalid_key: 'A query key is empty or malformed.',
  invalid_value: 'A query value is neither a string nor an array of strings.',
};

function toClassifyFailure(error: ClassifyError): PipelineFailure {
  switch (error.code) {
    case 'method_denied':
    case 'invalid_path':
      return failWith(error.code);
    case 'invalid_query':
      return failWith(error.code, INVALID_QUERY_MESSAGES[error.rule]);
    case 'fallback_local':
      return fallBackLocal(error.reason);
  }
}

function toAnswer(route: ClassifiedRoute, served: ServedAnswer): EnvelopeAnswer {
  const { response } = served;
  const parsed = response.body.body;
  let body = reduceResponseBody(route.kind, response.status, parsed);
  if (route.visibility.class === 'public_profile') body = toPublicProfile(body);
  // The forge's JSON text goes with the very value it was parsed into: a reduced or filtered
  // body (a new object: the reducers and the screen copy, never mutate) is another value.
  const source = response.body.encoding === 'json' ? response.body.source : undefined;
  return {
    status: response.status,
    headers: response.headers,
    body,
    bodyEncoding: response.body.encoding,
    ...(source !== undefined && body === parsed ? { bodySource: source } : {}),
  };
}

/** A stored body as the transport gives one (a 304 refresh confirms it unchanged). */
function bodyOf(entry: CacheEntry): ServedAnswer['response']['body'] {
  return {
    encoding: entry.bodyEncoding,
    body: entry.body,
    ...(entry.bodySource === undefined ? {} : { source: entry.bodySource }),
  } as ServedAnswer['response']['body'];
}

function fromEntry(entry: CacheEntry): EnvelopeAnswer {
  return {
    status: entry.status,
    headers: entry.headers,
    body: entry.body,
    bodyEncoding: entry.bodyEncoding,
    ...(entry.bodySource === undefined ? {} : { bodySource: entry.bodySource }),
  };
}

/**
 * The answer of the upstream lanes with only public data left in it (`screenAnswer`), or the
 * repositories it revealed as private.
 */
function screenServed(
  route: ClassifiedRoute,
  served: ServedAnswer,
):
  | { ok: true; served: ServedAnswer; bodyScreened: boolean }
  | { ok: false; privateRepositories: readonly string[] } {
  const { response } = served;
  const screened = screenAnswer({
    visibility: route.visibility,
    status: response.status,
    headers: response.headers,
    body: response.body.body,
    encoding: response.body.encoding,
    pooled: served.identity !== undefined,
  });
  if (!screened.ok) return screened;
  const bodyScreened = screened.body !== response.body.body;
  if (!bodyScreened && screened.headers === response.headers) {
    return { ok: true, served, bodyScreened };
  }
  return {
    ok: true,
    bodyScreened,
    served: {
      ...served,
      response: {
        ...response,
        headers: screened.headers,
        // The screen only removes members and items of a JSON body: still a JSON value.
        body: { encoding: 'json', body: screened.body as JsonValue },
      },
    },
  };
}

/** The upstream validators of an answer: they identify the exact bytes the forge sent. */
const VALIDATOR_HEADERS = ['etag', 'last-modified'] as const;

/**
 * Headers without the upstream validators ({@link VALIDATOR_HEADERS}). A body the public-only
 * screen changed (private items removed, viewer-relative fields such as `permissions` dropped)
 * is not the body those validators describe: they are a function of the private part too, so
 * an ETag that changes while the served body does not, or a Last-Modified later than any served
 * item, tells when the private items changed. They never leave the relay with such a body; the
 * cache entry keeps them as its own `validators`, for the relay's own revalidation.
 */
function withoutValidators(
  headers: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  if (!VALIDATOR_HEADERS.some((name) => name in headers)) return headers;
  const copy = { ...headers };
  for (const name of VALIDATOR_HEADERS) Reflect.deleteProperty(copy, name);
  return copy;
}

/** Whether a `public_profile` answer holds a field only the account itself sees (removed). */
function holdsPrivateProfileFields(route: ClassifiedRoute, served: ServedAnswer): boolean {
  const { body } = served.response.body;
  if (route.visibility.class !== 'public_profile') return false;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  return PRIVATE_PROFILE_FIELDS.some((field) => field in body);
}

/** The cache scope of a route: the repository it reads (`owner/repo`, lowercase), if any. */
function scopeOf(route: ClassifiedRoute): string | undefined {
  if (!route.repoScoped || route.owner === undefined || route.repo === undefined) return undefined;
  return `${route.owner}/${route.repo}`.toLowerCase();
}

function sourceOf(served: ServedAnswer): UpstreamSource {
  if (served.revalidated && served.response.status === 304) return 'forge_api';
  return served.backend === undefined ? 'forge_identity' : BACKEND_SOURCES[served.backend];
}

/**
 * Creates the relay pipeline of POST /v1/forge/request (DESIGN.md §2), composing the packages in
 * SPEC.md's evaluation order:
 *
 * 1. body schema (400 `invalid_request`); authentication (401); grant (403 `pool_forbidden`);
 * 2. one frozen string-rewrite snapshot and the check of the path, query and header values
 *    (503 `string_rewrite_policy_unavailable`, 403 `string_rewrite_denied`);
 * 3. pool lookup and policy (503 `pool_policy_unavailable`) — the audit boundary;
 * 4. backed-up queue (424 `relay_overloaded`); method, path, query, headers and classification
 *    (403, 400, 424 `route_denied`, `local_credentials_required`, `search_denied`, `logs_denied`);
 * 5. the owner gate and the public-visibility guard (424 `repo_not_public`);
 * 6. the shared cache (hit, probe, miss with revalidation, bypass);
 * 7. token-free lanes, then identity selection, credentials, upstream and health feedback;
 * 8. cache write-through, stale serving, the envelope; the audit row is queued, never awaited.
 *
 * @param deps - the injected ports
 * @example
 * ```ts
 * const pipeline = createRelayPipeline(deps);
 * const outcome = await pipeline({ requestId, authorization, body });
 * if (outcome.kind === 'envelope') return c.json(outcome.envelope, 200);
 * ```
 */
export function createRelayPipeline(deps: RelayPipelineDeps): RelayPipeline {
  const flights = deps.createFlights?.<FlightOutcome>() ?? createSingleFlight<FlightOutcome>();
  const apiOrigin = deps.apiOrigin ?? 'https://api.github.com';
  const anonymousBudget = deps.anonymousBudget ?? createAnonymousBudget(deps.now);
  const inFlight = createCallerConcurrency(deps.maxCallerConcurrency);
  const probeValidators = createProbeValidators();

  async function fetchAndStore(
    context: RequestContext,
    lanes: LaneContext,
    cacheKey: string,
    hints: CacheHints,
    decision: LookupDecision,
  ): Promise<FlightOutcome> {
    const { route } = context;
    const expired = decision.kind === 'miss' ? decision.entry : undefined;
    const revalidation = decision.kind === 'miss' ? decision.revalidation : undefined;
    const read = await readUpstream(lanes, revalidation);
    if (!read.ok) return read;
    // The public-only screen, before anything is cached, observed or returned: an answer that
    // reveals a private repository is discarded; when that repository is the route's own, its
    // proof is dropped and its cache entries purged.
    const screened = screenServed(route, read.value);
    if (!screened.ok) {
      await forgetPrivate(route, screened.privateRepositories);
      return { ok: false, error: { kind: 'hard', failure: fallBackLocal('repo_not_public') } };
    }
    const served = screened.served;
    // Private parts were removed from the body: the upstream validators describe them too.
    const privateValidators = screened.bodyScreened || holdsPrivateProfileFields(route, served);
    const forCaller = (answer: EnvelopeAnswer): EnvelopeAnswer =>
      privateValidators ? { ...answer, headers: withoutValidators(answer.headers) } : answer;
    // A fresh API read of a repository — its metadata, or an answer that embeds it (a pull
    // request's base repository, a run's or a combined status's repository) — tells the
    // visibility guard what a probe would: it renews the proof or records a refusal.
    // A 304 refresh confirms the stored body, and with it the repository the body embeds.
    if (served.backend !== 'web' && route.owner !== undefined && route.repo !== undefined) {
      const confirmed =
        served.response.status === 304 && served.revalidated && expired !== undefined
          ? { ...served.response, status: 200, body: bodyOf(expired) }
          : served.response;
      // Awaited: a refusal it records holds on every replica before this request answers.
      await deps.guard.observeRead(route.kind, route.owner, route.repo, confirmed);
    }
    const now = deps.now();
    if (decision.kind === 'bypass') {
      return {
        ok: true,
        answer: forCaller(toAnswer(route, served)),
        served,
        cache: 'bypass',
        cacheable: false,
      };
    }
    if (served.revalidated && served.response.status === 304 && expired !== undefined) {
      const refreshed = applyNotModified(expired, {
        headers: served.response.headers,
        hints,
        now,
      });
      await deps.cache.put(cacheKey, refreshed);
      await confirmItems(route, refreshed.body, now);
      return { ok: true, answer: fromEntry(refreshed), served, cache: 'miss', cacheable: true };
    }
    const upstreamAnswer = toAnswer(route, served);
    const answer = forCaller(upstreamAnswer);
    const scope = scopeOf(route);
    // Planned from the upstream headers, so that the entry keeps the validators for the relay's
    // own revalidation; what it serves (its headers) is what the caller gets now.
    const plan = planCacheWrite({
      routeKind: route.kind,
      hints,
      answer: upstreamAnswer,
      lane: served.lane,
      now,
      ...(deps.maxEntryBytes === undefined ? {} : { maxEntryBytes: deps.maxEntryBytes }),
    });
    if (plan.ok) {
      const entry = privateValidators
        ? { ...plan.value, headers: withoutValidators(plan.value.headers) }
        : plan.value;
      await deps.cache.put(cacheKey, scope === undefined ? entry : { ...entry, scope });
      await confirmItems(route, plan.value.body, now);
      return { ok: true, answer, served, cache: 'miss', cacheable: true };
    }
    if (plan.error.existing === 'evict' && expired !== undefined) await deps.cache.delete(cacheKey);
    return {
      ok: true,
      answer,
      served,
      cache: plan.error.cache,
      cacheable: plan.error.cache === 'miss',
    };
  }

  /**
   * A collection answer whose items are the bodies of single reads (a workflow run list's runs)
   * confirms each stored single read its item equals (`confirmFromItem`): one list read renews
   * the run views it covers instead of one refill each. Only stored entries under the list's own
   * accept and API version are touched; nothing is created.
   */
  async function confirmItems(route: ClassifiedRoute, body: unknown, now: number): Promise<void> {
    const items = ITEM_READS[route.kind];
    const list =
      items === undefined ? undefined : (body as Record<string, unknown> | null)?.[items.at];
    if (items === undefined || !Array.isArray(list) || route.owner === undefined) return;
    for (const item of list as unknown[]) {
      const id = (item as { id?: unknown } | null)?.id;
      if (typeof id !== 'number' || route.repo === undefined) continue;
      const key = createCacheKey({
        method: 'GET',
        routeKind: items.kind,
        url: new URL(items.path(route.owner, route.repo, id), apiOrigin),
        accept: route.headers.upstream.accept,
        apiVersion: route.headers.upstream['x-github-api-version'],
      });
      const entry = await deps.cache.get(key);
      const confirmed = entry === undefined ? undefined : confirmFromItem(entry, item, { now });
      if (confirmed !== undefined) await deps.cache.put(key, confirmed);
    }
  }

  /**
   * Drops the proof and purges the cache entries of the route's own repository when the answer
   * revealed it private. Any other name the screen collected is not acted on: it comes from an
   * object of the body that merely looks like a repository (`full_name` and `private`), and a
   * body can hold such objects that whoever can write to the route's repository wrote
   * (a deployment's `payload` is arbitrary JSON). Acting on them would let any caller refuse,
   * and empty the cache of, any other repository for every pool. The answer is refused all the
   * same, and the other repository's own proof is bounded by its lifetime.
   */
  async function forgetPrivate(
    route: ClassifiedRoute,
    repositories: readonly string[],
  ): Promise<void> {
    const own = scopeOf(route);
    if (own === undefined || !repositories.includes(own)) return;
    await deps.guard.revoke(own);
    await deps.cache.purgeScope(own);
  }

  async function serve(context: RequestContext): Promise<
    | {
        ok: true;
        envelope: RelayEnvelope;
        answerSource?: CacheEntry | undefined;
        bodySource?: string | undefined;
      }
    | { ok: false; failure: PipelineFailure }
  > {
    const { request, policy, route, rewriteCheck, trace } = context;
    const pool = request.pool;
    const envelope = (
      answer: EnvelopeAnswer,
      facts: Omit<EnvelopeFacts, 'pool' | 'requestId' | 'routeKind'>,
      answerSource?: CacheEntry,
    ) => ({
      ok: true as const,
      envelope: buildEnvelope(answer, {
        ...facts,
        pool,
        requestId: context.requestId,
        routeKind: route.kind,
      }),
      answerSource,
      bodySource: answer.bodySource,
    });

    // The owner gate (rule 9) of every route that names an owner — a repository or an account —
    // before any cache entry, anonymous read or identity: an owner outside allowed_owners is
    // served only when the pool allows public repositories of other owners. GET /user (the
    // caller's own public profile, rule 6) is not a read of another owner.
    if (route.owner !== undefined && route.rewrittenFrom === undefined) {
      const allowed = policy.allowed_owners.includes(route.owner.toLowerCase());
      if (!allowed && !policy.allow_public_repos) {
        return { ok: false, failure: fallBackLocal('repo_not_public') };
      }
    }
    // The public-visibility guard, before any cache entry or identity.
    let publicVerified = false;
    let identitiesRead: Promise<readonly PoolIdentity[]> | undefined;
    const identities = () => (identitiesRead ??= deps.listIdentities(pool));
    // Metadata probes and log preflights spend the anonymous `core` bucket.
    const anonymousRead = async (path: string) => {
      const result = await deps.transport.request({ host: 'api', path, rewriteCheck });
      if (result.ok) anonymousBudget.observe('core', result.value);
      return result;
    };
    if (route.repoScoped && route.owner !== undefined && route.repo !== undefined) {
      const probeRoute = { ...toSelectionRoute(route, true), kind: 'repo_view' as const };
      const probePath = `/repos/${route.owner}/${route.repo}`;
      // A pooled probe the coordinator could not serve: the proof failed for the relay's own
      // infrastructure, not for anything the repository said (see the answer below).
      let probeAcquireFailure: AcquireFailure | undefined;
      const proof = await deps.guard.prove({
        owner: route.owner,
        repo: route.repo,
        anonymous: anonymousRead,
        anonymousSpent: () => anonymousBudget.isSpent('core'),
        pooledRevalidates: () => probeValidators.has(probePath),
        pooled: async (path, conditional = false) => {
          // A conditional probe only from an identity that holds an ETag for it (a free 304).
          const holders = conditional ? probeValidators.holders(path) : undefined;
          const candidates = (await identities()).filter((i) => holders?.has(i.id) ?? true);
          const acquired = await deps.identityPool.acquire({
            route: { ...probeRoute, key: toRouteKey({ ...route, kind: 'repo_view' }) },
            policy,
            identities: candidates,
          });
          if (!acquired.ok) {
            if (acquired.error.code === 'coordinator_unavailable') {
              probeAcquireFailure = acquired.error;
            }
            return undefined;
          }
          const { identity, credential } = acquired.value;
          const result = await deps.transport.request({
            host: 'api',
            path,
            rewriteCheck,
            authorization: credential.toAuthorizationHeader(),
            ...(conditional
              ? { headers: probeValidators.conditionalHeaders(path, identity.id) }
              : {}),
          });
          if (result.ok) probeValidators.record(path, identity.id, result.value);
          // The upstream governor refused: nothing was sent, the identity is not at fault.
          if (!result.ok && isGovernorRefusal(result.error)) return result;
          await deps.identityPool.report({
            identity,
            route: probeRoute,
            credential,
            outcome: result.ok
              ? { kind: 'response', status: result.value.status, headers: result.value.headers }
              : { kind: 'transport_error' },
          });
          return result;
        },
      });
      if (!proof.ok) {
        // Unproven because the coordinator (Redis, …) was away when a pooled probe was needed:
        // that is no answer about the repository, so not `repo_not_public` (which the client
        // never retries) but the coordinator's own typed failure (424 `relay_overloaded`).
        if (proof.error.code === 'not_public' && probeAcquireFailure !== undefined) {
          return {
            ok: false,
            failure: toAcquireFailure(probeAcquireFailure, undefined, false).failure,
          };
        }
        return {
          ok: false,
          failure:
            proof.error.code === 'not_public'
              ? fallBackLocal('repo_not_public')
              : toTransportFailure(proof.error.error),
        };
      }
      publicVerified = true;
    }

    const selectionRoute = toSelectionRoute(route, publicVerified);
    const lanes: LaneContext = {
      transport: deps.transport,
      identityPool: deps.identityPool,
      identities,
      policy,
      route,
      selectionRoute,
      rewriteCheck,
      anonymousBudget,
    };

    const prHeadSha = request.route_hint?.pr_head_sha;
    let hints: CacheHints = {
      ...(route.cache.policy === 'immutable' ? { immutable: true } : {}),
      ...(prHeadSha === undefined ? {} : { prHeadSha }),
      ...(route.largePayload && !route.log ? { largePayload: true } : {}),
    };
    const cacheKey = createCacheKey({
      method: 'GET',
      routeKind: route.kind,
      url: new URL(route.upstreamPath, apiOrigin),
      query: route.query,
      accept: route.headers.upstream.accept,
      apiVersion: route.headers.upstream['x-github-api-version'],
      prHeadSha,
      prState: request.route_hint?.pr_state,
    });
    // The classifier parsed cache-control once; the cache takes the bound as it is.
    const headers = route.headers.upstream;
    const maxAge = route.headers.maxAgeSeconds;
    const bound = maxAge === undefined ? {} : { maxAgeSeconds: maxAge };
    const stored = route.cache.bypass === undefined ? await deps.cache.get(cacheKey) : undefined;
    const lookup = (entry = stored) =>
      decideLookup({
        routeKind: route.kind,
        hints,
        headers,
        ...bound,
        entry,
        now: deps.now(),
      });
    let decision = lookup();
    if (decision.kind === 'bypass' && decision.reason === 'log') {
      // A job log without a usable entry is cacheable only once its run completed: the preflight.
      // A failed preflight leaves it uncached and fetched directly.
      hints = { ...hints, runCompleted: await isRunCompleted(anonymousRead, route.upstreamPath) };
      decision = lookup();
    }
    trace.cacheable = decision.kind !== 'bypass';

    if (decision.kind === 'probe') {
      const confirmed = await probeLog(lanes);
      if (confirmed === 'present') {
        await deps.cache.put(cacheKey, confirmEntry(decision.entry, deps.now()));
        decision = { kind: 'hit', entry: decision.entry, ageMs: 0 };
      } else {
        await deps.cache.delete(cacheKey);
        decision = { kind: 'miss', reason: 'absent' };
      }
    }
    const hit = (entry: CacheEntry) => {
      trace.cacheResult = 'hit';
      const lane = entry.validators?.lane;
      return envelope(
        fromEntry(entry),
        {
          cacheable: true,
          cache: 'hit',
          backend: lane?.kind === 'anonymous' ? 'forge_public' : undefined,
        },
        entry,
      );
    };
    if (decision.kind === 'hit') return hit(decision.entry);

    const missDecision = decision;
    const flight =
      missDecision.kind === 'miss'
        ? await flights.run(`${pool}\n${cacheKey}`, async (): Promise<FlightOutcome> => {
            // Another replica's identical flight may have ended (and stored its answer) between
            // this request's cache read and its taking the flight: look again first.
            if (flights.spansProcesses === true) {
              const again = lookup(await deps.cache.get(cacheKey));
              if (again.kind === 'hit') return { ok: 'hit', entry: again.entry };
            }
            return fetchAndStore(context, lanes, cacheKey, hints, missDecision);
          })
        : {
            value: await fetchAndStore(context, lanes, cacheKey, hints, missDecision),
            shared: false,
          };
    let shared = flight.shared;
    trace.coalesced = shared;
    let outcome = flight.value;
    let refill = missDecision;
    if (outcome.ok === 'hit') {
      // The flight's second look was judged by the bound of the request that took the flight; a
      // request that joined it keeps its own: max-age=0 never takes an unvalidated entry, and a
      // stricter max-age refills (validated upstream) instead of sharing the hit.
      const own = lookup(outcome.entry);
      if (own.kind === 'hit') return hit(own.entry);
      refill =
        own.kind === 'miss' ? own : { kind: 'miss', reason: 'max_age', entry: outcome.entry };
      outcome = await fetchAndStore(context, lanes, cacheKey, hints, refill);
      shared = false;
      trace.coalesced = false;
      if (outcome.ok === 'hit') return hit(outcome.entry);
    }
    if (!outcome.ok) {
      const failure = outcome.error;
      if (failure.kind === 'unavailable' && refill.kind === 'miss') {
        const stale = decideStale({
          entry: refill.entry,
          reason: failure.staleReason,
          headers,
          ...bound,
          now: deps.now(),
        });
        if (stale.ok) {
          trace.cacheResult = 'stale';
          const lane = stale.value.entry.validators?.lane;
          return envelope(
            fromEntry(stale.value.entry),
            {
              cacheable: true,
              cache: 'miss',
              stale: { reason: stale.value.stale_reason, expiresAt: stale.value.cache_expires_at },
              backend: lane?.kind === 'anonymous' ? 'forge_public' : undefined,
            },
            stale.value.entry,
          );
        }
      }
      return { ok: false, failure: failure.failure };
    }
    const { served } = outcome;
    // An authenticated 304 refresh is a free answer: the envelope says `miss` (upstream was
    // asked), the audit counts it with the hits, as upstream work of source `forge_api`. An
    // anonymous 304 is charged to the address's quota: a miss.
    trace.cacheResult =
      served.revalidated && served.response.status === 304 && served.lane.kind !== 'anonymous'
        ? 'hit'
        : outcome.cache;
    trace.cacheable = outcome.cacheable;
    trace.backend = shared ? null : sourceOf(served);
    trace.identityId = served.identity?.id ?? null;
    return envelope(outcome.answer, {
      cacheable: outcome.cacheable,
      cache: outcome.cache,
      identity: served.identity,
      leaseReason: served.leaseReason,
      backend: served.backend,
    });
  }

  /** The authenticated existence probe of a cached job log, with a pooled identity. */
  async function probeLog(lanes: LaneContext) {
    const acquired = await deps.identityPool.acquire({
      route: lanes.selectionRoute,
      policy: lanes.policy,
      identities: await lanes.identities(),
    });
    if (!acquired.ok) return 'unknown' as const;
    const { identity, credential } = acquired.value;
    const result = await deps.transport.request({
      host: 'api',
      path: lanes.route.upstreamPath,
      rewriteCheck: lanes.rewriteCheck,
      authorization: credential.toAuthorizationHeader(),
    });
    if (!result.ok && isGovernorRefusal(result.error)) return 'unknown' as const;
    await deps.identityPool.report({
      identity,
      route: lanes.selectionRoute,
      credential,
      outcome: result.ok
        ? { kind: 'response', status: result.value.status, headers: result.value.headers }
        : { kind: 'response', status: result.error.status ?? 502, headers: {} },
    });
    return judgeLogProbe(result);
  }

  return async (input) => {
    const startedAt = deps.now();
    const parsed = relayRequestSchema.safeParse(input.body);
    if (!parsed.success) return { kind: 'failure', failure: failWith('invalid_request') };
    const request = parsed.data;
    const caller = input.caller ?? (await deps.authenticate(input.authorization));
    if (caller === undefined) return { kind: 'failure', failure: failWith('unauthorized') };
    if (!(await deps.hasGrant(caller.callerId, request.pool, caller))) {
      return { kind: 'failure', failure: failWith('pool_forbidden') };
    }
    const { callerId, clientId, login: callerLogin } = caller;
    // What the audit row records; the audit boundary is the pool policy load (`admitted`).
    const trace: AuditTrace = {
      routeKey: null,
      routeKind: null,
      identityId: null,
      backend: null,
      cacheResult: null,
      cacheable: false,
      coalesced: false,
    };
    // One caller's requests in progress are bounded before any work is done for them (the
    // string-rewrite check included, which may wait for the check worker): its excess is
    // answered 424 relay_overloaded, audited, and holds nothing; nothing is sent for it.
    const release = inFlight.enter(caller.callerId);
    let snapshot: Awaited<ReturnType<RewriteSnapshotLoader>> | undefined;
    try {
      if (release !== undefined) {
        snapshot = await deps.loadRewriteSnapshot();
        if (!snapshot.ok) {
          return { kind: 'failure', failure: failWith('string_rewrite_policy_unavailable') };
        }
        const structural = await checkStructuralValues(snapshot.value, request);
        if (structural === 'busy') {
          return { kind: 'failure', failure: fallBackLocal('relay_overloaded') };
        }
        if (structural === 'deny') {
          return { kind: 'failure', failure: failWith('string_rewrite_denied') };
        }
        deps.bindRewriteSnapshot?.(snapshot.value);
      }
      return await admitted(snapshot);
    } finally {
      release?.();
    }

    /** From the pool policy on: the audit boundary, classification and serving. */
    async function admitted(
      loaded: Awaited<ReturnType<RewriteSnapshotLoader>> | undefined,
    ): Promise<RelayPipelineOutcome> {
      const policy = await deps.policies.load(request.pool);
      if (!policy.ok && policy.error === 'pool_missing') {
        return { kind: 'failure', failure: failWith('pool_forbidden') };
      }
      if (!policy.ok)
        return finish({ kind: 'failure', failure: failWith('pool_policy_unavailable') });
      if (loaded === undefined || !loaded.ok || deps.isOverloaded?.() === true) {
        return finish({ kind: 'failure', failure: fallBackLocal('relay_overloaded') });
      }
      return classifyAndServe(policy.value, loaded.value);
    }

    function finish(outcome: RelayPipelineOutcome): RelayPipelineOutcome {
      const failure = outcome.kind === 'failure' ? outcome.failure : undefined;
      deps.audit({
        requestId: input.requestId,
        occurredAt: startedAt,
        poolId: request.pool,
        callerId: callerId,
        clientId: clientId,
        ...trace,
        status:
          outcome.kind === 'envelope'
            ? outcome.envelope.status
            : failure === undefined || failure.kind === 'fallback'
              ? 424
              : statusOfFailure(failure),
        errorCode: failure?.code ?? null,
        fallbackReason: failure?.kind === 'fallback' ? failure.reason : null,
        durationMs: Math.max(0, deps.now() - startedAt),
      });
      return outcome;
    }

    async function classifyAndServe(
      poolPolicy: PoolPolicy,
      frozenSnapshot: RewriteSnapshot,
    ): Promise<RelayPipelineOutcome> {
      const classified = classify({
        method: request.method,
        path: request.path,
        query: request.query,
        headers: request.headers,
        callerLogin,
        policy: poolPolicy,
      });
      if (!classified.ok) {
        const error = classified.error;
        if ('kind' in error) {
          trace.routeKind = error.kind;
          trace.routeKey =
            'owner' in error
              ? toRouteKey({ kind: error.kind, owner: error.owner, repo: error.repo })
              : error.kind;
        }
        return finish({ kind: 'failure', failure: toClassifyFailure(error) });
      }
      const route = classified.value;
      trace.routeKind = route.kind;
      trace.routeKey = toRouteKey(route);
      let served: Awaited<ReturnType<typeof serve>>;
      try {
        served = await serve({
          requestId: input.requestId,
          request,
          policy: poolPolicy,
          route,
          rewriteCheck: toTransportCheck(frozenSnapshot),
          trace,
        });
      } catch (error) {
        // An unexpected failure is still one audited request; the app's onError reports it.
        finish({ kind: 'failure', failure: failWith('internal_error') });
        throw error;
      }
      return finish(
        served.ok
          ? {
              kind: 'envelope',
              envelope: served.envelope,
              answerSource: served.answerSource,
              bodySource: served.bodySource,
            }
          : { kind: 'failure', failure: served.failure },
      );
    }
  };
}

/** Counts each caller's requests in progress against a bound. */
interface CallerConcurrency {
  /** Admits one request of `callerId`: its release, or undefined when the caller is at the bound. */
  enter(callerId: string): (() => void) | undefined;
}

/**
 * Creates the per-caller bound of requests in progress.
 *
 * @param max - the bound; undefined or 0: unbounded
 */
export function createCallerConcurrency(max: number | undefined): CallerConcurrency {
  const running = new Map<string, number>();
  return {
    enter(callerId) {
      if (max === undefined || max <= 0) return () => undefined;
      const current = running.get(callerId) ?? 0;
      if (current >= max) return undefined;
      running.set(callerId, current + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (running.get(callerId) ?? 1) - 1;
        if (left <= 0) running.delete(callerId);
        else running.set(callerId, left);
      };
    },
  };
}

/**
 * The HTTP status of a pipeline failure: 424 for `fallback_local`, else the catalogue's.
 *
 * @param failure - the failure
 */
export function statusOfFailure(failure: PipelineFailure): number {
  return failure.kind === 'fallback' ? 424 : statusOf(failure.code);
}
