import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { BODY_FIXTURES } from './__fixtures__/body-fixtures.js';
import { startLoopbackServer } from './__fixtures__/loopback-server.js';
import type { LoopbackHandler, LoopbackServer } from './__fixtures__/loopback-server.js';
import rateLimitOverview from './__fixtures__/rate-limit-overview.json' with { type: 'json' };
import { createForgeTransport } from './forge-transport.js';
import type {
  ForgeRequest,
  ForgeTransport,
  ForgeTransportOptions,
  ScheduleTimeout,
} from './forge-transport.js';
import type { ForgeHostsOptions } from './host-allowlist.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(handler: LoopbackHandler): Promise<LoopbackServer> {
  const started = await startLoopbackServer(handler);
  cleanups.push(() => started.close());
  return started;
}

function transport(
  hosts: ForgeHostsOptions,
  options: Omit<ForgeTransportOptions, 'hosts'> = {},
): ForgeTransport {
  const created = createForgeTransport({
    hosts: { logHosts: ['127.0.0.1'], ...hosts },
    ...options,
  });
  cleanups.push(() => created.close());
  return created;
}

const allow = (): boolean => true;

function answer(
  status: number,
  headers: Record<string, string | string[]>,
  body: string | Buffer = '',
) {
  return (_request: unknown, response: ServerResponse) => {
    response.writeHead(status, headers);
    response.end(body);
  };
}

function manualTimer(): { schedule: ScheduleTimeout; fire: () => void; delays: number[] } {
  let pending: (() => void) | undefined;
  const delays: number[] = [];
  return {
    delays,
    schedule: (ms, onTimeout) => {
      delays.push(ms);
      pending = onTimeout;
      return () => {
        pending = undefined;
      };
    },
    fire: () => {
      pending?.();
    },
  };
}

/** Writes `chunk` again and again on the next turn until the client goes away. */
function drip(response: ServerResponse, chunk: Buffer): void {
  const next = () => {
    if (response.destroyed || response.writableEnded) return;
    response.write(chunk, () => setImmediate(next));
  };
  next();
}

