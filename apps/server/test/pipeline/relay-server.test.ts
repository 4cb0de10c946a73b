import {
  DEMO,
  createForgeSim,
  createSimClock,
  seedDemoWorld,
  type ForgeSim,
} from '@relay/forge-sim';
import { relayEnvelopeSchema } from '@relay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServerConfig, startServer, type RunningServer } from '../../src/index.js';
import {
  demoRelayEnv,
  enrollAlice,
  openServerBackend,
  registerAliceIdentity,
  type ServerBackend,
} from './relay-harness.js';

/**
 * POST /v1/forge/request on the real relay-server (startServer, loopback socket, SQLite file; or
 * PostgreSQL and Redis on RELAY_TEST_BACKEND=postgres-redis).
 */
const ADMIN = 'admin-token-for-relay-server-tests-012345';
let sim: ForgeSim;
let server: RunningServer;
let backend: ServerBackend;
let callerToken: string;
const secrets = new Map<string, string>();

beforeAll(async () => {
  const clock = createSimClock({ start: Date.parse('2030-01-01T00:00:00Z') });
  sim = await createForgeSim({ clock });
  seedDemoWorld(sim.world);
  backend = openServerBackend();
  const config = loadServerConfig({
    RELAY_PORT: '0',
    ...backend.env,
    RELAY_ADMIN_TOKEN: ADMIN,
    ...demoRelayEnv(sim, 'team'),
  });
  if (!config.ok) throw new Error('invalid test configuration');
  server = await startServer(config.value, {
    now: () => clock.now(),
    readSecret: (name) => Promise.resolve(secrets.get(name)),
  });
  callerToken = await enrollAlice(server.database, clock.now(), 'team');
  secrets.set('alice_pat', sim.tokens.addPat({ login: DEMO.users.alice }).token);
  await registerAliceIdentity(server.url, ADMIN, 'team');
});
afterAll(async () => {
  await server.close();
  await sim.close();
  await backend.close();
});

const relay = (body: Record<string, unknown>) =>
  fetch(`${server.url}/v1/forge/request`, {
    method: 'POST',
    headers: { authorization: `Bearer ${callerToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ pool: 'team', method: 'GET', ...body }),
  });

describe('relay-server POST /v1/forge/request', () => {
  it('relays a read anonymously, then from the SQLite-backed cache, and audits both', async () => {
    const path = `/repos/${DEMO.org}/${DEMO.publicRepo}/issues`;
    const first = await relay({ path });
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const envelope = relayEnvelopeSchema.parse(await first.json());
    expect(envelope.relay).toMatchObject({ cache: 'miss', backend: 'forge_public' });
    expect(envelope.relay.request_id).toBe(first.headers.get('x-relay-request-id'));
    const second = relayEnvelopeSchema.parse(await (await relay({ path })).json());
    expect(second.relay.cache).toBe('hit');
    await server.audit.flush();
    const rows = await server.database.db.selectFrom('audit').selectAll().execute();
    expect(rows.map((r) => [r.route_kind, r.cache_result, r.backend])).toEqual([
      ['issue_list', 'miss', 'forge_api'],
      ['issue_list', 'hit', null],
    ]);
  });

  it('uses the registered pooled identity when a route needs one', async () => {
    const answer = relayEnvelopeSchema.parse(await (await relay({ path: '/rate_limit' })).json());
    expect(answer.identity).toEqual({ id: 'alice', kind: 'pat' });
    expect(sim.requests.find({ path: '/rate_limit' }).map((r) => r.credential)).toEqual(['pat-1']);
  });
});
