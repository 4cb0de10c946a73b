import { createMemoryCoordinator } from '@relay/identity-pool';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  addForgeAccount,
  bearer,
  createTestHarness,
  jsonRequest,
  login,
  T0,
  type TestHarness,
} from '../__fixtures__/test-harness.js';
import { createApp } from '../create-app.js';
import { createIdentityStatusReader } from './pool-identity-status-reader.js';
import { poolIdentitiesSchema } from './pool-identity-status-route.js';

let harness: TestHarness;
let token: string;

beforeEach(async () => {
  harness = await createTestHarness();
  addForgeAccount(harness.forge, { id: 1, login: 'mona', token: 'gho_mona' });
  ({ token } = (await (await login(harness, 'gho_mona', 'laptop')).json()) as { token: string });
  for (const [id, weight] of [
    ['pat-1', 100],
    ['pat-2', 50],
  ] as const) {
    const registered = await harness.app.request(
      '/v1/admin/pools/default/identities',
      jsonRequest(
        'POST',
        { id, kind: 'pat', login: 'robot', secret_ref: `SECRET_${id}`, weight },
        ADMIN_TOKEN,
      ),
    );
    expect(registered.status).toBe(201);
  }
});
afterEach(async () => {
  await harness.close();
});

describe('GET /v1/pools/:pool/identities', () => {
  it('reports quota per observed bucket and live cooldowns, never a login or binding', async () => {
    const coordinator = createMemoryCoordinator({ now: () => harness.clock.now });
    await coordinator.recordRateState('pat-1', {
      bucket: 'core',
      limit: 5000,
      remaining: 4200,
      resetAt: T0 + 1_800_000,
      observedAt: T0,
    });
    await coordinator.recordRateState('pat-2', {
      bucket: 'search',
      limit: 30,
      remaining: 0,
      resetAt: T0 + 30_000,
      observedAt: T0,
    });
    await coordinator.addCooldown('pat-2', {
      scope: { kind: 'route', routeKey: 'repo_view:octo-org/secret-project' },
      cause: 'failure',
      durationMs: 120_000,
    });
    await coordinator.recordCredentialFailure('pat-2', 120_000);
    const app = createApp({
      discovery: {
        publicUrl: () => 'http://relay.test',
        defaultPool: 'default',
        allowedOrg: 'octo-org',
        minCliVersion: '0.1.0',
      },
      services: harness.services,
      identityStatus: createIdentityStatusReader({
        coordinator,
        buckets: new Set(['search', 'core']),
        now: () => harness.clock.now,
      }),
    });
    const response = await app.request('/v1/pools/default/identities', bearer(token));
    expect(response.status).toBe(200);
    const body = poolIdentitiesSchema.parse(await response.json());
    expect(body).toEqual({
      pool: 'default',
      identities: [
        {
          id: 'pat-1',
          kind: 'pat',
          weight: 100,
          rate_limits: [
            {
              bucket: 'core',
              remaining: 4200,
              limit: 5000,
              reset_at: '2030-01-01T00:30:00.000Z',
              exhausted: false,
            },
          ],
          cooldowns: [],
        },
        {
          id: 'pat-2',
          kind: 'pat',
          weight: 50,
          rate_limits: [
            {
              bucket: 'search',
              remaining: 0,
              limit: 30,
              reset_at: '2030-01-01T00:00:30.000Z',
              exhausted: true,
            },
          ],
          cooldowns: expect.arrayContaining([
            { scope: 'route', cause: 'failure', until: '2030-01-01T00:02:00.000Z' },
            { scope: 'global', cause: 'credential', until: '2030-01-01T00:02:00.000Z' },
          ]),
        },
      ],
    });
    const text = JSON.stringify(body);
    for (const hidden of ['robot', 'SECRET_', 'secret-project']) expect(text).not.toContain(hidden);
  });

  it('reports no quota or cooldown without a coordinator', async () => {
    const response = await harness.app.request('/v1/pools/default/identities', bearer(token));
    const body = poolIdentitiesSchema.parse(await response.json());
    expect(body.identities.map((i) => [i.id, i.rate_limits, i.cooldowns])).toEqual([
      ['pat-1', [], []],
      ['pat-2', [], []],
    ]);
  });

  it('needs a caller token with a grant on the pool', async () => {
    expect((await harness.app.request('/v1/pools/default/identities')).status).toBe(401);
    expect((await harness.app.request('/v1/pools/other/identities', bearer(token))).status).toBe(
      403,
    );
  });
});
