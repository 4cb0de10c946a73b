import { describe, expect, it } from 'vitest';
import { sanitizeAscii } from './ascii-sanitizer.js';
import { encodeGoJson } from './go-json-encoder.js';
import type { GoJsonValue } from './go-json-encoder.js';
import { formatJqOutput } from '../../gh-jq.js';
import { createFakeDependencies } from '../../../test/cli-harness.js';
import { runJqExport } from './jq-export.js';
import {
  JSON_FIELD_CATALOGUES,
  formatJsonFieldError,
  missingFieldsError,
  parseCsvRecord,
  selectJsonFields,
} from './json-field-catalogue.js';
import { renderJsonExport } from './json-export-writer.js';
import { formatRestHttpError } from './rest-error.js';
import { formatRfc3339, removeExcessiveWhitespace, renderTsvTable } from './tsv-table.js';

describe('--json catalogues (cli/cli v2.60.0 TestJSONFields)', () => {
  it.each([
    ['label list', 'color createdAt description id isDefault name updatedAt url'],
    ['release list', 'createdAt isDraft isLatest isPrerelease name publishedAt tagName'],
    [
      'release view',
      'apiUrl assets author body createdAt databaseId id isDraft isPrerelease name publishedAt tagName tarballUrl targetCommitish uploadUrl url zipballUrl',
    ],
  ] as const)('%s has exactly the fields of GH-CLI.md §2', (command, fields) => {
    expect([...JSON_FIELD_CATALOGUES[command]].sort()).toEqual(fields.split(' '));
  });
});

describe('field selection and gh error texts (pkg/cmdutil/json_flags_test.go)', () => {
  it.each([
    [{ json: ['name,color'] }, ['name', 'color'], undefined],
    [{ json: ['name', 'color,name'] }, ['name', 'color'], undefined],
    [{ json: ['"name",id'], jq: ['.a', '.[0]'] }, ['name', 'id'], '.[0]'],
    [{ json: [''] }, [], undefined],
  ])('%j selects %j, jq %s', (flags, fields, jq) => {
    expect(selectJsonFields('label list', flags)).toEqual({
      ok: true,
      value: { kind: 'json', fields, jq },
    });
  });

  it('no --json is the human output; --jq alone is gh’s error', () => {
    expect(selectJsonFields('label list', {})).toEqual({ ok: true, value: { kind: 'human' } });
    const jqAlone = selectJsonFields('label list', { jq: ['.'] });
    expect(jqAlone).toEqual({ ok: false, error: { code: 'jq_without_json' } });
    expect(formatJsonFieldError({ code: 'jq_without_json' })).toBe(
      'cannot use `--jq` without specifying `--json`\n',
    );
  });

  it('an unknown field lists the catalogue byte-sorted, indented two spaces', () => {
    const result = selectJsonFields('release list', { json: ['name,idontexist'] });
    expect(result.ok).toBe(false);
    if (result.ok || result.error.code !== 'unknown_field') throw new Error('expected an error');
    expect(formatJsonFieldError(result.error)).toBe(
      'Unknown JSON field: "idontexist"\nAvailable fields:\n  createdAt\n  isDraft\n  isLatest\n  isPrerelease\n  name\n  publishedAt\n  tagName\n',
    );
  });

  it('bare --json prints the prompt and the catalogue', () => {
    const error = missingFieldsError('label list');
    if (error.code !== 'missing_fields') throw new Error('unexpected');
    expect(formatJsonFieldError(error)).toBe(
      'Specify one or more comma-separated fields for `--json`:\n  color\n  createdAt\n  description\n  id\n  isDefault\n  name\n  updatedAt\n  url\n',
    );
  });

  it.each([
    ['a,b', ['a', 'b']],
    ['"a,b",c', ['a,b', 'c']],
    ['"a""b"', ['a"b']],
    ['a,,b', ['a', '', 'b']],
    ['', []],
    ['a"b', undefined],
    ['"a', undefined],
    ['"a"b', undefined],
    ['a\nb', undefined],
  ])('CSV record %j → %j', (value, fields) => {
    expect(parseCsvRecord(value)).toEqual(fields);
  });
});

