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
import { statsTimeseriesSchema } from './stats-timeseries-route.js';

let harness: TestHarness;
let token: string;
let callerId: string;

beforeEach(async () => {
  harness = await createTestHarness();
  addForgeAccount(harness.forge, { id: 1, login: 'mona', token: 'gho_mona' });
  ({ token } = (await (await login(harness, 'gho_mona', 'laptop')).json()) as { token: string });
  const caller = await harness.database.db.selectFrom('callers').select('id').executeTakeFirst();
  callerId = caller?.id ?? '';
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
    callerId,
    clientId: null,
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

const series = async (query = '') => {
  const response = await harness.app.request(
    `/v1/pools/default/stats/timeseries${query}`,
    bearer(token),
  );
  expect(response.status).toBe(200);
  return statsTimeseriesSchema.parse(await response.json());
};

describe('GET /v1/pools/:pool/stats/timeseries', () => {
  it('counts requests, hits, free and paid answers, fallbacks and errors per bucket', async () => {
    const hour = 3_600_000;
    await createAuditStore(harness.database.db).insertBatch([
      row({}),
      row({ cacheResult: 'miss', backend: 'forge_api' }),
      row({ cacheResult: 'miss', backend: 'forge_identity', identityId: 'pat-1' }),
      row({
        status: 424,
        errorCode: 'fallback_local',
        fallbackReason: 'route_denied',
        cacheResult: null,
        cacheable: false,
      }),
      row({ status: 503, errorCode: 'identities_cooling_down', cacheResult: 'miss' }),
      row({ occurredAt: T0 - 3 * hour - 1 }),
      row({ occurredAt: T0 - 25 * hour }),
      row({ poolId: 'other' }),
    ]);
    const body = await series();
    expect(body).toMatchObject({
      pool: 'default',
      window: '24h',
      bucket: '1h',
      since: '2029-12-31T00:00:00.000Z',
    });
    // 24 whole hours before T0 and the hour T0 starts.
    expect(body.buckets).toHaveLength(25);
    expect(body.buckets[0]?.start).toBe('2029-12-31T00:00:00.000Z');
    expect(body.buckets.at(-1)?.start).toBe('2030-01-01T00:00:00.000Z');
    const at = (iso: string) => body.buckets.find((bucket) => bucket.start === iso);
    expect(at('2029-12-31T23:00:00.000Z')).toEqual({
      start: '2029-12-31T23:00:00.000Z',
      requests: 5,
      hits: 1,
      hit_rate: 0.2,
      free: 2,
      paid: 1,
      local_fallbacks: 1,
      service_errors: 1,
    });
    expect(at('2029-12-31T20:00:00.000Z')).toMatchObject({ requests: 1, hits: 1, free: 1 });
    expect(at('2030-01-01T00:00:00.000Z')).toMatchObject({ requests: 0, hit_rate: null });
    expect(body.buckets.reduce((sum, bucket) => sum + bucket.requests, 0)).toBe(6);
  });

  it.each([
    ['?window=1h&bucket=5m', '1h', 13, 300_000],
    ['?window=30m&bucket=15m', '30m', 3, 900_000],
    ['?window=7d&bucket=6h', '7d', 29, 21_600_000],
    ['?window=90d&bucket=1d', '30d', 31, 86_400_000],
  ])('takes %s', async (query, window, count, width) => {
    await createAuditStore(harness.database.db).insertBatch([row({})]);
    const body = await series(query);
    expect(body.window).toBe(window);
    expect(body.buckets).toHaveLength(count);
    for (const bucket of body.buckets) expect(Date.parse(bucket.start) % width).toBe(0);
    expect(body.buckets.reduce((sum, bucket) => sum + bucket.requests, 0)).toBe(1);
  });

  it.each([['?bucket=2h'], ['?window=1w'], ['?window=30d&bucket=5m'], ['?extra=1']])(
    'answers 400 invalid_request for %s',
    async (query) => {
      const response = await harness.app.request(
        `/v1/pools/default/stats/timeseries${query}`,
        bearer(token),
      );
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: 'invalid_request' } });
    },
  );

  it('needs a caller token with a grant on the pool', async () => {
    const anonymous = await harness.app.request('/v1/pools/default/stats/timeseries');
    expect(anonymous.status).toBe(401);
    const other = await harness.app.request('/v1/pools/other/stats/timeseries', bearer(token));
    expect(other.status).toBe(403);
  });
});
