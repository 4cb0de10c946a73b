import { discoveryDocumentSchema, errorBodySchema } from '@relay/protocol';
import { describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  addForgeAccount,
  bearer,
  createTestHarness,
  jsonRequest,
} from './__fixtures__/test-harness.js';
import { withCachedCallerLookups } from './auth/caller-lookup-cache.js';
import { createApp, RelayHttpError } from './create-app.js';

function makeApp(allowedOrg: string | undefined) {
  let n = 0;
  return createApp({
    discovery: {
      publicUrl: () => 'https://relay.example.com',
      defaultPool: 'default',
      allowedOrg,
      minCliVersion: '0.1.0',
    },
    createRequestId: () => `req-${++n}`,
  });
}

describe('createApp', () => {
  it('serves the discovery document without authentication', async () => {
    const response = await makeApp('octo-org').request('/.well-known/relay');
    expect(response.status).toBe(200);
    const body: unknown = await response.json();
    expect(discoveryDocumentSchema.parse(body)).toEqual({
      service: 'relay',
      version: 1,
      api_base: 'https://relay.example.com',
      app_base: 'https://relay.example.com',
      default_pool: 'default',
      allowed_org: 'octo-org',
      auth: { cli_forge_token: true, web_login: false },
      min_cli_version: '0.1.0',
    });
  });

  it('advertises no forge-token login when no organization is configured', async () => {
    const body = discoveryDocumentSchema.parse(
      await (await makeApp(undefined).request('/.well-known/relay')).json(),
    );
    expect(body.auth.cli_forge_token).toBe(false);
    expect(body.allowed_org).toBe('');
  });

  it('puts a request id on every response', async () => {
    const app = makeApp('octo-org');
    expect((await app.request('/.well-known/relay')).headers.get('x-relay-request-id')).toBe(
      'req-1',
    );
    expect((await app.request('/nowhere')).headers.get('x-relay-request-id')).toBe('req-2');
  });

  it('answers unknown paths with the not_found error body', async () => {
    const response = await makeApp('octo-org').request('/v1/nowhere');
    expect(response.status).toBe(404);
    const body = errorBodySchema.parse(await response.json());
    expect(body.error).toMatchObject({ code: 'not_found', request_id: 'req-1' });
  });

  it('maps typed errors once, and hides unexpected ones behind internal_error', async () => {
    const seen: unknown[] = [];
    const app = createApp({
      discovery: {
        publicUrl: () => 'http://x',
        defaultPool: 'p',
        allowedOrg: undefined,
        minCliVersion: '0.1.0',
      },
      onUnexpectedError: (error) => seen.push(error),
    });
    app.get('/typed', () => {
      throw new RelayHttpError('pool_forbidden');
    });
    app.get('/boom', () => {
      throw new Error('secret detail ghp_abc');
    });
    const typed = await app.request('/typed');
    expect(typed.status).toBe(403);
    expect(errorBodySchema.parse(await typed.json()).error.code).toBe('pool_forbidden');
    const boom = await app.request('/boom');
    expect(boom.status).toBe(500);
    const text = await boom.text();
    expect(errorBodySchema.parse(JSON.parse(text)).error.code).toBe('internal_error');
    expect(text).not.toContain('ghp_abc');
    expect(seen).toHaveLength(1);
  });

  it('drops the cached caller lookups after every admin write, so it holds at the next request', async () => {
    const harness = await createTestHarness();
    try {
      // A change in this process's own connection: only the app can tell the cache.
      const services = withCachedCallerLookups(harness.services, () => harness.clock.now);
      const app = createApp({
        discovery: {
          publicUrl: () => 'http://x',
          defaultPool: 'default',
          allowedOrg: 'octo-org',
          minCliVersion: '0.1.0',
        },
        services,
      });
      addForgeAccount(harness.forge, { id: 1, login: 'mona', token: 'gho_mona' });
      const loggedIn = await app.request(
        '/v1/login/forge-cli',
        jsonRequest('POST', { forge_token: 'gho_mona', client: 'laptop' }),
      );
      const { token } = (await loggedIn.json()) as { token: string };
      const health = async () =>
        (await app.request('/v1/pools/default/health', bearer(token))).status;
      expect(await health()).toBe(200);
      await harness.database.db.updateTable('callers').set({ disabled: 1 }).execute();
      const read = await app.request('/v1/admin/string-rewrites', bearer(ADMIN_TOKEN));
      expect(read.status).toBe(200);
      expect(await health()).toBe(200); // still the cached lookup: an admin read changes nothing
      const write = await app.request(
        '/v1/admin/pools/default/identities',
        jsonRequest('POST', { id: 'pat-1', kind: 'pat', login: 'r', secret_ref: 'S' }, ADMIN_TOKEN),
      );
      expect(write.status).toBe(201);
      expect(await health()).toBe(401);
    } finally {
      await harness.close();
    }
  });
});
