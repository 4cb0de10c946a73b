import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorBodySchema } from '@relay/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCallerToken, hashToken } from '../src/auth/caller-token.js';
import { loadServerConfig, startServer, type RunningServer } from '../src/index.js';
import { createCallerStore } from '../src/storage/caller-store.js';
import { openSqliteDatabase } from '../src/storage/sqlite-database.js';

/**
 * The limits of the real relay-server (startServer, loopback sockets, SQLite file): deadlines on
 * slow clients, authentication before the body, the body cap, connections per peer, and the
 * caller lookups an admin change drops. Deadlines are configured short; every assertion is on
 * behaviour (a status, a closed connection), and a test that waits longer than its deadline
 * plus slack fails by the test timeout.
 */
const ADMIN = 'admin-token-for-server-limit-tests-0123';
const POOL = 'team';
const SLACK_MS = 4_000;
const clock = { now: Date.parse('2030-01-01T00:00:00Z') };
const dirs: string[] = [];
const sockets: Socket[] = [];

afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start(env: Record<string, string>): Promise<{ server: RunningServer; db: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'relay-limits-'));
  dirs.push(dir);
  const db = join(dir, 'relay.db');
  const config = loadServerConfig({
    RELAY_PORT: '0',
    RELAY_DATABASE: db,
    RELAY_ADMIN_TOKEN: ADMIN,
    DEFAULT_LOGIN_POOL: POOL,
    ALLOWED_FORGE_ORG: 'octo-org',
    ...env,
  });
  if (!config.ok) throw new Error(`invalid test configuration: ${config.error.variable}`);
  return { server: await startServer(config.value, { now: () => clock.now }), db };
}

/** A raw connection to the server; `received()` is everything it sent so far. */
async function open(url: string): Promise<{
  socket: Socket;
  received: () => string;
  closed: Promise<string>;
}> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port) });
  sockets.push(socket);
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => {
    socket.on('close', () => {
      resolve(text);
    });
  });
  await new Promise<void>((resolve) => {
    socket.once('connect', () => {
      resolve();
    });
  });
  return { socket, received: () => text, closed };
}

/** Writes `head` (request line and headers, no body) and waits for the server to close. */
async function sendUntilClosed(url: string, head: string): Promise<string> {
  const connection = await open(url);
  connection.socket.write(head);
  return connection.closed;
}

