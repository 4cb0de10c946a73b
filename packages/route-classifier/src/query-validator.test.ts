import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  SECRET_QUERY_KEY_FRAGMENTS,
  SECRET_QUERY_KEY_NAMES,
  isSecretQueryKey,
  validateQuery,
} from './query-validator.js';

// Query keys GitHub's REST API really takes on the routes the relay serves (and a few more).
const GITHUB_KEYS = [
  'author',
  'assignee',
  'sort',
  'state',
  'per_page',
  'page',
  'since',
  'until',
  'sha',
  'ref',
  'path',
  'q',
  'direction',
  'order',
  'committer',
  'labels',
  'milestone',
  'creator',
  'mentioned',
  'type',
  'visibility',
  'affiliation',
  'filter',
  'head',
  'base',
  'status',
  'event',
  'branch',
  'actor',
  'created',
  'exclude_pull_requests',
  'check_suite_id',
  'head_sha',
  'recursive',
  'protected',
  'anon',
  'featured',
  'participating',
  'all',
  'before',
  'after',
  'tool_name',
  'check_name',
  'app_id',
  'name',
  'key',
  'content',
  'role',
  'include',
  'conclusion',
  'org',
];

describe('secret-bearing query keys', () => {
  it.each([
    'token',
    'access_token',
    'ACCESS_TOKEN',
    'Access-Token',
    'private_token',
    'github_token',
    'refresh_token',
    'id_token',
    'secret',
    'client_secret',
    'password',
    'passwd',
    'pass',
    'pwd',
    'api_key',
    'apikey',
    'api-key',
    'API.Key',
    'x-api-key',
    'auth',
    'Auth',
    'auth_code',
    'authn',
    'authorization',
    'signature',
    'sig',
    'X-Amz-Signature',
    'X-Amz-Credential',
    'x-amz-security-token',
    'oauth_verifier',
    'session_id',
    'jwt',
    'bearer',
    'cookie',
    'hmac',
    'access%5Ftoken',
    'access%255Ftoken',
    '%74oken',
    'auth[token]',
    'private_key',
    'secret_key',
  ])('%s is rejected', (key) => {
    expect(isSecretQueryKey(key)).toBe(true);
    expect(validateQuery({ [key]: 'x' })).toEqual({
      ok: false,
      error: { code: 'invalid_query', rule: 'secret_key' },
    });
  });

  it.each(GITHUB_KEYS)('GitHub key %s is accepted', (key) => {
    expect(isSecretQueryKey(key)).toBe(false);
    expect(validateQuery({ [key]: '1' }).ok).toBe(true);
  });

  it('documents its lists as lowercase alphanumeric names', () => {
    for (const entry of [...SECRET_QUERY_KEY_NAMES, ...SECRET_QUERY_KEY_FRAGMENTS]) {
      expect(entry).toMatch(/^[a-z0-9]+$/);
    }
  });

  it('any key holding a fragment is rejected however it is cased, separated or encoded', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SECRET_QUERY_KEY_FRAGMENTS),
        fc.stringMatching(/^[a-z]{0,4}$/),
        fc.stringMatching(/^[a-z]{0,4}$/),
        fc.boolean(),
        (fragment, before, after, encode) => {
          const key = `${before}_${fragment.toUpperCase()}-${after}`;
          expect(isSecretQueryKey(encode ? encodeURIComponent(encodeURIComponent(key)) : key)).toBe(
            true,
          );
        },
      ),
    );
  });
});

describe('validateQuery', () => {
  it.each([
    [undefined, {}],
    [{}, {}],
    [
      { state: 'open', per_page: '100' },
      { state: 'open', per_page: '100' },
    ],
    [{ labels: ['bug', 'ui'] }, { labels: ['bug', 'ui'] }],
    [{ labels: [] }, { labels: [] }],
  ])('accepts %j unchanged', (query, expected) => {
    expect(validateQuery(query)).toEqual({ ok: true, value: expected });
  });

  it.each([
    [{ state: 1 }, 'invalid_value'],
    [{ labels: ['a', 2] }, 'invalid_value'],
    [{ state: null }, 'invalid_value'],
    [{ state: { nested: 'x' } }, 'invalid_value'],
    [['state'], 'invalid_value'],
    ['state=open', 'invalid_value'],
    [{ '': 'x' }, 'invalid_key'],
    [{ 'a%zz': 'x' }, 'invalid_key'],
  ])('rejects %j (%s)', (query, rule) => {
    expect(validateQuery(query)).toEqual({ ok: false, error: { code: 'invalid_query', rule } });
  });

  it('never echoes a key or a value', () => {
    const result = validateQuery({ access_token: 'ghp_abcdef' });
    expect(JSON.stringify(result)).not.toMatch(/access_token|ghp_abcdef/);
  });
});
