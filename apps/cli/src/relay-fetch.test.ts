import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeRelayFetch } from './relay-fetch.js';
import type { RelayFetch } from './relay-fetch.js';

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

interface Seen {
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  readonly socket: number;
}

async function serve(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ base: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  let sockets = 0;
  const ids = new WeakMap<object, number>();
  const server = createServer((req, res) => {
    let id = ids.get(req.socket);
    if (id === undefined) {
      sockets += 1;
      id = sockets;
      ids.set(req.socket, id);
    }
    const chunks: Buffer[] = [];
    const socket = id;
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({
        method: req.method,
        url: req.url,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        socket,
      });
      handle(req, res);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`, seen };
}

const unusedFallback = (): RelayFetch => () => Promise.reject(new Error('fallback used'));

describe('createNodeRelayFetch', () => {
  it('sends two sequential requests over one kept-alive connection', async () => {
    const { base, seen } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'cf-ray': 'abc-DFW' });
      res.end('{"ok":true}');
    });
    const fetch = createNodeRelayFetch({ fallback: unusedFallback, useEnvProxy: false });
    const first = await fetch(`${base}/v1/pools/team/string-rewrites`, {
      method: 'GET',
      headers: { Accept: 'application/json', authorization: 'Bearer rly_x' },
      redirect: 'manual',
    });
    expect(first.status).toBe(200);
    expect(first.headers.get('CF-Ray')).toBe('abc-DFW');
    expect(first.headers.get('x-missing')).toBeNull();
    expect(await first.text()).toBe('{"ok":true}');
    const second = await fetch(new URL(`${base}/v1/forge/request`), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"pool":"té"}',
      redirect: 'manual',
    });
    expect(await second.text()).toBe('{"ok":true}');
    expect(seen.map((s) => s.socket)).toEqual([1, 1]);
    expect(seen[0]?.headers.accept).toBe('application/json');
    expect(seen[0]?.headers.authorization).toBe('Bearer rly_x');
    expect(seen[0]?.headers['user-agent']).toBe('node');
    expect(seen[1]).toMatchObject({
      method: 'POST',
      url: '/v1/forge/request',
      body: '{"pool":"té"}',
    });
    expect(seen[1]?.headers['content-length']).toBe(String(Buffer.byteLength('{"pool":"té"}')));
  });

  it('answers a redirect as is in manual mode and streams a body reader', async () => {
    const { base } = await serve((req, res) => {
      if (req.url === '/moved') {
        res.writeHead(302, { location: '/elsewhere' });
        res.end('moved');
        return;
      }
      res.writeHead(200);
      res.write('ab');
      setTimeout(() => res.end('cd'), 5);
    });
    const fetch = createNodeRelayFetch({ fallback: unusedFallback, useEnvProxy: false });
    const moved = await fetch(`${base}/moved`, { method: 'GET', headers: {}, redirect: 'manual' });
    expect(moved.status).toBe(302);
    expect(moved.headers.get('location')).toBe('/elsewhere');
    await moved.body?.cancel();
    const streamed = await fetch(`${base}/s`, { method: 'GET', headers: {}, redirect: 'manual' });
    const reader = streamed.body?.getReader();
    const parts: string[] = [];
    for (;;) {
      const step = await reader?.read();
      if (step === undefined || step.done) break;
      parts.push(Buffer.from(step.value).toString('utf8'));
    }
    expect(parts.join('')).toBe('abcd');
  });

  it('decodes a gzip body and strips a byte order mark as Response.text does', async () => {
    const { base } = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end(gzipSync(Buffer.from('\uFEFF{"a":1}', 'utf8')));
    });
    const fetch = createNodeRelayFetch({ fallback: unusedFallback, useEnvProxy: false });
    const response = await fetch(base, { method: 'GET', headers: {}, redirect: 'manual' });
    expect(await response.text()).toBe('{"a":1}');
  });

  it('rejects a refused connection with a TypeError whose cause is the socket error', async () => {
    const { base } = await serve((_req, res) => res.end());
    const [server] = servers.splice(0);
    await new Promise((resolve) => server?.close(resolve));
    const fetch = createNodeRelayFetch({ fallback: unusedFallback, useEnvProxy: false });
    const failure = await fetch(base, { method: 'GET', headers: {}, redirect: 'manual' }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).cause).toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('rejects a header value fetch refuses with a TypeError without a cause', async () => {
    const { base } = await serve((_req, res) => res.end());
    const fetch = createNodeRelayFetch({ fallback: unusedFallback, useEnvProxy: false });
    const failure = await fetch(base, {
      method: 'GET',
      headers: { authorization: 'Bearer a\nb' },
      redirect: 'manual',
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).cause).toBeUndefined();
  });

  it('rejects with the abort reason, before and while waiting for the answer', async () => {
    const { base } = await serve(() => undefined);
    const fetch = createNodeRelayFetch({ fallback: unusedFallback, useEnvProxy: false });
    const reason = Symbol('deadline');
    const controller = new AbortController();
    const pending = fetch(base, {
      method: 'GET',
      headers: {},
      redirect: 'manual',
      signal: controller.signal,
    });
    setTimeout(() => {
      controller.abort(reason);
    }, 20);
    await expect(pending).rejects.toBe(reason);
    await expect(
      fetch(base, { method: 'GET', headers: {}, redirect: 'manual', signal: controller.signal }),
    ).rejects.toBe(reason);
  });

  it('leaves followed redirects, other schemes and env proxies to the fallback', async () => {
    const calls: string[] = [];
    const fallback = (): RelayFetch => (input) => {
      calls.push(String(input));
      return Promise.resolve(new Response('fallback'));
    };
    const direct = createNodeRelayFetch({ fallback, useEnvProxy: false });
    await direct('http://127.0.0.1:1/a', { method: 'GET', headers: {}, redirect: 'follow' });
    await direct('ftp://example.invalid/b', { method: 'GET', headers: {}, redirect: 'manual' });
    const proxied = createNodeRelayFetch({ fallback, useEnvProxy: true });
    const answer = await proxied('http://127.0.0.1:1/c', {
      method: 'GET',
      headers: {},
      redirect: 'manual',
    });
    expect(await answer.text()).toBe('fallback');
    expect(calls).toEqual([
      'http://127.0.0.1:1/a',
      'ftp://example.invalid/b',
      'http://127.0.0.1:1/c',
    ]);
  });
});
