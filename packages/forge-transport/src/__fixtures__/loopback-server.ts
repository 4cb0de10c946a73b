import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request as the loopback server saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly remotePort: number;
}

/** A test server on 127.0.0.1, on an ephemeral port. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  readonly port: number;
  /** Every request received, in order. */
  readonly requests: SeenRequest[];
  /** Resolves with the next request received. */
  nextRequest(): Promise<SeenRequest>;
  /** Closes the server and every connection it holds. */
  close(): Promise<void>;
}

/** Handles one request. */
export type LoopbackHandler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * Starts an HTTP server on 127.0.0.1 with port 0. Every test closes what it opens.
 *
 * @param handler - answers each request
 */
export async function startLoopbackServer(handler: LoopbackHandler): Promise<LoopbackServer> {
  const requests: SeenRequest[] = [];
  const waiters: ((request: SeenRequest) => void)[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    const seen: SeenRequest = {
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
      remotePort: request.socket.remotePort ?? 0,
    };
    requests.push(seen);
    for (const waiter of waiters.splice(0)) waiter(seen);
    handler(request, response);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    nextRequest: () => new Promise((resolve) => waiters.push(resolve)),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve, reject) => {
        server.close((error) => {
          if (error) reject(error);
          else resolve();
        });
      });
    },
  };
}
