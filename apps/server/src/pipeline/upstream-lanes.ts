import type { Revalidation, ValidatorLane } from '@relay/cache';
import {
  TRANSPORT_ERROR_MAPPINGS,
  type ForgeRequest,
  type ForgeResponse,
  type ForgeTransport,
  type ForgeTransportError,
  type RewriteCheck,
} from '@relay/forge-transport';
import type {
  AcquireFailure,
  IdentityPool,
  PoolIdentity,
  SelectionRoute,
} from '@relay/identity-pool';
import type {
  EnvelopeBackend,
  FallbackReason,
  IdentityKind,
  LeaseReason,
  PoolPolicy,
  StaleReason,
} from '@relay/protocol';
import type { ClassifiedRoute } from '@relay/route-classifier';
import { isGovernorRefusal } from '../governor/governed-transport.js';
import { failWith, fallBackLocal, type PipelineFailure } from './pipeline-failure.js';
import { pooledPublicRead } from './pooled-public-read.js';
import {
  isUsableAlternate,
  judgeAnonymousAnswer,
  type AnonymousBudget,
} from './token-free-lanes.js';

/** Everything the upstream lanes of one request share. */
export interface LaneContext {
  readonly transport: Pick<ForgeTransport, 'request'>;
  readonly identityPool: IdentityPool;
  /** The pool's identities (read once per request, when a pooled identity is needed). */
  readonly identities: () => Promise<readonly PoolIdentity[]>;
  readonly policy: PoolPolicy;
  readonly route: ClassifiedRoute;
  readonly selectionRoute: SelectionRoute;
  /** The transport check of the request's frozen rewrite snapshot. */
  readonly rewriteCheck: RewriteCheck;
  /** The anonymous rate-limit memory: a spent anonymous lane is skipped until it resets. */
  readonly anonymousBudget?: AnonymousBudget;
}

/** An answer from the forge, and who obtained it. */
export interface ServedAnswer {
  readonly response: ForgeResponse;
  /** The lane whose validators the answer carries. */
  readonly lane: ValidatorLane;
  /** The token-free backend, when no pooled identity served. */
  readonly backend: EnvelopeBackend | undefined;
  readonly identity: { readonly id: string; readonly kind: IdentityKind } | undefined;
  readonly leaseReason: LeaseReason | undefined;
  /** The revalidation of the expired entry was sent with this request. */
  readonly revalidated: boolean;
}

/**
 * Why the lanes produced no answer:
 * - `unavailable`: every eligible lane is spent, cooling, missing or rate-limited (or a
 *   token-free-only route lost its public backend); an expired entry may still be served stale
 *   for `staleReason`, else `failure` is the answer;
 * - `hard`: an answer that stale data never replaces (rewrite denial, redirect, size cap, …).
 */
export type LaneFailure =
  | {
      readonly kind: 'unavailable';
      readonly staleReason: StaleReason;
      readonly failure: PipelineFailure;
    }
  | { readonly kind: 'hard'; readonly failure: PipelineFailure };

/** The outcome of the upstream lanes. */
export type LaneOutcome =
  | { readonly ok: true; readonly value: ServedAnswer }
  | { readonly ok: false; readonly error: LaneFailure };

const TRANSIENT = new Set<ForgeTransportError['code']>(['forge_timeout', 'forge_unreachable']);

/**
 * The relay answer of a transport failure (`TRANSPORT_ERROR_MAPPINGS`): a rewrite denial is a
 * hard 403, the size cap a 424 `forge_response_too_large`, a redirect a 502; the upstream
 * governor's refusal (no headroom within the wait: nothing was sent) a 424 `relay_overloaded`.
 *
 * @param error - the transport failure
 */
export function toTransportFailure(error: ForgeTransportError): PipelineFailure {
  if (isGovernorRefusal(error)) return fallBackLocal('relay_overloaded');
  const mapping: { errorCode: string; reason?: FallbackReason } =
    TRANSPORT_ERROR_MAPPINGS[error.code];
  if (mapping.reason !== undefined) return fallBackLocal(mapping.reason);
  return failWith(TRANSPORT_ERROR_MAPPINGS[error.code].errorCode as Parameters<typeof failWith>[0]);
}

function hard(failure: PipelineFailure): LaneOutcome {
  return { ok: false, error: { kind: 'hard', failure } };
}

function unavailable(staleReason: StaleReason, failure: PipelineFailure): LaneOutcome {
  return { ok: false, error: { kind: 'unavailable', staleReason, failure } };
}

