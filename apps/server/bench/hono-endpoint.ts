/**
 * The baseline of the hit-path benchmark: a bare Hono app on @hono/node-server that answers
 * POST /v1/forge/request with fixed bytes (the relay's own cache-hit answer, read from the file
 * named by argv[2]). With argv[3] `parse` it first reads the request's JSON body and parses it
 * (what any JSON endpoint does, and the baseline does not). It prints `listening on <url>` and
 * stops on SIGTERM.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const body = readFileSync(process.argv[2] ?? '', 'utf8');
const parse = process.argv[3] === 'parse';
const app = new Hono();
app.post('/v1/forge/request', async (c) => {
  if (parse) await c.req.json();
  return c.body(body, 200, { 'content-type': 'application/json' });
});
const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) => {
  console.log(`listening on http://127.0.0.1:${String(info.port)}`);
});
process.once('SIGTERM', () => {
  server.close();
});
