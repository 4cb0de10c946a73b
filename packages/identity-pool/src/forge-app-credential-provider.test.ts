import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APP_TOKEN_REFRESH_MARGIN_MS } from '@relay/protocol';
import { createForgeAppCredentialProvider } from './forge-app-credential-provider.js';
import type { CredentialProvider } from './credential.js';
import { app } from './__fixtures__/identities.js';
import { generateAppKeys } from './__fixtures__/app-keys.js';
import { createFakeClock, type FakeClock } from './__fixtures__/fake-clock.js';
import {
  startTokenExchangeServer,
  type TokenExchangeServer,
} from './__fixtures__/token-exchange-server.js';

const APP_ID = '123456';
const keys = generateAppKeys();
const identity = app('app-1', [{ owner: 'octo' }], 42);

let clock: FakeClock;
let server: TokenExchangeServer;
let secrets: Map<string, string>;
let keyReads: number;

beforeAll(async () => {
  clock = createFakeClock();
  server = await startTokenExchangeServer({
    publicKeyPem: keys.publicKey,
    appId: APP_ID,
    now: clock,
  });
});

afterAll(() => server.close());

beforeEach(() => {
  clock.set(Date.UTC(2026, 0, 1));
  server.exchanges.length = 0;
  server.rejected.length = 0;
  server.mode = { kind: 'ok', lifetimeMs: 3_600_000 };
  secrets = new Map([[identity.secretRef, keys.pkcs8]]);
  keyReads = 0;
});

function provider(
  overrides: { appId?: string | undefined; fetch?: typeof fetch } = {},
): CredentialProvider {
  return createForgeAppCredentialProvider({
    appId: 'appId' in overrides ? overrides.appId : APP_ID,
    resolveSecret: (name) => {
      keyReads += 1;
      return Promise.resolve(secrets.get(name));
    },
    fetch: overrides.fetch ?? fetch,
    apiBaseUrl: `${server.baseUrl}/`,
    now: clock,
  });
}