describe('the request', () => {
  it('sends GET to the canonical URL with the forwarded headers, the relay user agent and the credential', async () => {
    const api = await server(answer(200, { 'content-type': 'application/json' }, '{"ok":true}'));
    const forge = transport({ apiUrl: `${api.origin}/` }, { userAgent: 'relay-test/1' });
    const result = await forge.request({
      host: 'api',
      path: '/repos/o/r/contents/a%09b',
      query: { ref: 'main', q: ['a b', 'c&d'] },
      headers: {
        Accept: 'application/vnd.github+json',
        'x-forge-api-version': '2022-11-28',
        'if-none-match': '"etag"',
        'cache-control': 'max-age=0',
        Authorization: 'token caller-secret',
        Cookie: 'session=caller',
        'proxy-authorization': 'Basic caller',
        'x-relay-token': 'rly_caller',
      },
      authorization: 'Bearer pooled-secret',
      rewriteCheck: allow,
    });
    expect(result).toMatchObject({
      ok: true,
      value: { status: 200, body: { encoding: 'json', body: { ok: true } } },
    });
    const [seen] = api.requests;
    expect(seen?.method).toBe('GET');
    expect(seen?.url).toBe('/repos/o/r/contents/a%09b?ref=main&q=a+b&q=c%26d');
    expect(seen?.headers).toMatchObject({
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      'if-none-match': '"etag"',
      'user-agent': 'relay-test/1',
      authorization: 'Bearer pooled-secret',
    });
    for (const name of [
      'cache-control',
      'cookie',
      'proxy-authorization',
      'x-relay-token',
      'x-forge-api-version',
    ]) {
      expect(seen?.headers).not.toHaveProperty(name);
    }
  });

  it.each(['web', 'raw', 'patch'] as const)(
    'never sends Authorization to the %s host',
    async (host) => {
      const upstream = await server(answer(200, { 'content-type': 'text/plain' }, 'x'));
      const forge = transport({ [`${host}Url`]: upstream.origin });
      const result = await forge.request({
        host,
        path: '/o/r',
        authorization: 'Bearer pooled-secret',
        rewriteCheck: allow,
      });
      expect(result.ok).toBe(true);
      expect(upstream.requests[0]?.headers).not.toHaveProperty('authorization');
    },
  );

  it('refuses an unsafe path before any contact', async () => {
    const api = await server(answer(200, {}));
    const forge = transport({ apiUrl: api.origin });
    for (const path of ['//evil.example/x', '/a/../b', '/a%2e%2e', 'relative', '/a?b']) {
      expect(await forge.request({ host: 'api', path, rewriteCheck: allow })).toMatchObject({
        ok: false,
        error: { code: 'invalid_path' },
      });
    }
    expect(api.requests).toHaveLength(0);
  });

  it('refuses a header value with CR/LF before any contact', async () => {
    const api = await server(answer(200, {}));
    const forge = transport({ apiUrl: api.origin });
    const result = await forge.request({
      host: 'api',
      path: '/x',
      headers: { accept: 'a\r\nx-injected: 1' },
      rewriteCheck: allow,
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_header' } });
    expect(api.requests).toHaveLength(0);
  });

  it('keeps connections alive per host', async () => {
    const api = await server(answer(200, { 'content-type': 'text/plain' }, 'x'));
    const forge = transport({ apiUrl: api.origin });
    await forge.request({ host: 'api', path: '/a', rewriteCheck: allow });
    // undici returns the socket to its pool one turn after the body ends.
    await new Promise((resolve) => setImmediate(resolve));
    await forge.request({ host: 'api', path: '/b', rewriteCheck: allow });
    expect(api.requests.map((r) => r.url)).toEqual(['/a', '/b']);
    expect(api.requests[1]?.remotePort).toBe(api.requests[0]?.remotePort);
  });

  it.each([
    ['a trailing dot', (port: number) => `http://127.0.0.1.:${port}`],
    ['upper case and a hex IP form', (port: number) => `HTTP://0X7F.1:${port}/`],
    ['a decimal IP form', (port: number) => `http://2130706433:${port}`],
  ])('reaches a base URL written with %s at its canonical host', async (_name, base) => {
    const api = await server(answer(200, { 'content-type': 'text/plain' }, 'x'));
    const forge = transport({ apiUrl: base(api.port) });
    const checked: string[] = [];
    const result = await forge.request({
      host: 'api',
      path: '/x',
      rewriteCheck: (v) => (checked.push(v), true),
    });
    expect(result).toMatchObject({ ok: true, value: { status: 200 } });
    expect(checked).toContain(`${api.origin}/x`);
    expect(api.requests[0]?.headers.host).toBe(`127.0.0.1:${api.port}`);
  });

  it('refuses an invalid host configuration', () => {
    expect(() => createForgeTransport({ hosts: { apiUrl: 'http://api.github.com' } })).toThrow(
      TypeError,
    );
    expect(() => createForgeTransport({ maxResponseBytes: 0 })).toThrow(TypeError);
  });
});

describe('the transport-level rewrite check', () => {
  it('checks the canonical URL and every non-credential header, never the credential', async () => {
    const api = await server(answer(200, {}));
    const forge = transport({ apiUrl: api.origin }, { userAgent: 'relay-test/1' });
    const seen: string[] = [];
    await forge.request({
      host: 'api',
      path: '/repos/o/r',
      query: { page: '2' },
      headers: { accept: 'application/json', 'if-none-match': '"e"' },
      authorization: 'Bearer pooled-secret',
      rewriteCheck: (value) => (seen.push(value), true),
    });
    expect(seen.sort()).toEqual(
      ['"e"', `${api.origin}/repos/o/r?page=2`, 'application/json', 'relay-test/1'].sort(),
    );
  });

  it.each([
    ['the URL', (v: string) => !v.includes('codename')],
    ['a header', (v: string) => v !== '"codename"'],
    [
      'a thrown check',
      (): boolean => {
        throw new Error('broken');
      },
    ],
  ])('denies on %s, sending nothing', async (_name, rewriteCheck) => {
    const api = await server(answer(200, {}));
    const forge = transport({ apiUrl: api.origin });
    const result = await forge.request({
      host: 'api',
      path: '/repos/o/codename',
      headers: { 'if-none-match': '"codename"' },
      rewriteCheck,
    });
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'string_rewrite_denied',
        message: expect.not.stringContaining('codename') as string,
        duringRedirect: false,
      },
    });
    expect(api.requests).toHaveLength(0);
  });

  it('sends the canonical path, and the check reads exactly what is sent', async () => {
    const api = await server(answer(204, {}));
    const forge = transport({ apiUrl: api.origin });
    const seen: string[] = [];
    await forge.request({
      host: 'api',
      path: '/repos/o/%62lue%2dfalcon/contents/a%2fb%09',
      rewriteCheck: (value) => (seen.push(value), true),
    });
    expect(api.requests.map((request) => request.url)).toEqual([
      '/repos/o/blue-falcon/contents/a%2Fb%09',
    ]);
    expect(seen).toContain(`${api.origin}/repos/o/blue-falcon/contents/a%2Fb%09`);
  });

  it.each([
    ['%62', '/repos/acme/%62luefalcon'],
    ['%42 against an uppercase pattern', '/repos/acme/%42LUEFALCON'],
    ['lowercase hex', '/repos/acme/blue%66%61lcon'],
    ['mixed hex case', '/repos/acme/%62%6C%75%65falcon'],
    ['every letter', '/repos/acme/%62%6c%75%65%66%61%6c%63%6f%6e'],
  ])('denies a percent-encoded protected string (%s), sending nothing', async (_name, path) => {
    const api = await server(answer(200, {}));
    const forge = transport({ apiUrl: api.origin });
    const result = await forge.request({
      host: 'api',
      path,
      rewriteCheck: (value) => !/bluefalcon|BLUEFALCON/.test(value),
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'string_rewrite_denied' } });
    expect(api.requests).toHaveLength(0);
  });

  it('accepts a result-shaped verdict', async () => {
    const api = await server(answer(204, {}));
    const forge = transport({ apiUrl: api.origin });
    const denied = await forge.request({
      host: 'api',
      path: '/x',
      rewriteCheck: () => ({ ok: false }),
    });
    const allowed = await forge.request({
      host: 'api',
      path: '/x',
      rewriteCheck: () => ({ ok: true }),
    });
    expect(denied).toMatchObject({ ok: false, error: { code: 'string_rewrite_denied' } });
    expect(allowed).toMatchObject({ ok: true, value: { status: 204 } });
  });
});

