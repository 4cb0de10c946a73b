import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkJqExpression,
  formatFloatTwoDecimals,
  formatGhJqResult,
  formatJqOutput,
  goJsonMarshal,
  normalizeJqInput,
} from './gh-jq.js';

const hasJq = spawnSync('jq', ['--version']).status === 0;
/** Debian's gh (2.23: go-gh v1.0.0 jq.Evaluate, the same non-TTY printing as 2.60's). */
const hasGh = spawnSync('gh', ['--version']).status === 0;

/** The pipeline of the runner: normalized input → system jq -c → gh's printing. */
function ghJq(body: string, expression: string): string | undefined {
  const check = checkJqExpression(expression);
  const input = normalizeJqInput(body);
  if (!check.ok || input === undefined || (check.stringifies && input.riskyNumbers)) {
    return undefined;
  }
  const run = spawnSync('jq', ['-c', expression], { input: input.text, encoding: 'utf8' });
  if (run.status !== 0) return undefined;
  return formatJqOutput(run.stdout);
}

describe('formatGhJqResult (go-gh jq: scalars raw, the rest json.Marshal)', () => {
  it.each([
    ['Mona', 'Mona\n'],
    ['two\nlines', 'two\nlines\n'],
    [null, '\n'],
    [true, 'true\n'],
    [8, '8\n'],
    [-0, '-0\n'],
    // Integers in full (strconv 'f', 0), other numbers with two decimals.
    [1e21, '1000000000000000000000\n'],
    [12345678901234567168, '12345678901234567168\n'],
    [1.5, '1.50\n'],
    [3.14159, '3.14\n'],
    [-0.001, '-0.00\n'],
    [1e-7, '0.00\n'],
    [[], '[]\n'],
    [{}, '{}\n'],
    [{ login: 'monalisa' }, '{"login":"monalisa"}\n'],
  ])('%j → %j', (value, expected) => {
    expect(formatGhJqResult(value)).toBe(expected);
  });

  it.each(['-0\n', '[1,-0]\n', '{"a":-0}\n', '"x"\n-0\n'])(
    'formatJqOutput leaves out a negative zero, int or float to gojq but not to jq (%j)',
    (output) => {
      expect(formatJqOutput(output)).toBeUndefined();
    },
  );

  it('formatJqOutput prints a zero, and a string holding -0', () => {
    expect(formatJqOutput('0\n[0,-1]\n"a-0"\n')).toBe('0\n[0,-1]\na-0\n');
  });

  it('leaves out numbers gojq cannot print (jq clamps infinities)', () => {
    expect(formatGhJqResult(Number.MAX_VALUE)).toBeUndefined();
    expect(formatGhJqResult([-Number.MAX_VALUE])).toBeUndefined();
  });
});

describe('formatFloatTwoDecimals (strconv.FormatFloat f 2: exact value, ties to even)', () => {
  it.each([
    [0.125, '0.12'],
    [0.375, '0.38'],
    [2.675, '2.67'],
    [1.005, '1.00'],
    [0.995, '0.99'],
    [-1.125, '-1.12'],
    [99.999, '100.00'],
    [0.5, '0.50'],
  ])('%d → %s', (value, expected) => {
    expect(formatFloatTwoDecimals(value)).toBe(expected);
  });
});

describe('goJsonMarshal (encoding/json: sorted keys, HTML escaping)', () => {
  it.each([
    [{ b: 1, a: [true, null], '10': 'x', '9': 'y' }, '{"10":"x","9":"y","a":[true,null],"b":1}'],
    [{ é: 1, z: 2, '\u{1F600}': 3, '\uFFFD': 4 }, '{"z":2,"é":1,"\uFFFD":4,"\u{1F600}":3}'],
    ['<a href="x">&</a>', '"\\u003ca href=\\"x\\"\\u003e\\u0026\\u003c/a\\u003e"'],
    ['\u2028\u2029\u007f', '"\\u2028\\u2029\u007f"'],
    ['\b\f\n\r\t\u0001\u001f\\', '"\\b\\f\\n\\r\\t\\u0001\\u001f\\\\"'],
    ['\uD800x', '"\uFFFDx"'],
    [
      [1e21, 1e-7, 0.000001, 123456789012345680000, -0, 1.5],
      '[1e+21,1e-7,0.000001,123456789012345680000,-0,1.5]',
    ],
  ])('%j → %s', (value, expected) => {
    expect(goJsonMarshal(value)).toBe(expected);
  });
});

describe('normalizeJqInput (Go decoding, gojq key order)', () => {
  it.each([
    ['{"b":1,"a":{"d":1.0,"c":1e3}}', '{"a":{"c":1000,"d":1},"b":1}', false],
    ['{"a":1,"a":2}', '{"a":2}', false],
    ['[1.5]', '[1.5]', true],
    ['[12345678901234567890]', '[12345678901234567000]', true],
    ['[-0]', '[-0]', true],
    ['"\\ud800"', '"\uFFFD"', false],
  ])('%s → %s', (body, text, riskyNumbers) => {
    expect(normalizeJqInput(body)).toEqual({ text, riskyNumbers });
  });

  it('is undefined for a body that is not JSON', () => {
    expect(normalizeJqInput('<html>')).toBeUndefined();
  });
});

