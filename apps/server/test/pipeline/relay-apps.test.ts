import { generateKeyPairSync } from 'node:crypto';
import { DEMO } from '@relay/forge-sim';
import { ok } from '@relay/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { governExchange, toExchangeKey } from '../../src/governor/governed-transport.js';
import { createUpstreamGovernor } from '../../src/governor/upstream-governor.js';
import { POOL, startRelayHarness, type RelayHarness } from './relay-harness.js';

/** forge_app identities in the pipeline: the installation token flow and its 503. */
const APP_ID = 4242;
const INSTALLATION = 77;
let h: RelayHarness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

function rsaKeys(privateType: 'pkcs8' | 'pkcs1') {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: privateType, format: 'pem' },
  });
}

async function registerApp(harness: RelayHarness, privateKey: string) {
  harness.secrets.set('acme_signing_binding', privateKey);
  await harness.services.identities.upsert(
    POOL,
    {
      id: 'app-acme',
      kind: 'forge_app',
      login: 'relay-app[bot]',
      secret_ref: 'acme_signing_binding',
      installation_id: INSTALLATION,
      scopes: [{ owner: DEMO.org, allow_private: false }],
      weight: 100,
    },
    new Date(harness.sim.clock.now()).toISOString(),
    '{}',
  );
}

describe('forge_app identities', () => {
  it('mint an installation token through the exchange and serve with it, to the API host only', async () => {
    h = await startRelayHarness({ forgeAppId: APP_ID });
    const keys = rsaKeys('pkcs8');
    h.sim.apps.addApp({ id: APP_ID, publicKeyPem: keys.publicKey });
    h.sim.apps.addInstallation({ id: INSTALLATION, appId: APP_ID, account: DEMO.org });
    await registerApp(h, keys.privateKey);
    const answer = await h.relay({ path: '/rate_limit' });
    expect(answer.status).toBe(200);
    expect(answer.json.identity).toEqual({ id: 'app-acme', kind: 'forge_app' });
    const credentials = h.sim.requests.entries.map((r) => [r.method, r.credential]);
    expect(credentials[0]).toEqual(['POST', 'jwt']);
    expect(credentials[1]?.[1]).toMatch(/^inst-77/);
    expect(answer.text).not.toContain('PRIVATE KEY');
  });

  it('a PKCS#1 key → 503 forge_app_key_format, nothing sent upstream', async () => {
    h = await startRelayHarness({ forgeAppId: APP_ID });
    await registerApp(h, rsaKeys('pkcs1').privateKey);
    const answer = await h.relay({ path: '/rate_limit' });
    expect(answer.status).toBe(503);
    expect(answer.json.error.code).toBe('forge_app_key_format');
    expect(answer.text).not.toContain('acme_signing_binding');
    expect(h.sim.requests.entries).toHaveLength(0);
  });

  it('an exchange the governor refuses → 424 relay_overloaded, nothing sent, no cooldown: the identity serves once the pace allows', async () => {
    const key = toExchangeKey(APP_ID);
    // One exchange of the app a minute, no wait, on the simulator's (frozen) clock.
    const governor = createUpstreamGovernor({
      limits: { maxInFlight: 10, pointsPerMinute: 1 },
      maxWaitMs: 0,
      now: () => h?.sim.clock.now() ?? Number.NaN,
    });
    h = await startRelayHarness({
      forgeAppId: APP_ID,
      paceExchange: (send) => governExchange(governor, key, 'caller', send),
    });
    const clock = h.sim.clock;
    // The minute's exchange is spent elsewhere.
    const elsewhere = await governor.admit(key, 'another caller');
    if (elsewhere.ok) elsewhere.value.release();
    const keys = rsaKeys('pkcs8');
    h.sim.apps.addApp({ id: APP_ID, publicKeyPem: keys.publicKey });
    h.sim.apps.addInstallation({ id: INSTALLATION, appId: APP_ID, account: DEMO.org });
    await registerApp(h, keys.privateKey);

    const refused = await h.relay({ path: '/rate_limit' });
    expect(refused.status).toBe(424);
    expect(refused.json.error).toMatchObject({
      code: 'fallback_local',
      reason: 'relay_overloaded',
    });
    expect(h.sim.requests.entries).toHaveLength(0);
    expect((await h.coordinator.listCooldowns(['app-acme'])).get('app-acme') ?? []).toEqual([]);

    // A minute on, the pace allows the exchange; a cooldown (120 s) would still hold it.
    clock.advance(60_001);
    const served = await h.relay({ path: '/rate_limit' });
    expect(served.status).toBe(200);
    expect(served.json.identity).toEqual({ id: 'app-acme', kind: 'forge_app' });
    expect(h.sim.requests.entries.map((r) => r.method)).toEqual(['POST', 'GET']);
  });

  it("checks the token exchange against the request's frozen snapshot, not a later policy", async () => {
    h = await startRelayHarness({ forgeAppId: APP_ID });
    const keys = rsaKeys('pkcs8');
    h.sim.apps.addApp({ id: APP_ID, publicKeyPem: keys.publicKey });
    h.sim.apps.addInstallation({ id: INSTALLATION, appId: APP_ID, account: DEMO.org });
    await registerApp(h, keys.privateKey);
    // The request freezes a policy that forbids the exchange URL; the stored policy changes to
    // an empty one right after. The exchange must still be judged by the frozen one.
    const frozen = {
      schema_version: 1 as const,
      revision: 7,
      updated_at: '2026-11-22T00:00:00Z',
      rules: [{ pattern: 'access_tokens', replacement: '' }],
    };
    vi.spyOn(h.services.stringRewrites, 'read').mockResolvedValueOnce(ok(frozen));
    const answer = await h.relay({ path: '/rate_limit' });
    expect(answer.status).not.toBe(200);
    expect(h.sim.requests.entries.filter((r) => r.method === 'POST')).toHaveLength(0);
    expect(answer.text).not.toContain('access_tokens');
  });
});