describe('redirects', () => {
  it.each([301, 302, 303, 307, 308])(
    'denies a %i from the API host outside the log flow',
    async (status) => {
      const log = await server(answer(200, {}, 'log'));
      const api = await server(answer(status, { location: `${log.origin}/log` }));
      const forge = transport({ apiUrl: api.origin });
      const result = await forge.request({ host: 'api', path: '/repos/o/r', rewriteCheck: allow });
      expect(result).toEqual({
        ok: false,
        error: expect.objectContaining({
          code: 'forge_redirect_denied',
          status,
          duringRedirect: false,
        }) as unknown,
      });
      expect(log.requests).toHaveLength(0);
    },
  );

  it('returns a 304 as an answer, not a redirect', async () => {
    const api = await server(answer(304, { etag: '"e"' }));
    const forge = transport({ apiUrl: api.origin });
    const result = await forge.request({ host: 'api', path: '/x', rewriteCheck: allow });
    expect(result).toMatchObject({
      ok: true,
      value: { status: 304, headers: { etag: '"e"' }, body: { encoding: 'text', body: null } },
    });
  });

  it('follows the job-log redirect to a log host without any credential or caller header', async () => {
    const log = await server(
      answer(
        200,
        { 'content-type': 'text/plain', 'set-cookie': 'a=1' },
        '2026-11-22T10:00:00Z step 1\r\n',
      ),
    );
    const api = await server(
      answer(302, {
        location: `${log.origin}/signed/log?sig=abc`,
        'x-ratelimit-remaining': '4990',
        'x-ratelimit-resource': 'core',
      }),
    );
    const forge = transport({ apiUrl: api.origin }, { userAgent: 'relay-test/1' });
    const checked: string[] = [];
    const result = await forge.request({
      host: 'api',
      path: '/repos/o/r/actions/jobs/1/logs',
      headers: { accept: 'application/vnd.github+json' },
      authorization: 'Bearer pooled-secret',
      flow: 'job_log',
      rewriteCheck: (value) => (checked.push(value), true),
    });
    expect(result).toEqual({
      ok: true,
      value: {
        status: 200,
        headers: { 'content-type': 'text/plain' },
        rateLimit: { remaining: 4990, resource: 'core' },
        body: { encoding: 'text', body: '2026-11-22T10:00:00Z step 1\r\n' },
        upstreamBytes: Buffer.byteLength('2026-11-22T10:00:00Z step 1\r\n'),
        servedBy: 'log',
        redirects: 1,
      },
    });
    expect(api.requests[0]?.headers.authorization).toBe('Bearer pooled-secret');
    expect(log.requests[0]?.url).toBe('/signed/log?sig=abc');
    expect(log.requests[0]?.headers).not.toHaveProperty('authorization');
    expect(log.requests[0]?.headers).not.toHaveProperty('accept');
    expect(log.requests[0]?.headers['user-agent']).toBe('relay-test/1');
    expect(checked).toContain(`${log.origin}/signed/log?sig=abc`);
  });

  it.each([
    ['an IP form of an allowlisted host', (port: number) => `http://2130706433:${port}/log`, true],
    ['a trailing dot', (port: number) => `http://127.0.0.1.:${port}/log`, true],
    ['an upper-case host', (port: number) => `HTTP://127.0.0.1:${port}/log`, true],
    ['a host off the allowlist', (port: number) => `http://localhost:${port}/log`, false],
    ['userinfo', (port: number) => `http://user:pw@127.0.0.1:${port}/log`, false],
    [
      'userinfo hiding the real host',
      (port: number) => `http://127.0.0.1:${port}@localhost:${port}/log`,
      false,
    ],
    ['https to a non-allowlisted host', () => 'https://evil.example/log', false],
    ['a non-http scheme', () => 'file:///etc/passwd', false],
    ['a missing location', () => '', false],
  ])('log flow: %s', async (_name, location, follows) => {
    const log = await server(answer(200, { 'content-type': 'text/plain' }, 'log'));
    const target = location(log.port);
    const api = await server(answer(302, target === '' ? {} : { location: target }));
    const forge = transport({ apiUrl: api.origin });
    const result = await forge.request({
      host: 'api',
      path: '/logs',
      flow: 'job_log',
      rewriteCheck: allow,
    });
    if (follows) {
      expect(result).toMatchObject({ ok: true, value: { servedBy: 'log', body: { body: 'log' } } });
      expect(log.requests).toHaveLength(1);
    } else {
      expect(result).toMatchObject({
        ok: false,
        error: { code: 'forge_redirect_denied', status: 302 },
      });
      expect(log.requests).toHaveLength(0);
    }
  });

  it('does not follow a redirect from the log host', async () => {
    const again = await server(answer(200, {}, 'x'));
    const log = await server(answer(302, { location: `${again.origin}/again` }));
    const api = await server(answer(302, { location: `${log.origin}/log` }));
    const forge = transport({ apiUrl: api.origin });
    const result = await forge.request({
      host: 'api',
      path: '/logs',
      flow: 'job_log',
      rewriteCheck: allow,
    });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'forge_redirect_denied', duringRedirect: true },
    });
    expect(again.requests).toHaveLength(0);
  });

  it('runs the rewrite check on a followed redirect before following it', async () => {
    const log = await server(answer(200, {}, 'x'));
    const api = await server(answer(302, { location: `${log.origin}/log?job=codename` }));
    const forge = transport({ apiUrl: api.origin });
    const result = await forge.request({
      host: 'api',
      path: '/logs',
      flow: 'job_log',
      rewriteCheck: (value) => !value.includes('codename'),
    });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'string_rewrite_denied', duringRedirect: true },
    });
    expect(api.requests).toHaveLength(1);
    expect(log.requests).toHaveLength(0);
  });

  it('checks a followed redirect in its decoded forms too, sending nothing', async () => {
    const log = await server(answer(200, {}, 'x'));
    const api = await server(answer(302, { location: `${log.origin}/log/%62luefalcon` }));
    const forge = transport({ apiUrl: api.origin });
    const result = await forge.request({
      host: 'api',
      path: '/logs',
      flow: 'job_log',
      rewriteCheck: (value) => !value.includes('bluefalcon'),
    });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'string_rewrite_denied', duringRedirect: true },
    });
    expect(log.requests).toHaveLength(0);
  });

  it('follows web redirects among the public hosts only', async () => {
    const patch = await server(answer(200, { 'content-type': 'text/x-diff' }, ''));
    const web = await server((request, response) => {
      const location =
        request.url === '/o/r/pull/1.diff'
          ? `${patch.origin}/raw/o/r/pull/1.diff`
          : 'https://evil.example/';
      response.writeHead(302, { location });
      response.end();
    });
    const forge = transport({ webUrl: web.origin, patchUrl: patch.origin });
    const followed = await forge.request({
      host: 'web',
      path: '/o/r/pull/1.diff',
      authorization: 'Bearer x',
      rewriteCheck: allow,
    });
    expect(followed).toMatchObject({
      ok: true,
      value: { servedBy: 'patch', redirects: 1, body: { encoding: 'text', body: '' } },
    });
    expect(patch.requests[0]?.headers).not.toHaveProperty('authorization');
    const denied = await forge.request({ host: 'web', path: '/elsewhere', rewriteCheck: allow });
    expect(denied).toMatchObject({ ok: false, error: { code: 'forge_redirect_denied' } });
  });
});

