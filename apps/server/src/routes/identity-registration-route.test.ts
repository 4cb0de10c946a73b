import { identityRecordSchema } from '@relay/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  createTestHarness,
  jsonRequest,
  type TestHarness,
} from '../__fixtures__/test-harness.js';

let harness: TestHarness;
beforeEach(async () => {
  harness = await createTestHarness();
});
afterEach(async () => {
  await harness.close();
});

const register = (pool: string, body: unknown) =>
  harness.app.request(`/v1/admin/pools/${pool}/identities`, jsonRequest('POST', body, ADMIN_TOKEN));

const pat = {
  id: 'pat-1',
  kind: 'pat',
  login: 'reader',
  secret_ref: 'READER_PAT',
  scopes: [{ owner: 'Octo-Org' }, { owner: 'acme', repo: 'widgets', allow_private: true }],
};

describe('POST /v1/admin/pools/:pool/identities', () => {
  it('creates (201), then updates (200) replacing the scopes; no secret value in the body', async () => {
    const created = await register('team', pat);
    expect(created.status).toBe(201);
    const body = identityRecordSchema.parse(await created.json());
    expect(body).toMatchObject({
      id: 'pat-1',
      pool: 'team',
      kind: 'pat',
      secret_ref: 'READER_PAT',
      installation_id: null,
      weight: 100,
      scopes: [
        { owner: 'octo-org', allow_private: false },
        { owner: 'acme', repo: 'widgets', allow_private: true },
      ],
    });
    harness.clock.now += 1000;
    const updated = await register('team', {
      ...pat,
      login: 'reader2',
      weight: 5,
      scopes: [{ owner: '*' }],
    });
    expect(updated.status).toBe(200);
    expect(identityRecordSchema.parse(await updated.json())).toMatchObject({
      login: 'reader2',
      weight: 5,
      scopes: [{ owner: '*', allow_private: false }],
      created_at: '2030-01-01T00:00:00.000Z',
      updated_at: '2030-01-01T00:00:01.000Z',
    });
  });

  it.each([
    ['another pool', 'other', pat],
    ['another kind', 'team', { ...pat, kind: 'forge_app', installation_id: 9, scopes: [] }],
  ])('answers 409 identity_conflict when the id exists with %s', async (_what, pool, body) => {
    await register('team', pat);
    const response = await register(pool, body);
    expect(response.status).toBe(409);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      'identity_conflict',
    );
  });

  it.each([
    ['forge_app without installation_id', { ...pat, kind: 'forge_app', scopes: [] }],
    [
      'forge_app with installation_id 0',
      { ...pat, kind: 'forge_app', installation_id: 0, scopes: [] },
    ],
    ['an unknown kind', { ...pat, kind: 'oauth' }],
    ['a secret_ref with a slash', { ...pat, secret_ref: '../etc/passwd' }],
    ['an unknown field', { ...pat, token: 'ghp_x' }],
  ])('answers 400 invalid_request for %s', async (_what, body) => {
    const response = await register('team', body);
    expect(response.status).toBe(400);
    expect(await response.text()).not.toContain('ghp_x');
  });

  const app = { id: 'app-1', kind: 'forge_app', secret_ref: 'APP_KEY', installation_id: 7 };
  it.each([
    ['a forge_app bot login', 201, { ...app, login: 'acme-relay[bot]' }],
    ['a forge_app plain login', 201, { ...app, login: 'acme-relay' }],
    [
      'a forge_app bot login of 39 + 5 characters',
      201,
      { ...app, login: `${'a'.repeat(39)}[bot]` },
    ],
    ['a pat bot login', 400, { ...pat, login: 'acme-relay[bot]' }],
    ['an uppercase suffix', 400, { ...app, login: 'acme-relay[BOT]' }],
    ['a bare suffix', 400, { ...app, login: '[bot]' }],
    ['a login ending in a hyphen', 400, { ...app, login: 'acme-[bot]' }],
    ['a doubled suffix', 400, { ...app, login: 'acme[bot][bot]' }],
    ['a 40-character login', 400, { ...app, login: `${'a'.repeat(40)}[bot]` }],
  ])('registers %s → %i', async (_what, status, body) => {
    const response = await register('team', body);
    expect(response.status).toBe(status);
    if (status === 201) {
      expect(identityRecordSchema.parse(await response.json()).login).toBe(body.login);
    }
  });

  it('creates the pool implicitly with the default policy, and never resets an existing one', async () => {
    await register('team', pat);
    const [pool] = await harness.database.db.selectFrom('pools').selectAll().execute();
    expect(JSON.parse(pool?.policy_json ?? '')).toEqual({
      allowed_owners: ['octo-org'],
      allow_public_repos: true,
      allow_search: false,
      allow_logs: true,
    });
    await harness.database.db
      .updateTable('pools')
      .set({ policy_json: '{"allow_search":true}' })
      .execute();
    await register('team', { ...pat, id: 'pat-2' });
    const [after] = await harness.database.db.selectFrom('pools').selectAll().execute();
    expect(after?.policy_json).toBe('{"allow_search":true}');
  });

  it('does not resolve secret bindings at registration', async () => {
    const response = await register('team', { ...pat, secret_ref: 'DOES_NOT_EXIST' });
    expect(response.status).toBe(201);
  });
});
