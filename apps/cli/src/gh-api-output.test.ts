import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  envelopeBodyBytes,
  findNextLink,
  formatGhHttpError,
  slurpPages,
  splicePaginatedPages,
} from './gh-api-output.js';

const pages = (...texts: string[]) => texts.map((text) => Buffer.from(text));

describe('splicePaginatedPages (gh paginatedArrayReader)', () => {
  it.each([
    [['[1,2]'], '[1,2]'],
    [['[1,2]', '[3]'], '[1,2,3]'],
    [['[1]', '[2]', '[3]'], '[1,2,3]'],
    [['[1]', '[]'], '[1 ]'],
    [['[1]', '[]', '[2]'], '[1 ,2]'],
    [['{"a":1}', '{"b":2}'], '{"a":1}{"b":2}'],
  ])('%j → %s', (input, expected) => {
    expect(splicePaginatedPages(pages(...input)).toString()).toBe(expected);
  });

  it('is one JSON array holding every element of non-empty array pages', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.jsonValue(), { minLength: 1, maxLength: 5 }), {
          minLength: 1,
          maxLength: 6,
        }),
        (arrays) => {
          const spliced = splicePaginatedPages(arrays.map((a) => Buffer.from(JSON.stringify(a))));
          expect(JSON.parse(spliced.toString())).toEqual(JSON.parse(JSON.stringify(arrays.flat())));
        },
      ),
    );
  });
});

describe('slurpPages', () => {
  it('wraps pages in one outer array', () => {
    expect(slurpPages(pages('[1]', '{"a":2}')).toString()).toBe('[[1],{"a":2}]');
  });
});

describe('envelopeBodyBytes', () => {
  it.each([
    [{ body: { a: [1, 'é'] }, body_encoding: 'json' as const }, '{"a":[1,"é"]}'],
    [{ body: 'line\r\n', body_encoding: 'text' as const }, 'line\r\n'],
    [{ body: null, body_encoding: 'text' as const }, ''],
    [
      { body: Buffer.from('\u0000bin').toString('base64'), body_encoding: 'base64' as const },
      '\u0000bin',
    ],
  ])('%j', (envelope, expected) => {
    expect(envelopeBodyBytes(envelope).toString('utf8')).toBe(expected);
  });
});

describe('formatGhHttpError', () => {
  it.each([
    [404, { message: 'Not Found' }, 'gh: Not Found (HTTP 404)\n'],
    [
      422,
      { message: 'Validation Failed', errors: [{ message: 'bad' }, 'worse'] },
      'gh: Validation Failed\nbad\nworse (HTTP 422)\n',
    ],
    [502, undefined, 'gh: HTTP 502\n'],
    [500, { other: 1 }, 'gh: HTTP 500\n'],
  ])('HTTP %i', (status, body, expected) => {
    expect(formatGhHttpError(status, body)).toBe(expected);
  });
});

describe('findNextLink', () => {
  it.each([
    ['<https://a/x?page=2>; rel="next", <https://a/x?page=9>; rel="last"', 'https://a/x?page=2'],
    ['<https://a/x?page=1>; rel="prev", <https://a/x?page=3>; rel="next"', 'https://a/x?page=3'],
    ['<https://a/x?page=1>; rel="first", <https://a/x?page=1>; rel="prev"', undefined],
    [undefined, undefined],
  ])('%s', (link, expected) => {
    expect(findNextLink(link)).toBe(expected);
  });
});