function headOf(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  end = true,
): string {
  const lines = [`${method} ${path} HTTP/1.1`, 'host: relay.test'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n${end ? '\r\n' : ''}`;
}

interface RawAnswer {
  readonly status: number;
  readonly headers: Map<string, string>;
  readonly body: string;
}

function parseAnswer(text: string): RawAnswer {
  const [head = '', ...rest] = text.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = new Map<string, string>();
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1]),
    headers,
    body: rest.join('\r\n\r\n'),
  };
}

function errorCodeOf(answer: RawAnswer): string {
  return errorBodySchema.parse(JSON.parse(answer.body)).error.code;
}

/** A whole request with a body, on a connection the server closes after its answer. */
async function request(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body = '',
): Promise<RawAnswer> {
  const head = headOf(method, path, {
    connection: 'close',
    ...(body === '' ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
    ...headers,
  });
  const connection = await open(url);
  connection.socket.write(head + body);
  return parseAnswer(await connection.closed);
}

describe('relay-server limits', () => {
  let server: RunningServer;
  let database: string;
  let callerToken: string;

  beforeAll(async () => {
    ({ server, db: database } = await start({
      RELAY_HEADERS_TIMEOUT_MS: '300',
      RELAY_REQUEST_BODY_TIMEOUT_MS: '400',
      RELAY_KEEP_ALIVE_TIMEOUT_MS: '300',
      RELAY_MAX_REQUEST_BYTES: '2048',
    }));
    callerToken = createCallerToken();
    const callers = createCallerStore(server.database.db, { createId: (p) => `${p}_limits` });
    const enrolled = await callers.enroll({
      forgeUserId: 1,
      login: 'mona',
      grantPool: POOL,
      newPoolPolicyJson: '{}',
      clientName: 'laptop',
      tokenSha256: hashToken(callerToken),
      nowIso: new Date(clock.now).toISOString(),
      expiresAtIso: new Date(clock.now + 86_400_000).toISOString(),
    });
    if (!enrolled.ok) throw new Error('enrollment failed');
  });
  afterAll(async () => {
    await server.close();
  });

  it(
    'closes a connection whose body never arrives, unauthenticated (408 at the request deadline)',
    async () => {
      const text = await sendUntilClosed(
        server.url,
        headOf('POST', '/v1/login/forge-cli', {
          'content-type': 'application/json',
          'content-length': '100',
        }),
      );
      expect(parseAnswer(text).status).toBe(408);
    },
    SLACK_MS,
  );

  it(
    'closes a connection whose headers never end (408 at the headers deadline)',
    async () => {
      const text = await sendUntilClosed(
        server.url,
        headOf('GET', '/.well-known/relay', { 'x-slow': 'a' }, false),
      );
      expect(parseAnswer(text).status).toBe(408);
    },
    SLACK_MS,
  );

  it(
    'closes a connection that sends nothing',
    async () => {
      const connection = await open(server.url);
      await connection.closed;
      expect(connection.socket.destroyed).toBe(true);
    },
    SLACK_MS,
  );

  it(
    'closes an idle kept-alive connection after its answer',
    async () => {
      const connection = await open(server.url);
      connection.socket.write(headOf('GET', '/.well-known/relay'));
      const text = await connection.closed;
      expect(parseAnswer(text).status).toBe(200);
    },
    SLACK_MS,
  );

  it.each([
    ['the relay endpoint, no token', '/v1/forge/request', undefined],
    ['the relay endpoint, an unknown caller token', '/v1/forge/request', `rly_${'A'.repeat(43)}`],
    ['the relay endpoint, a malformed token', '/v1/forge/request', 'not-a-token'],
    ['an admin endpoint, no token', '/v1/admin/callers', undefined],
    ['an admin endpoint, a wrong token', '/v1/admin/callers', 'not-the-admin-token-0123'],
  ])(
    'answers 401 on %s without waiting for the body, and closes',
    async (_name, path, token) => {
      const text = await sendUntilClosed(
        server.url,
        headOf('POST', path, {
          'content-type': 'application/json',
          'content-length': '1000',
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        }),
      );
      const answer = parseAnswer(text);
      expect(answer.status).toBe(401);
      expect(errorCodeOf(answer)).toBe('unauthorized');
      expect(answer.headers.get('www-authenticate')).toBe('Bearer');
      expect(answer.headers.get('connection')).toBe('close');
    },
    SLACK_MS,
  );

  it('answers an authenticated relay request after its body (not refused early)', async () => {
    const answer = await request(
      server.url,
      'POST',
      '/v1/forge/request',
      { 'content-type': 'application/json', authorization: `Bearer ${callerToken}` },
      JSON.stringify({ pool: 'nowhere', method: 'GET', path: '/rate_limit' }),
    );
    expect(answer.status).toBe(403);
    expect(errorCodeOf(answer)).toBe('pool_forbidden');
  });

  it.each([
    ['the relay endpoint', '/v1/forge/request', 'caller'],
    ['login', '/v1/login/forge-cli', 'none'],
    ['caller provisioning', '/v1/admin/callers', 'admin'],
    ['identity registration', `/v1/admin/pools/${POOL}/identities`, 'admin'],
  ] as const)(
    'refuses a body over RELAY_MAX_REQUEST_BYTES on %s: 413 payload_too_large, declared or chunked',
    async (_name, path, auth) => {
      const body = `{"pad":"${'x'.repeat(2100)}"}`;
      const token = { caller: callerToken, admin: ADMIN, none: undefined }[auth];
      const headers = {
        'content-type': 'application/json',
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      };
      for (const answer of [
        await request(server.url, 'POST', path, headers, body),
        await requestChunked(server.url, path, headers, body),
      ]) {
        expect(answer.status).toBe(413);
        expect(errorCodeOf(answer)).toBe('payload_too_large');
      }
    },
  );

  it('keeps the 65,536-byte bound of the string-rewrite PUT', async () => {
    const body = `{"schema_version":1,"expected_revision":1,"rules":[]}${' '.repeat(3000)}`;
    const answer = await request(
      server.url,
      'PUT',
      '/v1/admin/string-rewrites',
      { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` },
      body,
    );
    expect(answer.status).toBe(200);
  });

  it('refuses a caller disabled by another connection at its next request', async () => {
    const health = () =>
      request(server.url, 'GET', `/v1/pools/${POOL}/health`, {
        authorization: `Bearer ${callerToken}`,
      });
    expect((await health()).status).toBe(200);
    const operator = await openSqliteDatabase(database);
    try {
      await operator.db.updateTable('callers').set({ disabled: 1 }).execute();
    } finally {
      await operator.close();
    }
    // At once: the database's change counter is read at every lookup, well inside the 5 s
    // lifetime of a cached lookup.
    const refused = await health();
    expect(refused.status).toBe(401);
    expect(errorCodeOf(refused)).toBe('unauthorized');
  });
});

