import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An account of the stub forge. */
export interface StubAccount {
  readonly id: number;
  readonly login: string;
}

/**
 * A small stand-in for the forge endpoints of login and provisioning, on 127.0.0.1:0
 * (@relay/forge-sim has not landed yet): GET /user, GET /user/memberships/orgs/:org,
 * GET /users/:login, GET /orgs/:org/members/:login, GET /orgs/:org/public_members/:login.
 */
export interface ForgeStub {
  readonly url: string;
  /** token → account */
  readonly tokens: Map<string, StubAccount>;
  /** `org/login` (lowercase) → membership state */
  readonly memberships: Map<string, 'active' | 'pending'>;
  /** `org/login` (lowercase) of public members */
  readonly publicMembers: Set<string>;
  /** Tokens that may see private members (identities of an organization). */
  readonly orgReaders: Set<string>;
  /** Every request seen: method, path and whether it carried an Authorization header. */
  readonly seen: { method: string; path: string; authorization: string | undefined }[];
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body?: unknown): true {
  if (body === undefined) {
    res.writeHead(status).end();
    return true;
  }
  res
    .writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
    .end(JSON.stringify(body));
  return true;
}

/** Starts the stub forge. */
export async function startForgeStub(): Promise<ForgeStub> {
  const tokens = new Map<string, StubAccount>();
  const memberships = new Map<string, 'active' | 'pending'>();
  const publicMembers = new Set<string>();
  const orgReaders = new Set<string>();
  const seen: ForgeStub['seen'] = [];

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://stub').pathname;
    const authorization = req.headers.authorization;
    seen.push({ method: req.method ?? 'GET', path, authorization });
    const token = authorization?.replace(/^Bearer /, '');
    const caller = token === undefined ? undefined : tokens.get(token);
    let match: RegExpExecArray | null;
    if (path === '/user') {
      if (caller === undefined) return send(res, 401, { message: 'Bad credentials' });
      return send(res, 200, { id: caller.id, login: caller.login, type: 'User' });
    }
    if ((match = /^\/user\/memberships\/orgs\/([^/]+)$/.exec(path))) {
      if (caller === undefined) return send(res, 401, { message: 'Bad credentials' });
      const state = memberships.get(`${match[1]}/${caller.login}`.toLowerCase());
      if (state === undefined) return send(res, 404, { message: 'Not Found' });
      return send(res, 200, { state, role: 'member', organization: { login: match[1] } });
    }
    if ((match = /^\/users\/([^/]+)$/.exec(path))) {
      const wanted = match[1]?.toLowerCase();
      const account = [...tokens.values()].find((a) => a.login.toLowerCase() === wanted);
      if (account === undefined) return send(res, 404, { message: 'Not Found' });
      return send(res, 200, { id: account.id, login: account.login, type: 'User' });
    }
    if ((match = /^\/orgs\/([^/]+)\/members\/([^/]+)$/.exec(path))) {
      if (token === undefined || !orgReaders.has(token)) {
        res.writeHead(302, { location: `/orgs/${match[1]}/public_members/${match[2]}` }).end();
        return true;
      }
      const state = memberships.get(`${match[1]}/${match[2]}`.toLowerCase());
      return send(res, state === 'active' ? 204 : 404);
    }
    if ((match = /^\/orgs\/([^/]+)\/public_members\/([^/]+)$/.exec(path))) {
      return send(res, publicMembers.has(`${match[1]}/${match[2]}`.toLowerCase()) ? 204 : 404);
    }
    return send(res, 404, { message: 'Not Found' });
  };

  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tokens,
    memberships,
    publicMembers,
    orgReaders,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
