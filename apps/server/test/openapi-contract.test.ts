import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DEMO,
  createForgeSim,
  createSimClock,
  seedDemoWorld,
  type DemoWorldIds,
  type ForgeSim,
  type SimClock,
} from '@relay/forge-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServerConfig, startServer, type RunningServer } from '../src/index.js';
import { createOpenApiDocument, toOpenApiPath } from '../src/openapi/openapi-document.js';
import { OPENAPI_OPERATIONS } from '../src/openapi/openapi-operations.js';
import { createResponseChecker, type ResponseChecker } from './openapi-response-checker.js';
import { demoRelayEnv } from './pipeline/relay-harness.js';

/**
 * The contract test: real requests to the real relay-server (startServer, loopback socket,
 * SQLite file) against @relay/forge-sim, covering every endpoint's success and its main error
 * answers; each answer's status must be documented for its operation, its body must satisfy the
 * documented schema, its media type and required headers must be the documented ones, and each
 * successful request body must satisfy the documented request schema.
 */
const ADMIN = 'admin-token-for-openapi-contract-0123456';
const METRICS = 'metrics-token-for-openapi-contract-01234';
const POOL = 'team';
const REPO = `/repos/${DEMO.org}/${DEMO.publicRepo}`;

let sim: ForgeSim;
let clock: SimClock;
let ids: DemoWorldIds;
let server: RunningServer;
let dir: string;
let checker: ResponseChecker;
let callerToken = '';
const secrets = new Map<string, string>();

