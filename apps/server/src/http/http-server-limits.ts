import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import { createErrorBody } from '@relay/protocol';

/** The bounds the relay's HTTP server puts on its connections (server-config.ts). */
export interface HttpServerLimits {
  /** A request's headers must arrive within this time of its first byte (a new connection's too). */
  readonly headersTimeoutMs: number;
  /**
   * The whole request, body included, must arrive within this time of its first byte; at or
   * above `headersTimeoutMs` (Node refuses less).
   */
  readonly requestBodyTimeoutMs: number;
  /** An idle kept-alive connection is closed after this time. */
  readonly keepAliveTimeoutMs: number;
}

/** How often Node looks for connections past their headers or request deadline, at most. */
const MAX_CHECK_INTERVAL_MS = 1_000;

/**
 * The Node `http.createServer` options of {@link HttpServerLimits}. Node answers a request past
 * a deadline with `408 Request Timeout` and closes its connection; it looks for such connections
 * every `connectionsCheckingInterval` (30 s by default, which would let a 10 s deadline last
 * 40 s): here a quarter of the shorter deadline, at most 1 s.
 *
 * @param limits - the timeouts
 * @returns the options (`headersTimeout`, `requestTimeout`, `keepAliveTimeout`,
 *   `connectionsCheckingInterval`)
 */
export function toHttpServerOptions(limits: HttpServerLimits): ServerOptions {
  const shorter = Math.min(limits.headersTimeoutMs, limits.requestBodyTimeoutMs);
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestBodyTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(
      10,
      Math.min(MAX_CHECK_INTERVAL_MS, Math.floor(shorter / 4)),
    ),
  };
}

/** Options of {@link limitConnectionsPerPeer}. */
export interface PeerConnectionLimitOptions {
  /** Open connections from one remote address at most; 0 leaves them unbounded. */
  readonly maxPerPeer: number;
  /** The request id of a refusal's error body. */
  readonly createRequestId: () => string;
  /**
   * How long a refused connection is kept to read (and drop) what the client sends after the
   * 503, so that closing it does not reset the answer away. Default 1 s.
   */
  readonly lingerMs?: number;
}

/** What {@link limitConnectionsPerPeer} tracks. */
export interface PeerConnectionLimit {
  /** Connections from `address` open now. */
  openFrom(address: string): number;
}

/**
 * Bounds the connections one peer address holds open on `server`. A connection past the bound
 * is answered at once, before any of its request is read or parsed, with `503` and the error
 * body of `relay_overloaded` (`Connection: close`, `Cache-Control: no-store`), and closed: the
 * relay CLI retries that code, then falls back to a local run. Nothing of it reaches the app
 * (no access log entry). Accepted connections are handed to the HTTP server's own connection
 * handling unchanged.
 *
 * Behind a reverse proxy every connection has the proxy's address: set the bound above the
 * proxy's pool, or 0.
 *
 * @param server - the HTTP server, before it accepts connections
 * @param options - the bound, the request ids of refusals
 */
export function limitConnectionsPerPeer(
  server: Server,
  options: PeerConnectionLimitOptions,
): PeerConnectionLimit {
  const open = new Map<string, number>();
  const lingerMs = options.lingerMs ?? 1_000;
  // The HTTP server's own 'connection' listeners (the parser set-up) run only for accepted
  // connections: a refused one must never be parsed.
  const httpListeners = server.listeners('connection') as ((socket: Socket) => void)[];
  if (options.maxPerPeer > 0) {
    server.removeAllListeners('connection');
    server.on('connection', (socket: Socket) => {
      const address = socket.remoteAddress;
      if (address === undefined) {
        // Already gone: nothing to serve or count.
        socket.destroy();
        return;
      }
      const count = open.get(address) ?? 0;
      if (count >= options.maxPerPeer) {
        refuse(socket, options.createRequestId(), lingerMs);
        return;
      }
      open.set(address, count + 1);
      socket.once('close', () => {
        const left = (open.get(address) ?? 1) - 1;
        if (left <= 0) open.delete(address);
        else open.set(address, left);
      });
      for (const listener of httpListeners) listener.call(server, socket);
    });
  }
  return { openFrom: (address) => open.get(address) ?? 0 };
}

/** Answers 503 `relay_overloaded` on a raw connection and closes it. */
function refuse(socket: Socket, requestId: string, lingerMs: number): void {
  const body = JSON.stringify(createErrorBody('relay_overloaded', { requestId }));
  socket.on('error', () => undefined);
  // Read and drop the request the client may be sending: closing with unread bytes would reset
  // the connection, and the client might lose the answer.
  socket.resume();
  socket.end(
    [
      'HTTP/1.1 503 Service Unavailable',
      'content-type: application/json',
      `content-length: ${String(Buffer.byteLength(body))}`,
      'cache-control: no-store',
      `x-relay-request-id: ${requestId}`,
      'connection: close',
      '',
      body,
    ].join('\r\n'),
  );
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.once('close', () => {
    clearTimeout(timer);
  });
}
