import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  envelopeBodyBytes,
  findNextLink,
  formatGhHttpError,
  ghErrorMessage,
  isGhJsonContentType,
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

describe('splicePaginatedPages: only the pages gh read as JSON', () => {
  it('leaves a non-JSON page whole and still splices the JSON ones around it', () => {
    expect(splicePaginatedPages(pages('[1]', '[2]', '[3]'), [true, false, true]).toString()).toBe(
      '[1[2],3]',
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

// gh's parseErrorResponse cases (pkg/cmd/api/api_test.go) plus Go decoding facts.
describe('ghErrorMessage (gh api parseErrorResponse)', () => {
  it.each([
    [500, '{}', ''],
    [500, '{"errors":null}', ''],
    [500, 'null', ''],
    [500, '{"message": "OH NOES"}', 'OH NOES (HTTP 500)'],
    [404, '{"message":"Not Found","documentation_url":"https://docs"}', 'Not Found (HTTP 404)'],
    [409, '{"message": "Conflict", "errors": "Some description"}', 'Some description (Conflict)'],
    [409, '{"errors": "Some description"}', 'Some description'],
    [409, '{"message": "Conflict", "errors": ""}', 'Conflict (HTTP 409)'],
    [500, '{"errors": ["fail1", "asplode2"]}', 'fail1\nasplode2'],
    [500, '{"errors": [{"message":"fail1"}, {"message":"asplode2"}]}', 'fail1\nasplode2'],
    // A message wins over an errors array (422 Validation Failed prints only the message).
    [
      422,
      '{"message":"Validation Failed","errors":[{"resource":"Issue","code":"missing_field"}]}',
      'Validation Failed (HTTP 422)',
    ],
    // gh decodes every errors object into one reused struct: a missing message repeats the last.
    [422, '{"errors":[{"message":"a"},{"code":"x"},"s",3,null,[1]]}', 'a\na\ns'],
    [422, '{"errors":[{"code":"x"}]}', ''],
    [422, '{"errors":[{"code":"x"},{"message":"b"}]}', '\nb'],
    // Go matches struct fields case-insensitively; null leaves a field as it was.
    [400, '{"MESSAGE":"loud"}', 'loud (HTTP 400)'],
    [400, '{"Message":"a","message":null}', 'a (HTTP 400)'],
    [400, '{"errors":{"message":"x"}}', ''],
  ])('HTTP %i %s → %j', (status, body, message) => {
    expect(ghErrorMessage(status, body)).toEqual({ ok: true, message });
  });

  it.each([
    ['not json'],
    [''],
    ['[{"message":"x"}]'],
    ['"Not Found"'],
    ['{"message":1}'],
    ['{"errors":[{"message":true}]}'],
    ['{"message":"x"} trailing'],
  ])('%j is a body gh cannot decode (its Go error is not modelled)', (body) => {
    expect(ghErrorMessage(404, body)).toEqual({ ok: false });
  });
});

describe('formatGhHttpError', () => {
  it.each([
    [404, 'Not Found (HTTP 404)', 'gh: Not Found (HTTP 404)\n'],
    [422, 'a\nb', 'gh: a\nb\n'],
    [502, '', 'gh: HTTP 502\n'],
  ])('HTTP %i %j', (status, message, expected) => {
    expect(formatGhHttpError(status, message)).toBe(expected);
  });
});

describe('isGhJsonContentType (gh: [/+]json(;|$))', () => {
  it.each([
    ['application/json; charset=utf-8', true],
    ['application/json', true],
    ['application/vnd.github+json', true],
    ['application/problem+json;x=1', true],
    ['text/plain', false],
    ['application/jsonp', false],
    ['application/JSON', false],
  ])('%s → %s', (type, expected) => {
    expect(isGhJsonContentType({ 'content-type': type })).toBe(expected);
  });
});

describe('findNextLink (gh findNextPage)', () => {
  it.each([
    ['<https://a/x?page=2>; rel="next", <https://a/x?page=9>; rel="last"', 'https://a/x?page=2'],
    ['<https://a/x?page=1>; rel="prev", <https://a/x?page=3>; rel="next"', 'https://a/x?page=3'],
    ['<https://a/x?page=1>; rel="first", <https://a/x?page=1>; rel="prev"', undefined],
    ['<https://a/x?page=3>;rel="next"', 'https://a/x?page=3'],
    // gh's pattern: quoted, exactly "next", `;` right after `>`.
    ['<https://a/x?page=3>; rel=next', undefined],
    ['<https://a/x?page=3> ; rel="next"', undefined],
    ['<https://a/x?page=3>; rel="next last"', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('%s', (link, expected) => {
    expect(findNextLink(link)).toBe(expected);
  });
});

/** Debian's gh (2.23) has gh 2.60's parseErrorResponse and error printing, byte for byte. */
const hasGh = spawnSync('gh', ['--version']).status === 0;

describe.skipIf(!hasGh)('error bodies: the same bytes as the real gh api', () => {
  let answer = { status: 404, body: '' };
  const server = createServer((_request, response) => {
    response.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
    response.end(answer.body);
  });
  const configDir = mkdtempSync(join(tmpdir(), 'relay-gh-oracle-'));
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(configDir, { recursive: true, force: true });
  });

  const realGh = (): Promise<{ code: number | null; stdout: string; stderr: string }> =>
    new Promise((resolve, reject) => {
      const { port } = server.address() as AddressInfo;
      const child = spawn('gh', ['api', '/x'], {
        env: {
          PATH: process.env.PATH,
          HOME: configDir,
          GH_CONFIG_DIR: configDir,
          GH_HOST: 'github.localhost',
          GH_TOKEN: 'oracle-token',
          HTTP_PROXY: `http://127.0.0.1:${String(port)}`,
          GH_NO_UPDATE_NOTIFIER: '1',
        },
      });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
      child.once('error', reject);
      child.once('close', (code) => {
        resolve({
          code,
          stdout: Buffer.concat(out).toString('utf8'),
          stderr: Buffer.concat(err).toString('utf8'),
        });
      });
    });

  it.each([
    [404, '{"message":"Not Found","documentation_url":"https://docs.github.com/rest"}'],
    [422, '{"message":"Validation Failed","errors":[{"resource":"Issue","code":"missing"}]}'],
    [422, '{"errors":[{"message":"a"},{"code":"x"},"s",3,null,[1]]}'],
    [422, '{"errors":[{"code":"x"},{"message":"b"}]}'],
    [422, '{"errors":[{"code":"x"}]}'],
    [409, '{"message":"Conflict","errors":"Some description"}'],
    [409, '{"errors":"Some description"}'],
    [400, '{"MESSAGE":"loud"}'],
    [400, '{"Message":"a","message":null}'],
    [500, '{}'],
    [500, 'null'],
    // gh cannot decode these: it prints a Go error and no body (served by the native gh).
    [404, '[{"message":"x"}]'],
    [404, '{"message":1}'],
    [404, 'not json'],
  ])('HTTP %i %s', async (status, body) => {
    answer = { status, body };
    const gh = await realGh();
    expect(gh.code).toBe(1);
    const parsed = ghErrorMessage(status, body);
    if (parsed.ok) {
      expect({ stdout: gh.stdout, stderr: gh.stderr }).toEqual({
        stdout: body,
        stderr: formatGhHttpError(status, parsed.message),
      });
    } else {
      expect(gh.stdout).toBe('');
      expect(gh.stderr).not.toContain('gh: ');
    }
  });
});