describe('forge_app credentials against a JWT-verifying endpoint', () => {
  it('signs an RS256 JWT the endpoint accepts and returns the installation token', async () => {
    const result = await provider().resolve(identity);
    expect(server.rejected).toEqual([]);
    expect(server.exchanges).toHaveLength(1);
    const [exchange] = server.exchanges;
    expect(exchange).toMatchObject({ installationId: 42, issuer: APP_ID });
    const nowSeconds = clock() / 1000;
    expect(exchange?.issuedAt).toBe(nowSeconds - 60);
    expect((exchange?.expiresAt ?? Infinity) - nowSeconds).toBeLessThanOrEqual(600);
    expect(result.ok && result.value.reveal()).toBe(exchange?.token);
    expect(result.ok && result.value.mintedAt).toBe(clock());
  });

  it('accepts a PKCS#8 key with surrounding whitespace', async () => {
    secrets.set(identity.secretRef, `\n${keys.pkcs8}\n\n`);
    expect((await provider().resolve(identity)).ok).toBe(true);
  });

  it('serves the cached token without reading the key again', async () => {
    const credentials = provider();
    const first = await credentials.resolve(identity);
    secrets.clear();
    clock.advance(10 * 60_000);
    const second = await credentials.resolve(identity);
    expect(server.exchanges).toHaveLength(1);
    expect(keyReads).toBe(1);
    expect(second.ok && second.value.reveal()).toBe(first.ok && first.value.reveal());
  });

  it('refreshes about 60 s before expiry', async () => {
    const credentials = provider();
    await credentials.resolve(identity);
    clock.advance(3_600_000 - APP_TOKEN_REFRESH_MARGIN_MS - 1);
    await credentials.resolve(identity);
    expect(server.exchanges).toHaveLength(1);
    clock.advance(1);
    const refreshed = await credentials.resolve(identity);
    expect(server.exchanges).toHaveLength(2);
    expect(refreshed.ok && refreshed.value.reveal()).toBe(server.exchanges[1]?.token);
  });

  it('coalesces concurrent refreshes into one exchange', async () => {
    const credentials = provider();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => credentials.resolve(identity)),
    );
    expect(server.exchanges).toHaveLength(1);
    expect(new Set(results.map((result) => result.ok && result.value.reveal())).size).toBe(1);
  });

  it('keeps one token per installation', async () => {
    const credentials = provider();
    const other = app('app-2', [{ owner: 'octo' }], 77);
    secrets.set(other.secretRef, keys.pkcs8);
    await credentials.resolve(identity);
    await credentials.resolve(other);
    await credentials.resolve(identity);
    expect(server.exchanges.map((exchange) => exchange.installationId)).toEqual([42, 77]);
  });

  it('rejects a PKCS#1 key with forge_app_key_format, before any exchange', async () => {
    secrets.set(identity.secretRef, keys.pkcs1);
    const result = await provider().resolve(identity);
    expect(result).toEqual({ ok: false, error: { code: 'forge_app_key_format' } });
    expect(server.exchanges).toHaveLength(0);
    expect(server.rejected).toEqual([]);
  });

  it.each([
    ['garbage', 'not a key', 'forge_app_key_format'],
    ['a truncated PKCS#8 key', keys.pkcs8.slice(0, 200), 'forge_app_key_format'],
    ['an empty binding', '  \n', 'secret_invalid'],
  ])('rejects %s', async (_name, value, code) => {
    secrets.set(identity.secretRef, value);
    expect(await provider().resolve(identity)).toEqual({ ok: false, error: { code } });
  });

  it('reports a missing key binding as secret_unavailable', async () => {
    secrets.clear();
    expect(await provider().resolve(identity)).toEqual({
      ok: false,
      error: { code: 'secret_unavailable' },
    });
  });

  it('reports an unreadable key binding as secret_unavailable', async () => {
    const credentials = createForgeAppCredentialProvider({
      appId: APP_ID,
      resolveSecret: () => Promise.reject(new Error(`cannot read /secrets/${identity.secretRef}`)),
      fetch,
      apiBaseUrl: server.baseUrl,
      now: clock,
    });
    expect(await credentials.resolve(identity)).toEqual({
      ok: false,
      error: { code: 'secret_unavailable' },
    });
  });

  it.each([undefined, '', '   ', 'has space', '../x'])(
    'fails locally without RELAY_FORGE_APP_ID (%j), reading no key',
    async (appId) => {
      expect(await provider({ appId }).resolve(identity)).toEqual({
        ok: false,
        error: { code: 'forge_app_id_missing' },
      });
      expect(keyReads).toBe(0);
    },
  );

  it('checks the installation prerequisite even when a token for the key is cached', async () => {
    const credentials = provider();
    await credentials.resolve(identity);
    const broken = { ...identity, installationId: null };
    expect(await credentials.resolve(broken)).toEqual({
      ok: false,
      error: { code: 'installation_missing' },
    });
    expect(await credentials.resolve({ ...identity, installationId: -1 })).toEqual({
      ok: false,
      error: { code: 'installation_missing' },
    });
  });

  it('reports a refused exchange with its status and Retry-After, never the key or JWT', async () => {
    server.mode = { kind: 'status', status: 403, headers: { 'retry-after': '30' } };
    const result = await provider().resolve(identity);
    expect(result).toEqual({
      ok: false,
      error: { code: 'token_exchange_failed', status: 403, retryAfterMs: 30_000 },
    });
    const text = JSON.stringify(result);
    expect(text).not.toContain('PRIVATE KEY');
    expect(text).not.toContain('eyJ');
    expect(text).not.toContain(identity.secretRef);
  });

  it('reports a JWT the endpoint cannot verify (wrong key) as a 401 exchange failure', async () => {
    secrets.set(identity.secretRef, generateAppKeys().pkcs8);
    expect(await provider().resolve(identity)).toMatchObject({
      ok: false,
      error: { code: 'token_exchange_failed', status: 401 },
    });
    expect(server.rejected).toEqual(['jwt']);
  });

  it('reports a malformed exchange answer as an exchange failure', async () => {
    server.mode = { kind: 'malformed' };
    expect(await provider().resolve(identity)).toMatchObject({
      ok: false,
      error: { code: 'token_exchange_failed', status: 201 },
    });
  });

  it('reports an unreachable endpoint as an exchange failure without a status', async () => {
    const unreachable = () => Promise.reject(new TypeError('fetch failed'));
    expect(await provider({ fetch: unreachable }).resolve(identity)).toEqual({
      ok: false,
      error: { code: 'token_exchange_failed', status: undefined, retryAfterMs: undefined },
    });
  });

  it('reports an exchange the relay’s pacing refused as token_exchange_refused (nothing was sent)', async () => {
    const refused = () =>
      Promise.reject(
        Object.assign(new Error('refused by the governor'), { code: 'relay_overloaded' }),
      );
    expect(await provider({ fetch: refused }).resolve(identity)).toEqual({
      ok: false,
      error: { code: 'token_exchange_refused' },
    });
    expect(server.rejected).toEqual([]);
  });

  it('serves the still-valid cached token when a refresh inside the margin fails', async () => {
    const credentials = provider();
    const first = await credentials.resolve(identity);
    clock.advance(3_600_000 - 30_000);
    server.mode = { kind: 'status', status: 502 };
    const during = await credentials.resolve(identity);
    expect(during.ok && during.value.reveal()).toBe(first.ok && first.value.reveal());
    clock.advance(30_000);
    expect(await credentials.resolve(identity)).toMatchObject({
      ok: false,
      error: { status: 502 },
    });
  });

  it('mints a new token after invalidate', async () => {
    const credentials = provider();
    await credentials.resolve(identity);
    credentials.invalidate(identity);
    await credentials.resolve(identity);
    expect(server.exchanges).toHaveLength(2);
  });
});
