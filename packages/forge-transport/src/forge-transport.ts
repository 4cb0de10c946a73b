import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_REQUEST_TIMEOUT_MS, err, ok } from '@relay/protocol';
import type { Result } from '@relay/protocol';
import { Agent } from 'undici';
import type { Dispatcher } from 'undici';
import { encodeBody, namesDocumentMediaType } from './body-encoder.js';
import type { EncodedBody } from './body-encoder.js';
import { readCappedBody } from './capped-body-reader.js';
import { parseForgeHosts } from './host-allowlist.js';
import type { ForgeHostKind, ForgeHosts, ForgeHostsOptions } from './host-allowlist.js';
import { parseRateLimitHeaders } from './rate-limit-parser.js';
import type { RateLimitInfo, ResponseHeaders } from './rate-limit-parser.js';
import { REDIRECT_STATUSES, decideRedirect } from './redirect-policy.js';
import type { ForgeTargetKind, RedirectFlow } from './redirect-policy.js';
import { DEFAULT_USER_AGENT, buildRequestHeaders } from './request-headers.js';
import { toEnvelopeHeaders } from './response-headers.js';
import { passesRewriteCheckAll } from './rewrite-check.js';
import type { RewriteCheck } from './rewrite-check.js';
import { buildTargetUrl } from './target-url.js';
import type { ForgeQuery } from './target-url.js';
import { createTransportError } from './transport-error.js';
import type { ForgeTransportError } from './transport-error.js';

/**
 * Schedules the request deadline: calls `onTimeout` after `ms` milliseconds unless the
 * returned cancel function runs first. Tests pass a manual one instead of sleeping.
 */
export type ScheduleTimeout = (ms: number, onTimeout: () => void) => () => void;

/** Options of {@link createForgeTransport}. Every field has a default. */
export interface ForgeTransportOptions {
  /** The host allowlist (base URLs, log host suffixes). Defaults: GitHub's hosts. */
  readonly hosts?: ForgeHostsOptions;
  /** MAX_RESPONSE_BYTES: the cap on upstream body bytes. Default 2 MiB. */
  readonly maxResponseBytes?: number;
  /** REQUEST_TIMEOUT_MS: the deadline of one request, redirects and body included. Default 15 s. */
  readonly timeoutMs?: number;
  /** The relay's `User-Agent`. Default {@link DEFAULT_USER_AGENT}. */
  readonly userAgent?: string;
  /** Keep-alive connections per origin. Default 16. */
  readonly connectionsPerHost?: number;
  /** How long an idle keep-alive connection is kept, in ms. Default 10 s. */
  readonly keepAliveTimeoutMs?: number;
  /** The clock, for `retry-after` dates. Default `Date.now`. */
  readonly now?: () => number;
  /** The deadline scheduler. Default: an unref'd `setTimeout`. */
  readonly scheduleTimeout?: ScheduleTimeout;
}

/** One upstream read. The method is always GET. */
export interface ForgeRequest {
  /** Which configured host to read from. */
  readonly host: ForgeHostKind;
  /** The validated absolute path, placed under the host's base path. */
  readonly path: string;
  /** Query parameters. */
  readonly query?: ForgeQuery;
  /**
   * Caller headers; only `accept`, `x-github-api-version` (alias `x-forge-api-version`),
   * `if-none-match` and `if-modified-since` are sent. Caller credentials are dropped.
   */
  readonly headers?: Readonly<Record<string, string>>;
  /** The pooled credential's `Authorization` value; sent to the API host only, never further. */
  readonly authorization?: string;
  /** The rewrite check of the request's frozen policy snapshot. Required: nothing leaves unchecked. */
  readonly rewriteCheck: RewriteCheck;
  /** Redirect policy. Default `default` (the API host never redirects). */
  readonly flow?: RedirectFlow;
  /** Aborts the request (`aborted`). */
  readonly signal?: AbortSignal;
}