describe('the size cap', () => {
  const CAP = 4096;
  const bytes = (n: number) => Buffer.alloc(n, 0x61);

  it.each([
    ['exactly at the cap, with content-length', CAP, false, true],
    ['one byte over, with content-length', CAP + 1, false, false],
    ['exactly at the cap, chunked', CAP, true, true],
    ['one byte over, chunked', CAP + 1, true, false],
  ])('%s', async (_name, size, chunked, fits) => {
    const api = await server((_request, response) => {
      if (chunked) {
        response.writeHead(200, { 'content-type': 'text/plain' });
        for (let offset = 0; offset < size; offset += 1000)
          response.write(bytes(Math.min(1000, size - offset)));
        response.end();
      } else {
        response.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(size) });
        response.end(bytes(size));
      }
    });
    const forge = transport({ apiUrl: api.origin }, { maxResponseBytes: CAP });
    const result = await forge.request({ host: 'api', path: '/x', rewriteCheck: allow });
    if (fits) {
      expect(result).toMatchObject({
        ok: true,
        value: { upstreamBytes: CAP, body: { encoding: 'text', body: 'a'.repeat(CAP) } },
      });
    } else {
      expect(result).toEqual({
        ok: false,
        error: expect.objectContaining({
          code: 'forge_response_too_large',
          limitBytes: CAP,
        }) as unknown,
      });
    }
  });

  it('counts upstream bytes, before base64', async () => {
    const api = await server(
      answer(200, { 'content-type': 'application/octet-stream' }, Buffer.alloc(CAP, 0xff)),
    );
    const forge = transport({ apiUrl: api.origin }, { maxResponseBytes: CAP });
    const result = await forge.request({ host: 'api', path: '/x', rewriteCheck: allow });
    expect(result).toMatchObject({
      ok: true,
      value: { upstreamBytes: CAP, body: { encoding: 'base64' } },
    });
  });

  it('stops a slow drip as soon as the cap is passed, without waiting for the end', async () => {
    let closed: Promise<void> = Promise.resolve();
    const api = await server((_request, response) => {
      closed = new Promise((resolve) => response.on('close', resolve));
      response.writeHead(200, { 'content-type': 'text/plain' });
      drip(response, bytes(100));
    });
    const forge = transport({ apiUrl: api.origin }, { maxResponseBytes: CAP });
    const result = await forge.request({ host: 'api', path: '/x', rewriteCheck: allow });
    expect(result).toMatchObject({ ok: false, error: { code: 'forge_response_too_large' } });
    await closed;
  });

  it('returns a 304 whose content-length describes a representation over the cap', async () => {
    // RFC 9110 §8.6: a 304 may carry the content-length a 200 would have had; it has no body.
    const api = await server((_request, response) => {
      response.writeHead(304, { etag: '"big"', 'content-length': String(10 * CAP) });
      response.end();
    });
    const forge = transport({ apiUrl: api.origin }, { maxResponseBytes: CAP });
    const result = await forge.request({
      host: 'api',
      path: '/x',
      headers: { 'if-none-match': '"big"' },
      rewriteCheck: allow,
    });
    expect(result).toMatchObject({
      ok: true,
      value: { status: 304, upstreamBytes: 0, headers: { etag: '"big"' } },
    });
  });

  it('refuses a declared oversize body without reading it', async () => {
    const api = await server((_request, response) => {
      response.writeHead(200, { 'content-length': String(10 * CAP) });
      response.write(bytes(10));
    });
    const forge = transport({ apiUrl: api.origin }, { maxResponseBytes: CAP });
    const result = await forge.request({ host: 'api', path: '/x', rewriteCheck: allow });
    expect(result).toMatchObject({ ok: false, error: { code: 'forge_response_too_large' } });
  });
});

