import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { importSPKI, jwtVerify } from 'jose';

/** How the local endpoint answers the next exchanges. */
export type ExchangeMode =
  | { readonly kind: 'ok'; readonly lifetimeMs: number }
  | { readonly kind: 'status'; readonly status: number; readonly headers?: Record<string, string> }
  | { readonly kind: 'malformed' };

/** A verified exchange, as the endpoint saw it. */
export interface ExchangeRecord {
  readonly installationId: number;
  readonly issuer: string | undefined;
  readonly issuedAt: number | undefined;
  readonly expiresAt: number | undefined;
  readonly token: string;
}

/** A loopback stand-in for POST /app/installations/:id/access_tokens that verifies the app JWT. */
export interface TokenExchangeServer {
  readonly baseUrl: string;
  readonly exchanges: ExchangeRecord[];
  readonly rejected: string[];
  mode: ExchangeMode;
  close(): Promise<void>;
}

/**
 * Starts the endpoint on 127.0.0.1:0. It verifies the RS256 JWT with jose against `publicKeyPem`
 * at the fake clock's time, then answers `{token, expires_at}` (201), or the configured failure.
 */
export async function startTokenExchangeServer(options: {
  readonly publicKeyPem: string;
  readonly appId: string;
  readonly now: () => number;
}): Promise<TokenExchangeServer> {
  const publicKey = await importSPKI(options.publicKeyPem, 'RS256');
  const exchanges: ExchangeRecord[] = [];
  const rejected: string[] = [];
  let counter = 0;
  const state: { mode: ExchangeMode } = { mode: { kind: 'ok', lifetimeMs: 3_600_000 } };

  const server: Server = createServer((request, response) => {
    void (async () => {
      const match = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(request.url ?? '');
      const auth = request.headers.authorization ?? '';
      if (request.method !== 'POST' || match === null || !auth.startsWith('Bearer ')) {
        rejected.push('shape');
        response.writeHead(404).end();
        return;
      }
      let claims;
      try {
        ({ payload: claims } = await jwtVerify(auth.slice('Bearer '.length), publicKey, {
          algorithms: ['RS256'],
          issuer: options.appId,
          currentDate: new Date(options.now()),
        }));
      } catch {
        rejected.push('jwt');
        response
          .writeHead(401, { 'content-type': 'application/json' })
          .end('{"message":"Bad credentials"}');
        return;
      }
      const mode = state.mode;
      if (mode.kind === 'status') {
        response.writeHead(mode.status, mode.headers).end('{"message":"nope"}');
        return;
      }
      counter += 1;
      const token = `ghs_installation_token_${counter}`;
      exchanges.push({
        installationId: Number(match[1]),
        issuer: claims.iss,
        issuedAt: claims.iat,
        expiresAt: claims.exp,
        token,
      });
      const body =
        mode.kind === 'malformed'
          ? '{"token": 12}'
          : JSON.stringify({
              token,
              expires_at: new Date(options.now() + mode.lifetimeMs).toISOString(),
            });
      response.writeHead(201, { 'content-type': 'application/json' }).end(body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    exchanges,
    rejected,
    get mode() {
      return state.mode;
    },
    set mode(mode: ExchangeMode) {
      state.mode = mode;
    },
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