/** The forge's answer, body already encoded for the envelope. */
export interface ForgeResponse {
  /** The upstream status of the final answer. */
  readonly status: number;
  /** Envelope headers of the final answer (the protocol allowlist). */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * Rate-limit data of the first answer, the one from the requested host that spent the
   * quota (the API's 302 in the job-log flow).
   */
  readonly rateLimit: RateLimitInfo;
  /** The body and its encoding. */
  readonly body: EncodedBody;
  /** Upstream body bytes of the final answer (what the cap counted). */
  readonly upstreamBytes: number;
  /** The host that produced the final answer. */
  readonly servedBy: ForgeTargetKind;
  /** Redirects followed. */
  readonly redirects: number;
}

/** The only door to the forge. */
export interface ForgeTransport {
  /** The validated host allowlist in use. */
  readonly hosts: ForgeHosts;
  /**
   * Performs one GET against the forge.
   *
   * @param request - host, path, query, caller headers, credential and rewrite check
   * @returns the encoded answer (any upstream status), or a typed failure
   */
  request(request: ForgeRequest): Promise<Result<ForgeResponse, ForgeTransportError>>;
  /** Closes every keep-alive pool; later requests fail with `forge_unreachable`. */
  close(): Promise<void>;
}

const defaultScheduleTimeout: ScheduleTimeout = (ms, onTimeout) => {
  const handle = setTimeout(onTimeout, ms);
  handle.unref();
  return () => {
    clearTimeout(handle);
  };
};

type AbortCause = 'timeout' | 'aborted';

/** Statuses that never carry a body, whatever their `content-length` says. */
const BODILESS_STATUSES: readonly number[] = [204, 304];

function singleHeader(headers: ResponseHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

function classifyFailure(error: unknown, cause: AbortCause | undefined, timeoutMs: number) {
  if (cause === 'timeout') return createTransportError('forge_timeout', { timeoutMs });
  if (cause === 'aborted') return createTransportError('aborted');
  const code = errorCode(error);
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return createTransportError('forge_timeout', { timeoutMs });
  }
  return createTransportError('forge_unreachable');
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new TypeError(`forge-transport: ${name} must be a positive integer`);
  }
  return value;
}

/**
 * Creates the transport: the only code that opens connections to the forge. It builds
 * canonical URLs from allowlisted bases, runs the rewrite check on every outgoing URL and
 * non-credential header before anything is sent, sends `Authorization` to the API host only,
 * follows redirects only as {@link decideRedirect} allows, caps upstream bytes while streaming,
 * enforces a deadline and encodes the body. Connections are kept alive in one pool per origin.
 *
 * @param options - hosts, limits, user agent, pools, clock and scheduler
 * @returns the transport
 * @throws TypeError when the host configuration or a limit is invalid (use
 *   {@link parseForgeHosts} first for a typed error)
 * @example
 * ```ts
 * const transport = createForgeTransport({ hosts: { apiUrl: 'https://api.github.com' } });
 * const result = await transport.request({
 *   host: 'api',
 *   path: '/repos/octocat/Hello-World',
 *   headers: { accept: 'application/vnd.github+json' },
 *   authorization: `Bearer ${token}`,
 *   rewriteCheck: (value) => !rules.matches(value),
 * });
 * if (!result.ok) return mapTransportError(result.error);
 * ```
 */
