import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DEMO,
  createForgeSim,
  createSimClock,
  seedDemoWorld,
  type ForgeSim,
} from '@relay/forge-sim';
import { errorBodySchema, loginResponseSchema, relayEnvelopeSchema } from '@relay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServerConfig, startServer, type RunningServer } from '../../src/index.js';
import { createServerLogger, toLogSinks } from '../../src/logging/server-logger.js';
import { demoRelayEnv } from '../pipeline/relay-harness.js';

/**
 * The structured logs of a whole scenario on the real relay-server (startServer, loopback
 * socket, the pino logger main.ts uses, at level trace) against @relay/forge-sim: every line is
 * one JSON object, each request has its line with its fields, and no line holds a token, a
 * secret, a pattern or a query value.
 */
const ADMIN = 'admin-token-for-log-tests-0123456789';
const PATTERN = 'hush-[0-9]+-sauce';
const QUERY_VALUES = ['qv-label-7731', 'qv-secret-9924', 'hush-42-sauce'];
let sim: ForgeSim;
let server: RunningServer;
let dir: string;
const lines: string[] = [];
const secrets = new Map<string, string>();
let forgeToken: string;
let patSecret: string;
let callerToken: string;

beforeAll(async () => {
  const clock = createSimClock({ start: Date.parse('2030-01-01T00:00:00Z') });
  sim = await createForgeSim({ clock });
  seedDemoWorld(sim.world);
  dir = mkdtempSync(join(tmpdir(), 'relay-logs-'));
  const config = loadServerConfig({
    RELAY_PORT: '0',
    RELAY_DATABASE: join(dir, 'relay.db'),
    RELAY_ADMIN_TOKEN: ADMIN,
    ...demoRelayEnv(sim, 'team'),
    RELAY_LOG_LEVEL: 'trace',
  });
  if (!config.ok) throw new Error('invalid test configuration');
  const logger = createServerLogger({
    level: config.value.logLevel,
    destination: { write: (line: string) => lines.push(line) },
  });
  server = await startServer(config.value, {
    now: () => clock.now(),
    readSecret: (name) => Promise.resolve(secrets.get(name)),
    ...toLogSinks(logger),
  });
  logger.info({ url: server.url }, `relay-server listening on ${server.url}`);
  patSecret = sim.tokens.addPat({ login: DEMO.users.alice }).token;
  secrets.set('alice_pat', patSecret);
  forgeToken = sim.tokens.addPat({ login: DEMO.users.bob }).token;
});
afterAll(async () => {
  await server.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

const send = (method: string, path: string, token: string, body?: unknown) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const relay = (body: Record<string, unknown>) =>
  send('POST', '/v1/forge/request', callerToken, { pool: 'team', method: 'GET', ...body });

describe('structured logs of a whole scenario', () => {
  let parsed: Record<string, unknown>[];

  beforeAll(async () => {
    // A caller logs in with a forge token (bob is a private member of the organization).
    const login = await fetch(`${server.url}/v1/login/forge-cli`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ forge_token: forgeToken, client: 'laptop' }),
    });
    expect(login.status).toBe(200);
    callerToken = loginResponseSchema.parse(await login.json()).token;
    // An admin registers a pat identity whose secret resolves, and sets a rewrite pattern.
    const registered = await send('POST', '/v1/admin/pools/team/identities', ADMIN, {
      id: 'alice',
      kind: 'pat',
      login: DEMO.users.alice,
      secret_ref: 'alice_pat',
      scopes: [{ owner: DEMO.org }],
    });
    expect(registered.status).toBe(201);
    const put = await send('PUT', '/v1/admin/string-rewrites', ADMIN, {
      schema_version: 1,
      expected_revision: 1,
      rules: [{ pattern: PATTERN, replacement: 'sauce' }],
    });
    expect(put.status).toBe(200);
    // A miss, then a hit, with a query value.
    const path = `/repos/${DEMO.org}/${DEMO.publicRepo}/issues`;
    const query = { labels: QUERY_VALUES[0] };
    const miss = relayEnvelopeSchema.parse(await (await relay({ path, query })).json());
    expect(miss.relay.cache).toBe('miss');
    const hit = relayEnvelopeSchema.parse(await (await relay({ path, query })).json());
    expect(hit.relay.cache).toBe('hit');
    // The pooled identity serves a read (its secret is resolved and sent upstream).
    const pooled = relayEnvelopeSchema.parse(await (await relay({ path: '/rate_limit' })).json());
    expect(pooled.identity).toEqual({ id: 'alice', kind: 'pat' });
    // Denied: a secret-looking query key, and a query value matching the rewrite pattern.
    const secretKey = await relay({ path, query: { access_token: QUERY_VALUES[1] } });
    expect(errorBodySchema.parse(await secretKey.json()).error.code).toBe('invalid_query');
    const rewritten = await relay({ path, query: { labels: QUERY_VALUES[2] } });
    expect(errorBodySchema.parse(await rewritten.json()).error.code).toBe('string_rewrite_denied');
    // A bad caller token and a bad admin token.
    expect((await send('GET', '/v1/pools/team/health', 'rly_not-a-real-token')).status).toBe(401);
    expect((await send('GET', '/v1/admin/string-rewrites', `${ADMIN}-wrong`)).status).toBe(401);
    await server.close();
    parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  });

  it('writes every line as one JSON object with a level, a time and a message', () => {
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines) {
      expect(line.endsWith('\n')).toBe(true);
      expect(line.trimEnd()).not.toContain('\n');
    }
    for (const entry of parsed) {
      expect(entry).toMatchObject({
        level: expect.any(String) as unknown,
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
        msg: expect.any(String) as unknown,
      });
    }
  });

  it('writes one request line per request with the request id, caller, pool, route kind, status, source, duration and upstream count', () => {
    const relayLines = parsed.filter((e) => e.msg === 'request' && e.route === '/v1/forge/request');
    expect(relayLines.map((e) => [e.status, e.route_kind, e.source, e.error_code])).toEqual([
      [200, 'issue_list', 'anonymous', undefined],
      [200, 'issue_list', 'cache_hit', undefined],
      [200, 'rate_limit', 'identity', undefined],
      [400, undefined, 'error', 'invalid_query'],
      [403, undefined, 'error', 'string_rewrite_denied'],
    ]);
    const [miss, hit, pooled] = relayLines;
    expect(miss).toMatchObject({
      level: 'info',
      pool: 'team',
      caller_id: expect.any(String) as unknown,
      request_id: expect.stringMatching(/^req_/) as unknown,
      upstream_status: 200,
      duration_ms: expect.any(Number) as unknown,
    });
    expect(miss?.upstream_requests).toBeGreaterThanOrEqual(1);
    expect(hit?.upstream_requests).toBe(0);
    expect(pooled).toMatchObject({ identity_id: 'alice', upstream_requests: 1 });
    expect(relayLines.every((e) => e.caller_id === miss?.caller_id)).toBe(true);
    // Login reads the forge twice (the user, the membership) on behalf of its request.
    const loginLine = parsed.find((e) => e.route === '/v1/login/forge-cli');
    expect(loginLine).toMatchObject({ status: 200, upstream_requests: 2 });
    expect(parsed.filter((e) => e.msg === 'request' && e.status === 401)).toHaveLength(2);
  });

  it('never writes a token, a secret, the pattern or a query value', () => {
    const all = lines.join('');
    for (const value of [
      callerToken,
      ADMIN,
      forgeToken,
      patSecret,
      'alice_pat',
      PATTERN,
      'rly_not-a-real-token',
      ...QUERY_VALUES,
      DEMO.publicRepo,
    ]) {
      expect(all).not.toContain(value);
    }
  });
});
