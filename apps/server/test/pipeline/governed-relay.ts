import {
  DEMO,
  createForgeSim,
  createSimClock,
  seedDemoWorld,
  type ForgeSim,
  type SimClock,
} from '@relay/forge-sim';
import { createCallerToken, hashToken } from '../../src/auth/caller-token.js';
import { loadServerConfig, startServer, type RunningServer } from '../../src/index.js';
import { createCallerStore } from '../../src/storage/caller-store.js';
import { demoRelayEnv, openServerBackend, registerAliceIdentity } from './relay-harness.js';

const ADMIN = 'admin-token-for-governed-relay-tests-0123';

/** The real relay-server against forge-sim enforcing GitHub's documented secondary limits. */
export interface GovernedRelay {
  readonly sim: ForgeSim;
  readonly server: RunningServer;
  /** The frozen clock of both (the governor's window slides only when it is advanced). */
  readonly clock: SimClock;
  /** The admin token (`RELAY_ADMIN_TOKEN`). */
  readonly adminToken: string;
  /** Caller tokens of alice and bob, both granted the pool `team`. */
  readonly callerTokens: readonly string[];
  /** `POST /v1/forge/request` of `GET path?query` in pool `team`. */
  relay(token: string, path: string, query: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Starts forge-sim (`secondaryLimits: true`: 100 in flight, 900 points a minute per credential)
 * with the demo world and relay-server against it on loopback, with two callers and one pooled
 * PAT identity `alice` in pool `team`.
 *
 * @param env - more configuration (the governor's variables, …)
 */
export async function startGovernedRelay(env: Record<string, string>): Promise<GovernedRelay> {
  const clock = createSimClock({ start: Date.parse('2030-01-01T00:00:00Z') });
  const sim = await createForgeSim({ clock, secondaryLimits: true });
  seedDemoWorld(sim.world);
  // SQLite, or PostgreSQL and Redis (the shared pace ledger) on RELAY_TEST_BACKEND=postgres-redis.
  const backend = openServerBackend();
  const secrets = new Map<string, string>();
  const config = loadServerConfig({
    RELAY_PORT: '0',
    ...backend.env,
    RELAY_ADMIN_TOKEN: ADMIN,
    ...demoRelayEnv(sim, 'team'),
    ...env,
  });
  if (!config.ok) throw new Error('invalid test configuration');
  const server = await startServer(config.value, {
    now: () => clock.now(),
    readSecret: (name) => Promise.resolve(secrets.get(name)),
  });
  let ids = 0;
  const callers = createCallerStore(server.database.db, {
    createId: (p) => `${p}_test${String(++ids)}`,
  });
  const callerTokens: string[] = [];
  for (const [index, login] of [DEMO.users.alice, DEMO.users.bob].entries()) {
    const token = createCallerToken();
    const enrolled = await callers.enroll({
      forgeUserId: index + 1,
      login,
      grantPool: 'team',
      newPoolPolicyJson: JSON.stringify({ allowed_owners: [DEMO.org] }),
      clientName: 'laptop',
      tokenSha256: hashToken(token),
      nowIso: new Date(clock.now()).toISOString(),
      expiresAtIso: new Date(clock.now() + 86_400_000).toISOString(),
    });
    if (!enrolled.ok) throw new Error('enrollment failed');
    callerTokens.push(token);
  }
  secrets.set('alice_pat', sim.tokens.addPat({ login: DEMO.users.alice }).token);
  await registerAliceIdentity(server.url, ADMIN, 'team');
  return {
    sim,
    server,
    clock,
    adminToken: ADMIN,
    callerTokens,
    relay: (token, path, query) =>
      fetch(`${server.url}/v1/forge/request`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ pool: 'team', method: 'GET', path, query }),
      }),
    async close() {
      await server.close();
      await sim.close();
      await backend.close();
    },
  };
}
