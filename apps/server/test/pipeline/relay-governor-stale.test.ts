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
import { relayEnvelopeSchema } from '@relay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCallerToken, hashToken } from '../../src/auth/caller-token.js';
import { loadServerConfig, startServer, type RunningServer } from '../../src/index.js';
import { createCallerStore } from '../../src/storage/caller-store.js';

/**
 * Issue 27: an expired entry read while the upstream governor holds every sender at its pace is
 * served stale, and says so with the closest term of the closed stale vocabulary
 * (`forge_rate_limited`, README "Staying under GitHub's limits"), in an envelope a deployed CLI
 * accepts; without an entry the same read is 424 `relay_overloaded`. The real relay-server against
 * forge-sim enforcing GitHub's documented secondary limits, on a frozen clock, with a pace of 2
 * points a minute per sender so that a few reads saturate it.
 */
const ADMIN = 'admin-token-for-relay-governor-stale-0123';
let sim: ForgeSim;
let server: RunningServer;
let dir: string;
let callerToken = '';
const secrets = new Map<string, string>();
const clock = createSimClock({ start: Date.parse('2030-01-01T00:00:00Z') });

beforeAll(async () => {
  sim = await createForgeSim({ clock, secondaryLimits: true });
  seedDemoWorld(sim.world);
  dir = mkdtempSync(join(tmpdir(), 'relay-governor-stale-'));
  const config = loadServerConfig({
    RELAY_PORT: '0',
    RELAY_DATABASE: join(dir, 'relay.db'),
    RELAY_ADMIN_TOKEN: ADMIN,
    RELAY_FORGE_API_URL: sim.urls.api,
    RELAY_FORGE_WEB_URL: sim.urls.web,
    RELAY_FORGE_RAW_URL: sim.urls.raw,
    RELAY_FORGE_LOG_HOSTS: new URL(sim.urls.log).hostname,
    ALLOWED_FORGE_ORG: DEMO.org,
    DEFAULT_ALLOWED_OWNERS: DEMO.org,
    DEFAULT_LOGIN_POOL: 'team',
    RELAY_GOVERNOR_POINTS_PER_MINUTE: '2',
    RELAY_GOVERNOR_MAX_WAIT_MS: '0',
  });
  if (!config.ok) throw new Error('invalid test configuration');
  server = await startServer(config.value, {
    now: () => clock.now(),
    readSecret: (name) => Promise.resolve(secrets.get(name)),
  });
  const callers = createCallerStore(server.database.db, { createId: (p) => `${p}_stale1` });
  callerToken = createCallerToken();
  const enrolled = await callers.enroll({
    forgeUserId: 1,
    login: DEMO.users.alice,
    grantPool: 'team',
    newPoolPolicyJson: JSON.stringify({ allowed_owners: [DEMO.org] }),
    clientName: 'laptop',
    tokenSha256: hashToken(callerToken),
    nowIso: new Date(clock.now()).toISOString(),
    expiresAtIso: new Date(clock.now() + 86_400_000).toISOString(),
  });
  if (!enrolled.ok) throw new Error('enrollment failed');
  secrets.set('alice_pat', sim.tokens.addPat({ login: DEMO.users.alice }).token);
  const registered = await fetch(`${server.url}/v1/admin/pools/team/identities`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      id: 'alice',
      kind: 'pat',
      login: DEMO.users.alice,
      secret_ref: 'alice_pat',
      scopes: [{ owner: DEMO.org }],
    }),
  });
  if (registered.status !== 201) throw new Error(`registration: ${String(registered.status)}`);
});
afterAll(async () => {
  await server.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

const issues = `/repos/${DEMO.org}/${DEMO.publicRepo}/issues`;
const relay = async (page: number) => {
  const response = await fetch(`${server.url}/v1/forge/request`, {
    method: 'POST',
    headers: { authorization: `Bearer ${callerToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      pool: 'team',
      method: 'GET',
      path: issues,
      query: { per_page: '1', page: String(page) },
    }),
  });
  return { status: response.status, json: await response.json() };
};

describe('a stale answer under governor saturation', () => {
  it('is served with stale_reason forge_rate_limited in an envelope the CLI accepts; with no entry the read is 424 relay_overloaded', async () => {
    expect((await relay(1)).status).toBe(200);
    // Past the entry's lifetime and the governor's window: every sender starts afresh.
    clock.advance(10 * 60_000);
    // Fill every sender's pace (the anonymous lane's 2, then the identity's 2, visibility probes
    // included) with other pages, until the relay refuses one.
    let page = 2;
    let refused = await relay(page);
    while (refused.status === 200 && page < 12) refused = await relay(++page);
    expect(refused).toMatchObject({
      status: 424,
      json: { error: { code: 'fallback_local', reason: 'relay_overloaded' } },
    });
    const sent = sim.requests.find({ host: 'api' }).length;

    const stale = await relay(1);
    expect(stale.status).toBe(200);
    const envelope = relayEnvelopeSchema.parse(stale.json);
    expect(envelope.relay).toMatchObject({
      cache: 'stale',
      stale_ok: true,
      stale_reason: 'forge_rate_limited',
    });
    // Nothing more reached the forge, and it never answered a secondary limit.
    const api = sim.requests.find({ host: 'api' });
    expect(api).toHaveLength(sent);
    expect(api.filter((r) => r.fault === 'secondary_limit')).toHaveLength(0);
  });
});
