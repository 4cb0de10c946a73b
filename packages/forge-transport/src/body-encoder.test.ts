import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BODY_FIXTURES } from './__fixtures__/body-fixtures.js';
import { NUL_SCAN_BYTES, encodeBody, encodeOpaqueBody, isJsonContentType } from './body-encoder.js';
import type { EncodedBody } from './body-encoder.js';

function bytesOf(encoded: EncodedBody): Uint8Array {
  switch (encoded.encoding) {
    case 'base64':
      return Buffer.from(encoded.body, 'base64');
    case 'text':
      return Buffer.from(encoded.body ?? '', 'utf8');
    case 'json':
      throw new Error('json is not opaque');
  }
}

describe('encodeBody', () => {
  it.each(BODY_FIXTURES)('$name', (fixture) => {
    const bytes = Buffer.from(fixture.hex, 'hex');
    const encoded = encodeBody(bytes, {
      status: fixture.status,
      contentType: fixture.contentType,
      kind: fixture.kind,
    });
    expect(encoded).toEqual(fixture.expected);
  });

  it('keeps every byte of opaque bodies (text and base64 round-trip exactly)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 2048 }),
        fc.constantFrom('api', 'document'),
        (bytes, kind) => {
          fc.pre(bytes.length > 0);
          const encoded = encodeBody(bytes, { status: 200, contentType: 'text/plain', kind });
          expect(Buffer.from(bytesOf(encoded)).equals(Buffer.from(bytes))).toBe(true);
        },
      ),
    );
  });

  it('chooses text exactly for valid UTF-8 without a leading BOM or an early NUL', () => {
    const arbitraryBody = fc.oneof(
      fc.uint8Array({ maxLength: 64 }),
      fc.string({ unit: 'grapheme', maxLength: 64 }).map((s) => new Uint8Array(Buffer.from(s))),
      fc
        .tuple(fc.string({ maxLength: 8 }), fc.nat(NUL_SCAN_BYTES + 8))
        .map(([s, pad]) => new Uint8Array(Buffer.from(`${'x'.repeat(pad)}\u0000${s}`))),
    );
    fc.assert(
      fc.property(arbitraryBody, (bytes) => {
        const buffer = Buffer.from(bytes);
        const validUtf8 = Buffer.from(buffer.toString('utf8')).equals(buffer);
        const bom = buffer.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]));
        const earlyNul = buffer.subarray(0, NUL_SCAN_BYTES).includes(0);
        const expected = validUtf8 && !bom && !earlyNul ? 'text' : 'base64';
        expect(encodeOpaqueBody(bytes).encoding).toBe(expected);
      }),
    );
  });

  it('parses any JSON value a 2xx JSON answer carries, and only 2xx', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 100, max: 599 }), (value, status) => {
        const text = JSON.stringify(value);
        const encoded = encodeBody(Buffer.from(text), {
          status,
          contentType: 'application/json',
          kind: 'api',
        });
        if (status >= 200 && status < 300) {
          expect(encoded).toEqual({ encoding: 'json', body: JSON.parse(text) });
        } else {
          expect(encoded).toEqual({ encoding: 'text', body: text });
        }
      }),
    );
  });
});

describe('encodeBody: the JSON text the forge wrote', () => {
  const encodeJson = (text: string) =>
    encodeBody(Buffer.from(text), { status: 200, contentType: 'application/json', kind: 'api' });

  it.each([
    ['compact, as JSON.stringify writes it', '{"b":1,"a":[true,null,"x"]}', false],
    ['a float written 1.0 (search scores)', '{"score":1.0}', true],
    ['HTML characters escaped', '{"body":"\\u003c!-- x --\\u003e"}', true],
    ['an escaped slash', '{"url":"a\\/b"}', true],
    ['integer-like keys after others (emoji names)', '{"+1":"a","100":"b"}', true],
    ['pretty-printed', '{\n  "a": 1\n}', true],
    ['a trailing newline', '[1,2]\n', true],
    ['an exponent', '[1e3]', true],
  ])('%s: source kept only when JSON.stringify would not give it back', (_name, text, kept) => {
    const encoded = encodeJson(text);
    expect(encoded).toEqual(
      kept
        ? { encoding: 'json', body: JSON.parse(text), source: text }
        : { encoding: 'json', body: JSON.parse(text) },
    );
  });

  it('keeps JSON too deep for JSON.stringify opaque, byte for byte', () => {
    const text = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    expect(encodeJson(text)).toEqual({ encoding: 'text', body: text });
    const shallow = `${'['.repeat(100)}${']'.repeat(100)}`;
    expect(encodeJson(shallow).encoding).toBe('json');
  });

  it('keeps any formatting of any JSON value, and source always parses to the body', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 4 }), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const encoded = encodeJson(text);
        expect(encoded.encoding).toBe('json');
        if (encoded.encoding !== 'json') return;
        expect(encoded.body).toEqual(JSON.parse(text));
        expect(encoded.source ?? JSON.stringify(encoded.body)).toBe(text);
        expect(encoded.source === undefined).toBe(JSON.stringify(encoded.body) === text);
      }),
    );
  });
});

describe('isJsonContentType', () => {
  it.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    [' APPLICATION/JSON ;charset=UTF-8', true],
    ['application/vnd.github+json', true],
    ['application/problem+json', true],
    ['application/vnd.github.v3.raw', false],
    ['application/jsonp', false],
    ['text/json', false],
    ['text/plain', false],
    ['application/json-seq', false],
    ['', false],
    [undefined, false],
  ])('%s → %s', (contentType, expected) => {
    expect(isJsonContentType(contentType)).toBe(expected);
  });
});
