import { z } from 'zod';
import { FALLBACK_REASONS, STALE_REASONS } from './error-catalogue.js';
import { getPoolIdSchema, getUtcTimestampSchema } from './common-schemas.js';
import { lazySchema } from './lazy-schema.js';
import { ROUTE_KINDS } from './route-kinds.js';

/**
 * Upstream response headers an envelope may carry (content negotiation, caching, rate limit,
 * request id). Everything else, credentials and token-describing headers above all, is dropped.
 */
export const ENVELOPE_HEADER_ALLOWLIST = [
  'content-type',
  'content-language',
  'etag',
  'last-modified',
  'cache-control',
  'expires',
  'vary',
  'link',
  'retry-after',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-ratelimit-used',
  'x-ratelimit-resource',
  'x-github-request-id',
  'x-github-media-type',
  'x-github-api-version-selected',
] as const;

/** Headers that never leave the relay, whatever an allowlist says (DESIGN.md §3). */
export const NEVER_FORWARDED_HEADERS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-oauth-scopes',
  'x-accepted-oauth-scopes',
  'github-authentication-token-expiration',
] as const;

/** Keeps the allowlisted headers of an upstream response, names lowercased. */
export function filterEnvelopeHeaders(
  headers: Iterable<readonly [string, string]>,
): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [rawName, value] of headers) {
    const name = rawName.toLowerCase();
    if ((ENVELOPE_HEADER_ALLOWLIST as readonly string[]).includes(name)) kept[name] = value;
  }
  return kept;
}

/** How an envelope body is encoded. */
export const BODY_ENCODINGS = ['json', 'text', 'base64'] as const;
/** An envelope body encoding. */
export type BodyEncoding = (typeof BODY_ENCODINGS)[number];

/** Cache outcomes of `relay.cache`. */
export const CACHE_RESULTS = ['hit', 'stale', 'miss', 'bypass'] as const;
/** A `relay.cache` value. */
export type CacheResult = (typeof CACHE_RESULTS)[number];

/** `relay.lease_reason`: sticky, highest_remaining, or a fallback reason met during selection. */
export const LEASE_REASONS = ['sticky', 'highest_remaining', ...FALLBACK_REASONS] as const;
/** A `relay.lease_reason` value. */
export type LeaseReason = (typeof LEASE_REASONS)[number];

/** `relay.backend`: a read served without a pooled identity. */
export const ENVELOPE_BACKENDS = ['web', 'forge_public'] as const;
/** A `relay.backend` value. */
export type EnvelopeBackend = (typeof ENVELOPE_BACKENDS)[number];

/** Kinds of identity. */
export const IDENTITY_KINDS = ['pat', 'forge_app'] as const;
/** An identity kind. */
export type IdentityKind = (typeof IDENTITY_KINDS)[number];

/**
 * How an envelope's `body` matches its `body_encoding`: any JSON value for `json`, a string or
 * null (an empty API answer) for `text`, base64 text for `base64`. Other envelope fields pass
 * through; {@link relayEnvelopeSchema} checks it. Built on the first call, then memoised.
 */
export const getRelayEnvelopeBodySchema = /* @__PURE__ */ lazySchema(() =>
  z.discriminatedUnion('body_encoding', [
    z.looseObject({ body_encoding: z.literal('json'), body: z.json() }),
    z.looseObject({ body_encoding: z.literal('text'), body: z.string().nullable() }),
    z.looseObject({ body_encoding: z.literal('base64'), body: z.base64() }),
  ]),
);

/** {@link getRelayEnvelopeBodySchema}'s schema, built at import. */
export const relayEnvelopeBodySchema = /* @__PURE__ */ getRelayEnvelopeBodySchema();

const buildRelayMetaSchema = () =>
  z
    .strictObject({
      pool: getPoolIdSchema(),
      request_id: z.string().min(1),
      cacheable: z.boolean(),
      cache: z.enum(CACHE_RESULTS),
      stale_ok: z.boolean(),
      stale_reason: z.enum(STALE_REASONS).optional(),
      cache_expires_at: getUtcTimestampSchema().optional(),
      route_kind: z.enum(ROUTE_KINDS),
      lease_reason: z.enum(LEASE_REASONS).optional(),
      backend: z.enum(ENVELOPE_BACKENDS).optional(),
    })
    .refine((r) => r.stale_ok === (r.cache === 'stale'), {
      error: 'stale_ok is true exactly when cache is stale',
      path: ['stale_ok'],
    })
    .refine(
      (r) => r.stale_ok === (r.stale_reason !== undefined && r.cache_expires_at !== undefined),
      { error: 'stale_reason and cache_expires_at are present exactly when stale_ok is true' },
    );

/**
 * The relay response envelope schema, built on the first call, then memoised (the CLI reads it
 * through this getter; {@link relayEnvelopeSchema} is the same instance). `identity` is the
 * pooled identity that served the read, or null when none did (a cache hit, the anonymous API,
 * or a public web/raw/patch read).
 */
export const getRelayEnvelopeSchema = /* @__PURE__ */ lazySchema(() =>
  z
    .strictObject({
      status: z.int().min(100).max(599),
      headers: z.record(z.string(), z.string()),
      body: z.unknown(),
      body_encoding: z.enum(BODY_ENCODINGS),
      identity: z.strictObject({ id: z.string().min(1), kind: z.enum(IDENTITY_KINDS) }).nullable(),
      relay: buildRelayMetaSchema(),
    })
    .superRefine((envelope, ctx) => {
      const body = getRelayEnvelopeBodySchema().safeParse(envelope);
      if (!body.success) {
        ctx.addIssue({
          code: 'custom',
          message: 'body does not match body_encoding',
          path: ['body'],
        });
      }
      for (const name of Object.keys(envelope.headers)) {
        if ((NEVER_FORWARDED_HEADERS as readonly string[]).includes(name.toLowerCase())) {
          ctx.addIssue({
            code: 'custom',
            message: 'credential header in envelope',
            path: ['headers'],
          });
        }
      }
    }),
);

/**
 * The relay response envelope. `identity` is the pooled identity that served the read, or null
 * when none did (a cache hit, the anonymous API, or a public web/raw/patch read). Built at
 * import; {@link getRelayEnvelopeSchema} builds it on first use.
 */
export const relayEnvelopeSchema = /* @__PURE__ */ getRelayEnvelopeSchema();

/** A relay response envelope. */
export type RelayEnvelope = z.infer<typeof relayEnvelopeSchema>;
