import { generateKeyPairSync } from 'node:crypto';
import { DEMO, type FaultAction } from '@relay/forge-sim';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { POOL, startRelayHarness, type RelayHarness } from '../pipeline/relay-harness.js';
import {
  FAULT_TIMEOUT_MS,
  HANG_MS,
  createHeldDelays,
  findViolations,
  outcomeOf,
  type HeldDelays,
} from './fault-load.js';

/**
 * The installation token exchange of a forge_app identity (`POST
 * /app/installations/{id}/access_tokens`) under faults: it is an upstream request like any other,
 * so it is bounded by REQUEST_TIMEOUT_MS, and a failed exchange is a typed answer (README
 * "Answers of the lanes": the identity cools down, no other is left, 502 `forge_unreachable`),
 * never a request held open or an untyped 500. Once the faults clear and the cooldown runs out,
 * the app serves again.
 */
const APP_ID = 4242;
const INSTALLATION = 77;
const EXCHANGE_PATH = `/app/installations/${String(INSTALLATION)}/access_tokens`;
const KEYS = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});

let h: RelayHarness;
let held: HeldDelays;

beforeEach(async () => {
  held = createHeldDelays();
  h = await startRelayHarness({
    forgeAppId: APP_ID,
    transport: { timeoutMs: FAULT_TIMEOUT_MS },
    sim: { delay: held.delay },
  });
  h.sim.apps.addApp({ id: APP_ID, publicKeyPem: KEYS.publicKey });
  h.sim.apps.addInstallation({ id: INSTALLATION, appId: APP_ID, account: DEMO.org });
  h.secrets.set('app_key', KEYS.privateKey);
  await h.services.identities.upsert(
    POOL,
    {
      id: 'app-acme',
      kind: 'forge_app',
      login: 'relay-app[bot]',
      secret_ref: 'app_key',
      installation_id: INSTALLATION,
      scopes: [{ owner: DEMO.org, allow_private: false }],
      weight: 100,
    },
    new Date(h.sim.clock.now()).toISOString(),
    '{}',
  );
});
afterEach(async () => {
  held.releaseAll();
  await h.close();
});

const EXCHANGE_FAULTS: readonly { name: string; action: FaultAction }[] = [
  { name: 'no answer', action: { kind: 'latency', ms: HANG_MS } },
  { name: 'a body slower than the deadline', action: { kind: 'drip', intervalMs: 1_000 } },
  { name: 'a connection reset', action: { kind: 'reset' } },
  { name: 'a body cut short', action: { kind: 'truncate' } },
  { name: '502', action: { kind: 'status', status: 502 } },
  { name: '401', action: { kind: 'status', status: 401 } },
  { name: 'a secondary rate limit', action: { kind: 'secondary_limit', status: 403 } },
];

describe('the installation token exchange under faults', () => {
  it.each(EXCHANGE_FAULTS)(
    '$name: 502 forge_unreachable, then the app serves again',
    async ({ action }) => {
      h.sim.faults.inject({ method: 'POST', path: EXCHANGE_PATH, action });
      const answer = await h.relay({ path: '/rate_limit' });
      const outcome = outcomeOf(answer);
      expect(outcome).toBe('forge_unreachable');
      const secrets = [KEYS.privateKey, 'app_key', h.callerToken, 'PRIVATE KEY'];
      expect(
        findViolations(
          {
            read: { name: 'rate_limit', caller: 'alice', body: { path: '/rate_limit' } },
            answer,
            outcome,
          },
          { secrets },
          new Set(),
          h.sim.clock.now(),
        ),
      ).toEqual([]);

      h.sim.faults.clear();
      h.advance(2 * 3_600_000);
      const again = await h.relay({ path: '/rate_limit' });
      expect(again.status).toBe(200);
      expect(again.json.identity).toEqual({ id: 'app-acme', kind: 'forge_app' });
    },
    FAULT_TIMEOUT_MS * 10,
  );
});
