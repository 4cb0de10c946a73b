import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseForgeHosts } from './host-allowlist.js';
import { buildTargetUrl, isSafeTargetPath } from './target-url.js';

const hosts = parseForgeHosts({
  apiUrl: 'https://api.github.com',
  webUrl: 'https://ghe.example/api/v3',
});
if (!hosts.ok) throw new Error('fixture hosts');
const api = hosts.value.bases.api;
const ghe = hosts.value.bases.web;

describe('buildTargetUrl', () => {
  it.each([
    ['/repos/o/r', {}, 'https://api.github.com/repos/o/r'],
    ['/repos/o/r/contents/a%09b', {}, 'https://api.github.com/repos/o/r/contents/a%09b'],
    ['/repos/o/r/contents/a b', {}, 'https://api.github.com/repos/o/r/contents/a%20b'],
    ['/repos/o/r/contents/é', {}, 'https://api.github.com/repos/o/r/contents/%C3%A9'],
    ['/repos/o/r/branches/feat%2Fx', {}, 'https://api.github.com/repos/o/r/branches/feat%2Fx'],
    ['/repos/o/r/branches/feat%2fx', {}, 'https://api.github.com/repos/o/r/branches/feat%2Fx'],
    ['/repos/acme/%62luefalcon', {}, 'https://api.github.com/repos/acme/bluefalcon'],
    ['/repos/acme/%42lue%2D%5f%7e1', {}, 'https://api.github.com/repos/acme/Blue-_~1'],
    ['/repos/o/r/contents/%2562', {}, 'https://api.github.com/repos/o/r/contents/%2562'],
    ['/repos/o/r/contents/caf%c3%a9', {}, 'https://api.github.com/repos/o/r/contents/caf%C3%A9'],
    ['/@evil.example/x', {}, 'https://api.github.com/@evil.example/x'],
    [
      '/search/issues',
      { q: 'repo:o/r is:open', per_page: '100' },
      'https://api.github.com/search/issues?q=repo%3Ao%2Fr+is%3Aopen&per_page=100',
    ],
    ['/x', { a: ['1', '2'], b: '&c=d' }, 'https://api.github.com/x?a=1&a=2&b=%26c%3Dd'],
    ['/x', { 'k#': 'v?' }, 'https://api.github.com/x?k%23=v%3F'],
  ])('%s %j → %s', (path, query, expected) => {
    const url = buildTargetUrl(api, path, query);
    expect(url.ok && url.value.href).toBe(expected);
  });

  it('places the path under the base path', () => {
    const url = buildTargetUrl(ghe, '/repos/o/r');
    expect(url.ok && url.value.href).toBe('https://ghe.example/api/v3/repos/o/r');
  });

  it.each([
    'repos/o/r',
    '',
    '//evil.example/x',
    '/https://evil.example/',
    '/a/../b',
    '/a/./b',
    '/a/..',
    '/a/%2e%2e/b',
    '/a/%2E/b',
    '/a%5cb',
    '/a\\b',
    '/a?b=1',
    '/a#b',
    '/a\tb',
    '/a\nb',
    '/a\rb',
    '/a\u0000b',
    '/a\u007fb',
  ])('refuses %j', (path) => {
    expect(buildTargetUrl(api, path)).toEqual({ ok: false, error: 'invalid_path' });
  });

  it('never leaves the base origin, whatever the path and query', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 40 }),
        fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 12 })),
        (tail, query) => {
          const url = buildTargetUrl(api, `/${tail}`, query);
          if (url.ok) {
            expect(url.value.origin).toBe('https://api.github.com');
            expect(url.value.hash).toBe('');
            expect(isSafeTargetPath(`/${tail}`)).toBe(true);
          } else {
            expect(isSafeTargetPath(`/${tail}`)).toBe(false);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('sends the path in its canonical form, whatever escapes spell it', () => {
    const unreserved = fc.string({
      unit: fc.constantFrom(...'abcXYZ019-_~'.split('')),
      minLength: 1,
      maxLength: 12,
    });
    fc.assert(
      fc.property(unreserved, fc.array(fc.boolean()), fc.boolean(), (name, encode, lower) => {
        const spelled = Array.from(name)
          .map((char, index) => {
            if (encode[index] !== true) return char;
            const hex = char.charCodeAt(0).toString(16);
            return `%${lower ? hex : hex.toUpperCase()}`;
          })
          .join('');
        const url = buildTargetUrl(api, `/repos/o/${spelled}`);
        expect(url.ok && url.value.pathname).toBe(`/repos/o/${name}`);
      }),
    );
  });

  it('keeps query values exactly (form-decoding gives them back)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ maxLength: 16 })),
        (query) => {
          const url = buildTargetUrl(api, '/x', query);
          expect(url.ok && Object.fromEntries(url.value.searchParams)).toEqual(query);
        },
      ),
    );
  });
});