beforeAll(async () => {
  clock = createSimClock({ start: Date.parse('2030-01-01T00:00:00Z') });
  sim = await createForgeSim({ clock });
  ids = seedDemoWorld(sim.world);
  dir = mkdtempSync(join(tmpdir(), 'relay-openapi-'));
  const config = loadServerConfig({
    RELAY_PORT: '0',
    RELAY_DATABASE: join(dir, 'relay.db'),
    RELAY_ADMIN_TOKEN: ADMIN,
    RELAY_METRICS_TOKEN: METRICS,
    ...demoRelayEnv(sim, POOL),
  });
  if (!config.ok) throw new Error('invalid test configuration');
  server = await startServer(config.value, {
    now: () => clock.now(),
    readSecret: (name) => Promise.resolve(secrets.get(name)),
  });
  checker = createResponseChecker(createOpenApiDocument());
});
afterAll(async () => {
  await server.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies are inspected freely
type AnyJson = any;

interface Call {
  /** The actual path, when it differs from the documented template. */
  readonly path?: string;
  readonly token?: string;
  readonly body?: unknown;
  /** A body sent as is. */
  readonly raw?: string;
  readonly contentType?: string;
}

/**
 * Sends one request and checks the exchange against the document.
 *
 * @returns the status and the parsed JSON body (or the text)
 */
async function call(
  method: string,
  template: string,
  options: Call = {},
): Promise<{ status: number; json: AnyJson; text: string }> {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  const hasBody = options.body !== undefined || options.raw !== undefined;
  if (hasBody) headers['content-type'] = options.contentType ?? 'application/json';
  const response = await fetch(`${server.url}${options.path ?? template}`, {
    method,
    headers,
    ...(hasBody ? { body: options.raw ?? JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  const problems = checker.check({
    method,
    path: template,
    ...(options.body === undefined ? {} : { requestBody: options.body }),
    status: response.status,
    headers: response.headers,
    text,
  });
  expect(problems).toEqual([]);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text };
}

const relay = (body: Record<string, unknown>, token = callerToken) =>
  call('POST', '/v1/forge/request', { token, body: { pool: POOL, method: 'GET', ...body } });

describe('the relay-server conforms to its OpenAPI document', () => {
  it('discovery, the document itself and metrics', async () => {
    expect((await call('GET', '/.well-known/relay')).status).toBe(200);
    expect((await call('GET', '/openapi.json')).status).toBe(200);
    const metrics = await call('GET', '/metrics', { token: METRICS });
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('# TYPE');
    expect((await call('GET', '/metrics')).status).toBe(401);
    expect((await call('GET', '/metrics', { token: ADMIN })).status).toBe(401);
  });

  it('POST /v1/login/forge-cli', async () => {
    const alice = sim.tokens.addPat({ login: DEMO.users.alice }).token;
    const login = await call('POST', '/v1/login/forge-cli', {
      body: { forge_token: alice, client: 'laptop.local' },
    });
    expect(login.status).toBe(200);
    callerToken = login.json.token;

    const carol = sim.tokens.addPat({ login: DEMO.users.carol }).token;
    const outsider = await call('POST', '/v1/login/forge-cli', {
      body: { forge_token: carol, client: 'x' },
    });
    expect(outsider.json.error.code).toBe('org_membership_required');
    const revoked = sim.tokens.addPat({ login: DEMO.users.bob }).token;
    sim.tokens.revoke(revoked);
    const invalid = await call('POST', '/v1/login/forge-cli', {
      body: { forge_token: revoked, client: 'x' },
    });
    expect(invalid.json.error.code).toBe('forge_token_invalid');
    const ungranted = await call('POST', '/v1/login/forge-cli', {
      body: { forge_token: alice, client: 'laptop', pool: 'elsewhere' },
    });
    expect(ungranted.json.error.code).toBe('pool_forbidden');
    const malformed = await call('POST', '/v1/login/forge-cli', { raw: '{"forge_token": 1}' });
    expect(malformed.json.error.code).toBe('invalid_request');
    const media = await call('POST', '/v1/login/forge-cli', {
      raw: 'forge_token=x',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(media.json.error.code).toBe('unsupported_media_type');
    const large = await call('POST', '/v1/login/forge-cli', {
      raw: JSON.stringify({ forge_token: 'x'.repeat(20_000), client: 'x' }),
    });
    expect(large.json.error.code).toBe('payload_too_large');
  });

  it('POST /v1/admin/callers', async () => {
    const body = { pool: 'ops', forge_login: DEMO.users.alice, name: 'ci' };
    expect((await call('POST', '/v1/admin/callers', { token: ADMIN, body })).status).toBe(201);
    expect((await call('POST', '/v1/admin/callers', { body })).status).toBe(401);
    const unknown = await call('POST', '/v1/admin/callers', {
      token: ADMIN,
      body: { ...body, forge_login: 'nobody-here' },
    });
    expect(unknown.json.error.code).toBe('not_found');
    const outsider = await call('POST', '/v1/admin/callers', {
      token: ADMIN,
      body: { ...body, forge_login: DEMO.users.carol },
    });
    expect(outsider.json.error.code).toBe('org_membership_required');
  });

  it('POST /v1/admin/pools/{pool}/identities', async () => {
    const template = '/v1/admin/pools/{pool}/identities';
    const path = `/v1/admin/pools/${POOL}/identities`;
    secrets.set('alice_pat', sim.tokens.addPat({ login: DEMO.users.alice }).token);
    const identity = {
      id: 'alice',
      kind: 'pat',
      login: DEMO.users.alice,
      secret_ref: 'alice_pat',
      scopes: [{ owner: DEMO.org }],
    };
    expect((await call('POST', template, { path, token: ADMIN, body: identity })).status).toBe(201);
    const updated = await call('POST', template, {
      path,
      token: ADMIN,
      body: { ...identity, weight: 200 },
    });
    expect(updated.status).toBe(200);
    const conflict = await call('POST', template, {
      path: '/v1/admin/pools/ops/identities',
      token: ADMIN,
      body: identity,
    });
    expect(conflict.json.error.code).toBe('identity_conflict');
    const invalid = await call('POST', template, {
      path,
      token: ADMIN,
      raw: JSON.stringify({ ...identity, kind: 'forge_app' }),
    });
    expect(invalid.json.error.code).toBe('invalid_request');
    expect((await call('POST', template, { path, body: identity })).status).toBe(401);
  });

  it('the string-rewrite policy: admin GET and PUT, and the pool GET', async () => {
    const admin = await call('GET', '/v1/admin/string-rewrites', { token: ADMIN });
    expect(admin.status).toBe(200);
    expect((await call('GET', '/v1/admin/string-rewrites')).status).toBe(401);
    const put = {
      schema_version: 1,
      expected_revision: admin.json.revision,
      rules: [{ pattern: 'forbidden-codename', replacement: '' }],
    };
    const replaced = await call('PUT', '/v1/admin/string-rewrites', { token: ADMIN, body: put });
    expect(replaced.status).toBe(200);
    const stale = await call('PUT', '/v1/admin/string-rewrites', { token: ADMIN, body: put });
    expect(stale.json.error.code).toBe('string_rewrite_revision_conflict');
    const malformed = await call('PUT', '/v1/admin/string-rewrites', {
      token: ADMIN,
      raw: JSON.stringify({ ...put, flags: 'i' }),
    });
    expect(malformed.json.error.code).toBe('invalid_string_rewrite_policy');

    const template = '/v1/pools/{pool}/string-rewrites';
    const pool = await call('GET', template, {
      path: `/v1/pools/${POOL}/string-rewrites`,
      token: callerToken,
    });
    expect(pool.json.rules).toHaveLength(1);
    const forbidden = await call('GET', template, {
      path: '/v1/pools/elsewhere/string-rewrites',
      token: callerToken,
    });
    expect(forbidden.json.error.code).toBe('pool_forbidden');
    const anonymous = await call('GET', template, { path: `/v1/pools/${POOL}/string-rewrites` });
    expect(anonymous.status).toBe(401);
  });

  it('POST /v1/forge/request: envelopes (anonymous, pooled, cached, stale, text) and its errors', async () => {
    const miss = await relay({ path: `${REPO}/issues` });
    expect(miss.json.relay).toMatchObject({ cache: 'miss', backend: 'forge_public' });
    expect((await relay({ path: `${REPO}/issues` })).json.relay.cache).toBe('hit');
    expect((await relay({ path: '/rate_limit' })).json.identity).toEqual({
      id: 'alice',
      kind: 'pat',
    });
    const log = await relay({ path: `${REPO}/actions/jobs/${String(ids.jobId)}/logs` });
    expect(log.json.body_encoding).toBe('text');

    const release = `${REPO}/releases/${String(ids.releaseId)}`;
    expect((await relay({ path: release })).status).toBe(200);
    clock.advance(61_000);
    sim.faults.inject({ path: release, action: { kind: 'status', status: 503 } });
    const stale = await relay({ path: release });
    expect(stale.json.relay).toMatchObject({ cache: 'stale', stale_ok: true });

    const fallback = await relay({ path: `${REPO}/branches/main/protection` });
    expect(fallback.json.error).toMatchObject({
      code: 'fallback_local',
      reason: 'local_credentials_required',
    });
    expect((await relay({ path: `${REPO}/../x` })).json.error.code).toBe('invalid_path');
    expect((await relay({ path: REPO, query: { access_token: 'x' } })).json.error.code).toBe(
      'invalid_query',
    );
    expect((await relay({ path: REPO, method: 'POST' })).json.error.code).toBe('method_denied');
    expect((await relay({ path: `${REPO}/forbidden-codename` })).json.error.code).toBe(
      'string_rewrite_denied',
    );
    expect((await relay({ path: REPO, pool: 'elsewhere' })).json.error.code).toBe('pool_forbidden');
    expect((await relay({ path: REPO }, 'rly_not-a-token')).json.error.code).toBe('unauthorized');
    const malformed = await call('POST', '/v1/forge/request', {
      token: callerToken,
      raw: '{"pool": "team"}',
    });
    expect(malformed.json.error.code).toBe('invalid_request');
  });

  it('GET /v1/pools/{pool}/health and /stats', async () => {
    const health = await call('GET', '/v1/pools/{pool}/health', {
      path: `/v1/pools/${POOL}/health`,
      token: callerToken,
    });
    expect(health.json.identities_total).toBe(1);
    const forbidden = await call('GET', '/v1/pools/{pool}/health', {
      path: '/v1/pools/elsewhere/health',
      token: callerToken,
    });
    expect(forbidden.json.error.code).toBe('pool_forbidden');

    await server.audit.flush();
    const template = '/v1/pools/{pool}/stats';
    const stats = await call('GET', template, {
      path: `/v1/pools/${POOL}/stats?window=7d&client=laptop`,
      token: callerToken,
    });
    expect(stats.json).toMatchObject({ window: '7d', client_filter: 'laptop' });
    expect(stats.json.requests).toBeGreaterThan(0);
    const invalid = await call('GET', template, {
      path: `/v1/pools/${POOL}/stats?window=forever`,
      token: callerToken,
    });
    expect(invalid.json.error.code).toBe('invalid_request');
    expect((await call('GET', template, { path: `/v1/pools/${POOL}/stats` })).status).toBe(401);
  });

  it('the dashboard reads: /stats/timeseries, /identities and /denials', async () => {
    await server.audit.flush();
    const series = '/v1/pools/{pool}/stats/timeseries';
    const timeseries = await call('GET', series, {
      path: `/v1/pools/${POOL}/stats/timeseries?window=24h&bucket=1h`,
      token: callerToken,
    });
    expect(timeseries.json.buckets.length).toBeGreaterThan(0);
    const badBucket = await call('GET', series, {
      path: `/v1/pools/${POOL}/stats/timeseries?bucket=2h`,
      token: callerToken,
    });
    expect(badBucket.json.error.code).toBe('invalid_request');
    expect((await call('GET', series, { path: `/v1/pools/${POOL}/stats/timeseries` })).status).toBe(
      401,
    );

    const identities = await call('GET', '/v1/pools/{pool}/identities', {
      path: `/v1/pools/${POOL}/identities`,
      token: callerToken,
    });
    expect(identities.json.identities).toEqual([expect.objectContaining({ id: 'alice' })]);
    const forbidden = await call('GET', '/v1/pools/{pool}/identities', {
      path: '/v1/pools/elsewhere/identities',
      token: callerToken,
    });
    expect(forbidden.json.error.code).toBe('pool_forbidden');

    const denials = await call('GET', '/v1/pools/{pool}/denials', {
      path: `/v1/pools/${POOL}/denials?window=7d&limit=10`,
      token: callerToken,
    });
    expect(denials.json.denials.length).toBeGreaterThan(0);
    const badLimit = await call('GET', '/v1/pools/{pool}/denials', {
      path: `/v1/pools/${POOL}/denials?limit=0`,
      token: callerToken,
    });
    expect(badLimit.json.error.code).toBe('invalid_request');
  });

  it('covered a success and an error answer of every operation', () => {
    const missing: string[] = [];
    for (const operation of OPENAPI_OPERATIONS) {
      const prefix = `${operation.method.toUpperCase()} ${toOpenApiPath(operation.path)} `;
      const statuses = [...checker.covered]
        .filter((entry) => entry.startsWith(prefix))
        .map((entry) => Number(entry.slice(prefix.length)));
      if (!statuses.some((status) => status < 300)) missing.push(`${prefix}success`);
      // A 500 cannot be provoked from outside; every other documented error can.
      const provocable = operation.errors.some((code) => code !== 'internal_error');
      if (provocable && !statuses.some((status) => status >= 400)) missing.push(`${prefix}error`);
    }
    expect(missing).toEqual([]);
  });
});
