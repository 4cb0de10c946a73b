import { getErrorBodySchema } from '@relay/protocol';
import type { ErrorCode, FallbackReason } from '@relay/protocol';
import { CliError } from './cli-error.js';
import type { RelayFetch, RelayFetchResponse } from './relay-fetch.js';

/**
 * How a request treats redirects (SPEC.md client rule 1): `same-origin` follows only to the
 * same scheme, host and effective port (login, caller and admin JSON requests); `refuse`
 * follows none (string-rewrite policy requests); `follow` keeps fetch's own behaviour
 * (credential-free discovery).
 */
export type RedirectMode = 'same-origin' | 'refuse' | 'follow';

/** A request to the relay. */
export interface RelayHttpRequest {
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly url: string;
  /** Sent as `Authorization: Bearer <token>`. */
  readonly token?: string;
  /** Serialized as JSON. */
  readonly body?: unknown;
  readonly redirects: RedirectMode;
}

/** What the relay answered. */
export type RelayReply =
  /** A 2xx JSON body, and its text (the forge's JSON text an envelope carries verbatim). */
  | { readonly kind: 'ok'; readonly status: number; readonly json: unknown; readonly text?: string }
  /** A relay error body (DESIGN.md §3). */
  | {
      readonly kind: 'error';
      readonly status: number;
      readonly code: ErrorCode;
      readonly reason: FallbackReason | undefined;
      readonly requestId: string;
    }
  /** Anything else: a non-JSON body, an unknown error shape. */
  | { readonly kind: 'malformed'; readonly status: number }
  /** No answer: refused connection, DNS, reset. `url` is the one tried ({@link describeRelayUrl}). */
  | { readonly kind: 'unreachable'; readonly url: string }
  /** A redirect the mode forbids. */
  | { readonly kind: 'redirect_refused' };

const MAX_REDIRECTS = 5;

/**
 * Whether a redirect target `b` is on the origin of `a` (scheme, host, effective port) and
 * carries no user info: node:http turns user info into an `Authorization: Basic` header, so a
 * Location of `http://user:pw@same-host/…` made the client send credentials the server chose
 * (and a request that carries none — the login exchange — would carry them).
 */
function sameOrigin(a: URL, b: URL): boolean {
  return (
    a.protocol === b.protocol &&
    a.hostname === b.hostname &&
    a.port === b.port &&
    b.username === '' &&
    b.password === ''
  );
}

/**
 * Sends one JSON request to the relay, following redirects per `request.redirects`. Never
 * throws for HTTP outcomes; the token goes only to the origin of `request.url`.
 */
export async function sendRelayRequest(
  fetchImpl: RelayFetch,
  request: RelayHttpRequest,
): Promise<RelayReply> {
  const origin = new URL(request.url);
  let url = origin;
  let response: RelayFetchResponse | undefined;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (request.token !== undefined) headers.authorization = `Bearer ${request.token}`;
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    try {
      response = await fetchImpl(url, {
        method: request.method,
        headers,
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        redirect: request.redirects === 'follow' ? 'follow' : 'manual',
      });
    } catch {
      return { kind: 'unreachable', url: describeRelayUrl(url) };
    }
    if (request.redirects === 'follow' || response.status < 300 || response.status > 399) break;
    const location = response.headers.get('location');
    await response.body?.cancel();
    if (request.redirects === 'refuse' || location === null) return { kind: 'redirect_refused' };
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      return { kind: 'redirect_refused' };
    }
    if (!sameOrigin(origin, next)) return { kind: 'redirect_refused' };
    url = next;
    response = undefined;
  }
  if (response === undefined) return { kind: 'redirect_refused' };
  let text: string;
  try {
    text = await response.text();
  } catch {
    return { kind: 'unreachable', url: describeRelayUrl(url) };
  }
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    return { kind: 'malformed', status: response.status };
  }
  if (response.status >= 200 && response.status < 300) {
    return { kind: 'ok', status: response.status, json, text };
  }
  const parsed = getErrorBodySchema().safeParse(json, { jitless: true });
  if (!parsed.success) return { kind: 'malformed', status: response.status };
  return {
    kind: 'error',
    status: response.status,
    code: parsed.data.error.code,
    reason: parsed.data.error.reason,
    requestId: parsed.data.error.request_id,
  };
}

/**
 * A relay URL as an error message may name it: scheme, host, port and path only — never
 * user info, a query or a fragment (a token never travels in the URL, and these parts are
 * dropped all the same).
 */
export function describeRelayUrl(url: URL | string): string {
  const parsed = typeof url === 'string' ? new URL(url) : url;
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}

/** `relay_unreachable`, naming the URL that was tried. */
export function unreachableError(url: string): CliError {
  return new CliError('relay_unreachable', {
    message: `The relay server could not be reached at ${url}.`,
  });
}

/** Turns a reply that is not `ok` into the CLI error it ends the command with. */
export function toReplyError(reply: Exclude<RelayReply, { kind: 'ok' }>): CliError {
  switch (reply.kind) {
    case 'error':
      return new CliError(reply.code, {
        status: reply.status,
        requestId: reply.requestId,
        ...(reply.reason === undefined ? {} : { reason: reply.reason }),
      });
    case 'malformed':
      return new CliError('relay_protocol_error', {
        message: `The relay server answered HTTP ${reply.status} with an unexpected body.`,
        status: reply.status,
      });
    case 'unreachable':
      return unreachableError(reply.url);
    case 'redirect_refused':
      return new CliError('redirect_refused');
  }
}

/** Joins a base URL and an absolute path (`/v1/...`), keeping any base path prefix. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}
