import { createMemoryCoordinator } from '@relay/identity-pool';
import { callerProvisioningResponseSchema } from '@relay/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  addForgeAccount,
  bearer,
  createTestHarness,
  jsonRequest,
  login,
  ORG,
  type TestHarness,
} from '../__fixtures__/test-harness.js';

let harness: TestHarness;
beforeEach(async () => {
  harness = await createTestHarness();
  addForgeAccount(harness.forge, { id: 202, login: 'Hubot', token: 'gho_hubot' });
  harness.forge.publicMembers.add(`${ORG}/hubot`);
});
afterEach(async () => {
  await harness.close();
});

const provision = (body: unknown, token = ADMIN_TOKEN) =>
  harness.app.request('/v1/admin/callers', jsonRequest('POST', body, token));

async function errorCode(response: Response): Promise<string> {
  return ((await response.json()) as { error: { code: string } }).error.code;
}

describe('POST /v1/admin/callers', () => {
  it('resolves the immutable id, verifies membership, grants only that pool, returns a one-time token', async () => {
    const response = await provision({ pool: 'team', forge_login: 'hubot', name: 'ci.local' });
    expect(response.status).toBe(201);
    const body = callerProvisioningResponseSchema.parse(await response.json());
    expect(body).toMatchObject({ forge_user_id: 202, login: 'Hubot', pool: 'team', client: 'ci' });
    expect((await harness.app.request('/v1/pools/team/health', bearer(body.token))).status).toBe(
      200,
    );
    expect((await harness.app.request('/v1/pools/default/health', bearer(body.token))).status).toBe(
      403,
    );
    expect(harness.forge.seen.map((r) => r.path)).toEqual([
      '/users/hubot',
      `/orgs/${ORG}/public_members/Hubot`,
    ]);
  });

  /** A harness whose provisioning selects the pool's identities, with these secret bindings. */
  async function withPoolIdentities(secrets: Record<string, string>) {
    const clock = { now: Date.UTC(2030, 0, 1) };
    const coordinator = createMemoryCoordinator({ now: () => clock.now });
    const pooled = await createTestHarness({
      services: {
        poolIdentities: { coordinator, resolveSecret: (name) => Promise.resolve(secrets[name]) },
      },
    });
    const register = (body: Record<string, unknown>) =>
      pooled.app.request(
        '/v1/admin/pools/team/identities',
        jsonRequest('POST', { kind: 'pat', login: 'reader', scopes: [], ...body }, ADMIN_TOKEN),
      );
    return { pooled, coordinator, register };
  }

  it('proves membership with an identity of the target pool when one resolves', async () => {
    const { pooled, register } = await withPoolIdentities({ READER: 'gho_reader' });
    try {
      expect((await register({ id: 'reader', secret_ref: 'READER' })).status).toBe(201);
      addForgeAccount(pooled.forge, { id: 5, login: 'private-member', token: 't5' });
      pooled.forge.orgReaders.add('gho_reader');
      const response = await pooled.app.request(
        '/v1/admin/callers',
        jsonRequest(
          'POST',
          { pool: 'team', forge_login: 'private-member', name: 'ci' },
          ADMIN_TOKEN,
        ),
      );
      expect(response.status).toBe(201);
      const membersCall = pooled.forge.seen.find((r) => r.path.includes('/members/'));
      expect(membersCall?.authorization).toBe('Bearer gho_reader');
    } finally {
      await pooled.close();
    }
  });

  it.each([
    ['a missing secret binding', {}],
    ['a malformed secret', { TOP: 'not a token' }],
  ])(
    'fails over from the highest-weight identity with %s to the next, which proves membership',
    async (_what, topSecret: Record<string, string>) => {
      const { pooled, coordinator, register } = await withPoolIdentities({
        ...topSecret,
        NEXT: 'gho_reader',
      });
      try {
        expect((await register({ id: 'top', secret_ref: 'TOP', weight: 500 })).status).toBe(201);
        expect((await register({ id: 'next', secret_ref: 'NEXT', weight: 100 })).status).toBe(201);
        addForgeAccount(pooled.forge, { id: 5, login: 'private-member', token: 't5' });
        pooled.forge.orgReaders.add('gho_reader');
        const response = await pooled.app.request(
          '/v1/admin/callers',
          jsonRequest(
            'POST',
            { pool: 'team', forge_login: 'private-member', name: 'ci' },
            ADMIN_TOKEN,
          ),
        );
        expect(response.status).toBe(201);
        expect(pooled.forge.seen.map((r) => [r.path, r.authorization])).toEqual([
          ['/users/private-member', 'Bearer gho_reader'],
          [`/orgs/${ORG}/members/private-member`, 'Bearer gho_reader'],
        ]);
        const cooldowns = await coordinator.listCooldowns(['top', 'next']);
        expect(cooldowns.get('top')?.length).toBe(1);
        expect(cooldowns.get('next') ?? []).toEqual([]);
      } finally {
        await pooled.close();
      }
    },
  );

  it('reads anonymously when the pool has no identity left', async () => {
    const { pooled, register } = await withPoolIdentities({});
    try {
      expect((await register({ id: 'top', secret_ref: 'TOP' })).status).toBe(201);
      addForgeAccount(pooled.forge, { id: 7, login: 'public-member', token: 't7' });
      pooled.forge.publicMembers.add(`${ORG}/public-member`);
      const response = await pooled.app.request(
        '/v1/admin/callers',
        jsonRequest(
          'POST',
          { pool: 'team', forge_login: 'public-member', name: 'ci' },
          ADMIN_TOKEN,
        ),
      );
      expect(response.status).toBe(201);
      expect(pooled.forge.seen.map((r) => [r.path, r.authorization])).toEqual([
        ['/users/public-member', undefined],
        [`/orgs/${ORG}/public_members/public-member`, undefined],
      ]);
    } finally {
      await pooled.close();
    }
  });

  it('refuses an account that is not a verified member', async () => {
    addForgeAccount(harness.forge, { id: 9, login: 'stranger', token: 't9', membership: 'none' });
    const response = await provision({ pool: 'team', forge_login: 'stranger', name: 'ci' });
    expect(response.status).toBe(403);
    expect(await errorCode(response)).toBe('org_membership_required');
  });

  it('answers 404 for an unknown account', async () => {
    const response = await provision({ pool: 'team', forge_login: 'nobody', name: 'ci' });
    expect(response.status).toBe(404);
  });

  it.each([
    ['no token', undefined],
    ['a wrong token', 'not-the-admin-token-at-all'],
  ])('answers 401 with WWW-Authenticate for %s', async (_what, token) => {
    const response = await harness.app.request(
      '/v1/admin/callers',
      jsonRequest('POST', { pool: 'team', forge_login: 'hubot', name: 'ci' }, token),
    );
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(await errorCode(response)).toBe('unauthorized');
  });

  it('refuses every admin request when no admin token is configured', async () => {
    const open = await createTestHarness({ settings: { adminToken: undefined } });
    try {
      const response = await open.app.request('/v1/admin/string-rewrites', bearer(ADMIN_TOKEN));
      expect(response.status).toBe(401);
    } finally {
      await open.close();
    }
  });

  it('adds a grant to an existing caller without promoting its role or touching other clients', async () => {
    const own = await login(harness, 'gho_hubot', 'laptop');
    const { token: laptopToken } = (await own.json()) as { token: string };
    await harness.database.db.updateTable('callers').set({ role: 'operator' }).execute();
    const response = await provision({ pool: 'team', forge_login: 'hubot', name: 'ci' });
    expect(response.status).toBe(201);
    const callers = await harness.database.db.selectFrom('callers').selectAll().execute();
    expect(callers).toHaveLength(1);
    expect(callers[0]?.role).toBe('operator');
    expect(
      (await harness.app.request('/v1/pools/default/health', bearer(laptopToken))).status,
    ).toBe(200);
  });

  it('keeps a disabled caller disabled: the new token is refused', async () => {
    await provision({ pool: 'team', forge_login: 'hubot', name: 'ci' });
    await harness.database.db.updateTable('callers').set({ disabled: 1 }).execute();
    const response = await provision({ pool: 'team', forge_login: 'hubot', name: 'ci' });
    expect(response.status).toBe(201);
    const { token } = (await response.json()) as { token: string };
    const rows = await harness.database.db.selectFrom('callers').select('disabled').execute();
    expect(rows).toEqual([{ disabled: 1 }]);
    expect((await harness.app.request('/v1/pools/team/health', bearer(token))).status).toBe(401);
  });

  it('refuses ambiguous active duplicates for an operator decision, writing nothing', async () => {
    for (const id of ['cal_a', 'cal_b']) {
      await harness.database.db
        .insertInto('callers')
        .values({
          id,
          forge_user_id: null,
          login: 'hubot',
          role: 'none',
          disabled: 0,
          org_identity_verified_at: null,
          created_at: '2029-01-01T00:00:00.000Z',
          updated_at: '2029-01-01T00:00:00.000Z',
        })
        .execute();
    }
    const response = await provision({ pool: 'team', forge_login: 'hubot', name: 'ci' });
    expect(response.status).toBe(409);
    expect(await errorCode(response)).toBe('caller_ambiguous');
    expect(await harness.database.db.selectFrom('caller_grants').selectAll().execute()).toEqual([]);
    expect(await harness.database.db.selectFrom('pools').selectAll().execute()).toEqual([]);
  });

  it('binds a single historical caller row to the immutable id', async () => {
    await harness.database.db
      .insertInto('callers')
      .values({
        id: 'cal_legacy',
        forge_user_id: null,
        login: 'HUBOT',
        role: 'none',
        disabled: 0,
        org_identity_verified_at: null,
        created_at: '2029-01-01T00:00:00.000Z',
        updated_at: '2029-01-01T00:00:00.000Z',
      })
      .execute();
    const response = await provision({ pool: 'team', forge_login: 'hubot', name: 'ci' });
    expect(((await response.json()) as { caller_id: string }).caller_id).toBe('cal_legacy');
  });

  it.each([
    [{ pool: 'team', forge_login: 'hubot' }],
    [{ pool: 'a/b', forge_login: 'hubot', name: 'ci' }],
    [{ pool: 'team', forge_login: '-bad-', name: 'ci' }],
    // The [bot] suffix is for identity logins only: callers are people.
    [{ pool: 'team', forge_login: 'acme-relay[bot]', name: 'ci' }],
  ])('answers 400 invalid_request for %j', async (body) => {
    const response = await provision(body);
    expect(response.status).toBe(400);
  });
});
