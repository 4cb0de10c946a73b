import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { getCommitShaSchema, getPoolIdSchema } from './common-schemas.js';

/**
 * Request headers the relay keeps; every other header is dropped (SPEC.md "Relay request").
 * `x-forge-api-version` is an alias of `x-github-api-version` (DESIGN.md intro).
 */
export const RELAY_REQUEST_HEADER_ALLOWLIST = [
  'accept',
  'x-github-api-version',
  'if-none-match',
  'if-modified-since',
  'cache-control',
] as const;

/** A header name the relay keeps. */
export type RelayRequestHeaderName = (typeof RELAY_REQUEST_HEADER_ALLOWLIST)[number];

/** The alias the relay accepts for `x-github-api-version`. */
export const FORGE_API_VERSION_HEADER_ALIAS = 'x-forge-api-version';

/** The PR states that discriminate PR file-list cache entries. */
export const PR_STATES = ['open', 'closed', 'merged'] as const;

const getRouteHintSchema = /* @__PURE__ */ lazySchema(() =>
  z
    .strictObject({
      pr_head_sha: getCommitShaSchema().optional(),
      pr_state: z.enum(PR_STATES).optional(),
      // Legacy input: accepted for wire compatibility, then discarded (SPEC.md rule 1).
      owner: z.unknown().optional(),
      repo: z.unknown().optional(),
      kind: z.unknown().optional(),
    })
    .transform(({ pr_head_sha, pr_state }) => ({
      ...(pr_head_sha === undefined ? {} : { pr_head_sha }),
      ...(pr_state === undefined ? {} : { pr_state }),
    })),
);

/** The upper bound of a path, in characters, before the path rules even look at it. */
export const RELAY_PATH_MAX_LENGTH = 4096;

/** Returns {@link relayRequestSchema}, built on the first call (the same instance after). */
export const getRelayRequestSchema = /* @__PURE__ */ lazySchema(() =>
  z
    .strictObject({
      pool: getPoolIdSchema(),
      method: z.string().min(1).max(32),
      path: z.string().min(1).max(RELAY_PATH_MAX_LENGTH),
      query: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
      headers: z.record(z.string(), z.string()).optional(),
      route_hint: getRouteHintSchema().optional(),
      cache_key: z.unknown().optional(),
      idempotency_key: z.unknown().optional(),
    })
    .transform(({ cache_key: _c, idempotency_key: _i, route_hint, ...rest }) => ({
      ...rest,
      ...(route_hint === undefined || Object.keys(route_hint).length === 0 ? {} : { route_hint }),
    })),
);

/**
 * The body of POST /v1/forge/request. Validates structure only: the path rules, secret-bearing
 * query keys, the method gate and the header allowlist belong to the request pipeline, so that
 * each gives its own error code. Legacy `route_hint.owner|repo|kind`, `cache_key` and
 * `idempotency_key` are accepted and discarded.
 * Built at import; a bundle that reads only {@link getRelayRequestSchema} builds it on first use.
 */
export const relayRequestSchema = /* @__PURE__ */ getRelayRequestSchema();

/** A validated relay request, legacy fields discarded. */
export type RelayRequest = z.output<typeof relayRequestSchema>;
/** What a caller may send as a relay request. */
export type RelayRequestInput = z.input<typeof relayRequestSchema>;

/**
 * Reduces request headers to the allowlist: names are lowercased, `x-forge-api-version`
 * becomes `x-github-api-version` (an explicit `x-github-api-version` wins), all else is dropped.
 */
export function reduceRequestHeaders(
  headers: Readonly<Record<string, string>> | undefined,
): Partial<Record<RelayRequestHeaderName, string>> {
  const reduced: Partial<Record<RelayRequestHeaderName, string>> = {};
  if (headers === undefined) return reduced;
  let alias: string | undefined;
  for (const [rawName, value] of Object.entries(headers)) {
    const name = rawName.toLowerCase();
    if (name === FORGE_API_VERSION_HEADER_ALIAS) {
      alias = value;
    } else if ((RELAY_REQUEST_HEADER_ALLOWLIST as readonly string[]).includes(name)) {
      reduced[name as RelayRequestHeaderName] = value;
    }
  }
  if (alias !== undefined && reduced['x-github-api-version'] === undefined) {
    reduced['x-github-api-version'] = alias;
  }
  return reduced;
}
