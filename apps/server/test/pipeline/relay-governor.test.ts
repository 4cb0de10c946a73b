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
import { poolHealthSchema } from '@relay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCallerToken, hashToken } from '../../src/auth/caller-token.js';
import { loadServerConfig, startServer, type RunningServer } from '../../src/index.js';
import { createCallerStore } from '../../src/storage/caller-store.js';

/**
 * Issue 27: the real relay-server against a forge-sim that enforces GitHub's documented secondary
 * limits (100 in flight, 900 points a minute per credential). The sim clock is frozen, so the
 * governor's window never slides: one pooled identity can send exactly 720 requests (the default
 * 80 %), and everything past that must be refused by the relay, not by the forge.
 */
const ADMIN = 'admin-token-for-relay-governor-tests-0123';
const BURST = 900;
let sim: ForgeSim;
let server: RunningServer;
let dir: string;
const callerTokens: string[] = [];
const secrets = new Map<string, string>();

beforeAll(async () => {
  const clock = createSimClock({ start: Date.parse('2030-01-01T00:00:00Z') });
  sim = await createForgeSim({ clock, secondaryLimits: true });
  seedDemoWorld(sim.world);
  dir = mkdtempSync(join(tmpdir(), 'relay-governor-'));
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
    RELAY_MAX_CALLER_CONCURRENCY: '0',
    RELAY_GOVERNOR_MAX_WAIT_MS: '100',
  });
  if (!config.ok) throw new Error('invalid test configuration');
  server = await startServer(config.value, {
    now: () => clock.now(),
    readSecret: (name) => Promise.resolve(secrets.get(name)),
  });
  let ids = 0;
  const callers = createCallerStore(server.database.db, {
    createId: (p) => `${p}_test${String(++ids)}`,
  });
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

const relay = (token: string, path: string, query: Record<string, string>) =>
  fetch(`${server.url}/v1/forge/request`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ pool: 'team', method: 'GET', path, query }),
  });

describe('the upstream governor against a forge enforcing GitHub’s secondary limits', () => {
  it('coalesced duplicates cost one upstream request (the single flight is before the governor)', async () => {
    const path = `/repos/${DEMO.org}/${DEMO.publicRepo}/pulls`;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => relay(callerTokens[i % 2] ?? '', path, {})),
    );
    expect(answers.map((r) => r.status)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(sim.requests.find({ host: 'api', path })).toHaveLength(1);
  });

  it('a burst of distinct reads from two callers draws no secondary-limit answer, cools no identity, and the excess is refused 424 relay_overloaded', async () => {
    const statuses: number[] = [];
    const reasons = new Map<string, number>();
    let next = 0;
    // 32 requests in flight at once, alternating callers; every read is a distinct page.
    const worker = async () => {
      for (;;) {
        const index = next++;
        if (index >= BURST) return;
        const token = callerTokens[index % 2] ?? '';
        const response = await relay(token, `/repos/${DEMO.org}/${DEMO.publicRepo}/issues`, {
          per_page: '1',
          page: String(index + 1),
        });
        statuses.push(response.status);
        const body = (await response.json()) as { error?: { reason?: string } };
        if (response.status === 424) {
          const reason = body.error?.reason ?? 'none';
          reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        }
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));

    const fromForge = sim.requests.find({ host: 'api' });
    expect(fromForge.filter((r) => r.fault === 'secondary_limit')).toHaveLength(0);
    const pooled = fromForge.filter((r) => r.credential === 'pat-1');
    // The frozen clock never slides the window: exactly the pace, 80 % of GitHub's 900.
    expect(pooled).toHaveLength(720);
    const served = statuses.filter((s) => s === 200).length;
    const refused = statuses.filter((s) => s === 424).length;
    expect(served + refused).toBe(BURST);
    expect(refused).toBeGreaterThan(0);
    expect([...reasons.keys()]).toEqual(['relay_overloaded']);

    const health = await fetch(`${server.url}/v1/pools/team/health`, {
      headers: { authorization: `Bearer ${callerTokens[0] ?? ''}` },
    });
    const body = poolHealthSchema.parse(await health.json());
    expect(body.identities_cooling_down).toBe(0);
    expect(body.quota?.core).toMatchObject({ limit: 5000, used_last_minute: pooled.length });
    expect(body.quota?.core?.remaining).toBe(5000 - pooled.length);
  }, 120_000);
});