describe('checkJqExpression', () => {
  it.each([
    '.login',
    '.[].title',
    '.[] | {name, id}',
    'map(.login) | join(",")',
    '.[] | "\\(.number)\\t\\(.title)"',
    '.[] | select(.state == "open") | .number',
    '[.[] | .labels[].name] | unique',
    '.[] | [.title, (.labels | map(.name) | join(","))] | @tsv',
    'length',
    'keys',
    '.[0] | to_entries | map(.key)',
    '.. | .login? // empty',
    '.[] | select(.title | test("bug"; "i"))',
    '.t | split(", ")',
    '.t | [match("a"; "i").offset]',
    '.[] | select(.title | test("^(?:fix|feat)\\\\b"))',
    '.[] | select(.title | test("\\\\d+\\\\s\\\\w"))',
    '.total_count / 2',
    '.[] | .name | ascii_downcase',
    '# a comment\n.login',
    'limit(3; .[])',
  ])('%j runs on the system jq', (expression) => {
    expect(checkJqExpression(expression).ok).toBe(true);
  });

  it.each([
    ['keys_unsorted', 'not in gojq'],
    ['.[] | select(.title == env.CODE)', 'environment'],
    ['$ENV.HOME', 'environment'],
    ['now', 'clock'],
    ['.created_at | fromdate', 'dates'],
    ['.title | index("x")', 'byte offsets in jq 1.6'],
    ['.title | gsub("a"; "b")', 'regex replacement'],
    ['try error("x") catch .', 'error texts'],
    ['1, halt, 2', 'halt'],
    ['def f: .a; f', 'definitions'],
    ['{b: 1, a: 2} | .[]', 'a built object iterated (jq: insertion order, gojq: sorted)'],
    ['{b: 1, a: 2} | to_entries', 'a built object iterated'],
    ['{b: .x} | tojson', 'a built object stringified'],
    ['(.a + .b) | keys_unsorted', 'merge'],
    ['.x = 1 | .[]', 'an added key iterated'],
    ['.size / 3 | tostring', 'a float stringified (jq 1.6: 17 digits)'],
    ['"\\(1.1)"', 'a float literal stringified'],
    ['100000000000000000000', 'an integer literal beyond 2^53 (gojq: big integer)'],
    ['.x as {a: $a} | $a', 'destructuring'],
    ['.[] | @uri', 'different unreserved sets'],
    ['.t | test("a(?=b)")', 'lookahead (RE2 has none)'],
    ['.t | test("\\\\u0054")', 'an escape RE2 refuses (gh: invalid escape sequence)'],
    ['.t | test("\\\\e")', 'an escape RE2 refuses'],
    ['.t | test("\\\\c[")', 'a control escape RE2 refuses'],
    ['.t | test("\\\\N")', 'an escape RE2 refuses'],
    ['.t | test("\\\\O")', 'an escape RE2 refuses'],
    ['.t | test("\\\\o{124}")', 'an octal escape RE2 refuses'],
    ['.t | test("\\\\V")', 'an escape RE2 refuses'],
    ['.t | test("a(?#note)b")', 'a comment group'],
    ['.t | test("(?x) a b")', 'an extended-syntax inline flag'],
    ['.t | test("(?i)a")', 'an inline flag group'],
    ['[.t | match("$"; "g")] | length', 'a global match (empty matches differ)'],
    ['[.t | match(""; "gi")] | length', 'a global match with another flag'],
    ['[.t | scan("\\\\b")]', 'scan (always global)'],
    ['.t | split(", *"; null)', 'split with a regex (global)'],
    ['.t | test("a"; "x")', 'extended regex flag'],
    ['"unclosed', 'a parse error'],
    ['limit(0; .[])', 'a non-positive limit'],
    ['limit($n; .[])', 'a limit jq and gojq may read differently'],
  ])('%j delegates (%s)', (expression) => {
    expect(checkJqExpression(expression)).toEqual({ ok: false });
  });

  it('reports stringification, so that risky input numbers delegate', () => {
    expect(checkJqExpression('.[] | tostring')).toEqual({ ok: true, stringifies: true });
    expect(checkJqExpression('.[].n')).toEqual({ ok: true, stringifies: false });
  });
});

