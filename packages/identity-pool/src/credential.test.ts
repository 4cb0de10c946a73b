import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  PooledCredential,
  combineCredentialProviders,
  isLocalCredentialError,
  toCredentialErrorCode,
  type CredentialError,
  type CredentialProvider,
} from './credential.js';
import { app, pat } from './__fixtures__/identities.js';
import { err, ok } from '@relay/protocol';

const TOKEN = 'ghp_thisIsTheSecretValue0123456789';

describe('PooledCredential', () => {
  const credential = new PooledCredential('pat', TOKEN);

  it('gives the token only on request', () => {
    expect(credential.reveal()).toBe(TOKEN);
    expect(credential.toAuthorizationHeader()).toBe(`Bearer ${TOKEN}`);
  });

  it.each([
    ['JSON', () => JSON.stringify({ credential })],
    ['util.inspect', () => inspect(credential, { showHidden: true, depth: 5 })],
    ['string conversion', () => String(credential)],
    ['Object.values', () => JSON.stringify(Object.values(credential))],
    ['console-style formatting of a wrapping object', () => inspect({ nested: { credential } })],
  ])('never shows the token through %s', (_name, render) => {
    expect(render()).not.toContain(TOKEN);
  });
});

describe('credential error codes', () => {
  it.each([
    [{ code: 'secret_unavailable' }, 'credentials_unavailable', true],
    [{ code: 'secret_invalid' }, 'credentials_unavailable', true],
    [{ code: 'forge_app_id_missing' }, 'credentials_unavailable', true],
    [{ code: 'installation_missing' }, 'credentials_unavailable', true],
    [{ code: 'forge_app_key_format' }, 'forge_app_key_format', true],
    [
      { code: 'token_exchange_failed', status: 500, retryAfterMs: undefined },
      'forge_unreachable',
      false,
    ],
  ] satisfies [CredentialError, string, boolean][])('%o → %s (local: %s)', (error, code, local) => {
    expect(toCredentialErrorCode(error)).toBe(code);
    expect(isLocalCredentialError(error)).toBe(local);
  });
});

describe('combineCredentialProviders', () => {
  it('dispatches by identity kind', async () => {
    const seen: string[] = [];
    const fake = (kind: 'pat' | 'forge_app'): CredentialProvider => ({
      resolve: (identity) => {
        seen.push(`${kind}:${identity.id}`);
        return Promise.resolve(
          kind === 'pat' ? ok(new PooledCredential('pat', 't')) : err({ code: 'secret_invalid' }),
        );
      },
      invalidate: (identity) => seen.push(`invalidate ${kind}:${identity.id}`),
    });
    const combined = combineCredentialProviders({ pat: fake('pat'), forge_app: fake('forge_app') });
    await combined.resolve(pat('p', []));
    await combined.resolve(app('a', []));
    combined.invalidate(app('a', []));
    expect(seen).toEqual(['pat:p', 'forge_app:a', 'invalidate forge_app:a']);
  });
});