/**
 * The governor refused the request (every usable sender at its pace for the whole wait): an
 * expired entry may still be served stale, else 424 `relay_overloaded`.
 *
 * The stale answer says `forge_rate_limited`, the closest term of the closed `stale_reason`
 * vocabulary (`STALE_REASONS`): SPEC.md serves stale when every eligible identity is "depleted,
 * cooling, missing or rate-limited", and here each one is rate-limited — by the relay's pace of the
 * forge's own secondary limits, which is what holds the read back (it is not a backed-up queue of
 * the relay: `relay_overloaded` is a fallback reason, not a stale reason). A new stale reason
 * would make every deployed CLI, which validates the envelope strictly, refuse these answers as
 * `relay_protocol_error`; operators tell the two apart through `relay_governor_events_total`.
 */
const overloadedFailure: LaneFailure = {
  kind: 'unavailable',
  staleReason: 'forge_rate_limited',
  failure: fallBackLocal('relay_overloaded'),
};

function overloaded(): LaneOutcome {
  return { ok: false, error: overloadedFailure };
}

function apiRequest(
  context: LaneContext,
  headers: Readonly<Record<string, string>>,
  extra: Partial<ForgeRequest> = {},
): ForgeRequest {
  const { route } = context;
  return {
    host: 'api',
    path: route.upstreamPath,
    query: route.query,
    headers,
    rewriteCheck: context.rewriteCheck,
    flow: route.log ? 'job_log' : 'default',
    ...extra,
  };
}

/**
 * The request headers a pooled identity is sent for the caller. On a route whose answers the
 * public-only screen may strip of private items or fields (an owner's repositories, gists or
 * events, a repository search, a fork or event list, a profile), the caller's own
 * `if-none-match` and `if-modified-since` are not sent: the identity's 304 or 200 would say
 * whether the part the caller may not see changed. The answer is then a 200 with the screened
 * body. The relay's own revalidation (the stored entry's validators) is still sent.
 */
function callerHeadersForPooled(route: ClassifiedRoute): Readonly<Record<string, string>> {
  const { visibility } = route;
  const screened =
    visibility.class === 'filtered' ||
    visibility.class === 'public_profile' ||
    visibility.items !== undefined;
  if (!screened || !route.headers.conditional) return route.headers.upstream;
  const {
    'if-none-match': _ifNoneMatch,
    'if-modified-since': _ifModifiedSince,
    ...rest
  } = route.headers.upstream;
  return rest;
}

function isContinuationPage(route: ClassifiedRoute): boolean {
  const page = route.query.page;
  return route.paginated && typeof page === 'string' && page.trim() !== '' && page.trim() !== '1';
}

/**
 * The public web, raw or patch alternates of the read, best first (no revalidation: their
 * answers carry no API validators).
 */
async function tryAlternates(context: LaneContext): Promise<LaneOutcome | undefined> {
  for (const alternate of context.route.tokenFree.alternates) {
    const result = await context.transport.request({
      host: alternate.host,
      path: alternate.path,
      rewriteCheck: context.rewriteCheck,
    });
    if (!result.ok) {
      if (TRANSIENT.has(result.error.code) || isGovernorRefusal(result.error)) continue;
      return hard(toTransportFailure(result.error));
    }
    if (isUsableAlternate(result.value)) {
      return {
        ok: true,
        value: {
          response: result.value,
          lane: { kind: 'anonymous' },
          backend: 'web',
          identity: undefined,
          leaseReason: undefined,
          revalidated: false,
        },
      };
    }
  }
  return undefined;
}

/**
 * The anonymous API lane: an answer, `undefined` to fall through to a pooled identity, or a
 * failure. Anonymous-only routes never fall through; the GET /user rewrite falls through only
 * when the anonymous quota is exhausted (known spent, or an answer that says so), never after a
 * 401, a 5xx or a transport failure (rule 6).
 */
async function tryAnonymous(
  context: LaneContext,
  revalidation: Revalidation | undefined,
): Promise<LaneOutcome | undefined> {
  const mode = context.route.tokenFree.mode;
  const anonymousOnly = mode === 'anonymous_only';
  const onlyWhenExhausted = anonymousOnly || mode === 'anonymous_until_exhausted';
  const lost = unavailable('web_only_unavailable', fallBackLocal('web_only_unavailable'));
  const bucket = context.selectionRoute.bucket;
  // Known spent until its reset: asking again would only earn the same refusal.
  if ((await context.anonymousBudget?.isSpent(bucket)) === true) {
    return anonymousOnly ? lost : undefined;
  }
  const conditional = revalidation?.lane.kind === 'anonymous' ? revalidation.headers : {};
  const result = await context.transport.request(
    apiRequest(context, { ...context.route.headers.upstream, ...conditional }),
  );
  if (result.ok) context.anonymousBudget?.observe(bucket, result.value);
  if (!result.ok) {
    // The anonymous lane at its pace: a pooled identity may still serve the read.
    if (isGovernorRefusal(result.error)) return anonymousOnly ? overloaded() : undefined;
    if (!TRANSIENT.has(result.error.code)) return hard(toTransportFailure(result.error));
    return onlyWhenExhausted ? lost : undefined;
  }
  const judged = judgeAnonymousAnswer(result.value);
  if (judged === 'exhausted') return anonymousOnly ? lost : undefined;
  if (judged === 'unavailable') return onlyWhenExhausted ? lost : undefined;
  return {
    ok: true,
    value: {
      response: result.value,
      lane: { kind: 'anonymous' },
      backend: 'forge_public',
      identity: undefined,
      leaseReason: undefined,
      revalidated: revalidation?.lane.kind === 'anonymous',
    },
  };
}

