/**
 * The server of `envelope-write.bench.ts`: a bare Hono app on @hono/node-server answering
 * POST /string and POST /bytes with a hit envelope of forge-sim's issue 1 (the JSON file named by
 * argv[2]), built per request as the relay builds a hit's.
 *
 * - /string: the relay's hit path, `serializeEnvelope` with the entry as answer source (the
 *   answer's JSON kept as a string, the request's fields appended).
 * - /bytes: the answer's UTF-8 bytes kept instead, the request's fields encoded and copied after
 *   them, the body handed to Hono as a `Uint8Array`.
 *
 * It prints `listening on <url>` and stops on SIGTERM.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { RelayEnvelope } from '@relay/protocol';
import { buildEnvelope, serializeEnvelope } from '../src/pipeline/envelope-builder.js';

const hit = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as RelayEnvelope;
const source = {
  status: hit.status,
  headers: hit.headers,
  body: hit.body,
  bodyEncoding: hit.body_encoding,
};
let n = 0;
const envelope = () =>
  buildEnvelope(source, {
    pool: 'bench',
    requestId: `req_0198c1c2-7f3a-7000-8000-${String(100_000_000_000 + n++)}`,
    routeKind: 'issue_view',
    cacheable: true,
    cache: 'hit',
  });

const prefixes = new WeakMap<object, Buffer<ArrayBuffer>>();
function encode(built: RelayEnvelope): Buffer<ArrayBuffer> {
  let prefix = prefixes.get(source);
  if (prefix === undefined) {
    const text = serializeEnvelope(built);
    const answer = text.slice(0, text.lastIndexOf(',"identity":'));
    prefix = Buffer.allocUnsafeSlow(Buffer.byteLength(answer));
    prefix.write(answer, 0);
    prefixes.set(source, prefix);
  }
  const suffix = `,"identity":${JSON.stringify(built.identity)},"relay":${JSON.stringify(built.relay)}}`;
  const bytes = Buffer.allocUnsafe(prefix.length + Buffer.byteLength(suffix));
  prefix.copy(bytes, 0);
  bytes.write(suffix, prefix.length);
  return bytes;
}

const json = { 'content-type': 'application/json' };
const app = new Hono();
app.post('/string', (c) => c.body(serializeEnvelope(envelope(), source), 200, json));
app.post('/bytes', (c) => c.body(encode(envelope()), 200, json));
const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) => {
  console.log(`listening on http://127.0.0.1:${String(info.port)}`);
});
process.once('SIGTERM', () => {
  server.close();
});