describe('the deadline and connection failures', () => {
  it('gives forge_timeout when no answer comes before the deadline', async () => {
    const api = await server(() => undefined);
    const timer = manualTimer();
    const forge = transport(
      { apiUrl: api.origin },
      { timeoutMs: 15_000, scheduleTimeout: timer.schedule },
    );
    const pending = forge.request({ host: 'api', path: '/x', rewriteCheck: allow });
    await api.nextRequest();
    timer.fire();
    expect(await pending).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'forge_timeout', timeoutMs: 15_000 }) as unknown,
    });
    expect(timer.delays).toEqual([15_000]);
  });

  it('gives forge_timeout when the body drips past the deadline', async () => {
    const api = await server((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('partial');
    });
    const timer = manualTimer();
    const forge = transport({ apiUrl: api.origin }, { scheduleTimeout: timer.schedule });
    const pending = forge.request({ host: 'api', path: '/x', rewriteCheck: allow });
    await api.nextRequest();
    timer.fire();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'forge_timeout' } });
  });

  it('arms a real timer by default', async () => {
    const api = await server(() => undefined);
    const forge = transport({ apiUrl: api.origin }, { timeoutMs: 25 });
    expect(await forge.request({ host: 'api', path: '/x', rewriteCheck: allow })).toMatchObject({
      ok: false,
      error: { code: 'forge_timeout' },
    });
  });

  it('gives forge_unreachable when nothing listens', async () => {
    const gone = await startLoopbackServer(() => undefined);
    await gone.close();
    const forge = transport({ apiUrl: gone.origin });
    expect(await forge.request({ host: 'api', path: '/x', rewriteCheck: allow })).toMatchObject({
      ok: false,
      error: { code: 'forge_unreachable' },
    });
  });

  it('gives forge_unreachable when the connection drops mid-body', async () => {
    const api = await server((_request, response) => {
      response.writeHead(200, { 'content-length': '100' });
      response.write('short', () => response.destroy());
    });
    const forge = transport({ apiUrl: api.origin });
    expect(await forge.request({ host: 'api', path: '/x', rewriteCheck: allow })).toMatchObject({
      ok: false,
      error: { code: 'forge_unreachable' },
    });
  });

  it('gives aborted when the caller aborts', async () => {
    const api = await server(() => undefined);
    const forge = transport({ apiUrl: api.origin });
    const controller = new AbortController();
    const pending = forge.request({
      host: 'api',
      path: '/x',
      rewriteCheck: allow,
      signal: controller.signal,
    });
    await api.nextRequest();
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'aborted' } });
    expect(
      await forge.request({
        host: 'api',
        path: '/x',
        rewriteCheck: allow,
        signal: controller.signal,
      }),
    ).toMatchObject({
      ok: false,
      error: { code: 'aborted' },
    });
  });

  it('gives forge_unreachable after close', async () => {
    const api = await server(answer(200, {}));
    const forge = createForgeTransport({ hosts: { apiUrl: api.origin } });
    await forge.close();
    expect(await forge.request({ host: 'api', path: '/x', rewriteCheck: allow })).toMatchObject({
      ok: false,
      error: { code: 'forge_unreachable' },
    });
  });
});

