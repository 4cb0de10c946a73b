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
import { poolDenialsSchema } from './pool-denials-route.js';

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
  n++;
  return {
    requestId: `r${String(n).padStart(3, '0')}`,
    occurredAt: T0 - 60_000 + n,
    poolId: 'default',
    callerId,
    clientId: null,
    routeKey: 'search_code:octo-org/secret-project',
    routeKind: 'search_code',
    identityId: null,
    status: 424,
    errorCode: 'fallback_local',
    fallbackReason: 'search_denied',
    backend: null,
    cacheResult: null,
    cacheable: false,
    coalesced: false,
    durationMs: 3,
    ...overrides,
  };
}

const denials = async (query = '') => {
  const response = await harness.app.request(`/v1/pools/default/denials${query}`, bearer(token));
  expect(response.status).toBe(200);
  return poolDenialsSchema.parse(await response.json());
};

describe('GET /v1/pools/:pool/denials', () => {
  it('lists 4xx refusals newest first, with codes and times only', async () => {
    await createAuditStore(harness.database.db).insertBatch([
      row({}),
      row({
        status: 403,
        errorCode: 'string_rewrite_denied',
        fallbackReason: null,
        routeKind: null,
      }),
      row({ status: 200, errorCode: null, fallbackReason: null, cacheResult: 'hit' }),
      row({ status: 503, errorCode: 'identities_cooling_down', fallbackReason: null }),
      row({ occurredAt: T0 - 2 * 86_400_000 }),
      row({ poolId: 'other' }),
    ]);
    const body = await denials();
    expect(body).toMatchObject({ pool: 'default', window: '24h' });
    expect(body.denials).toEqual([
      {
        request_id: 'r002',
        occurred_at: new Date(T0 - 60_000 + 2).toISOString(),
        status: 403,
        error_code: 'string_rewrite_denied',
        fallback_reason: null,
        route_kind: null,
      },
      {
        request_id: 'r001',
        occurred_at: new Date(T0 - 60_000 + 1).toISOString(),
        status: 424,
        error_code: 'fallback_local',
        fallback_reason: 'search_denied',
        route_kind: 'search_code',
      },
    ]);
    // Never the route key (owner, repository) nor the caller.
    const text = JSON.stringify(body);
    expect(text).not.toContain('secret-project');
    expect(text).not.toContain(callerId);
  });

  it('takes a window and a limit', async () => {
    const rows = Array.from({ length: 5 }, () => row({}));
    await createAuditStore(harness.database.db).insertBatch([
      ...rows,
      row({ occurredAt: T0 - 2 * 86_400_000 }),
    ]);
    expect((await denials('?limit=2')).denials.map((d) => d.request_id)).toEqual([
      rows[4]?.requestId,
      rows[3]?.requestId,
    ]);
    expect((await denials('?window=7d')).denials).toHaveLength(6);
  });

  it.each([['?limit=0'], ['?limit=201'], ['?limit=x'], ['?window=1y'], ['?pattern=x']])(
    'answers 400 invalid_request for %s',
    async (query) => {
      const response = await harness.app.request(
        `/v1/pools/default/denials${query}`,
        bearer(token),
      );
      expect(response.status).toBe(400);
    },
  );

  it('needs a caller token with a grant on the pool', async () => {
    expect((await harness.app.request('/v1/pools/default/denials')).status).toBe(401);
    expect((await harness.app.request('/v1/pools/other/denials', bearer(token))).status).toBe(403);
  });
});
