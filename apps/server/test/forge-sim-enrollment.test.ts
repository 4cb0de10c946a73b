import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createForgeSim, createSimClock, type ForgeSim } from '@relay/forge-sim';
import {
  callerProvisioningResponseSchema,
  errorBodySchema,
  loginResponseSchema,
  poolHealthSchema,
} from '@relay/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadServerConfig, startServer, type RunningServer } from '../src/index.js';

/**
 * Login and provisioning end to end: the real relay-server (startServer, loopback socket)
 * against @relay/forge-sim.
 */
const ADMIN = 'admin-token-for-integration-tests';
let sim: ForgeSim;
let server: RunningServer;
let dir: string;
let secrets: Record<string, string>;

beforeEach(async () => {
  sim = await createForgeSim({
    clock: createSimClock({ start: Date.parse('2030-01-01T00:00:00Z') }),
  });
  sim.world.addOrg({
    login: 'acme',
    members: [
      { login: 'alice', public: true, role: 'admin' },
      { login: 'bob', public: false },
    ],
  });
  sim.world.addUser({ login: 'mallory' });
  dir = mkdtempSync(join(tmpdir(), 'relay-sim-'));
  secrets = {};
  const config = loadServerConfig({
    RELAY_PORT: '0',
    RELAY_DATABASE: join(dir, 'relay.db'),
    RELAY_ADMIN_TOKEN: ADMIN,
    RELAY_FORGE_API_URL: sim.urls.api,
    RELAY_FORGE_WEB_URL: sim.urls.web,
    RELAY_FORGE_RAW_URL: sim.urls.raw,
    ALLOWED_FORGE_ORG: 'acme',
    DEFAULT_LOGIN_POOL: 'team',
  });
  if (!config.ok) throw new Error('invalid test configuration');
  server = await startServer(config.value, {
    readSecret: (name) => Promise.resolve(secrets[name]),
  });
});
afterEach(async () => {
  await server.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

const post = (path: string, body: unknown, token?: string) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(body),
  });

describe('relay-server against the simulated forge', () => {
  it('logs a verified member in with a forge token, and the caller token reads pool health', async () => {
    const { token: forgeToken } = sim.tokens.addPat({ login: 'bob' });
    const response = await post('/v1/login/forge-cli', {
      forge_token: forgeToken,
      client: 'mac.local',
    });
    expect(response.status).toBe(200);
    const body = loginResponseSchema.parse(await response.json());
    expect(body).toMatchObject({ login: 'bob', pool: 'team', client: 'mac' });
    const health = await fetch(`${server.url}/v1/pools/team/health`, {
      headers: { authorization: `Bearer ${body.token}` },
    });
    expect(health.status).toBe(200);
    expect(sim.requests.find({ path: '/user/memberships/orgs/acme' })).toHaveLength(1);
  });

  it('refuses a non-member and a revoked forge token', async () => {
    const { token: mallory } = sim.tokens.addPat({ login: 'mallory' });
    const refused = await post('/v1/login/forge-cli', { forge_token: mallory, client: 'x' });
    expect(refused.status).toBe(403);
    expect(errorBodySchema.parse(await refused.json()).error.code).toBe('org_membership_required');

    const { token: revoked } = sim.tokens.addPat({ login: 'bob' });
    sim.tokens.revoke(revoked);
    const invalid = await post('/v1/login/forge-cli', { forge_token: revoked, client: 'x' });
    expect(invalid.status).toBe(401);
    const text = await invalid.text();
    expect(errorBodySchema.parse(JSON.parse(text)).error.code).toBe('forge_token_invalid');
    expect(text).not.toContain(revoked);
  });

  it('provisions a public member anonymously', async () => {
    const response = await post(
      '/v1/admin/callers',
      { pool: 'ops', forge_login: 'alice', name: 'ci' },
      ADMIN,
    );
    expect(response.status).toBe(201);
    expect(callerProvisioningResponseSchema.parse(await response.json())).toMatchObject({
      login: 'alice',
      pool: 'ops',
    });
  });

  it('proves a private membership only with an identity of the target pool', async () => {
    const without = await post(
      '/v1/admin/callers',
      { pool: 'ops', forge_login: 'bob', name: 'ci' },
      ADMIN,
    );
    expect(without.status).toBe(403);

    const { token: reader } = sim.tokens.addPat({ login: 'alice' });
    secrets.ALICE_PAT = reader;
    const registered = await post(
      '/v1/admin/pools/ops/identities',
      {
        id: 'alice-pat',
        kind: 'pat',
        login: 'alice',
        secret_ref: 'ALICE_PAT',
        scopes: [{ owner: 'acme' }],
      },
      ADMIN,
    );
    expect(registered.status).toBe(201);
    expect(await registered.text()).not.toContain(reader);
    const withIdentity = await post(
      '/v1/admin/callers',
      { pool: 'ops', forge_login: 'bob', name: 'ci' },
      ADMIN,
    );
    expect(withIdentity.status).toBe(201);
    const check = sim.requests.find({ path: '/orgs/acme/members/bob' });
    expect(check.at(-1)?.status).toBe(204);
  });

  it('provisions through the next identity when the highest-weight one is revoked, which then cools down', async () => {
    const top = sim.tokens.addPat({ login: 'alice' });
    const next = sim.tokens.addPat({ login: 'alice' });
    secrets.TOP_PAT = top.token;
    secrets.NEXT_PAT = next.token;
    for (const [id, secretRef, weight] of [
      ['top-pat', 'TOP_PAT', 500],
      ['next-pat', 'NEXT_PAT', 100],
    ] as const) {
      const registered = await post(
        '/v1/admin/pools/ops/identities',
        {
          id,
          kind: 'pat',
          login: 'alice',
          secret_ref: secretRef,
          scopes: [{ owner: 'acme' }],
          weight,
        },
        ADMIN,
      );
      expect(registered.status).toBe(201);
    }
    sim.tokens.revoke(top.token);

    // bob's membership is private: only an identity can prove it.
    const response = await post(
      '/v1/admin/callers',
      { pool: 'ops', forge_login: 'bob', name: 'ci' },
      ADMIN,
    );
    expect(response.status).toBe(201);
    const body = callerProvisioningResponseSchema.parse(await response.json());
    expect(body).toMatchObject({ login: 'bob', pool: 'ops' });

    // The revoked identity was tried first (highest weight), refused, and not tried again.
    expect(sim.requests.find({ credential: top.id }).map((r) => [r.path, r.status])).toEqual([
      ['/users/bob', 401],
    ]);
    expect(sim.requests.find({ credential: next.id }).map((r) => [r.path, r.status])).toEqual([
      ['/users/bob', 200],
      ['/orgs/acme/members/bob', 204],
    ]);
    const health = await fetch(`${server.url}/v1/pools/ops/health`, {
      headers: { authorization: `Bearer ${body.token}` },
    });
    expect(poolHealthSchema.parse(await health.json())).toMatchObject({
      identities_total: 2,
      identities_cooling_down: 1,
    });

    // A second provisioning skips the cooling identity at once.
    const again = await post(
      '/v1/admin/callers',
      { pool: 'ops', forge_login: 'bob', name: 'ci-2' },
      ADMIN,
    );
    expect(again.status).toBe(201);
    expect(sim.requests.count({ credential: top.id })).toBe(1);
  });
});