describe.skipIf(!hasJq)('the system jq printed as gh prints it', () => {
  it.each([
    // gojq iterates object keys sorted; jq follows the document unless given sorted input.
    ['{"b":1,"a":2}', '.[]', '2\n1\n'],
    ['{"b":1,"a":2}', 'keys', '["a","b"]\n'],
    ['{"b":1,"a":2}', '.', '{"a":2,"b":1}\n'],
    ['{"b":{"y":1,"x":2}}', '.. | numbers', '2\n1\n'],
    ['{"b":1,"a":2}', 'to_entries | map(.key) | join(",")', 'a,b\n'],
    // Numbers: decoded as float64, integers printed in full, others with two decimals.
    ['{"n":1.0,"m":1e3,"f":2.5}', '.n, .m, .f', '1\n1000\n2.50\n'],
    ['[12345678901234567890]', '.[0]', '12345678901234567168\n'],
    ['[12345678901234567890]', '.', '[12345678901234567000]\n'],
    ['[0.1]', '.[0] + 0.2', '0.30\n'],
    // Strings raw; objects and arrays through json.Marshal (HTML escaped).
    ['{"t":"a<b>&c"}', '.t', 'a<b>&c\n'],
    ['{"t":"a<b>&c"}', '[.t]', '["a\\u003cb\\u003e\\u0026c"]\n'],
    ['{"t":"é \u2028"}', '{t}', '{"t":"é \\u2028"}\n'],
    [
      '[{"name":"x","id":1},{"name":"y","id":2}]',
      '.[] | {name, id}',
      '{"id":1,"name":"x"}\n{"id":2,"name":"y"}\n',
    ],
    ['{"a":null}', '.a, .missing', '\n\n'],
    ['[]', '., [], unique', '[]\n[]\n[]\n'],
  ])('%s | %s', (body, expression, expected) => {
    expect(ghJq(body, expression)).toBe(expected);
  });

  it.each([
    ['[1.5]', '.[] | tostring'],
    ['{"a":1}', '.a.b'],
    ['[1]', '.[] | .x'],
  ])('%s | %s is left to the native gh (risky numbers, jq errors)', (body, expression) => {
    expect(ghJq(body, expression)).toBeUndefined();
  });
});

/**
 * Differential check against the real gh on this machine (GH-CLI.md §10): gh reads a body
 * from a loopback server (GH_HOST=github.localhost through HTTP_PROXY) and prints `--jq`
 * itself; every expression this model serves must print the same bytes.
 */
describe.skipIf(!hasJq || !hasGh)('the same bytes as the real gh --jq', () => {
  let body = '';
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    response.end(body);
  });
  const configDir = mkdtempSync(join(tmpdir(), 'relay-gh-oracle-'));
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(configDir, { recursive: true, force: true });
  });

  const realGh = (expression: string): Promise<{ code: number | null; stdout: string }> =>
    new Promise((resolve, reject) => {
      const { port } = server.address() as AddressInfo;
      const child = spawn('gh', ['api', '/x', '--jq', expression], {
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
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      child.once('error', reject);
      child.once('close', (code) => {
        resolve({ code, stdout: Buffer.concat(out).toString('utf8') });
      });
    });

  const ISSUES = JSON.stringify([
    {
      number: 12,
      title: 'Fix <bug> & co',
      labels: [{ name: 'bug' }, { name: 'help wanted' }],
      user: { login: 'alice', id: 5 },
      draft: false,
      body: null,
      reactions: { total_count: 3, '+1': 2, '-1': 1 },
    },
    {
      number: 7,
      title: 'Tab\there "q" \u2028',
      labels: [],
      user: { login: 'bob', id: 6 },
      draft: true,
      body: 'x\ny',
      reactions: { total_count: 0, '+1': 0, '-1': 0 },
    },
  ]);
  const MIXED =
    '{"b":1,"a":{"y":"<&>","x":2.5,"z":[3,2]},"n":1.0,"big":12345678901234567890,' +
    '"f":0.125,"neg":-0.001,"e":1e-7,"nul":null}';

  it.each([
    [MIXED, '.[]'],
    [MIXED, '.a, .n, .big, [.big]'],
    [MIXED, '.f, .neg, .e, [.e]'],
    [MIXED, 'to_entries | map(.key)'],
    [MIXED, '.. | numbers'],
    [MIXED, 'paths'],
    [MIXED, '.n / 3'],
    [ISSUES, '.[] | "\\(.number)\\t\\(.title)"'],
    [ISSUES, '.[] | [.number, .title, (.labels | map(.name) | join(","))] | @tsv'],
    [ISSUES, '.[] | [.number, .title, .draft, .body] | @csv'],
    [ISSUES, '.[].user'],
    [ISSUES, '.[] | .reactions'],
    [ISSUES, '.[] | .reactions | tojson'],
    [ISSUES, '.[0] | tostring'],
    [ISSUES, '.[] | {n: .number, t: .title}'],
    [ISSUES, '.[].body'],
    [ISSUES, '.[0].reactions | .[]'],
    [ISSUES, '.[0].reactions | to_entries | map("\\(.key)=\\(.value)") | join(",")'],
    [ISSUES, 'limit(1; .[]) | .title'],
    [ISSUES, '[.[] | .number] | add / length'],
  ])('%s | %s', async (input, expression) => {
    body = input;
    const expected = await realGh(expression);
    expect(expected.code).toBe(0);
    expect(ghJq(input, expression)).toBe(expected.stdout);
  });
});
