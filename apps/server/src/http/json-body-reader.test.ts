import { request as httpRequest } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RelayHttpError } from '../relay-http-error.js';
import { readJsonBody } from './json-body-reader.js';

const MAX = 64;

function createTestApp() {
  const app = new Hono();
  app.post('/echo', async (c) => {
    const body = await readJsonBody(c, MAX);
    // Whether the Node request was there to be read directly (it is under @hono/node-server).
    const env: unknown = c.env;
    const node = typeof env === 'object' && env !== null && 'incoming' in env;
    return c.json({ body, node });
  });
  app.onError((error, c) =>
    c.json({ code: error instanceof RelayHttpError ? error.code : 'internal' }, 500),
  );
  return app;
}

/** Sends a request over a real socket; `chunks` are written one by one (chunked encoding). */
function send(
  url: string,
  chunks: readonly (string | Buffer)[],
  headers: Record<string, string> = { 'content-type': 'application/json' },
): Promise<{ status: number; text: string; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/echo`, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, text, connection: res.headers.connection });
      });
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('readJsonBody under @hono/node-server (the Node request, read directly)', () => {
  let server: ServerType;
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => {
      server = serve(
        { fetch: createTestApp().fetch, hostname: '127.0.0.1', port: 0 },
        (info: AddressInfo) => {
          url = `http://127.0.0.1:${String(info.port)}`;
          resolve();
        },
      );
    });
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('parses a body sent in several chunks', async () => {
    const answer = await send(url, ['{"a":', '[1,2,', '"é"]}']);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ body: { a: [1, 2, 'é'] }, node: true });
  });

  it('refuses a chunked body past the cap with payload_too_large and closes the connection', async () => {
    const answer = await send(url, ['{"a":"', 'x'.repeat(MAX), '"}']);
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.text)).toEqual({ code: 'payload_too_large' });
    expect(answer.connection).toBe('close');
  });

  it('refuses a declared length past the cap before reading', async () => {
    const body = JSON.stringify({ a: 'x'.repeat(MAX) });
    const answer = await send(url, [body], {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
    });
    expect(JSON.parse(answer.text)).toEqual({ code: 'payload_too_large' });
  });

  it.each([
    ['invalid UTF-8', [Buffer.from([0x7b, 0xff, 0x7d])], 'invalid_request'],
    ['malformed JSON', ['{"a":'], 'invalid_request'],
  ])('refuses %s', async (_name, chunks, code) => {
    const answer = await send(url, chunks);
    expect(JSON.parse(answer.text)).toEqual({ code });
  });

  it('refuses a body that is not JSON by content type', async () => {
    const answer = await send(url, ['{}'], { 'content-type': 'text/plain' });
    expect(JSON.parse(answer.text)).toEqual({ code: 'unsupported_media_type' });
  });
});

describe('readJsonBody of a body cut short', () => {
  it('raises the typed invalid_request, not an unexpected error', async () => {
    let seen: (error: Error) => void = () => undefined;
    const raised = new Promise<Error>((resolve) => (seen = resolve));
    let reading: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (reading = resolve));
    const app = new Hono();
    app.post('/echo', async (c) => {
      const body = readJsonBody(c, MAX);
      reading();
      return c.json({ body: await body });
    });
    app.onError((error, c) => {
      seen(error);
      return c.json({}, 500);
    });
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
    try {
      await new Promise<void>((resolve) => {
        server.once('listening', () => {
          resolve();
        });
      });
      const { port } = server.address() as AddressInfo;
      const socket = connect({ host: '127.0.0.1', port });
      socket.on('error', () => undefined);
      socket.write(
        'POST /echo HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n' +
          'content-length: 40\r\n\r\n{"a":',
      );
      // The client goes away (or the server's request deadline closes it) mid-body.
      await started;
      socket.destroy();
      const error = await raised;
      expect(error instanceof RelayHttpError && error.code).toBe('invalid_request');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('readJsonBody through app.request (the fetch Request)', () => {
  const app = createTestApp();
  const post = (body: string) =>
    app.request('/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });

  it('parses a body and bounds it', async () => {
    expect(await (await post('{"b":true}')).json()).toEqual({ body: { b: true }, node: false });
    expect(await (await post(JSON.stringify({ a: 'x'.repeat(MAX) }))).json()).toEqual({
      code: 'payload_too_large',
    });
  });
});
