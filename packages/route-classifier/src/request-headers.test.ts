import { describe, expect, it } from 'vitest';
import { MAX_AGE_CAP_SECONDS, parseCacheControlMaxAge, reduceHeaders } from './request-headers.js';

describe('parseCacheControlMaxAge', () => {
  it.each<[string, number | undefined]>([
    ['max-age=0', 0],
    ['max-age=60', 60],
    ['MAX-AGE=60', 60],
    [' max-age = 60 ', 60],
    ['no-cache, max-age=30', 30],
    ['max-age="45"', 45],
    ['max-age=007', 7],
    ['max-age=60, max-age=10', 10],
    ['max-age=99999999999999', MAX_AGE_CAP_SECONDS],
    ['no-cache', undefined],
    ['no-store, must-revalidate', undefined],
    ['max-age', undefined],
    ['max-age=', undefined],
    ['max-age=-1', undefined],
    ['max-age=1.5', undefined],
    ['max-age=abc', undefined],
    ['s-maxage=10', undefined],
    ['max-stale=10', undefined],
    ['', undefined],
  ])('%j → %s', (value, expected) => {
    expect(parseCacheControlMaxAge(value)).toBe(expected);
  });
});

describe('reduceHeaders', () => {
  it('keeps the allowlist, drops the rest, and never sends cache-control upstream', () => {
    const reduced = reduceHeaders({
      Accept: 'application/vnd.github+json',
      'X-GitHub-Api-Version': '2022-11-28',
      'If-None-Match': '"abc"',
      'Cache-Control': 'max-age=5',
      Authorization: 'token ghp_x',
      Cookie: 'a=b',
      'X-Forwarded-For': '10.0.0.1',
      'User-Agent': 'relay',
    });
    expect(reduced).toEqual({
      upstream: {
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        'if-none-match': '"abc"',
      },
      maxAgeSeconds: 5,
      conditional: true,
    });
  });

  it.each([
    [{ 'x-forge-api-version': '2022-11-28' }, '2022-11-28'],
    [{ 'X-Forge-Api-Version': '2022-11-28' }, '2022-11-28'],
    [{ 'x-forge-api-version': 'alias', 'x-github-api-version': 'explicit' }, 'explicit'],
  ])('x-forge-api-version is an alias of x-github-api-version (%j)', (headers, expected) => {
    expect(reduceHeaders(headers).upstream['x-github-api-version']).toBe(expected);
  });

  it.each([
    [{ 'if-none-match': 'W/"1"' }, true],
    [{ 'if-modified-since': 'Tue, 01 Jan 2026 00:00:00 GMT' }, true],
    [{ 'if-none-match': '  ' }, false],
    [{ accept: 'application/json' }, false],
    [undefined, false],
  ])('conditional for %j is %s', (headers, conditional) => {
    expect(reduceHeaders(headers).conditional).toBe(conditional);
  });

  it('drops values that are not valid HTTP field values', () => {
    const reduced = reduceHeaders({ accept: 'a\r\nX-Injected: 1', 'if-none-match': 'x\u0000' });
    expect(reduced.upstream).toEqual({});
    expect(reduced.conditional).toBe(false);
  });

  it.each([
    [{ 'Cache-Control': 'max-age=0', 'cache-control': 'max-age=600' }, 0],
    [{ 'cache-control': 'max-age=600', 'CACHE-CONTROL': 'no-cache, max-age=30' }, 30],
    [{ 'Cache-Control': 'max-age=60', 'cache-control': 'no-cache' }, 60],
    [{ 'Cache-Control': 'max-age=0', 'cache-control': 'max-age=600\r\n' }, 0],
  ])(
    'one cache-control under several spellings bounds by its strictest max-age (%j)',
    (headers, seconds) => {
      expect(reduceHeaders(headers).maxAgeSeconds).toBe(seconds);
    },
  );

  it('reads no max-age when cache-control has none', () => {
    expect(reduceHeaders({ 'cache-control': 'no-cache' }).maxAgeSeconds).toBeUndefined();
  });
});
