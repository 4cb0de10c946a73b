import { describe, expect, it } from 'vitest';
import {
  createDefaultPoolPolicy,
  parseAllowedOwnersList,
  parseStoredPoolPolicy,
} from './pool-policy.js';

const defaults = { allowedOwners: ['Octo-Org', 'acme'] };
const base = {
  allowed_owners: ['octo-org', 'acme'],
  allow_public_repos: true,
  allow_search: false,
  allow_logs: true,
};

describe('parseStoredPoolPolicy', () => {
  it.each([
    ['an empty object keeps every default', '{}', base],
    ['the parsed empty object too', {}, base],
    [
      'allowed_owners replaced and lowercased',
      '{"allowed_owners":["Foo","bar"]}',
      { ...base, allowed_owners: ['foo', 'bar'] },
    ],
    ['an empty owner list is valid', '{"allowed_owners":[]}', { ...base, allowed_owners: [] }],
    ['allow_search set', '{"allow_search":true}', { ...base, allow_search: true }],
    ['allow_logs cleared', '{"allow_logs":false}', { ...base, allow_logs: false }],
    [
      'allow_public_repos cleared',
      '{"allow_public_repos":false}',
      { ...base, allow_public_repos: false },
    ],
    [
      'unknown fields are ignored',
      '{"note":"x","allow_search":true}',
      { ...base, allow_search: true },
    ],
  ])('%s', (_name, stored, expected) => {
    expect(parseStoredPoolPolicy(stored, defaults)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['invalid JSON', '{"allow_search":', 'invalid_json'],
    ['an array root', '[]', 'not_an_object'],
    ['a null root', 'null', 'not_an_object'],
    ['a string root', '"policy"', 'not_an_object'],
    ['a number root', '1', 'not_an_object'],
    ['allowed_owners not an array', '{"allowed_owners":"octo"}', 'invalid_field'],
    ['allowed_owners with a non-string', '{"allowed_owners":[1]}', 'invalid_field'],
    ['allowed_owners with an empty string', '{"allowed_owners":[""]}', 'invalid_field'],
    ['allow_public_repos not a boolean', '{"allow_public_repos":"yes"}', 'invalid_field'],
    ['allow_search null', '{"allow_search":null}', 'invalid_field'],
    ['allow_logs a number', '{"allow_logs":0}', 'invalid_field'],
  ])('makes the policy unusable for %s', (_name, stored, cause) => {
    const result = parseStoredPoolPolicy(stored, defaults);
    expect(result).toEqual({ ok: false, error: { code: 'pool_policy_unavailable', cause } });
  });

  it('never echoes the stored value in its error', () => {
    const result = parseStoredPoolPolicy('{"allowed_owners":"s3cret-value"}', defaults);
    expect(JSON.stringify(result)).not.toContain('s3cret');
  });
});

describe('createDefaultPoolPolicy', () => {
  it('uses DEFAULT_ALLOWED_OWNERS lowercased and SPEC.md defaults', () => {
    expect(createDefaultPoolPolicy(defaults)).toEqual(base);
  });
});

describe('parseAllowedOwnersList', () => {
  it.each([
    [undefined, []],
    ['', []],
    ['octo', ['octo']],
    [' Octo , acme,,', ['octo', 'acme']],
  ])('%j → %j', (value, expected) => {
    expect(parseAllowedOwnersList(value)).toEqual(expected);
  });
});
