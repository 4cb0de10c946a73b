import { errorBodySchema, loginResponseSchema } from '@relay/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  addForgeAccount,
  bearer,
  createTestHarness,
  jsonRequest,
  login,
  type TestHarness,
} from '../__fixtures__/test-harness.js';

let harness: TestHarness;
beforeEach(async () => {
  harness = await createTestHarness();
  addForgeAccount(harness.forge, { id: 101, login: 'Mona', token: 'gho_mona' });
});
afterEach(async () => {
  await harness.close();
});

async function errorCode(response: Response): Promise<string> {
  const body = (await response.json()) as { error: { code: string } };
  return body.error.code;
}

async function loginOk(client: string, forgeToken = 'gho_mona') {
  const response = await login(harness, forgeToken, client);
  expect(response.status).toBe(200);
  return loginResponseSchema.parse(await response.json());
}

const health = (token: string) => harness.app.request('/v1/pools/default/health', bearer(token));

describe('POST /v1/login/forge-cli', () => {
  it('verifies the forge token and membership, enrolls into the login pool, returns a token', async () => {
    const body = await loginOk('laptop.local');
    expect(body).toMatchObject({
      login: 'Mona',
      forge_user_id: 101,
      pool: 'default',
      client: 'laptop',
      expires_at: '2030-01-01T01:00:00.000Z',
    });
    expect((await health(body.token)).status).toBe(200);
    expect(harness.forge.seen.map((r) => r.path)).toEqual([
      '/user',
      '/user/memberships/orgs/octo-org',
    ]);
    const caller = await harness.database.db.selectFrom('callers').selectAll().execute();
    expect(caller).toMatchObject([
      {
        forge_user_id: 101,
        role: 'none',
        disabled: 0,
        org_identity_verified_at: '2030-01-01T00:00:00.000Z',
      },
    ]);
  });

  it('stores only the SHA-256 of the token, never the token or the forge token', async () => {
    const { token } = await loginOk('laptop');
    const dump = JSON.stringify(
      await harness.database.db.selectFrom('caller_clients').selectAll().execute(),
    );
    expect(dump).not.toContain(token);
    expect(dump).not.toContain('gho_mona');
  });

  it('rotates only the named client: its old token stops working, other clients keep theirs', async () => {
    const first = await loginOk('laptop');
    const other = await loginOk('desktop');
    const second = await loginOk('laptop');
    expect(second.token).not.toBe(first.token);
    expect((await health(first.token)).status).toBe(401);
    expect((await health(second.token)).status).toBe(200);
    expect((await health(other.token)).status).toBe(200);
  });

  it('binds by immutable id: a renamed account keeps its caller', async () => {
    await loginOk('laptop');
    addForgeAccount(harness.forge, { id: 101, login: 'Mona-Renamed', token: 'gho_renamed' });
    const body = await loginOk('laptop', 'gho_renamed');
    expect(body.login).toBe('Mona-Renamed');
    const callers = await harness.database.db.selectFrom('callers').select(['login']).execute();
    expect(callers).toEqual([{ login: 'Mona-Renamed' }]);
  });

  it('retires the least recently updated client when a 17th is added', async () => {
    const tokens: string[] = [];
    for (let i = 0; i < 17; i++) {
      harness.clock.now += 1000;
      tokens.push((await loginOk(`host-${String(i)}`)).token);
    }
    const clients = await harness.database.db.selectFrom('caller_clients').select('name').execute();
    expect(clients).toHaveLength(16);
    expect(clients.map((c) => c.name)).not.toContain('host-0');
    expect((await health(tokens[0] ?? '')).status).toBe(401);
    expect((await health(tokens[16] ?? '')).status).toBe(200);
  });

  it('answers client_name_ambiguous for an ambiguous historical client family and keeps tokens valid', async () => {
    const first = await loginOk('Laptop');
    const [row] = await harness.database.db.selectFrom('caller_clients').selectAll().execute();
    if (row === undefined) throw new Error('no client');
    // A historical client stored before names were normalized.
    await harness.database.db
      .insertInto('caller_clients')
      .values({ ...row, id: 'cli_old', name: 'laptop.LOCAL', token_sha256: 'f'.repeat(64) })
      .execute();
    const response = await login(harness, 'gho_mona', 'LAPTOP');
    expect(response.status).toBe(409);
    expect(await errorCode(response)).toBe('client_name_ambiguous');
    expect((await health(first.token)).status).toBe(200);
  });

  it.each([['a forge token the forge rejects', 'gho_unknown', 401, 'forge_token_invalid']])(
    'refuses %s',
    async (_what, token, status, code) => {
      const response = await login(harness, token, 'laptop');
      expect(response.status).toBe(status);
      expect(await errorCode(response)).toBe(code);
    },
  );

  it.each([['pending' as const], ['none' as const]])(
    'refuses an account whose membership is %s with org_membership_required',
    async (membership) => {
      addForgeAccount(harness.forge, { id: 7, login: 'outsider', token: 'gho_out', membership });
      const response = await login(harness, 'gho_out', 'laptop');
      expect(response.status).toBe(403);
      expect(await errorCode(response)).toBe('org_membership_required');
      expect(await harness.database.db.selectFrom('callers').selectAll().execute()).toEqual([]);
    },
  );

  it('refuses login when no organization is configured', async () => {
    const other = await createTestHarness({ settings: { allowedForgeOrg: undefined } });
    try {
      addForgeAccount(other.forge, { id: 1, login: 'a', token: 't' });
      const response = await login(other, 't', 'laptop');
      expect(response.status).toBe(403);
      expect(other.forge.seen).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('refuses an explicit pool the caller holds no grant on, writing nothing', async () => {
    const response = await login(harness, 'gho_mona', 'laptop', 'secret-team');
    expect(response.status).toBe(403);
    expect(await errorCode(response)).toBe('pool_forbidden');
    expect(await harness.database.db.selectFrom('callers').selectAll().execute()).toEqual([]);
  });

  it.each([
    ['a missing client', { forge_token: 'gho_mona' }],
    ['an unknown field', { forge_token: 'gho_mona', client: 'x', extra: 1 }],
    ['a client name that normalizes to nothing', { forge_token: 'gho_mona', client: '.local' }],
    ['a client name over 80 characters', { forge_token: 'gho_mona', client: 'x'.repeat(81) }],
    ['malformed JSON', '{"forge_token":'],
    // A forge token that cannot be written into an Authorization header is no forge token: it is
    // refused before the forge is called (not reported as the forge being unreachable).
    ['a forge token with CR LF', { forge_token: 'gho_mona\r\nx-evil: 1', client: 'x' }],
    ['a forge token with a NUL', { forge_token: 'gho_\u0000mona', client: 'x' }],
    ['a forge token with a non-ASCII character', { forge_token: 'gho_mon\u00e4', client: 'x' }],
    ['a forge token of spaces', { forge_token: '  ', client: 'x' }],
  ])('answers 400 invalid_request for %s', async (_what, body) => {
    const response = await harness.app.request('/v1/login/forge-cli', jsonRequest('POST', body));
    expect(response.status).toBe(400);
    expect(errorBodySchema.parse(await response.json()).error.code).toBe('invalid_request');
    expect(harness.forge.seen).toEqual([]);
  });

  it('accepts JSON only, and bounds the body', async () => {
    const text = await harness.app.request('/v1/login/forge-cli', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(text.status).toBe(415);
    const large = await harness.app.request(
      '/v1/login/forge-cli',
      jsonRequest('POST', { forge_token: 'x'.repeat(20_000), client: 'a' }),
    );
    expect(large.status).toBe(413);
  });

  it('is blocked with 503 when the string-rewrite policy is corrupt', async () => {
    await harness.database.db
      .updateTable('string_rewrite_policy')
      .set({ rules_json: '{' })
      .execute();
    const response = await login(harness, 'gho_mona', 'laptop');
    expect(response.status).toBe(503);
    expect(await errorCode(response)).toBe('string_rewrite_policy_unavailable');
    expect(harness.forge.seen).toEqual([]);
  });

  it('is blocked with 503 when the stored rules no longer compile', async () => {
    await harness.database.db
      .updateTable('string_rewrite_policy')
      .set({ rules_json: JSON.stringify([{ pattern: '(?<=x)y', replacement: '' }]) })
      .execute();
    const response = await login(harness, 'gho_mona', 'laptop');
    expect(response.status).toBe(503);
    expect(harness.forge.seen).toEqual([]);
  });

  it('never sends a forge call whose URL matches an active rewrite pattern', async () => {
    await harness.database.db
      .updateTable('string_rewrite_policy')
      .set({ rules_json: JSON.stringify([{ pattern: 'octo-org', replacement: '' }]) })
      .execute();
    const response = await login(harness, 'gho_mona', 'laptop');
    expect(response.status).toBe(403);
    expect(await errorCode(response)).toBe('string_rewrite_denied');
    expect(harness.forge.seen.map((r) => r.path)).toEqual(['/user']);
  });
});
