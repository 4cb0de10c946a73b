import type { FaultAction } from '../http/fault-injector.js';

/** A request as a simulated host sees it. */
export interface SimRequest {
  readonly method: string;
  /** Raw path (still percent-encoded). */
  readonly path: string;
  /** Query string without `?` ('' when none). */
  readonly query: string;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string;
  /** Client address (anonymous rate limits are per address). */
  readonly remoteAddress: string;
}

/** A response before it is written to the socket. */
export interface SimResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string | Uint8Array;
}

/** What a host answers, with what the request log needs to know. */
export interface HostAnswer {
  readonly response: SimResponse;
  /** x-ratelimit-resource charged (API host only). */
  readonly rateResource?: string;
}

/** One simulated host: the pure request → response core behind a loopback server. */
export interface SimHostHandler {
  /** Answers a request. */
  handle(request: SimRequest): Promise<HostAnswer>;
  /** Answers a request with an injected `status` or `secondary_limit` fault. */
  injected(
    request: SimRequest,
    action: Extract<FaultAction, { kind: 'status' | 'secondary_limit' }>,
  ): HostAnswer;
}

/** A JSON response. */
export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): SimResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
  };
}

/** A GitHub-style error response. */
export function githubError(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): SimResponse {
  return jsonResponse(
    status,
    { message, documentation_url: 'https://docs.github.com/rest', status: String(status) },
    headers,
  );
}
