import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forgeLoginSchema } from './common-schemas.js';
import {
  identityLoginSchema,
  identityRecordSchema,
  identityRegistrationSchema,
} from './identity.js';

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

describe('identityLoginSchema', () => {
  it.each([
    ['octocat', true],
    ['a', true],
    ['A-b-C', true],
    ['x'.repeat(39), true],
    ['acme-relay[bot]', true],
    ['dependabot[bot]', true],
    ['a[bot]', true],
    [`${'x'.repeat(39)}[bot]`, true],
    ['', false],
    ['[bot]', false],
    ['x'.repeat(40), false],
    [`${'x'.repeat(40)}[bot]`, false],
    ['-acme[bot]', false],
    ['acme-[bot]', false],
    ['acme--relay[bot]', false],
    ['acme[Bot]', false],
    ['acme[BOT]', false],
    ['acme[bot][bot]', false],
    ['acme [bot]', false],
    ['acme[bot] ', false],
    ['acme[bot]\n', false],
    ['acme[app]', false],
    ['acme[bot', false],
    ['acme_relay[bot]', false],
    ['acme/relay[bot]', false],
  ])('%j → %s', (login, expected) => {
    expect(identityLoginSchema.safeParse(login).success).toBe(expected);
  });

  it('is exactly a forge login, with or without the [bot] suffix', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 50 }), (text) => {
        const bare = text.endsWith('[bot]') ? text.slice(0, -5) : text;
        expect(identityLoginSchema.safeParse(text).success).toBe(
          forgeLoginSchema.safeParse(bare).success,
        );
      }),
    );
  });

  it('leaves caller logins, owners and path parameters plain: forgeLoginSchema refuses [bot]', () => {
    expect(forgeLoginSchema.safeParse('acme-relay[bot]').success).toBe(false);
  });
});

describe('identity logins at registration', () => {
  it.each([
    ['a forge_app bot login', { ...app, login: 'acme-relay[bot]' }, true],
    ['a forge_app plain login', { ...app, login: 'acme-relay' }, true],
    ['a pat plain login', { ...pat, login: 'octocat' }, true],
    ['a pat bot login (a bot account has no PAT)', { ...pat, login: 'acme-relay[bot]' }, false],
    ['a forge_app login with a bad suffix', { ...app, login: 'acme-relay[BOT]' }, false],
    [
      'a forge_app bot login over 39 characters',
      { ...app, login: `${'x'.repeat(40)}[bot]` },
      false,
    ],
  ])('%s → %s', (_what, input, expected) => {
    expect(identityRegistrationSchema.safeParse(input).success).toBe(expected);
  });

  it('returns a bot login in the identity record', () => {
    const record = {
      id: 'app-1',
      pool: 'default',
      kind: 'forge_app',
      login: 'acme-relay[bot]',
      secret_ref: 'app.key',
      installation_id: 42,
      scopes: [],
      weight: 100,
      created_at: '2030-01-01T00:00:00Z',
      updated_at: '2030-01-01T00:00:00Z',
    };
    expect(identityRecordSchema.parse(record).login).toBe('acme-relay[bot]');
  });
});
