import { PAGINATED_READ_MAX_PAGES } from '@relay/protocol';
import type { FallbackReason, RelayEnvelope } from '@relay/protocol';
import { loadCallerSession, parseEnvelope, postForgeRequest } from '../caller-session.js';
import type { CliDependencies } from '../cli-dependencies.js';
import { findNextLink } from '../gh-api-output.js';
import { toReplyError } from '../relay-http.js';
import { parseRetries, sendWithRetries } from '../relay-retry-policy.js';

/** One relayed GET: an absolute forge API path, its query and allowlisted headers. */
export interface RelayRead {
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly headers?: Readonly<Record<string, string>>;
}

/** What one relayed read ended with (failures of the relay itself are thrown). */
export type RelayReadResult =
  /** The relay served it; the forge's status is `envelope.status` (404s included). */
  | { readonly kind: 'served'; readonly envelope: RelayEnvelope }
  /** The relay asks for a local run (424 `fallback_local`, after rule 6's retries). */
  | { readonly kind: 'fallback'; readonly reason: FallbackReason };

/**
 * The one port every served command reads through (DESIGN.md "The client's rooms"): a
 * command is unit-tested with a fake port and end to end through the real binary.
 */
export interface RelayPort {
  /**
   * Reads one forge path through the relay.
   *
   * @throws CliError for relay failures that end the command (denials, unreachable relay,
   *   exhausted service errors)
   */
  read(request: RelayRead): Promise<RelayReadResult>;
}

/**
 * The relay port of the saved session: one auth snapshot (client rule 2) loaded at the first
 * read, POST /v1/forge/request, rule 6's retries, RELAY_FRESH's `cache-control: max-age=0`.
 *
 * @throws CliError `usage_error` (RELAY_RETRIES), `not_logged_in`, `invalid_config` at the
 *   first read
 */
export function createSessionRelayPort(deps: CliDependencies): RelayPort {
  let session: ReturnType<typeof loadCallerSession> | undefined;
  return {
    async read(request) {
      const retries = parseRetries(deps.env);
      if (!retries.ok) throw retries.error;
      session ??= loadCallerSession(deps);
      const { auth } = await session;
      const headers = { ...request.headers };
      if (deps.env.RELAY_FRESH === '1' && headers['cache-control'] === undefined) {
        headers['cache-control'] = 'max-age=0';
      }
      const query = request.query ?? {};
      const outcome = await sendWithRetries(
        () =>
          postForgeRequest(deps, auth, {
            pool: auth.pool,
            method: 'GET',
            path: request.path,
            ...(Object.keys(query).length === 0 ? {} : { query: { ...query } }),
            ...(Object.keys(headers).length === 0 ? {} : { headers }),
          }),
        { retries: retries.value, sleep: deps.sleep },
      );
      switch (outcome.kind) {
        case 'failure':
          throw toReplyError(outcome.reply);
        case 'fallback':
          return { kind: 'fallback', reason: outcome.reason };
        case 'served':
          return { kind: 'served', envelope: parseEnvelope(outcome.reply.json) };
      }
    },
  };
}

/** What {@link readAllPages} ended with. */
export type PagesResult =
  /** Every page of the collection was read, in order (each a 2xx JSON array). */
  | { readonly kind: 'pages'; readonly items: readonly unknown[] }
  /** A page answered with a forge error status: that envelope. */
  | { readonly kind: 'http_error'; readonly envelope: RelayEnvelope }
  /** The relay asked for a local run. */
  | { readonly kind: 'fallback'; readonly reason: FallbackReason }
  /** More pages than rule 10 allows, or a page the client cannot prove: run gh instead. */
  | { readonly kind: 'unbounded' };

/** What {@link readAllPages} needs besides the port. */
export interface ReadAllPagesOptions {
  /** Stop once this many items are read (the rest of the collection is not needed). */
  readonly enough?: number;
  /** The most pages to read (default: SPEC.md Limits, 10). */
  readonly maxPages?: number;
}

/**
 * Reads a REST collection page by page (`per_page=100`, then `page=2`, … while the
 * `Link` header has `rel="next"`), at most 10 pages (SPEC.md client rule 10 and Limits); a page that is not a JSON
 * array, or an 11th page, makes the set `unbounded`.
 */
export async function readAllPages(
  port: RelayPort,
  request: RelayRead,
  options: ReadAllPagesOptions = {},
): Promise<PagesResult> {
  const maxPages = options.maxPages ?? PAGINATED_READ_MAX_PAGES;
  const items: unknown[] = [];
  let next: RelayRead = { ...request, query: { ...request.query, per_page: '100' } };
  for (let page = 1; ; page += 1) {
    const result = await port.read(next);
    if (result.kind === 'fallback') return result;
    const { envelope } = result;
    if (envelope.status < 200 || envelope.status > 299) return { kind: 'http_error', envelope };
    if (envelope.body_encoding !== 'json' || !Array.isArray(envelope.body)) {
      return { kind: 'unbounded' };
    }
    items.push(...(envelope.body as unknown[]));
    const link = findNextLink(envelope.headers.link);
    if (link === undefined) return { kind: 'pages', items };
    if (options.enough !== undefined && items.length >= options.enough) {
      return { kind: 'pages', items };
    }
    if (page >= maxPages) return { kind: 'unbounded' };
    // The next page of the same path (`page=N`): the Link target may name another path shape
    // (`/repositories/:id/…`) that is not the same relay route.
    next = { ...request, query: { ...request.query, per_page: '100', page: String(page + 1) } };
  }
}
