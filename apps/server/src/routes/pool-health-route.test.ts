import { poolHealthSchema } from '@relay/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  addForgeAccount,
  bearer,
  createTestHarness,
  jsonRequest,
  login,
  type TestHarness,
} from '../__fixtures__/test-harness.js';
import { createApp } from '../create-app.js';
import type { ServerServices } from '../server-services.js';

const open: TestHarness[] = [];
afterEach(async () => {
  for (const harness of open.splice(0)) await harness.close();
});

async function setUp(
  countCoolingDown?: (ids: readonly string[]) => Promise<number>,
  readPoolQuota?: ServerServices['readPoolQuota'],
) {
  const harness = await createTestHarness(
    countCoolingDown === undefined ? {} : { services: { countCoolingDown } },
  );
  open.push(harness);
  addForgeAccount(harness.forge, { id: 1, login: 'mona', token: 'gho_mona' });
  const { token } = (await (await login(harness, 'gho_mona', 'laptop')).json()) as {
    token: string;
  };
  for (const id of ['pat-1', 'pat-2']) {
    await harness.app.request(
      '/v1/admin/pools/default/identities',
      jsonRequest('POST', { id, kind: 'pat', login: 'r', secret_ref: 'S' }, ADMIN_TOKEN),
    );
  }
  // The same services with a quota reader (start-server adds the governor's).
  const app =
    readPoolQuota === undefined
      ? harness.app
      : createApp({
          discovery: {
            publicUrl: () => 'http://relay.test',
            defaultPool: 'default',
            allowedOrg: 'octo-org',
            minCliVersion: '0.1.0',
          },
          services: { ...harness.services, readPoolQuota },
        });
  return { harness, health: () => app.request('/v1/pools/default/health', bearer(token)) };
}

describe('GET /v1/pools/:pool/health', () => {
  it('carries the quota forecast of the pool’s identities by bucket', async () => {
    const core = {
      limit: 10_000,
      remaining: 7_400,
      used_last_minute: 1_800,
      resets_at: '2030-03-01T11:30:00.000Z',
      exhausts_at: '2030-03-01T10:42:00.000Z',
    };
    const asked: string[][] = [];
    const { health } = await setUp(undefined, (ids) => {
      asked.push([...ids]);
      return Promise.resolve({ core });
    });
    const body = poolHealthSchema.parse(await (await health()).json());
    expect(body.quota).toEqual({ core });
    expect(asked).toEqual([['pat-1', 'pat-2']]);
  });

  it('reports identity counts, cooling identities, the rewrite revision and the policy', async () => {
    const seen: string[][] = [];
    const { health } = await setUp((ids) => {
      seen.push([...ids]);
      return Promise.resolve(1);
    });
    const response = await health();
    expect(response.status).toBe(200);
    expect(poolHealthSchema.parse(await response.json())).toEqual({
      pool: 'default',
      identities_total: 2,
      identities_healthy: 2,
      identities_cooling_down: 1,
      string_rewrite_revision: 1,
      pool_policy: {
        allowed_owners: ['octo-org'],
        allow_public_repos: true,
        allow_search: false,
        allow_logs: true,
      },
    });
    expect(seen).toEqual([['pat-1', 'pat-2']]);
  });

  it('reports null for an unusable pool policy or rewrite policy instead of failing', async () => {
    const { harness, health } = await setUp();
    await harness.database.db
      .updateTable('pools')
      .set({ policy_json: '{"allow_logs":"yes"}' })
      .execute();
    await harness.database.db
      .updateTable('string_rewrite_policy')
      .set({ rules_json: 'x' })
      .execute();
    const body = poolHealthSchema.parse(await (await health()).json());
    expect(body.pool_policy).toBeNull();
    expect(body.string_rewrite_revision).toBeNull();
  });

  it.each([
    ['no Authorization header', {}],
    ['a malformed token', { authorization: 'Bearer nope' }],
    ['an unknown token', { authorization: `Bearer rly_${'B'.repeat(43)}` }],
    ['the admin token', { authorization: `Bearer ${ADMIN_TOKEN}` }],
  ])('answers 401 unauthorized with WWW-Authenticate for %s', async (_what, headers) => {
    const { harness } = await setUp();
    const response = await harness.app.request('/v1/pools/default/health', { headers });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('expires a token after the membership TTL', async () => {
    const { harness, health } = await setUp();
    harness.clock.now += 3600 * 1000 - 1;
    expect((await health()).status).toBe(200);
    harness.clock.now += 1;
    expect((await health()).status).toBe(401);
  });

  it('answers 403 pool_forbidden for a pool without a grant', async () => {
    const { harness } = await setUp();
    const { token } = (await (await login(harness, 'gho_mona', 'other')).json()) as {
      token: string;
    };
    const response = await harness.app.request('/v1/pools/elsewhere/health', bearer(token));
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      'pool_forbidden',
    );
  });
});
