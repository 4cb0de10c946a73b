import type {
  BodyEncoding,
  CacheResult,
  EnvelopeBackend,
  IdentityKind,
  LeaseReason,
  RelayEnvelope,
  RouteKind,
  StaleReason,
} from '@relay/protocol';

/** The answer an envelope carries: status, filtered headers and the encoded body. */
export interface EnvelopeAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly bodyEncoding: BodyEncoding;
  /**
   * The forge's own JSON text of a `json` body, when it is not `JSON.stringify(body)` and the
   * body is the value parsed from it (never a reduced or filtered body).
   */
  readonly bodySource?: string | undefined;
}

/** The stale fields of an expired entry served during an outage. */
export interface EnvelopeStaleness {
  readonly reason: StaleReason;
  /** When the entry expired, ISO 8601 UTC. */
  readonly expiresAt: string;
}

/** Everything {@link buildEnvelope} puts in `relay` and `identity`. */
export interface EnvelopeFacts {
  readonly pool: string;
  readonly requestId: string;
  readonly routeKind: RouteKind;
  readonly cacheable: boolean;
  readonly cache: Exclude<CacheResult, 'stale'>;
  /** Present only for a stale answer (`relay.cache` is then `stale`). */
  readonly stale?: EnvelopeStaleness | undefined;
  /** The pooled identity that served, or undefined (no pooled identity was used). */
  readonly identity?: { readonly id: string; readonly kind: IdentityKind } | undefined;
  readonly leaseReason?: LeaseReason | undefined;
  /** `web` or `forge_public` when no pooled identity served the answer. */
  readonly backend?: EnvelopeBackend | undefined;
}

/**
 * Builds the relay response envelope (SPEC.md "Relay response envelope"): `identity` is null when
 * no pooled identity served; `stale_ok`, `stale_reason` and `cache_expires_at` appear together;
 * `lease_reason` only with an identity; `backend` only without one.
 *
 * @param answer - the upstream or cached answer
 * @param facts - what the pipeline knows about how it was served
 */
export function buildEnvelope(answer: EnvelopeAnswer, facts: EnvelopeFacts): RelayEnvelope {
  const { stale, identity } = facts;
  return {
    status: answer.status,
    headers: { ...answer.headers },
    body: answer.body ?? null,
    body_encoding: answer.bodyEncoding,
    identity: identity === undefined ? null : { id: identity.id, kind: identity.kind },
    relay: {
      pool: facts.pool,
      request_id: facts.requestId,
      cacheable: facts.cacheable,
      cache: stale === undefined ? facts.cache : 'stale',
      stale_ok: stale !== undefined,
      ...(stale === undefined
        ? {}
        : { stale_reason: stale.reason, cache_expires_at: stale.expiresAt }),
      route_kind: facts.routeKind,
      ...(identity === undefined || facts.leaseReason === undefined
        ? {}
        : { lease_reason: facts.leaseReason }),
      ...(identity !== undefined || facts.backend === undefined ? {} : { backend: facts.backend }),
    },
  };
}

/**
 * The JSON of the answer fields (`status`, `headers`, `body`, `body_encoding`) by the immutable
 * object they were taken from (a cache entry): a hit serializes its body once, not per request.
 */
const answerPrefixes = new WeakMap<object, string>();

function answerPrefix(envelope: RelayEnvelope, bodySource: string | undefined): string {
  // The forge's text of a JSON body in place of its re-serialization: the same JSON value
  // (SPEC.md envelope rule 3), with the bytes gh would print.
  const body =
    bodySource !== undefined && envelope.body_encoding === 'json'
      ? bodySource
      : JSON.stringify(envelope.body);
  return `{"status":${JSON.stringify(envelope.status)},"headers":${JSON.stringify(envelope.headers)},"body":${body},"body_encoding":${JSON.stringify(envelope.body_encoding)}`;
}

/**
 * Serializes an envelope as `JSON.stringify(envelope)` would for one built by
 * {@link buildEnvelope}, except that a `json` body with a `bodySource` is written as that text
 * (the forge's bytes: `JSON.parse` of the result still gives the envelope). When `answerSource`
 * is given — the immutable object (a cache entry) the envelope's status, headers, body and
 * encoding were taken from, unchanged — the JSON of those fields is kept with it and reused by
 * later envelopes from the same source; only `identity` and `relay` are serialized per request.
 *
 * @param envelope - an envelope from {@link buildEnvelope}
 * @param answerSource - the immutable source of its answer fields, if there is one
 * @param bodySource - the forge's JSON text of the envelope's `json` body, if it is kept
 */
export function serializeEnvelope(
  envelope: RelayEnvelope,
  answerSource?: object,
  bodySource?: string,
): string {
  let prefix: string | undefined;
  if (answerSource === undefined) prefix = answerPrefix(envelope, bodySource);
  else {
    prefix = answerPrefixes.get(answerSource);
    if (prefix === undefined) {
      prefix = answerPrefix(envelope, bodySource);
      answerPrefixes.set(answerSource, prefix);
    }
  }
  return `${prefix},"identity":${JSON.stringify(envelope.identity)},"relay":${JSON.stringify(envelope.relay)}}`;
}
