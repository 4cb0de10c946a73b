import { describe, expect, it } from 'vitest';
import {
  filterEnvelopeHeaders,
  relayEnvelopeBodySchema,
  relayEnvelopeSchema,
} from './relay-envelope.js';

const relay = {
  pool: 'default',
  request_id: 'req-1',
  cacheable: true,
  cache: 'miss',
  stale_ok: false,
  route_kind: 'repo_view',
  lease_reason: 'highest_remaining',
} as const;
const valid = {
  status: 200,
  headers: { 'content-type': 'application/json; charset=utf-8', etag: 'W/"1"' },
  body: { id: 1, name: 'hello' },
  body_encoding: 'json',
  identity: { id: 'pat-1', kind: 'pat' },
  relay,
} as const;

describe('relayEnvelopeSchema', () => {
  it.each([
    ['a pooled-identity miss', valid],
    [
      'an anonymous read without identity',
      { ...valid, identity: null, relay: { ...relay, backend: 'forge_public' } },
    ],
    ['a web read', { ...valid, identity: null, relay: { ...relay, backend: 'web' } }],
    ['a text body', { ...valid, body: 'diff --git', body_encoding: 'text' }],
    [
      'an empty API body as null text',
      { ...valid, status: 204, body: null, body_encoding: 'text' },
    ],
    ['a base64 body', { ...valid, body: '77u/aGk=', body_encoding: 'base64' }],
    ['a 304 envelope', { ...valid, status: 304, body: null, body_encoding: 'text' }],
    [
      'a stale entry with its reason and expiry',
      {
        ...valid,
        relay: {
          ...relay,
          cache: 'stale',
          stale_ok: true,
          stale_reason: 'identities_cooling_down',
          cache_expires_at: '2026-11-22T10:00:00Z',
        },
      },
    ],
  ])('accepts %s', (_name, input) => {
    expect(relayEnvelopeSchema.safeParse(input).success).toBe(true);
  });

  it.each([
    ['a status below 100', { ...valid, status: 42 }],
    ['a fractional status', { ...valid, status: 200.5 }],
    ['an unknown encoding', { ...valid, body_encoding: 'gzip' }],
    [
      'a base64 body that is not base64',
      { ...valid, body: 'not base64!', body_encoding: 'base64' },
    ],
    ['a text body that is an object', { ...valid, body: { a: 1 }, body_encoding: 'text' }],
    ['an identity of unknown kind', { ...valid, identity: { id: 'x', kind: 'oauth' } }],
    ['an unknown route kind', { ...valid, relay: { ...relay, route_kind: 'org_view' } }],
    ['an unknown cache result', { ...valid, relay: { ...relay, cache: 'warm' } }],
    ['stale_ok without cache stale', { ...valid, relay: { ...relay, stale_ok: true } }],
    [
      'stale without its reason',
      {
        ...valid,
        relay: {
          ...relay,
          cache: 'stale',
          stale_ok: true,
          cache_expires_at: '2026-11-22T10:00:00Z',
        },
      },
    ],
    ['an unknown backend', { ...valid, relay: { ...relay, backend: 'mirror' } }],
    ['an unknown lease reason', { ...valid, relay: { ...relay, lease_reason: 'random' } }],
    ['an authorization header', { ...valid, headers: { Authorization: 'token x' } }],
    ['a set-cookie header', { ...valid, headers: { 'set-cookie': 'a=b' } }],
    ['an x-oauth-scopes header', { ...valid, headers: { 'x-oauth-scopes': 'repo' } }],
    ['an unknown field', { ...valid, extra: true }],
  ])('rejects %s', (_name, input) => {
    expect(relayEnvelopeSchema.safeParse(input).success).toBe(false);
  });
});

describe('relayEnvelopeBodySchema', () => {
  it.each([
    ['json', { a: [1, null] }],
    ['json', null],
    ['text', 'plain'],
    ['text', null],
    ['base64', 'AAE='],
    ['base64', ''],
  ])('accepts a %s body %j, other fields passing through', (body_encoding, body) => {
    expect(relayEnvelopeBodySchema.parse({ status: 200, body_encoding, body })).toEqual({
      status: 200,
      body_encoding,
      body,
    });
  });

  it.each([
    ['text', 1],
    ['base64', 'not base64!'],
    ['base64', null],
    ['gzip', 'x'],
  ])('refuses a %s body %j', (body_encoding, body) => {
    expect(relayEnvelopeBodySchema.safeParse({ body_encoding, body }).success).toBe(false);
  });
});

describe('filterEnvelopeHeaders', () => {
  it('keeps content, caching, rate-limit and request-id headers and drops credentials', () => {
    const kept = filterEnvelopeHeaders([
      ['Content-Type', 'application/json'],
      ['ETag', '"e"'],
      ['Link', '<https://api.github.com/x?page=2>; rel="next"'],
      ['X-RateLimit-Remaining', '4999'],
      ['X-GitHub-Request-Id', 'ABC'],
      ['Set-Cookie', 'session=1'],
      ['Authorization', 'token x'],
      ['X-OAuth-Scopes', 'repo'],
      ['GitHub-Authentication-Token-Expiration', '2030-01-01'],
      ['Server', 'github.com'],
    ]);
    expect(kept).toEqual({
      'content-type': 'application/json',
      etag: '"e"',
      link: '<https://api.github.com/x?page=2>; rel="next"',
      'x-ratelimit-remaining': '4999',
      'x-github-request-id': 'ABC',
    });
  });
});
