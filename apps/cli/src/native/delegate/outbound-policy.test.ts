import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { err, ok } from '@relay/protocol';
import type { PolicyFailureClass, StringRewriteRule } from '@relay/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import {
  POLICY_FETCH_DEADLINE_MS,
  loadOutboundPolicy,
  policyEndpointUrl,
} from './outbound-policy.js';
import type { OutboundPolicyOptions } from './outbound-policy.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface TestServer {
  readonly url: string;
  readonly requests: IncomingMessage[];
  close(): Promise<void>;
}

let running: TestServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** A loopback policy endpoint on an ephemeral port; closed after each test. */
async function serve(handler: Handler): Promise<TestServer> {
  const requests: IncomingMessage[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    requests.push(req);
    handler(req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  running = {
    url: `http://127.0.0.1:${String(port)}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
  return running;
}

const RULE = { pattern: 'falcon', replacement: 'bird' };
const policyOf = (rules: readonly StringRewriteRule[]) => ({
  schema_version: 1,
  revision: 7,
  updated_at: '2030-01-01T00:00:00.000Z',
  rules,
});

function json(body: unknown, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));
  };
}

/** A clock that advances 10 ms per reading. */
function steppingClock(start = Date.parse('2030-01-01T00:00:00.000Z')) {
  let t = start;
  return () => {
    const now = t;
    t += 10;
    return now;
  };
}

function options(url: string, extra: Partial<OutboundPolicyOptions> = {}): OutboundPolicyOptions {
  return {
    fetch: globalThis.fetch,
    now: steppingClock(),
    endpoint: ok({ url, pool: 'team', token: 'rly_secret-token' }),
    loadLocalRules: () => Promise.resolve(ok([])),
    deadlineMs: 300,
    ...extra,
  };
}

async function failureOf(result: ReturnType<typeof loadOutboundPolicy>) {
  const settled = await result;
  if (settled.ok) throw new Error('expected a failure');
  return settled.error;
}

describe('loadOutboundPolicy: a fresh fetch of the pool policy', () => {
  it('the default deadline is five seconds', () => {
    expect(POLICY_FETCH_DEADLINE_MS).toBe(5_000);
  });

  it('GETs the pool endpoint with the caller token, and fetches again every time', async () => {
    const server = await serve(json(policyOf([RULE])));
    for (let i = 0; i < 2; i++) {
      const result = await loadOutboundPolicy(options(server.url));
      expect(result.ok).toBe(true);
      if (result.ok) expect(result.value.rules).toEqual([RULE]);
    }
    expect(server.requests.map((r) => [r.method, r.url, r.headers.authorization])).toEqual([
      ['GET', '/v1/pools/team/string-rewrites', 'Bearer rly_secret-token'],
      ['GET', '/v1/pools/team/string-rewrites', 'Bearer rly_secret-token'],
    ]);
  });

  it('encodes the pool in the path', () => {
    expect(policyEndpointUrl({ url: 'https://r.example/', pool: 'a/b c', token: 't' })).toBe(
      'https://r.example/v1/pools/a%2Fb%20c/string-rewrites',
    );
  });

  it('merges: server rules first, identical local entries deduplicated', async () => {
    const local = { pattern: 'eagle', replacement: '' };
    const server = await serve(json(policyOf([RULE])));
    const result = await loadOutboundPolicy(
      options(server.url, { loadLocalRules: () => Promise.resolve(ok([RULE, local])) }),
    );
    expect(result.ok && result.value.rules).toEqual([RULE, local]);
  });

  it.each<[string, Handler, PolicyFailureClass, number | undefined]>([
    [
      'a redirect (never followed)',
      (_q, s) => {
        s.writeHead(302, { location: '/elsewhere' });
        s.end();
      },
      'http_status',
      302,
    ],
    [
      'a permanent redirect',
      (_q, s) => {
        s.writeHead(308, { location: 'https://example.invalid/' });
        s.end();
      },
      'http_status',
      308,
    ],
    [
      'a 409 (terminal)',
      (_q, s) => {
        s.writeHead(409);
        s.end('{}');
      },
      'http_status',
      409,
    ],
    [
      'a 503',
      (_q, s) => {
        s.writeHead(503);
        s.end();
      },
      'http_status',
      503,
    ],
    ['garbage JSON', json('{"schema_version":1,'), 'server_validation', 200],
    [
      'not UTF-8',
      json(
        Buffer.concat([
          Buffer.from(
            '{"schema_version":1,"revision":1,"updated_at":"2030-01-01T00:00:00.000Z","rules":[{"pattern":"a',
          ),
          Buffer.from([0xff]),
          Buffer.from('","replacement":""}]}'),
        ]),
      ),
      'server_validation',
      200,
    ],
    [
      'a duplicate key',
      json(
        '{"schema_version":1,"revision":1,"revision":2,"updated_at":"2030-01-01T00:00:00.000Z","rules":[]}',
      ),
      'server_validation',
      200,
    ],
    ['an unknown field', json({ ...policyOf([]), extra: true }), 'server_validation', 200],
    ['schema_version 2', json({ ...policyOf([]), schema_version: 2 }), 'server_validation', 200],
    [
      'a rule the language rejects',
      json(policyOf([{ pattern: '(?=x)', replacement: '' }])),
      'server_validation',
      200,
    ],
    ['duplicate patterns', json(policyOf([RULE, RULE])), 'server_validation', 200],
    [
      'a 65,537-byte body (streamed)',
      (_q, s) => {
        s.writeHead(200);
        s.write('x'.repeat(40_000));
        s.end('x'.repeat(25_537));
      },
      'response_size',
      200,
    ],
    [
      'a declared 65,537-byte body',
      (_q, s) => {
        s.writeHead(200, { 'content-length': '65537' });
        s.end('x'.repeat(65_537));
      },
      'response_size',
      200,
    ],
    [
      'a body cut short',
      (_q, s) => {
        s.writeHead(200, { 'content-length': '1000' });
        s.write('{"schema');
        setTimeout(() => s.socket?.destroy(), 20);
      },
      'response_read',
      200,
    ],
  ])('%s fails with its class', async (_name, handler, failureClass, status) => {
    const server = await serve(handler);
    const failure = await failureOf(loadOutboundPolicy(options(server.url)));
    expect(failure).toMatchObject({ class: failureClass, httpStatus: status });
    expect(failure.elapsedMs).toBeGreaterThan(0);
  });

  it('a 65,536-byte body is within the bound', async () => {
    const body = JSON.stringify(policyOf([]));
    const server = await serve(json(body + ' '.repeat(65_536 - body.length)));
    expect((await loadOutboundPolicy(options(server.url))).ok).toBe(true);
  });

  it('reports a valid cf-ray and drops an invalid one', async () => {
    let ray = '0123456789abcdef-AMS';
    const server = await serve((_q, s) => {
      s.writeHead(500, { 'cf-ray': ray });
      s.end();
    });
    expect(await failureOf(loadOutboundPolicy(options(server.url)))).toMatchObject({
      class: 'http_status',
      httpStatus: 500,
      cfRay: '0123456789abcdef-AMS',
    });
    ray = 'not-a-ray';
    const failure = await failureOf(loadOutboundPolicy(options(server.url)));
    expect(failure.cfRay).toBeUndefined();
  });

  it('an answer slower than the deadline is a timeout', async () => {
    const server = await serve(() => undefined);
    const started = Date.now();
    const failure = await failureOf(
      loadOutboundPolicy(options(server.url, { now: Date.now, deadlineMs: 200 })),
    );
    expect(failure.class).toBe('timeout');
    expect(failure.elapsedMs).toBeGreaterThanOrEqual(190);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('a body slower than the deadline is a timeout', async () => {
    const server = await serve((_q, s) => {
      s.writeHead(200, { 'content-length': '100' });
      s.write('{');
    });
    const failure = await failureOf(loadOutboundPolicy(options(server.url, { deadlineMs: 200 })));
    expect(failure).toMatchObject({ class: 'timeout', httpStatus: 200 });
  });

  it('an aborted signal is canceled', async () => {
    const server = await serve(() => undefined);
    const controller = new AbortController();
    setTimeout(() => {
      controller.abort();
    }, 50);
    const failure = await failureOf(
      loadOutboundPolicy(options(server.url, { signal: controller.signal, deadlineMs: 5_000 })),
    );
    expect(failure.class).toBe('canceled');
  });

  it('a refused connection is a transport failure', async () => {
    const server = await serve(() => undefined);
    const { url } = server;
    await server.close();
    running = undefined;
    expect((await failureOf(loadOutboundPolicy(options(url)))).class).toBe('transport');
  });

  it('a token that cannot be a header value is a request failure, and nothing is sent', async () => {
    const server = await serve(json(policyOf([])));
    const failure = await failureOf(
      loadOutboundPolicy(
        options(server.url, { endpoint: ok({ url: server.url, pool: 'team', token: 'a\nb' }) }),
      ),
    );
    expect(failure.class).toBe('request');
    expect(server.requests).toHaveLength(0);
  });

  it.each<[string, OutboundPolicyOptions['endpoint']]>([
    ['no login', err('not_logged_in')],
    ['a URL that is not one', ok({ url: 'http://[bad', pool: 'team', token: 't' })],
  ])('%s is a setup failure', async (_name, endpoint) => {
    const failure = await failureOf(
      loadOutboundPolicy(options('http://127.0.0.1:9', { endpoint })),
    );
    expect(failure.class).toBe('setup');
  });

  it.each<['local_read' | 'local_validation']>([['local_read'], ['local_validation']])(
    'a local rules failure (%s) fails before any request',
    async (failureClass) => {
      const server = await serve(json(policyOf([])));
      const failure = await failureOf(
        loadOutboundPolicy(
          options(server.url, { loadLocalRules: () => Promise.resolve(err(failureClass)) }),
        ),
      );
      expect(failure.class).toBe(failureClass);
      expect(server.requests).toHaveLength(0);
    },
  );

  it.each<[string, StringRewriteRule[]]>([
    ['a conflicting replacement', [{ pattern: 'falcon', replacement: 'hawk' }]],
    [
      'more than 128 rules combined',
      Array.from({ length: 128 }, (_, i) => ({ pattern: `local${String(i)}`, replacement: '' })),
    ],
  ])('%s is a merge failure', async (_name, local) => {
    const server = await serve(json(policyOf([RULE])));
    const failure = await failureOf(
      loadOutboundPolicy(options(server.url, { loadLocalRules: () => Promise.resolve(ok(local)) })),
    );
    expect(failure.class).toBe('merge');
  });

  it('attempt_utc is the start of the attempt, elapsed_ms its length on the given clock', async () => {
    const server = await serve((_q, s) => {
      s.writeHead(502);
      s.end();
    });
    const failure = await failureOf(loadOutboundPolicy(options(server.url)));
    expect(failure.attemptStartMs).toBe(Date.parse('2030-01-01T00:00:00.000Z'));
    expect(failure.elapsedMs).toBe(10);
  });
});
