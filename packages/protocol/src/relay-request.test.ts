import { describe, expect, it } from 'vitest';
import { reduceRequestHeaders, relayRequestSchema } from './relay-request.js';

const SHA = 'a'.repeat(40);
const valid = { pool: 'default', method: 'GET', path: '/repos/octo/hello/pulls/1' };

describe('relayRequestSchema', () => {
  it.each([
    ['the minimal request', valid],
    [
      'a query of strings and string arrays',
      { ...valid, query: { state: 'open', labels: ['a', 'b'] } },
    ],
    ['headers', { ...valid, headers: { Accept: 'application/json' } }],
    ['a route hint', { ...valid, route_hint: { pr_head_sha: SHA, pr_state: 'closed' } }],
    ['a SHA-256 head', { ...valid, route_hint: { pr_head_sha: 'b'.repeat(64) } }],
    ['a pool id with dots, dashes and underscores', { ...valid, pool: 'team-a.ci_1' }],
  ])('accepts %s', (_name, input) => {
    expect(relayRequestSchema.safeParse(input).success).toBe(true);
  });

  it.each([
    ['pool missing', { method: 'GET', path: '/x' }],
    ['pool empty', { ...valid, pool: '' }],
    ['pool with a slash', { ...valid, pool: 'a/b' }],
    ['pool too long', { ...valid, pool: 'p'.repeat(101) }],
    ['method missing', { pool: 'p', path: '/x' }],
    ['method empty', { ...valid, method: '' }],
    ['path missing', { pool: 'p', method: 'GET' }],
    ['path empty', { ...valid, path: '' }],
    ['path not a string', { ...valid, path: 42 }],
    ['path over the schema bound', { ...valid, path: '/' + 'a'.repeat(4096) }],
    ['a query value that is a number', { ...valid, query: { page: 2 } }],
    ['a query array with a number', { ...valid, query: { labels: ['a', 1] } }],
    ['a header value that is not a string', { ...valid, headers: { accept: ['a'] } }],
    ['pr_head_sha that is not a hash', { ...valid, route_hint: { pr_head_sha: 'main' } }],
    ['pr_head_sha of 39 digits', { ...valid, route_hint: { pr_head_sha: 'a'.repeat(39) } }],
    ['pr_state outside the closed list', { ...valid, route_hint: { pr_state: 'draft' } }],
    ['an unknown route_hint field', { ...valid, route_hint: { sha: SHA } }],
    ['an unknown top-level field', { ...valid, owner: 'octo' }],
    ['a non-object body', 'GET /x'],
  ])('rejects %s', (_name, input) => {
    expect(relayRequestSchema.safeParse(input).success).toBe(false);
  });

  it('accepts legacy route_hint owner/repo/kind, cache_key and idempotency_key, and discards them', () => {
    const parsed = relayRequestSchema.parse({
      ...valid,
      route_hint: { owner: 'other', repo: 'other', kind: 'rate_limit' },
      cache_key: 'forged-key',
      idempotency_key: 'k-1',
    });
    expect(parsed).toEqual(valid);
  });

  it('keeps validated discriminators, normalizing the hash to lowercase', () => {
    const parsed = relayRequestSchema.parse({
      ...valid,
      route_hint: { pr_head_sha: 'ABCDEF' + '0'.repeat(34), pr_state: 'merged', kind: 'x' },
    });
    expect(parsed.route_hint).toEqual({
      pr_head_sha: 'abcdef' + '0'.repeat(34),
      pr_state: 'merged',
    });
  });
});

describe('reduceRequestHeaders', () => {
  it('keeps the allowlist, lowercases names and drops everything else', () => {
    expect(
      reduceRequestHeaders({
        Accept: 'application/vnd.github.raw+json',
        'If-None-Match': '"abc"',
        'If-Modified-Since': 'Mon, 01 Jan 2024 00:00:00 GMT',
        'Cache-Control': 'max-age=0',
        'X-GitHub-Api-Version': '2022-11-28',
        Authorization: 'Bearer secret',
        Cookie: 'a=b',
        'X-Forwarded-Host': 'evil.example',
      }),
    ).toEqual({
      accept: 'application/vnd.github.raw+json',
      'if-none-match': '"abc"',
      'if-modified-since': 'Mon, 01 Jan 2024 00:00:00 GMT',
      'cache-control': 'max-age=0',
      'x-github-api-version': '2022-11-28',
    });
  });

  it('treats x-forge-api-version as an alias of x-github-api-version', () => {
    expect(reduceRequestHeaders({ 'X-Forge-Api-Version': '2022-11-28' })).toEqual({
      'x-github-api-version': '2022-11-28',
    });
  });

  it('lets an explicit x-github-api-version win over the alias', () => {
    expect(
      reduceRequestHeaders({ 'x-forge-api-version': 'alias', 'x-github-api-version': 'real' }),
    ).toEqual({ 'x-github-api-version': 'real' });
  });

  it('returns nothing for no headers', () => {
    expect(reduceRequestHeaders(undefined)).toEqual({});
  });
});