describe('Go JSON encoding', () => {
  it.each<[GoJsonValue, string, string]>([
    [{ b: 1, a: '<&>' }, '{"a":"<&>","b":1}', '{"a":"\\u003c\\u0026\\u003e","b":1}'],
    [['\u2028', 'é', '\u0001'], '["\\u2028","é","\\u0001"]', '["\\u2028","é","\\u0001"]'],
    [
      [1.5, 1e21, 1e-7, 0, null, true],
      '[1.5,1e+21,1e-07,0,null,true]',
      '[1.5,1e+21,1e-07,0,null,true]',
    ],
    [{ Z: 1, a: 2, B: 3 }, '{"B":3,"Z":1,"a":2}', '{"B":3,"Z":1,"a":2}'],
  ])('%j', (value, plain, escaped) => {
    expect(encodeGoJson(value, { escapeHtml: false, sortKeys: true })).toBe(plain);
    expect(encodeGoJson(value, { escapeHtml: true, sortKeys: true })).toBe(escaped);
  });

  it('the export is one line with a newline, HTML not escaped', () => {
    expect(renderJsonExport([{ name: 'a<b', color: 'fff' }])).toBe(
      '[{"color":"fff","name":"a<b"}]\n',
    );
  });
});

describe('--jq results as gh prints them without a terminal', () => {
  it.each<[GoJsonValue, string]>([
    ['Mona', 'Mona\n'],
    [null, '\n'],
    [3, '3\n'],
    [2.5, '2.50\n'],
    // FormatFloat(f, 'f', 2, 64): an exact half rounds to even (gh 2.23: --jq 0.125 is 0.12).
    [0.125, '0.12\n'],
    [0.375, '0.38\n'],
    [-0.625, '-0.62\n'],
    [2.675, '2.67\n'],
    [1.005, '1.00\n'],
    [-0.001, '-0.00\n'],
    [1 / 3, '0.33\n'],
    [123456.999, '123457.00\n'],
    [5e-324, '0.00\n'],
    [1e21, '1000000000000000000000\n'],
    // FormatFloat(f, 'f', 0, 64) writes a double beyond 2^53 exactly (gh 2.23: 9800000008 * 1e10).
    [9800000008 * 1e10, '98000000079999991808\n'],
    [-(2 ** 60) - 2 ** 8, '-1152921504606847232\n'],
    [true, 'true\n'],
    [{ b: '<x>', a: [1] }, '{"a":[1],"b":"\\u003cx\\u003e"}\n'],
  ])('%j → %j', (value, text) => {
    // What `jq -c` prints for the result, read back as the export's --jq does.
    expect(formatJqOutput(`${JSON.stringify(value)}\n`)).toBe(text);
  });

  it('api_test "jq filter": .[].name over Mona, Hubot', () => {
    expect(formatJqOutput('"Mona"\n"Hubot"\n')).toBe('Mona\nHubot\n');
  });

  it.each([
    ['0.125\n', { ok: true, text: '0.12\n' }],
    ['1.7976931348623157e+308\n', { ok: false }],
    // jq's doubles lose gojq's int/float distinction that decides gh's 0 or -0.
    ['-0\n', { ok: false }],
    ['[1,-0]\n', { ok: false }],
    ['{"a":-0}\n', { ok: false }],
    ['-0.5\n', { ok: true, text: '-0.50\n' }],
  ])('runJqExport over jq’s %j: %j', async (stdout, expected) => {
    const deps = createFakeDependencies({
      runProcess: () =>
        Promise.resolve({ code: 0, stdout: Buffer.from(stdout), stderr: Buffer.from('') }),
    });
    expect(await runJqExport(deps, '/usr/bin/jq', '.', '{}')).toEqual(expected);
  });

  it('jq reads the export as gojq does: every object, nested structs included, keys sorted', async () => {
    const inputs: string[] = [];
    const deps = createFakeDependencies({
      runProcess: (_file, _args, options) => {
        inputs.push(Buffer.from(options.input ?? '').toString('utf8'));
        return Promise.resolve({
          code: 0,
          stdout: Buffer.from('"{\\"color\\":\\"fff\\",\\"id\\":\\"L1\\",\\"name\\":\\"bug\\"}"\n'),
          stderr: Buffer.from(''),
        });
      },
    });
    // gh marshals the export and decodes it into Go maps before gojq runs: the label struct's
    // declaration order (id, name, description, color) is gone, `tojson` prints sorted keys.
    const json = '{"labels":[{"id":"L1","name":"bug","color":"fff"}]}\n';
    expect(await runJqExport(deps, '/usr/bin/jq', '.labels[0] | tojson', json)).toEqual({
      ok: true,
      text: '{"color":"fff","id":"L1","name":"bug"}\n',
    });
    expect(inputs).toEqual(['{"labels":[{"color":"fff","id":"L1","name":"bug"}]}']);
  });

  it.each(['env.HOME', '$ENV.PATH', '.[] | select(.login == env.USER)', 'now', 'input'])(
    '%s (gojq reads gh’s environment, clock or inputs its own way) is not run: gh runs',
    async (filter) => {
      let runs = 0;
      const deps = createFakeDependencies({
        runProcess: () => {
          runs += 1;
          return Promise.resolve({ code: 0, stdout: Buffer.from('1\n'), stderr: Buffer.from('') });
        },
      });
      expect(await runJqExport(deps, '/usr/bin/jq', filter, '[]\n')).toEqual({ ok: false });
      expect(runs).toBe(0);
    },
  );

  it('an infinity jq clamps to the largest double is not printed (gh prints +Inf): gh runs', () => {
    expect(formatJqOutput('1.7976931348623157e+308\n')).toBeUndefined();
    expect(formatJqOutput('[1.7976931348623157e+308]\n')).toBeUndefined();
  });
});

