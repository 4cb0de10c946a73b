import { poolStatsSchema, type FallbackReason, type RouteKind } from '@relay/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  addForgeAccount,
  bearer,
  createTestHarness,
  login,
  T0,
  type TestHarness,
} from '../__fixtures__/test-harness.js';
import type { AuditRecord } from '../audit/audit-record.js';
import { createAuditStore } from '../storage/audit-store.js';

let harness: TestHarness;
let mona: { token: string; laptop: string; desktop: string; callerId: string };
let hubotCaller: string;

async function loginAs(forgeToken: string, client: string) {
  const response = await login(harness, forgeToken, client);
  return (await response.json()) as { token: string };
}

beforeEach(async () => {
  harness = await createTestHarness({ services: { countCacheEntries: () => Promise.resolve(7) } });
  addForgeAccount(harness.forge, { id: 1, login: 'mona', token: 'gho_mona' });
  addForgeAccount(harness.forge, { id: 2, login: 'hubot', token: 'gho_hubot' });
  await loginAs('gho_mona', 'desktop');
  const laptop = await loginAs('gho_mona', 'laptop');
  await loginAs('gho_hubot', 'ci');
  const clients = await harness.database.db
    .selectFrom('caller_clients')
    .innerJoin('callers', 'callers.id', 'caller_clients.caller_id')
    .select(['caller_clients.id', 'caller_clients.name', 'callers.id as caller_id'])
    .execute();
  const idOf = (name: string) => clients.find((c) => c.name === name);
  mona = {
    token: laptop.token,
    laptop: idOf('laptop')?.id ?? '',
    desktop: idOf('desktop')?.id ?? '',
    callerId: idOf('laptop')?.caller_id ?? '',
  };
  hubotCaller = idOf('ci')?.caller_id ?? '';
});
afterEach(async () => {
  await harness.close();
});

let n = 0;
function row(overrides: Partial<AuditRecord>): AuditRecord {
  return {
    requestId: `r${String(++n)}`,
    occurredAt: T0 - 60_000,
    poolId: 'default',
    callerId: mona.callerId,
    clientId: mona.laptop,
    routeKey: 'repo_view:octo-org/hello',
    routeKind: 'repo_view',
    identityId: null,
    status: 200,
    errorCode: null,
    fallbackReason: null,
    backend: null,
    cacheResult: 'hit',
    cacheable: true,
    coalesced: false,
    durationMs: 3,
    ...overrides,
  };
}

const fallback = (reason: FallbackReason): Partial<AuditRecord> => ({
  status: 424,
  errorCode: 'fallback_local',
  fallbackReason: reason,
  cacheResult: null,
  cacheable: false,
});

async function seed() {
  const miss = (kind: RouteKind, backend: AuditRecord['backend']): Partial<AuditRecord> => ({
    routeKind: kind,
    cacheResult: 'miss',
    backend,
  });
  await createAuditStore(harness.database.db).insertBatch([
    row({}),
    row({ clientId: mona.desktop }),
    row(miss('pr_view', 'forge_identity')),
    row({ ...miss('pr_view', 'forge_identity'), coalesced: true, clientId: mona.desktop }),
    row({ ...miss('release_list', 'forge_api'), callerId: hubotCaller, clientId: null }),
    row({ ...fallback('repo_not_public'), callerId: hubotCaller, clientId: null }),
    row(fallback('search_denied')),
    row({
      status: 503,
      errorCode: 'identities_cooling_down',
      cacheResult: 'miss',
      routeKind: 'pr_view',
    }),
    row({
      cacheResult: 'bypass',
      cacheable: false,
      routeKind: 'job_logs',
      backend: 'forge_identity',
    }),
    // Outside a 24h window, inside 7d.
    row({ occurredAt: T0 - 3 * 86_400_000 }),
    // Another pool.
    row({ poolId: 'other' }),
  ]);
}

const stats = async (query = '') => {
  const response = await harness.app.request(`/v1/pools/default/stats${query}`, bearer(mona.token));
  expect(response.status).toBe(200);
  return poolStatsSchema.parse(await response.json());
};

describe('GET /v1/pools/:pool/stats', () => {
  it('reports every figure over the default 24h window', async () => {
    await seed();
    const body = await stats();
    expect(body).toMatchObject({
      pool: 'default',
      window: '24h',
      since: '2029-12-31T00:00:00.000Z',
      requests: 9,
      service_errors: 1,
      local_fallbacks: 2,
      cache_hit_rate: Math.round((2 / 9) * 10_000) / 10_000,
      eligible_cache_hit_rate: Math.round((2 / 6) * 10_000) / 10_000,
      coalesced_misses: 1,
      cache_entries: 7,
      fallback_reasons: { repo_not_public: 1, search_denied: 1 },
    });
    expect(body.client_filter).toBeUndefined();
    expect(body.caller_usage).toEqual([
      { login: 'mona', requests: 7 },
      { login: 'hubot', requests: 2 },
    ]);
    expect(body.client_usage).toEqual(
      expect.arrayContaining([
        { client: 'laptop', requests: 5 },
        { client: 'desktop', requests: 2 },
      ]),
    );
    expect(body.client_routes).toContainEqual({
      client: 'desktop',
      route_kind: 'pr_view',
      requests: 1,
    });
    expect(body.active_clients.map((c) => c.client).sort()).toEqual(['desktop', 'laptop']);
    expect(body.top_route_kinds[0]).toEqual({ route_kind: 'repo_view', requests: 4 });
    expect(body.upstream).toEqual(
      expect.arrayContaining([
        { route_kind: 'pr_view', source: 'forge_identity', count: 2 },
        { route_kind: 'release_list', source: 'forge_api', count: 1 },
        { route_kind: 'job_logs', source: 'forge_identity', count: 1 },
      ]),
    );
  });

  it.each([
    ['?window=30m', '30m', 9],
    ['?window=24h', '24h', 10],
    ['?window=7d', '7d', 11],
    ['?window=90d', '30d', 11],
  ])('takes the window %s', async (query, label, requests) => {
    await seed();
    await createAuditStore(harness.database.db).insertBatch([row({ occurredAt: T0 - 7_200_000 })]);
    const body = await stats(query);
    expect(body.window).toBe(label);
    expect(body.requests).toBe(requests);
  });

  it('narrows client figures to one client and echoes client_filter', async () => {
    await seed();
    const body = await stats('?client=Desktop.local');
    expect(body.client_filter).toBe('Desktop');
    expect(body.client_usage).toEqual([{ client: 'desktop', requests: 2 }]);
    expect(body.client_routes.every((r) => r.client === 'desktop')).toBe(true);
    expect(body.requests).toBe(9);
  });

  it('reports empty client figures for a client the caller does not have', async () => {
    await seed();
    const body = await stats('?client=ci');
    expect(body.client_usage).toEqual([]);
    expect(body.client_routes).toEqual([]);
  });

  it('reports null rates when nothing was eligible', async () => {
    const body = await stats();
    expect(body).toMatchObject({
      requests: 0,
      cache_hit_rate: null,
      eligible_cache_hit_rate: null,
    });
  });

  it.each([['?window=0m'], ['?window=1w'], ['?window=24'], [`?client=${'x'.repeat(81)}`]])(
    'answers 400 invalid_request for %s',
    async (query) => {
      const response = await harness.app.request(
        `/v1/pools/default/stats${query}`,
        bearer(mona.token),
      );
      expect(response.status).toBe(400);
    },
  );
});
