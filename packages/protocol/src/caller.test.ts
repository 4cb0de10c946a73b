import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  callerProvisioningRequestSchema,
  callerProvisioningResponseSchema,
  defaultClientName,
  loginRequestSchema,
  loginResponseSchema,
  normalizeClientName,
} from './caller.js';

const TOKEN = 'rly_' + 'A'.repeat(43);

describe('normalizeClientName', () => {
  it.each([
    ['laptop', 'laptop'],
    ['MacBook.local', 'MacBook'],
    ['MacBook.LOCAL', 'MacBook'],
    ['host.local.Local', 'host'],
    ['host.localdomain', 'host.localdomain'],
    ['Ünïcødé-box', 'Ünïcødé-box'],
    ['x'.repeat(80), 'x'.repeat(80)],
    ['x'.repeat(80) + '.local', 'x'.repeat(80)],
  ])('%j → %j', (raw, expected) => {
    expect(normalizeClientName(raw)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['', 'empty'],
    ['.local', 'empty'],
    ['.local.local', 'empty'],
    ['x'.repeat(81), 'too_long'],
    ['tab\there', 'control_character'],
  ])('rejects %j (%s)', (raw, cause) => {
    expect(normalizeClientName(raw)).toEqual({
      ok: false,
      error: { code: 'invalid_client_name', cause },
    });
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }), (raw) => {
        const once = normalizeClientName(raw);
        if (once.ok) expect(normalizeClientName(once.value)).toEqual(once);
      }),
    );
  });
});

describe('defaultClientName', () => {
  it.each([
    ['build-01.local', 'build-01'],
    ['h'.repeat(100), 'h'.repeat(80)],
    ['', 'client'],
    ['.local', 'client'],
    // A cut at 80 characters that leaves `.local` (or a space) at the end goes on normalizing.
    ['h'.repeat(74) + '.local.x', 'h'.repeat(74)],
    ['h'.repeat(79) + ' x', 'h'.repeat(79)],
    ['host.local\u0000', 'host'],
  ])('%j → %j', (hostname, expected) => {
    expect(defaultClientName(hostname)).toBe(expected);
  });

  it('is the name the relay stores: a fixed point of normalizeClientName', () => {
    const hostname = fc.oneof(
      fc.string({ maxLength: 120 }),
      fc
        .array(fc.constantFrom('h', '.local', '.LOCAL', ' ', '\t', 'é', '\u0000', '-'), {
          maxLength: 40,
        })
        .map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(hostname, (raw) => {
        const name = defaultClientName(raw);
        expect(normalizeClientName(name)).toEqual({ ok: true, value: name });
      }),
    );
  });
});

describe('login and provisioning bodies', () => {
  it('normalizes the client name of a login request', () => {
    expect(loginRequestSchema.parse({ forge_token: 'gho_x', client: 'box.local' })).toEqual({
      forge_token: 'gho_x',
      client: 'box',
    });
  });

  it.each([
    ['a login without forge_token', loginRequestSchema, { client: 'a' }],
    ['a login with an empty forge_token', loginRequestSchema, { forge_token: '', client: 'a' }],
    [
      'a login with CR LF in the forge_token',
      loginRequestSchema,
      { forge_token: 'gho_x\r\nx-evil: 1', client: 'a' },
    ],
    [
      'a login with a NUL in the forge_token',
      loginRequestSchema,
      { forge_token: 'gho_\u0000x', client: 'a' },
    ],
    [
      'a login with a non-ASCII forge_token',
      loginRequestSchema,
      { forge_token: 'gho_x\u00e9', client: 'a' },
    ],
    ['a login with a blank forge_token', loginRequestSchema, { forge_token: ' ', client: 'a' }],
    [
      'a login with a space in the forge_token',
      loginRequestSchema,
      { forge_token: 'gho_x gho_y', client: 'a' },
    ],
    ['a login with a bad client', loginRequestSchema, { forge_token: 't', client: '.local' }],
    [
      'a login with an invalid pool',
      loginRequestSchema,
      { forge_token: 't', client: 'a', pool: '../x' },
    ],
    [
      'provisioning without forge_login',
      callerProvisioningRequestSchema,
      { pool: 'p', name: 'ci' },
    ],
    [
      'provisioning with a bad login',
      callerProvisioningRequestSchema,
      { pool: 'p', forge_login: '-x', name: 'ci' },
    ],
    [
      'provisioning with an extra field',
      callerProvisioningRequestSchema,
      { pool: 'p', forge_login: 'x', name: 'ci', role: 'admin' },
    ],
  ])('rejects %s', (_name, schema, input) => {
    expect(schema.safeParse(input).success).toBe(false);
  });

  const response = {
    token: TOKEN,
    login: 'octocat',
    forge_user_id: 583231,
    pool: 'default',
    client: 'laptop',
    expires_at: '2026-12-22T03:00:00Z',
  };

  it('accepts the login and provisioning responses', () => {
    expect(loginResponseSchema.safeParse(response).success).toBe(true);
    expect(
      callerProvisioningResponseSchema.safeParse({ ...response, caller_id: 'c-1' }).success,
    ).toBe(true);
  });

  it.each([
    ['a token without the rly_ prefix', { ...response, token: 'A'.repeat(47) }],
    ['a short token', { ...response, token: 'rly_abc' }],
    ['a zero user id', { ...response, forge_user_id: 0 }],
    ['a local expiry', { ...response, expires_at: '2026-12-22 03:00' }],
  ])('rejects a login response with %s', (_name, input) => {
    expect(loginResponseSchema.safeParse(input).success).toBe(false);
  });
});