/**
 * Maps a failed acquisition to the lanes' failure.
 *
 * @param error - the acquisition failure
 * @param throttled - the 424 reason of an identity this request already saw throttled
 * @param anonymousSpent - the anonymous lane was tried and could not answer
 */
export function toAcquireFailure(
  error: AcquireFailure,
  throttled: FallbackReason | undefined,
  anonymousSpent: boolean,
): LaneFailure {
  const out = (staleReason: StaleReason, failure: PipelineFailure): LaneFailure => ({
    kind: 'unavailable',
    staleReason,
    failure,
  });
  switch (error.code) {
    case 'coordinator_unavailable':
      // Versioning 5: a coordinator without the credential-failure method is an infrastructure
      // failure; any other coordinator refusal is a backed-up queue on this endpoint.
      return {
        kind: 'hard',
        failure:
          error.cause === 'method_unsupported'
            ? failWith('internal_error')
            : fallBackLocal('relay_overloaded'),
      };
    case 'credential_failed':
      // An installation token exchange the governor refused: the relay's pacing, not the
      // credential, so the read is refused (or served stale) as any governor refusal is.
      if (error.error.code === 'token_exchange_refused') return overloadedFailure;
      return out('credentials_unavailable', failWith(error.errorCode));
    case 'no_eligible_identity':
      if (throttled !== undefined) return out('forge_identity_depleted', fallBackLocal(throttled));
      if (error.cause === 'repo_not_verified_public') {
        return { kind: 'hard', failure: fallBackLocal('repo_not_public') };
      }
      return out('identity_pool_depleted', fallBackLocal('identity_pool_depleted'));
    case 'identities_cooling_down':
      if (throttled !== undefined) return out('identities_cooling_down', fallBackLocal(throttled));
      return out(
        'identities_cooling_down',
        anonymousSpent
          ? fallBackLocal('identities_cooling_down')
          : failWith('identities_cooling_down'),
      );
    case 'forge_rate_limited':
      return out('forge_rate_limited', fallBackLocal('forge_rate_limited'));
    case 'identity_pool_depleted':
      return out('identity_pool_depleted', fallBackLocal(throttled ?? 'identity_pool_depleted'));
  }
}

/**
 * Issue 10 item 3: the refill of an expired entry is sent, as a conditional request, from the
 * identity that owns the entry's validators whenever that identity is eligible and usable — the
 * forge salts ETags per credential, so only its owner can earn a (free) 304. Selection is asked
 * for that identity alone (eligibility, cooldowns and budget still apply); when it cannot serve,
 * the caller selects among all identities as usual (and the refill is a plain request).
 *
 * @returns `undefined` when there is no owner to prefer or it cannot serve; `{ ok: true, value }`
 *   with its acquisition; `{ ok: false }` with the lanes' answer when falling back is not allowed
 *   (a continuation page after the owner's credentials failed: rule 9; a coordinator failure).
 */
async function acquireOwner(
  context: LaneContext,
  request: Parameters<IdentityPool['acquire']>[0],
  revalidation: Revalidation | undefined,
): Promise<
  | { readonly ok: true; readonly value: Awaited<ReturnType<IdentityPool['acquire']>> }
  | Extract<LaneOutcome, { ok: false }>
  | undefined
> {
  const lane = revalidation?.lane;
  if (lane?.kind !== 'identity') return undefined;
  const owner = request.identities.filter((identity) => identity.id === lane.id);
  if (owner.length === 0) return undefined;
  const acquired = await context.identityPool.acquire({ ...request, identities: owner });
  if (acquired.ok) return { ok: true, value: acquired };
  if (acquired.error.code === 'coordinator_unavailable') {
    return { ok: false, error: toAcquireFailure(acquired.error, undefined, false) };
  }
  if (acquired.error.code === 'credential_failed' && isContinuationPage(context.route)) {
    if (acquired.error.error.code === 'token_exchange_refused') {
      return { ok: false, error: overloadedFailure };
    }
    return { ok: false, error: { kind: 'hard', failure: failWith('credentials_unavailable') } };
  }
  return undefined;
}

