import { DEMO } from '@relay/forge-sim';
import { errorBodySchema } from '@relay/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startGovernedRelay, type GovernedRelay } from './governed-relay.js';

/**
 * Issue 27 item 1: the governor paces every upstream request, the admin provisioning reads and
 * the login reads included. Each sender gets 5 points a minute and no wait; the sim clock is
 * frozen, so the window never slides: whatever a sender spends on provisioning or login is gone
 * for its relay reads, and the forge never sees a sixth request of any sender.
 */
const PACE = 5;
let g: GovernedRelay;

beforeEach(async () => {
  g = await startGovernedRelay({
    RELAY_GOVERNOR_POINTS_PER_MINUTE: String(PACE),
    RELAY_GOVERNOR_MAX_WAIT_MS: '0',
  });
});
afterEach(async () => {
  await g.close();
});

const provision = (forgeLogin: string, name: string) =>
  fetch(`${g.server.url}/v1/admin/callers`, {
    method: 'POST',
    headers: { authorization: `Bearer ${g.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ pool: 'team', forge_login: forgeLogin, name }),
  });

const login = (forgeToken: string) =>
  fetch(`${g.server.url}/v1/login/forge-cli`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ forge_token: forgeToken, client: 'laptop' }),
  });

/** A relay read of a distinct page of the public repository's issues. */
const readPage = (page: number) =>
  g.relay(g.callerTokens[0] ?? '', `/repos/${DEMO.org}/${DEMO.publicRepo}/issues`, {
    page: String(page),
  });

/** The forge's log of API requests: `credential path` lines, in order. */
const forgeLog = (credential: string) =>
  g.sim.requests.find({ host: 'api', credential }).map((r) => r.path);

async function errorOf(response: Response): Promise<{ status: number; code: string }> {
  const body = errorBodySchema.parse(await response.json());
  return { status: response.status, code: body.error.code };
}

describe('the upstream governor paces the provisioning and login reads', () => {
  it('a pooled identity four relay reads into its window has one provisioning read left; the rest is refused 503 relay_overloaded, never sent', async () => {
    // The anonymous lane serves the probe and four reads (its 5), the pooled identity four.
    for (let page = 1; page <= 8; page++) expect((await readPage(page)).status).toBe(200);
    expect(forgeLog('anonymous')).toHaveLength(PACE);
    expect(forgeLog('pat-1')).toHaveLength(4);

    // GET /users/bob is the identity's fifth point; its member check has no headroom, and the
    // anonymous public-members check neither (and could not prove a private member anyway).
    expect(await errorOf(await provision(DEMO.users.bob, 'desk'))).toEqual({
      status: 503,
      code: 'relay_overloaded',
    });
    expect(forgeLog('pat-1')).toEqual([
      ...Array.from({ length: 4 }, () => `/repos/${DEMO.org}/${DEMO.publicRepo}/issues`),
      `/users/${DEMO.users.bob}`,
    ]);
    expect(forgeLog('anonymous')).toHaveLength(PACE);
    expect(g.sim.requests.find({ host: 'api', path: `/orgs/${DEMO.org}/members/bob` })).toEqual([]);
  });

  it('provisioning spends the identity’s window: a pooled check it has no room for is proven anonymously, and relay reads find the identity at its pace', async () => {
    // Two provisionings: GET /users/alice and GET /orgs/acme/members/alice each, pooled.
    expect((await provision(DEMO.users.alice, 'one')).status).toBe(201);
    expect((await provision(DEMO.users.alice, 'two')).status).toBe(201);
    expect(forgeLog('pat-1')).toHaveLength(4);
    // The third: the user read is the fifth point, the member check goes to the anonymous
    // public-members check (alice is a public member), and nothing cools down.
    expect((await provision(DEMO.users.alice, 'three')).status).toBe(201);
    expect(forgeLog('pat-1')).toHaveLength(PACE);
    expect(forgeLog('anonymous')).toEqual([`/orgs/${DEMO.org}/public_members/alice`]);

    // Relay reads: the anonymous lane has four points left (a probe and three reads), then the
    // pooled identity is at its pace: refused before anything is sent.
    for (let page = 1; page <= 3; page++) expect((await readPage(page)).status).toBe(200);
    const refused = await readPage(4);
    expect(refused.status).toBe(424);
    expect(((await refused.json()) as { error: { reason?: string } }).error.reason).toBe(
      'relay_overloaded',
    );
    expect(forgeLog('pat-1')).toHaveLength(PACE);
    expect(forgeLog('anonymous')).toHaveLength(PACE);
    expect(g.sim.requests.find({ host: 'api', status: 403 })).toEqual([]);
    expect(g.sim.requests.find({ host: 'api', status: 429 })).toEqual([]);
  });

  it('a private member whose pooled check was refused is not refused as a non-member: the anonymous "no" proves nothing, 503 relay_overloaded', async () => {
    expect((await provision(DEMO.users.alice, 'one')).status).toBe(201);
    expect((await provision(DEMO.users.alice, 'two')).status).toBe(201);
    // bob is a private member: GET /users/bob is the fifth point, the pooled member check is
    // refused, and the anonymous public-members check (with headroom) says 404.
    expect(await errorOf(await provision(DEMO.users.bob, 'desk'))).toEqual({
      status: 503,
      code: 'relay_overloaded',
    });
    expect(forgeLog('pat-1')).toHaveLength(PACE);
    expect(forgeLog('anonymous')).toEqual([`/orgs/${DEMO.org}/public_members/bob`]);
  });

  it('a user’s own token is paced under its own key: the third login (fifth and sixth reads) is refused 503 relay_overloaded after one read', async () => {
    const { token } = g.sim.tokens.addPat({ login: DEMO.users.bob });
    expect((await login(token)).status).toBe(200);
    expect((await login(token)).status).toBe(200);
    expect(await errorOf(await login(token))).toEqual({ status: 503, code: 'relay_overloaded' });
    expect(forgeLog('pat-2')).toEqual([
      '/user',
      `/user/memberships/orgs/${DEMO.org}`,
      '/user',
      `/user/memberships/orgs/${DEMO.org}`,
      '/user',
    ]);
    // Another sender's window is untouched: the pooled identity still reads.
    expect(forgeLog('pat-1')).toEqual([]);
    expect((await provision(DEMO.users.alice, 'desk')).status).toBe(201);
  });
});
