import { describe, expect, it } from 'vitest';
import type { SavedLogin } from './auth-store.js';
import { resolveCallerAuth } from './caller-auth.js';

const SAVED: SavedLogin = {
  url: 'https://relay.example.com',
  pool: 'team',
  token: 'rly_saved',
  login: 'alice',
  client: 'laptop',
  timestamp: '2030-01-01T00:00:00.000Z',
};

describe('resolveCallerAuth (client rule 2)', () => {
  it.each([
    [
      'the saved login',
      {},
      SAVED,
      {},
      { url: SAVED.url, token: 'rly_saved', pool: 'team', source: 'saved' },
    ],
    [
      'the saved URL written with a slash',
      {},
      SAVED,
      { server: 'https://relay.example.com/' },
      { token: 'rly_saved' },
    ],
    [
      '--pool over the saved pool',
      {},
      SAVED,
      { pool: 'other' },
      { pool: 'other', token: 'rly_saved' },
    ],
    [
      'RELAY_TOKEN over the saved token',
      { RELAY_TOKEN: 'rly_env' },
      SAVED,
      {},
      { url: SAVED.url, token: 'rly_env', source: 'env' },
    ],
    [
      'RELAY_TOKEN with another URL',
      { RELAY_TOKEN: 'rly_env' },
      SAVED,
      { server: 'https://b.example' },
      { url: 'https://b.example', token: 'rly_env' },
    ],
    [
      '--token-env',
      { CI_TOKEN: 'rly_ci' },
      undefined,
      { tokenEnv: 'CI_TOKEN', server: 'https://b.example', pool: 'p' },
      { token: 'rly_ci', pool: 'p' },
    ],
    ['a blank RELAY_TOKEN is ignored', { RELAY_TOKEN: '  ' }, SAVED, {}, { token: 'rly_saved' }],
  ])('uses %s', (_name, env, saved, options, expected) => {
    const result = resolveCallerAuth(env, saved, options);
    expect(result).toMatchObject({ ok: true, value: expected });
  });

  it.each([
    ['no saved login and no token', {}, undefined, {}, 'not_logged_in'],
    [
      'the saved token for another URL (--server)',
      {},
      SAVED,
      { server: 'https://evil.example' },
      'not_logged_in',
    ],
    [
      'the saved token for another URL (RELAY_URL)',
      { RELAY_URL: 'https://evil.example' },
      SAVED,
      {},
      'not_logged_in',
    ],
    [
      'an explicit token without any URL',
      { RELAY_TOKEN: 'rly_env' },
      undefined,
      { pool: 'p' },
      'not_logged_in',
    ],
    [
      'an explicit token without a pool',
      { RELAY_TOKEN: 'rly_env' },
      undefined,
      { server: 'https://b.example' },
      'usage_error',
    ],
    [
      'a --token-env variable that is blank',
      { CI: '' },
      SAVED,
      { tokenEnv: 'CI' },
      'not_logged_in',
    ],
    ['a --pool of ..', {}, SAVED, { pool: '..' }, 'usage_error'],
    ['a --pool of .', {}, SAVED, { pool: '.' }, 'usage_error'],
    ['a RELAY_POOL with a slash', { RELAY_POOL: 'a/b' }, SAVED, {}, 'usage_error'],
    [
      'a --pool with a space, with an explicit token',
      { RELAY_TOKEN: 'x' },
      SAVED,
      { pool: 'a b' },
      'usage_error',
    ],
    [
      'a RELAY_TOKEN with a newline inside',
      { RELAY_TOKEN: 'rly_hunter2\ninjected: 1' },
      SAVED,
      {},
      'not_logged_in',
    ],
    [
      'a --token-env variable with a character no header can carry',
      { CI: 'rly_hunter2\u20ac' },
      SAVED,
      { tokenEnv: 'CI' },
      'not_logged_in',
    ],
    [
      'a URL that is not http(s)',
      { RELAY_TOKEN: 'x' },
      SAVED,
      { server: 'ftp://x' },
      'usage_error',
    ],
    [
      'a URL with credentials, even with an explicit token',
      { RELAY_TOKEN: 'x' },
      SAVED,
      { server: 'https://user:hunter2@relay.example.com' },
      'usage_error',
    ],
    [
      'a URL with credentials (RELAY_URL)',
      { RELAY_URL: 'https://user:hunter2@relay.example.com' },
      SAVED,
      {},
      'usage_error',
    ],
    [
      'a URL with a query',
      { RELAY_TOKEN: 'x' },
      SAVED,
      { server: 'https://b.example/?a=1' },
      'usage_error',
    ],
    [
      'a URL with an empty query',
      { RELAY_TOKEN: 'x' },
      SAVED,
      { server: 'https://b.example/?' },
      'usage_error',
    ],
    [
      'a URL with a fragment',
      { RELAY_TOKEN: 'x' },
      SAVED,
      { server: 'https://b.example/#f' },
      'usage_error',
    ],
    [
      'a URL with an empty fragment',
      { RELAY_TOKEN: 'x' },
      SAVED,
      { server: 'https://b.example#' },
      'usage_error',
    ],
  ])('refuses %s', (_name, env, saved, options, code) => {
    const result = resolveCallerAuth(env, saved, options);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe(code);
      expect(result.error.message).not.toContain('rly_saved');
      expect(result.error.message).not.toContain('hunter2');
    }
  });
});
