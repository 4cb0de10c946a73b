import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SimHostHandler, SimRequest, SimResponse } from '../hosts/host-types.js';
import type { FaultAction, FaultInjector } from './fault-injector.js';
import type { RequestLog, SimHost } from './request-log.js';
import type { SecondaryLimiter } from './secondary-limiter.js';

/** What the loopback server of one host needs. */
export interface HttpShellDeps {
  readonly host: SimHost;
  readonly handler: SimHostHandler;
  readonly faults: FaultInjector;
  readonly log: RequestLog;
  readonly now: () => number;
  /** Maps an Authorization header to a credential label (never the secret). */
  readonly describeCredential: (authorization: string | undefined) => string;
  /** Waits `ms` (latency and drip faults). Tests may pass a fake. */
  readonly delay: (ms: number) => Promise<void>;
  /** GitHub's secondary limits, when modelled (API host only). */
  readonly secondary?: SecondaryLimiter;
}

/** A started loopback server. */
export interface RunningServer {
  readonly url: string;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
}

function toRequest(req: IncomingMessage, body: string): SimRequest {
  const raw = req.url ?? '/';
  const q = raw.indexOf('?');
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers))
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  return {
    method: (req.method ?? 'GET').toUpperCase(),
    path: q < 0 ? raw : raw.slice(0, q),
    query: q < 0 ? '' : raw.slice(q + 1),
    headers,
    body,
    remoteAddress: req.socket.remoteAddress ?? 'unknown',
  };
}

async function write(
  res: ServerResponse,
  response: SimResponse,
  fault: FaultAction | undefined,
  delay: (ms: number) => Promise<void>,
): Promise<void> {
  let body =
    typeof response.body === 'string'
      ? Buffer.from(response.body, 'utf8')
      : Buffer.from(response.body);
  if (fault?.kind === 'oversize') {
    const pad = Math.max(0, fault.bytes - 16);
    body = Buffer.from(`{"padding":"${'x'.repeat(pad)}"}`);
  }
  const headers = { ...response.headers, 'content-length': String(body.length) };
  res.writeHead(response.status, headers);
  if (fault?.kind === 'truncate') {
    const keep = Math.min(body.length - 1, fault.bytes ?? Math.floor(body.length / 2));
    res.write(body.subarray(0, Math.max(0, keep)));
    await new Promise<void>((resolve) => setImmediate(resolve));
    res.socket?.destroy();
    return;
  }
  if (fault?.kind === 'drip') {
    const size = Math.max(1, fault.chunkBytes ?? 1);
    for (let i = 0; i < body.length; i += size) {
      if (res.destroyed) return;
      res.write(body.subarray(i, i + size));
      await delay(fault.intervalMs);
    }
    res.end();
    return;
  }
  res.end(body);
}

/**
 * Serves one simulated host on 127.0.0.1 with an ephemeral port: reads the request, applies
 * any matching fault, asks the host for its answer, writes it and records it in the log.
 */
export async function startHttpShell(deps: HttpShellDeps): Promise<RunningServer> {
  const server: Server = createServer((req, res) => {
    void (async () => {
      const at = deps.now();
      const request = toRequest(req, await readBody(req));
      const auth = request.headers.authorization;
      const credential = deps.describeCredential(auth);
      const token = /^(?:token|bearer)\s+(\S+)$/i.exec(auth?.trim() ?? '')?.[1];
      const fault = deps.faults.take({
        host: deps.host,
        method: request.method,
        path: request.path,
        credential,
        token,
      });
      const entry = (status: number, rateResource?: string, applied = fault?.kind): void => {
        deps.log.record({
          at,
          method: request.method,
          host: deps.host,
          path: request.path,
          query: request.query,
          credential,
          status,
          fault: applied,
          rateResource,
        });
      };
      if (fault?.kind === 'reset') {
        entry(0);
        req.socket.destroy();
        return;
      }
      // The secondary-limit model: per credential (an anonymous client per address), concurrency
      // and points in a sliding minute; a refusal is GitHub's secondary-limit 403 with Retry-After.
      const limited = fault === undefined ? deps.secondary : undefined;
      const secondaryKey =
        credential === 'anonymous' ? `anonymous:${request.remoteAddress}` : credential;
      if (limited !== undefined && !limited.enter(secondaryKey)) {
        const refusal = deps.handler.injected(request, {
          kind: 'secondary_limit',
          status: 403,
          retryAfterS: limited.retryAfterS,
        });
        entry(refusal.response.status, refusal.rateResource, 'secondary_limit');
        await write(res, refusal.response, undefined, deps.delay);
        return;
      }
      try {
        if (fault?.kind === 'latency') await deps.delay(fault.ms);
        const answer =
          fault?.kind === 'status' || fault?.kind === 'secondary_limit'
            ? deps.handler.injected(request, fault)
            : await deps.handler.handle(request);
        entry(answer.response.status, answer.rateResource);
        await write(res, answer.response, fault, deps.delay);
      } finally {
        limited?.leave(secondaryKey);
      }
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('simulator error');
    });
  });
  // Node's default idle keep-alive (5 s). Clients subtract a safety margin from the advertised
  // `Keep-Alive: timeout` (undici: 2 s), so a shorter one made every client open a new
  // connection per request — which GitHub does not — and bench figures paid a TCP connect each.
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => {
          if (error) reject(error);
          else resolve();
        });
        server.closeAllConnections();
      }),
  };
}