/** A request whose body is sent chunked (no declared length). */
async function requestChunked(
  url: string,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<RawAnswer> {
  const connection = await open(url);
  connection.socket.write(
    headOf('POST', path, { connection: 'close', 'transfer-encoding': 'chunked', ...headers }),
  );
  const size = Buffer.byteLength(body);
  connection.socket.write(`${size.toString(16)}\r\n${body}\r\n0\r\n\r\n`);
  const text = await connection.closed;
  // A chunked answer: join its chunks back into the body.
  const answer = parseAnswer(text);
  if (answer.headers.get('transfer-encoding') !== 'chunked') return answer;
  let rest = answer.body;
  let joined = '';
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const length = Number.parseInt(rest.slice(0, lineEnd), 16);
    if (!(length > 0)) break;
    joined += rest.slice(lineEnd + 2, lineEnd + 2 + length);
    rest = rest.slice(lineEnd + 2 + length + 2);
  }
  return { ...answer, body: joined };
}

describe('connections per peer', () => {
  let server: RunningServer;

  beforeAll(async () => {
    ({ server } = await start({ RELAY_MAX_CONNECTIONS_PER_PEER: '2' }));
  });
  afterAll(async () => {
    await server.close();
  });

  it(
    'answers a connection past the bound with 503 relay_overloaded and closes it; a freed slot serves again',
    async () => {
      const first = await open(server.url);
      const second = await open(server.url);
      const third = await open(server.url);
      // The refusal comes without any request: nothing of the connection is read.
      const refused = parseAnswer(await third.closed);
      expect(refused.status).toBe(503);
      expect(errorCodeOf(refused)).toBe('relay_overloaded');
      expect(refused.headers.get('connection')).toBe('close');
      expect(refused.headers.get('x-relay-request-id')).toMatch(/^req_/);

      // The held connections are served as usual.
      second.socket.write(headOf('GET', '/.well-known/relay', { connection: 'close' }));
      expect(parseAnswer(await second.closed).status).toBe(200);
      first.socket.destroy();
      await first.closed;
      // The server counts a connection off when it sees it close, which may come a turn after
      // the client saw it: a few attempts, each a whole connection.
      let served = await request(server.url, 'GET', '/.well-known/relay', {});
      for (let attempt = 0; attempt < 5 && served.status === 503; attempt++) {
        served = await request(server.url, 'GET', '/.well-known/relay', {});
      }
      expect(served.status).toBe(200);
    },
    SLACK_MS,
  );
});
