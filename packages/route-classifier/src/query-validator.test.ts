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
  'pinned',
];

// Words that hold a short secret name without being it: accepted.
const NEAR_MISSES = [
  'patch',
  'paths',
  'pattern',
  'compatible',
  'signed',
  'passed',
  'bypass',
  'spin',
  'pinning',
  'inside',
  'sidebar',
  'credit',
  'authored',
  'authors',
  'author_id',
  'client_id',
  'keys',
];

function cased(word: string, style: 'lower' | 'upper' | 'capital'): string {
  if (style === 'upper') return word.toUpperCase();
  if (style === 'capital') return `${word.charAt(0).toUpperCase()}${word.slice(1)}`;
  return word;
}

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
    // Credentials beyond tokens and passwords, in every spelling.
    'basic_auth',
    'basicAuth',
    'BASIC-AUTH',
    'Basic.Auth',
    'creds',
    'Creds',
    'cred',
    'credential',
    'credentials',
    'PHPSESSID',
    'PhpSessId',
    'phpsessid',
    'sessionid',
    'jsessionid',
    'JSESSIONID',
    'sid',
    'totp',
    'TOTP',
    'hotp',
    'otp',
    'otp_code',
    'otpCode',
    'mfa',
    'mfa_code',
    'mfaCode',
    'MFA-Code',
    '2fa',
    '2fa_code',
    'two_factor',
    'pin',
    'PIN',
    'ssh_key',
    'ssh.key',
    'sshKey',
    'SSH-KEY',
    'deploy_key',
    'DeployKey',
    'deploy key',
    'signing_key',
    'privkey',
    'client_assertion',
    'clientAssertion',
    'SAMLResponse',
    'csrf',
    '_csrf',
    'xsrf-token',
    'pw',
    'authType',
    'authz',
    // pat as a whole word, never as part of path or patch.
    'pat',
    'PAT',
    'Pat',
    'gh_pat',
    'ghPat',
    'GH-PAT',
    'pat_token',
    'patToken',
    'PATToken',
    'my.pat',
    'pat id',
    'P-A-T',
    '%70at',
    '\uff30\uff21\uff34',
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

  it.each(NEAR_MISSES)('%s holds a short name inside a longer word and is accepted', (key) => {
    expect(isSecretQueryKey(key)).toBe(false);
  });

  it('no case or separator variant of a listed name is accepted, alone or among other words', () => {
    const style = fc.constantFrom('lower', 'upper', 'capital');
    // Two letters at least: a one-letter camelCase word after an upper-case one is invisible.
    const word = fc.stringMatching(/^[a-z]{2,6}$/);
    const separator = fc.constantFrom('_', '-', '.', ' ', '__', '', '%5F', '%2D');
    fc.assert(
      fc.property(
        fc.constantFrom(...SECRET_QUERY_KEY_NAMES),
        fc.option(word, { nil: undefined }),
        fc.option(word, { nil: undefined }),
        fc.array(style, { minLength: 3, maxLength: 3 }),
        separator,
        (name, before, after, styles, join) => {
          const words = [before, name, after].filter((w): w is string => w !== undefined);
          // Without a separator, words after the first start upper case (camelCase), or the
          // boundary would not exist.
          const styled = words.map((w, index) =>
            cased(w, index > 0 && join === '' ? 'capital' : (styles[index] ?? 'lower')),
          );
          const key = styled.join(join);
          expect(isSecretQueryKey(key)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('no case or separator variant of a listed fragment is accepted, wherever it sits', () => {
    const separator = fc.constantFrom('_', '-', '.', ' ', '');
    fc.assert(
      fc.property(
        fc.constantFrom(...SECRET_QUERY_KEY_FRAGMENTS),
        fc.array(fc.tuple(fc.boolean(), separator), { maxLength: 16 }),
        fc.stringMatching(/^[A-Za-z]{0,4}$/),
        fc.stringMatching(/^[A-Za-z]{0,4}$/),
        (fragment, spelling, before, after) => {
          const spelled = Array.from(fragment)
            .map((char, index) => {
              const [upper, sep] = spelling[index] ?? [false, ''];
              return `${index > 0 ? sep : ''}${upper ? char.toUpperCase() : char}`;
            })
            .join('');
          expect(isSecretQueryKey(`${before}${spelled}${after}`)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
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