/** The pooled lane: selection, credentials (resolved only now), upstream, health feedback. */
async function tryPooled(
  context: LaneContext,
  revalidation: Revalidation | undefined,
  anonymousSpent: boolean,
): Promise<LaneOutcome> {
  const publicRead = pooledPublicRead(context.route);
  if (publicRead.kind === 'refuse') {
    return unavailable('identity_pool_depleted', fallBackLocal('local_credentials_required'));
  }
  const excluded = publicRead.excludedLogin?.toLowerCase();
  const identities = (await context.identities()).filter(
    (identity) => excluded === undefined || identity.login?.toLowerCase() !== excluded,
  );
  const request = { route: context.selectionRoute, policy: context.policy, identities };
  let throttled: FallbackReason | undefined;
  for (let round = 0; round <= identities.length; round++) {
    const preferred = round === 0 ? await acquireOwner(context, request, revalidation) : undefined;
    if (preferred?.ok === false) return preferred;
    const acquired = preferred?.value ?? (await context.identityPool.acquire(request));
    if (!acquired.ok) {
      return { ok: false, error: toAcquireFailure(acquired.error, throttled, anonymousSpent) };
    }
    const { identity, credential, reason, attempts } = acquired.value;
    // Rule 9: a page of an aggregate in progress is never continued with another identity
    // after the leased one's credentials failed; the caller refuses the incomplete result.
    if (attempts > 1 && isContinuationPage(context.route)) {
      return hard(failWith('credentials_unavailable'));
    }
    const lane = revalidation?.lane;
    const conditional =
      lane?.kind === 'identity' && lane.id === identity.id ? revalidation?.headers : undefined;
    const result = await context.transport.request(
      apiRequest(
        context,
        { ...callerHeadersForPooled(context.route), ...conditional },
        { authorization: credential.toAuthorizationHeader(), query: publicRead.query },
      ),
    );
    if (!result.ok) {
      // Nothing was sent: the identity is not at fault, and the read is refused (or served stale).
      if (isGovernorRefusal(result.error)) return overloaded();
      if (TRANSIENT.has(result.error.code)) {
        await context.identityPool.report({
          identity,
          route: context.selectionRoute,
          credential,
          outcome: { kind: 'transport_error' },
        });
      }
      return hard(toTransportFailure(result.error));
    }
    const feedback = await context.identityPool.report({
      identity,
      route: context.selectionRoute,
      credential,
      outcome: { kind: 'response', status: result.value.status, headers: result.value.headers },
    });
    if (!feedback.ok) return hard(fallBackLocal('relay_overloaded'));
    if (feedback.value.fallbackReason !== undefined) {
      throttled = feedback.value.fallbackReason;
      continue;
    }
    if (result.value.status === 401) continue;
    return {
      ok: true,
      value: {
        response: result.value,
        lane: { kind: 'identity', id: identity.id },
        backend: undefined,
        identity: { id: identity.id, kind: identity.kind },
        leaseReason: reason,
        revalidated: conditional !== undefined,
      },
    };
  }
  return unavailable(
    throttled === 'forge_rate_limited' ? 'forge_rate_limited' : 'forge_identity_depleted',
    fallBackLocal(throttled ?? 'forge_identity_depleted'),
  );
}

/**
 * Reads the forge for one request, in SPEC.md's order: public web, raw or patch alternates,
 * then the anonymous API (unless the route needs a pooled identity), then a pooled identity
 * (never for anonymous-only routes). `revalidation` is sent only from the lane that owns it.
 *
 * @param context - the request's route, policy, rewrite check, transport and pool
 * @param revalidation - the conditional refill of an expired entry, if any
 */
export async function readUpstream(
  context: LaneContext,
  revalidation: Revalidation | undefined,
): Promise<LaneOutcome> {
  const mode = context.route.tokenFree.mode;
  if (revalidation === undefined && !context.route.headers.conditional) {
    const alternate = await tryAlternates(context);
    if (alternate !== undefined) return alternate;
  }
  if (mode === 'pooled') return tryPooled(context, revalidation, false);
  const anonymous = await tryAnonymous(context, revalidation);
  if (anonymous !== undefined) return anonymous;
  if (mode === 'anonymous_only') {
    return unavailable('web_only_unavailable', fallBackLocal('web_only_unavailable'));
  }
  return tryPooled(context, revalidation, true);
}