describe('bodies and headers on the wire', () => {
  it.each(BODY_FIXTURES)('$name', async (fixture) => {
    const headers: Record<string, string> =
      fixture.contentType === undefined ? {} : { 'content-type': fixture.contentType };
    const upstream = await server(answer(fixture.status, headers, Buffer.from(fixture.hex, 'hex')));
    const host = fixture.kind === 'api' ? 'api' : 'raw';
    const forge = transport({ apiUrl: upstream.origin, rawUrl: upstream.origin });
    const request: ForgeRequest = { host, path: '/x', rewriteCheck: allow };
    const result = await forge.request(request);
    expect(result).toMatchObject({
      ok: true,
      value: { status: fixture.status, body: fixture.expected },
    });
  });

  it.each([
    ['accept asks for a diff', { accept: 'application/vnd.github.diff' }, {}],
    ['accept asks for a patch (v3 form)', { accept: 'application/vnd.github.v3.patch' }, {}],
    ['the answer is a diff', {}, { 'content-type': 'application/vnd.github.diff; charset=utf-8' }],
    ["accept asks for a file's raw content", { accept: 'application/vnd.github.raw' }, {}],
    ['accept asks for raw content (v3 form)', { accept: 'application/vnd.github.v3.raw' }, {}],
  ])(
    'an empty diff, patch or raw file from the API host is an empty string, as from the patch or raw host (%s)',
    async (_case, callerHeaders: Record<string, string>, responseHeaders) => {
      const api = await server(answer(200, responseHeaders));
      const forge = transport({ apiUrl: api.origin });
      const result = await forge.request({
        host: 'api',
        path: '/repos/o/r/commits/0123456789abcdef0123456789abcdef01234567',
        headers: callerHeaders,
        rewriteCheck: allow,
      });
      expect(result).toMatchObject({ ok: true, value: { body: { encoding: 'text', body: '' } } });
    },
  );

  it.each(['application/vnd.github+json', 'application/vnd.github.raw+json'])(
    'an empty API answer to a JSON request stays null (accept %s)',
    async (accept) => {
      const api = await server(answer(200, { 'content-type': 'application/json' }));
      const forge = transport({ apiUrl: api.origin });
      const result = await forge.request({
        host: 'api',
        path: '/x',
        headers: { accept },
        rewriteCheck: allow,
      });
      expect(result).toMatchObject({ ok: true, value: { body: { encoding: 'text', body: null } } });
    },
  );

  it('parses a realistic JSON answer and its rate-limit headers', async () => {
    const api = await server(
      answer(
        200,
        {
          'content-type': 'application/json; charset=utf-8',
          'x-ratelimit-limit': '60',
          'x-ratelimit-remaining': '59',
          'x-ratelimit-used': '1',
          'x-ratelimit-reset': '1691591363',
          'x-ratelimit-resource': 'core',
        },
        JSON.stringify(rateLimitOverview),
      ),
    );
    const forge = transport({ apiUrl: api.origin });
    const result = await forge.request({ host: 'api', path: '/rate_limit', rewriteCheck: allow });
    expect(result).toMatchObject({
      ok: true,
      value: {
        body: { encoding: 'json', body: rateLimitOverview },
        rateLimit: {
          limit: 60,
          remaining: 59,
          used: 1,
          resetEpochSeconds: 1691591363,
          resource: 'core',
        },
      },
    });
  });

  it('keeps only the envelope allowlist of response headers', async () => {
    const api = await server(
      answer(
        403,
        {
          'content-type': 'application/json',
          etag: 'W/"e"',
          'last-modified': 'Sun, 22 Nov 2026 10:00:00 GMT',
          'cache-control': 'private, max-age=60',
          vary: 'Accept, Authorization',
          link: '<https://api.github.com/x?page=2>; rel="next"',
          'retry-after': '30',
          'x-ratelimit-remaining': '10',
          'x-github-request-id': 'ABCD:1234',
          'x-github-media-type': 'github.v3; format=json',
          'set-cookie': ['logged_in=no', '_gh_sess=secret'],
          authorization: 'Bearer echoed',
          'x-oauth-scopes': 'repo',
          'x-accepted-oauth-scopes': 'repo',
          'github-authentication-token-expiration': '2026-12-01',
          server: 'github.com',
          'x-frame-options': 'deny',
        },
        '{"message":"rate limited"}',
      ),
    );
    const forge = transport({ apiUrl: api.origin });
    const result = await forge.request({ host: 'api', path: '/x', rewriteCheck: allow });
    expect(result.ok && result.value.headers).toEqual({
      'content-type': 'application/json',
      etag: 'W/"e"',
      'last-modified': 'Sun, 22 Nov 2026 10:00:00 GMT',
      'cache-control': 'private, max-age=60',
      vary: 'Accept, Authorization',
      link: '<https://api.github.com/x?page=2>; rel="next"',
      'retry-after': '30',
      'x-ratelimit-remaining': '10',
      'x-github-request-id': 'ABCD:1234',
      'x-github-media-type': 'github.v3; format=json',
    });
    expect(result.ok && result.value.rateLimit).toEqual({ remaining: 10, retryAfterSeconds: 30 });
  });
});
