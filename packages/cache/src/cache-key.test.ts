import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCacheKey, type CacheKeyInput } from './cache-key.js';

const SHA_A = 'a'.repeat(40);
const SHA_B = 'b'.repeat(40);
const base: CacheKeyInput = {
  method: 'GET',
  routeKind: 'pr_files',
  url: 'https://api.github.com/repos/o/r/pulls/1/files',
};

describe('createCacheKey', () => {
  it.each<[string, CacheKeyInput, CacheKeyInput]>([
    ['query order', { ...base, query: { b: '2', a: '1' } }, { ...base, query: { a: '1', b: '2' } }],
    [
      'query in the URL or in the query object',
      { ...base, url: `${base.url as string}?page=2&per_page=100` },
      { ...base, query: { per_page: '100', page: '2' } },
    ],
    ['host case', { ...base, url: 'https://API.GitHub.com/repos/o/r/pulls/1/files' }, base],
    ['method case', { ...base, method: 'get' }, base],
    [
      'accept case and spaces',
      { ...base, accept: ' Application/JSON ' },
      { ...base, accept: 'application/json' },
    ],
    ['head sha case', { ...base, prHeadSha: SHA_A.toUpperCase() }, { ...base, prHeadSha: SHA_A }],
    ['open state and no state', { ...base, prState: 'open' }, base],
    [
      'PR discriminators on another kind',
      { ...base, routeKind: 'pr_view', prHeadSha: SHA_A, prState: 'merged' },
      { ...base, routeKind: 'pr_view' },
    ],
  ])('is the same regardless of %s', (_name, left, right) => {
    expect(createCacheKey(left)).toBe(createCacheKey(right));
  });

  it.each<[string, CacheKeyInput, CacheKeyInput]>([
    ['path', base, { ...base, url: 'https://api.github.com/repos/o/r/pulls/2/files' }],
    ['path case', base, { ...base, url: 'https://api.github.com/repos/O/r/pulls/1/files' }],
    ['host', base, { ...base, url: 'https://example.com/repos/o/r/pulls/1/files' }],
    ['query value', { ...base, query: { page: '1' } }, { ...base, query: { page: '2' } }],
    [
      'order of repeated values',
      { ...base, query: { a: ['1', '2'] } },
      { ...base, query: { a: ['2', '1'] } },
    ],
    ['accept', base, { ...base, accept: 'application/vnd.github.diff' }],
    ['API version', base, { ...base, apiVersion: '2022-11-28' }],
    ['head sha', { ...base, prHeadSha: SHA_A }, { ...base, prHeadSha: SHA_B }],
    ['known and unknown head', base, { ...base, prHeadSha: SHA_A }],
    ['closed and merged', { ...base, prState: 'closed' }, { ...base, prState: 'merged' }],
    ['closed and open', { ...base, prState: 'closed' }, { ...base, prState: 'open' }],
    ['method', base, { ...base, method: 'HEAD' }],
    [
      'a separator smuggled into a value',
      { ...base, query: { a: '1&b=2' } },
      { ...base, query: { a: '1', b: '2' } },
    ],
  ])('differs by %s', (_name, left, right) => {
    expect(createCacheKey(left)).not.toBe(createCacheKey(right));
  });

  it('does not depend on the order of query parameters (property)', () => {
    const params = fc.uniqueArray(
      fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ maxLength: 8 })),
      { selector: ([name]) => name, maxLength: 8 },
    );
    fc.assert(
      fc.property(params, (pairs) => {
        const forward = Object.fromEntries(pairs);
        const backward = Object.fromEntries([...pairs].reverse());
        expect(createCacheKey({ ...base, query: forward })).toBe(
          createCacheKey({ ...base, query: backward }),
        );
      }),
    );
  });

  it('gives different keys to different query values (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        fc.pre(a !== b);
        expect(createCacheKey({ ...base, query: { q: a } })).not.toBe(
          createCacheKey({ ...base, query: { q: b } }),
        );
      }),
    );
  });
});
