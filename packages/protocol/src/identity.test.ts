import { describe, expect, it } from 'vitest';
import { identityRegistrationSchema } from './identity.js';

const pat = { id: 'pat-1', kind: 'pat', login: 'octocat', secret_ref: 'PAT_1' } as const;
const app = {
  id: 'app-1',
  kind: 'forge_app',
  login: 'relay-app',
  secret_ref: 'app.key',
  installation_id: 42,
  scopes: [{ owner: 'Octo-Org' }],
} as const;

describe('identityRegistrationSchema', () => {
  it('applies the defaults: weight 100, no scopes, no installation', () => {
    expect(identityRegistrationSchema.parse(pat)).toEqual({
      ...pat,
      weight: 100,
      scopes: [],
      installation_id: null,
    });
  });

  it('lowercases scope owners and defaults allow_private to false', () => {
    const parsed = identityRegistrationSchema.parse(app);
    expect(parsed.scopes).toEqual([{ owner: 'octo-org', allow_private: false }]);
    expect(parsed.installation_id).toBe(42);
  });

  it.each([
    ['a wildcard PAT', { ...pat, scopes: [{ owner: '*' }] }],
    ['an owner/repo scope', { ...pat, scopes: [{ owner: 'octo', repo: 'hello.js' }] }],
    ['allow_private set', { ...pat, scopes: [{ owner: 'octo', allow_private: true }] }],
    ['an explicit weight', { ...pat, weight: 0 }],
    ['a null installation_id on a pat', { ...pat, installation_id: null }],
  ])('accepts %s', (_name, input) => {
    expect(identityRegistrationSchema.safeParse(input).success).toBe(true);
  });

  it.each([
    ['an unknown kind', { ...pat, kind: 'oauth' }],
    ['a forge_app without installation_id', { ...app, installation_id: undefined }],
    ['a forge_app with installation_id 0', { ...app, installation_id: 0 }],
    ['a forge_app with a negative installation_id', { ...app, installation_id: -3 }],
    ['a forge_app with a fractional installation_id', { ...app, installation_id: 1.5 }],
    ['a pat with an installation_id', { ...pat, installation_id: 7 }],
    ['a forge_app with the wildcard owner', { ...app, scopes: [{ owner: '*' }] }],
    ['a wildcard scope with a repo', { ...pat, scopes: [{ owner: '*', repo: 'x' }] }],
    ['a scope owner that is not a login', { ...pat, scopes: [{ owner: 'a b' }] }],
    ['a scope repo of ..', { ...pat, scopes: [{ owner: 'octo', repo: '..' }] }],
    ['an unknown scope field', { ...pat, scopes: [{ owner: 'octo', branch: 'main' }] }],
    ['a fractional weight', { ...pat, weight: 1.5 }],
    ['a negative weight', { ...pat, weight: -1 }],
    ['a secret_ref with a slash', { ...pat, secret_ref: '../etc/passwd' }],
    ['an empty secret_ref', { ...pat, secret_ref: '' }],
    ['a secret_ref over 128 characters', { ...pat, secret_ref: 'x'.repeat(129) }],
    ['an empty id', { ...pat, id: '' }],
    ['a missing login', { id: 'x', kind: 'pat', secret_ref: 'X' }],
    ['an unknown field', { ...pat, token: 'ghp_secret' }],
  ])('rejects %s', (_name, input) => {
    expect(identityRegistrationSchema.safeParse(input).success).toBe(false);
  });
});