export function createForgeTransport(options: ForgeTransportOptions = {}): ForgeTransport {
  const parsedHosts = parseForgeHosts(options.hosts);
  if (!parsedHosts.ok) {
    throw new TypeError(
      `forge-transport: invalid ${parsedHosts.error.setting} (${parsedHosts.error.code})`,
    );
  }
  const hosts = parsedHosts.value;
  const maxResponseBytes = positiveInteger(
    options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    'maxResponseBytes',
  );
  const timeoutMs = positiveInteger(options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, 'timeoutMs');
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const now = options.now ?? Date.now;
  const scheduleTimeout = options.scheduleTimeout ?? defaultScheduleTimeout;
  const agent = new Agent({
    connections: positiveInteger(options.connectionsPerHost ?? 16, 'connectionsPerHost'),
    keepAliveTimeout: positiveInteger(options.keepAliveTimeoutMs ?? 10_000, 'keepAliveTimeoutMs'),
    pipelining: 1,
    // Backstops only: the deadline below covers the whole request.
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });

  async function send(
    request: ForgeRequest,
    signal: AbortSignal,
  ): Promise<Result<ForgeResponse, ForgeTransportError>> {
    const target = buildTargetUrl(hosts.bases[request.host], request.path, request.query);
    if (!target.ok) return err(createTransportError('invalid_path'));
    const initialHeaders = buildRequestHeaders({
      callerHeaders: request.headers,
      authorization: request.host === 'api' ? request.authorization : undefined,
      userAgent,
    });
    if (!initialHeaders.ok) return err(createTransportError('invalid_header'));

    let url = target.value;
    let kind: ForgeTargetKind = request.host;
    let headers = initialHeaders.value;
    let rateLimit: RateLimitInfo | undefined;
    const flow = request.flow ?? 'default';
    // A diff or patch asked of the API host is a document: empty, it is '' as from the patch host.
    const asksForDocument = namesDocumentMediaType(initialHeaders.value.checked.accept);

    for (let followed = 0; ; followed += 1) {
      const duringRedirect = followed > 0;
      const values = [url.href, ...Object.values(headers.checked)];
      if (!(await passesRewriteCheckAll(request.rewriteCheck, values))) {
        return err(createTransportError('string_rewrite_denied', { duringRedirect }));
      }
      const sent: Record<string, string> = { ...headers.checked };
      if (headers.authorization !== undefined) sent.authorization = headers.authorization;

      const response: Dispatcher.ResponseData = await agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        headers: sent,
        signal,
      });
      const responseHeaders = response.headers as ResponseHeaders;
      rateLimit ??= parseRateLimitHeaders(responseHeaders, now());

      if (REDIRECT_STATUSES.includes(response.statusCode)) {
        await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
        const next = decideRedirect({
          hosts,
          flow,
          from: kind,
          fromUrl: url,
          followed,
          location: singleHeader(responseHeaders, 'location'),
        });
        if (!next.ok) {
          return err(
            createTransportError('forge_redirect_denied', {
              status: response.statusCode,
              duringRedirect,
            }),
          );
        }
        url = next.value.url;
        kind = next.value.kind;
        // A followed redirect carries no credential and no caller header.
        headers = { checked: { 'user-agent': userAgent } };
        continue;
      }

      // A 204 or 304 has no body; a 304's content-length may still give the size a 200 would
      // have had (RFC 9110 §8.6), which is not a byte the forge sends.
      const bodiless = BODILESS_STATUSES.includes(response.statusCode);
      const declaredLength = bodiless
        ? 0
        : Number(singleHeader(responseHeaders, 'content-length') ?? NaN);
      const body =
        declaredLength > maxResponseBytes
          ? err('too_large' as const)
          : await readCappedBody(response.body, maxResponseBytes);
      if (!body.ok) {
        // Drop the rest of the body and its connection; the abort error it emits is expected.
        response.body.on('error', () => undefined).destroy();
        return err(
          createTransportError('forge_response_too_large', {
            limitBytes: maxResponseBytes,
            duringRedirect,
          }),
        );
      }
      const contentType = singleHeader(responseHeaders, 'content-type');
      const isApiValue = kind === 'api' && !asksForDocument && !namesDocumentMediaType(contentType);
      return ok({
        status: response.statusCode,
        headers: toEnvelopeHeaders(responseHeaders),
        rateLimit,
        body: encodeBody(body.value, {
          status: response.statusCode,
          contentType,
          kind: isApiValue ? 'api' : 'document',
        }),
        upstreamBytes: body.value.length,
        servedBy: kind,
        redirects: followed,
      });
    }
  }

  return {
    hosts,
    async request(request) {
      const controller = new AbortController();
      let cause: AbortCause | undefined;
      const abort = (why: AbortCause) => {
        cause ??= why;
        controller.abort();
      };
      if (request.signal?.aborted === true) return err(createTransportError('aborted'));
      const onCallerAbort = () => {
        abort('aborted');
      };
      request.signal?.addEventListener('abort', onCallerAbort, { once: true });
      const cancelTimeout = scheduleTimeout(timeoutMs, () => {
        abort('timeout');
      });
      try {
        return await send(request, controller.signal);
      } catch (error) {
        return err(classifyFailure(error, cause, timeoutMs));
      } finally {
        cancelTimeout();
        request.signal?.removeEventListener('abort', onCallerAbort);
      }
    },
    async close() {
      await agent.close();
    },
  };
}
