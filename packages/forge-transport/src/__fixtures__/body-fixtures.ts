import type { BodyKind, EncodedBody } from '../body-encoder.js';

/** One byte-exact body and the envelope body SPEC.md's encoding rules give for it. */
export interface BodyFixture {
  readonly name: string;
  /** The upstream bytes, as hex. */
  readonly hex: string;
  readonly status: number;
  readonly contentType?: string;
  readonly kind: BodyKind;
  readonly expected: EncodedBody;
}

const hex = (text: string): string => Buffer.from(text, 'utf8').toString('hex');
const b64 = (bytes: string): string => Buffer.from(bytes, 'hex').toString('base64');

const NUL_AT_1023 = `${'61'.repeat(1023)}00`;
const NUL_AT_1024 = `${'61'.repeat(1024)}00`;

/** Every body-encoding rule, with edge cases on each side. */
export const BODY_FIXTURES: readonly BodyFixture[] = [
  // Rule 2: empty bodies.
  {
    name: 'empty API body',
    hex: '',
    status: 200,
    kind: 'api',
    expected: { encoding: 'text', body: null },
  },
  {
    name: 'empty 204',
    hex: '',
    status: 204,
    kind: 'api',
    expected: { encoding: 'text', body: null },
  },
  {
    name: 'empty 304',
    hex: '',
    status: 304,
    kind: 'api',
    expected: { encoding: 'text', body: null },
  },
  {
    name: 'empty API body with a JSON content type',
    hex: '',
    status: 200,
    contentType: 'application/json; charset=utf-8',
    kind: 'api',
    expected: { encoding: 'text', body: null },
  },
  {
    name: 'empty diff',
    hex: '',
    status: 200,
    contentType: 'text/plain',
    kind: 'document',
    expected: { encoding: 'text', body: '' },
  },
  // Rule 3: successful JSON is parsed.
  {
    name: 'JSON object with whitespace',
    hex: hex('{ "a" : 1,\n  "b": [true, null, "x"] }\n'),
    status: 200,
    contentType: 'application/json; charset=utf-8',
    kind: 'api',
    expected: {
      encoding: 'json',
      body: { a: 1, b: [true, null, 'x'] },
      source: '{ "a" : 1,\n  "b": [true, null, "x"] }\n',
    },
  },
  {
    name: 'vendor +json media type',
    hex: hex('[1,2]'),
    status: 200,
    contentType: 'Application/VND.GitHub+JSON',
    kind: 'api',
    expected: { encoding: 'json', body: [1, 2] },
  },
  {
    name: 'JSON scalar',
    hex: hex('"ok"'),
    status: 201,
    contentType: 'application/json',
    kind: 'api',
    expected: { encoding: 'json', body: 'ok' },
  },
  {
    name: 'JSON number beyond 2^53 (ordinary JSON value semantics)',
    hex: hex('{"id":12345678901234567890}'),
    status: 200,
    contentType: 'application/json',
    kind: 'api',
    expected: {
      encoding: 'json',
      body: { id: Number('12345678901234567890') },
      source: '{"id":12345678901234567890}',
    },
  },
  {
    name: 'JSON with escaped and astral characters',
    hex: hex('{"s":"\\u00e9 \u{1F600} \\n"}'),
    status: 200,
    contentType: 'application/json',
    kind: 'api',
    expected: {
      encoding: 'json',
      body: { s: '\u00e9 \u{1F600} \n' },
      source: '{"s":"\\u00e9 \u{1F600} \\n"}',
    },
  },
  {
    name: 'JSON error answer (404) stays opaque text',
    hex: hex('{"message":"Not Found"}'),
    status: 404,
    contentType: 'application/json; charset=utf-8',
    kind: 'api',
    expected: { encoding: 'text', body: '{"message":"Not Found"}' },
  },
  {
    name: 'JSON text without a JSON content type stays text',
    hex: hex('{"a":1}'),
    status: 200,
    contentType: 'text/plain; charset=utf-8',
    kind: 'api',
    expected: { encoding: 'text', body: '{"a":1}' },
  },
  {
    name: 'malformed JSON falls back to text',
    hex: hex('{"a": 1,'),
    status: 200,
    contentType: 'application/json',
    kind: 'api',
    expected: { encoding: 'text', body: '{"a": 1,' },
  },
  {
    name: 'malformed JSON with invalid UTF-8 falls back to base64',
    hex: '7b2261223a22ff227d',
    status: 200,
    contentType: 'application/json',
    kind: 'api',
    expected: { encoding: 'base64', body: b64('7b2261223a22ff227d') },
  },
  {
    name: 'JSON behind a BOM falls back to base64',
    hex: `efbbbf${hex('{"a":1}')}`,
    status: 200,
    contentType: 'application/json',
    kind: 'api',
    expected: { encoding: 'base64', body: b64(`efbbbf${hex('{"a":1}')}`) },
  },
  // Rule 1: opaque bodies.
  {
    name: 'plain UTF-8 text',
    hex: hex('diff --git a/x b/x\n'),
    status: 200,
    contentType: 'text/x-diff',
    kind: 'document',
    expected: { encoding: 'text', body: 'diff --git a/x b/x\n' },
  },
  {
    name: 'CRLF is preserved',
    hex: '6c696e65310d0a6c696e65320d0a',
    status: 200,
    contentType: 'text/plain',
    kind: 'document',
    expected: { encoding: 'text', body: 'line1\r\nline2\r\n' },
  },
  {
    name: 'literal U+FFFD stays text',
    hex: '61efbfbd62',
    status: 200,
    contentType: 'text/plain',
    kind: 'document',
    expected: { encoding: 'text', body: 'a\uFFFDb' },
  },
  {
    name: 'astral characters stay text',
    hex: 'f09f9880',
    status: 200,
    kind: 'api',
    expected: { encoding: 'text', body: '\u{1F600}' },
  },
  {
    name: 'a BOM after the first byte stays text',
    hex: '61efbbbf',
    status: 200,
    kind: 'document',
    expected: { encoding: 'text', body: 'a\uFEFF' },
  },
  {
    name: 'leading BOM selects base64',
    hex: 'efbbbf6869',
    status: 200,
    contentType: 'text/plain',
    kind: 'document',
    expected: { encoding: 'base64', body: '77u/aGk=' },
  },
  {
    name: 'NUL at byte 0',
    hex: '0061',
    status: 200,
    kind: 'document',
    expected: { encoding: 'base64', body: 'AGE=' },
  },
  {
    name: 'NUL at byte 1023 (inside the first 1,024)',
    hex: NUL_AT_1023,
    status: 200,
    kind: 'document',
    expected: { encoding: 'base64', body: b64(NUL_AT_1023) },
  },
  {
    name: 'NUL at byte 1024 (after the first 1,024) stays text',
    hex: NUL_AT_1024,
    status: 200,
    kind: 'document',
    expected: { encoding: 'text', body: `${'a'.repeat(1024)}\u0000` },
  },
  {
    name: 'invalid continuation',
    hex: 'c328',
    status: 200,
    kind: 'document',
    expected: { encoding: 'base64', body: 'wyg=' },
  },
  {
    name: 'truncated sequence at the end',
    hex: '61e282',
    status: 200,
    kind: 'document',
    expected: { encoding: 'base64', body: 'YeKC' },
  },
  {
    name: 'overlong encoding',
    hex: 'c0af',
    status: 200,
    kind: 'document',
    expected: { encoding: 'base64', body: 'wK8=' },
  },
  {
    name: 'encoded surrogate',
    hex: 'eda080',
    status: 200,
    kind: 'document',
    expected: { encoding: 'base64', body: '7aCA' },
  },
  {
    name: 'lone 0xff byte',
    hex: 'ff',
    status: 200,
    kind: 'api',
    expected: { encoding: 'base64', body: '/w==' },
  },
];