describe('tables, times, sanitizing and REST errors', () => {
  it('a non-TTY table is tab-separated rows, no header, no padding', () => {
    expect(
      renderTsvTable([
        ['bug', '', '#d73a4a'],
        ['a b', 'long text', '#fff'],
      ]),
    ).toBe('bug\t\t#d73a4a\na b\tlong text\t#fff\n');
  });

  it.each([
    ['  a \n\t b  ', 'a b'],
    ['x', 'x'],
    // Go's strings.TrimSpace trims Unicode spaces at the ends; RE2's \s inside is ASCII only
    // (no VT), so NBSP, VT, U+2003 and U+FEFF stay inside a title, as gh prints them.
    ['\u00a0 nb\u00a0\u00a0sp\v\vvt\u2003em\ufeff ', 'nb\u00a0\u00a0sp\v\vvt\u2003em\ufeff'],
    ['\u3000\u2028a\f\r\nb\u0085', 'a b'],
    ['\ufeffa', '\ufeffa'],
  ])('collapses %j as gh’s text.RemoveExcessiveWhitespace', (text, out) => {
    expect(removeExcessiveWhitespace(text)).toBe(out);
  });

  it.each([
    ['2022-08-24T20:01:12Z', '2022-08-24T20:01:12Z'],
    ['2022-08-24T20:01:12.123Z', '2022-08-24T20:01:12Z'],
    ['2022-08-24T20:01:12+02:00', '2022-08-24T20:01:12+02:00'],
  ])('RFC 3339 %s', (iso, out) => {
    expect(formatRfc3339(iso)).toBe(out);
  });

  it('sanitizes C0 and C1 controls as go-gh does (api/http_client_test.go)', () => {
    expect(sanitizeAscii('\u001B[31mRed Title\u001B[0m')).toBe('^[[31mRed Title^[[0m');
    expect(sanitizeAscii('1\u0001 8\b 9\t A\r\n B\u000b C\u000c E\u000e')).toBe(
      '1^A 8\b 9\t A\r\n B\u000b C\u000c E^N',
    );
    expect(sanitizeAscii('80\u0080 9B\u009b monalisa¡')).toBe('80^@ 9B^[ monalisa¡');
  });

  it.each([
    [
      404,
      { message: 'Not Found' },
      'HTTP 404: Not Found (https://api.github.com/repos/o/r/releases/latest)\n',
    ],
    [
      422,
      {
        message: 'Validation Failed',
        errors: [{ resource: 'Release', field: 'tag_name', code: 'missing' }],
      },
      'HTTP 422: Validation Failed (https://api.github.com/repos/o/r/releases/latest)\nRelease.tag_name is missing\n',
    ],
    [500, {}, 'HTTP 500 (https://api.github.com/repos/o/r/releases/latest)\n'],
    [
      502,
      undefined,
      'HTTP 502: 502 Bad Gateway (https://api.github.com/repos/o/r/releases/latest)\n',
    ],
  ])('HTTP %i error text', (status, body, text) => {
    expect(formatRestHttpError(status, '/repos/o/r/releases/latest', body)).toBe(text);
  });
});
