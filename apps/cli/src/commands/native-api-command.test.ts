import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeSavedLogin } from '../auth-store.js';
import { createNodeDependencies } from '../node-dependencies.js';
import {
  createFakeDependencies,
  createTempDir,
  envelopeOf,
  errorOf,
  runCli,
  startStubRelay,
  type StubAnswer,
  type StubRelay,
} from '../../test/cli-harness.js';
import { QUOTA_NOTICE } from '../native-api-runner.js';

let relay: StubRelay | undefined;
let dir: ReturnType<typeof createTempDir>;
const NATIVE = '/opt/gh/bin/gh';
/** The system jq, when the machine has one (the delegation table covers a missing jq). */
const JQ = await createNodeDependencies({ selfPath: undefined }).findExecutable('jq', process.env);

beforeEach(() => {
  dir = createTempDir();
});
afterEach(async () => {
  await relay?.close();
  relay = undefined;
  dir.remove();
});

async function setup(
  answer: (body: { path: string; query?: Record<string, unknown> }, index: number) => StubAnswer,
  env: Record<string, string> = {},
) {
  relay = await startStubRelay((request, index) => answer(request.json as never, index));
  await writeSavedLogin(
    dir.path,
    {
      url: relay.url,
      pool: 'team',
      token: 'rly_saved-token',
      login: 'alice',
      client: 'laptop',
      timestamp: '2030-01-01T00:00:00.000Z',
    },
    () => 0,
  );
  return createFakeDependencies({
    env: { RELAY_CONFIG_DIR: dir.path, RELAY_TOKEN_UNUSED: 'x', ...env },
    executables: { gh: NATIVE },
    nativeExitCode: 3,
  });
}

describe('relay native api: relayed reads', () => {
  it('prints the exact body bytes of a GET read and sends the documented relay request', async () => {
    const deps = await setup(() => ({
      status: 200,
      json: envelopeOf({ full_name: 'acme/widgets', n: 1 }),
    }));
    const result = await runCli(['native', 'api', 'repos/acme/widgets?per_page=5'], deps);
    expect(result).toMatchObject({
      code: 0,
      stdout: '{"full_name":"acme/widgets","n":1}',
      stderr: '',
    });
    expect(relay?.requests[0]).toMatchObject({
      method: 'POST',
      url: '/v1/forge/request',
      headers: { authorization: 'Bearer rly_saved-token' },
      json: { pool: 'team', method: 'GET', path: '/repos/acme/widgets', query: { per_page: '5' } },
    });
    expect(deps.nativeRuns).toEqual([]);
  });

  it('decodes base64 bodies to their exact bytes', async () => {
    const bytes = Buffer.from([0xef, 0xbb, 0xbf, 0x00, 0xff, 0x41]);
    const deps = await setup(() => ({
      status: 200,
      json: {
        ...envelopeOf(null, { headers: { 'content-type': 'application/octet-stream' } }),
        body: bytes.toString('base64'),
        body_encoding: 'base64',
      },
    }));
    const result = await runCli(['native', 'api', '/repos/acme/widgets/contents/x'], deps);
    expect(result.code).toBe(0);
    expect(result.stdoutBytes.equals(bytes)).toBe(true);
  });

  it('splices Link-paginated array pages into one array as gh does, with per_page=100', async () => {
    const deps = await setup((body, index) =>
      index === 0
        ? {
            status: 200,
            json: envelopeOf([1, 2], {
              headers: {
                link: '<https://api.github.com/repos/a/b/issues?per_page=100&page=2>; rel="next"',
              },
            }),
          }
        : { status: 200, json: envelopeOf([3]) },
    );
    const result = await runCli(['native', 'api', 'repos/a/b/issues', '--paginate'], deps);
    expect(result).toMatchObject({ code: 0, stdout: '[1,2,3]' });
    expect(relay?.requests.map((r) => r.json as unknown)).toMatchObject([
      { path: '/repos/a/b/issues', query: { per_page: '100' } },
      { path: '/repos/a/b/issues', query: { per_page: '100', page: '2' } },
    ]);
  });

  it('wraps every page in one array with --slurp', async () => {
    const deps = await setup((_body, index) =>
      index === 0
        ? {
            status: 200,
            json: envelopeOf([1], { headers: { link: '<https://x/r?page=2>; rel="next"' } }),
          }
        : { status: 200, json: envelopeOf([2]) },
    );
    const result = await runCli(['native', 'api', 'r', '--paginate', '--slurp'], deps);
    expect(result).toMatchObject({ code: 0, stdout: '[[1],[2]]' });
  });

  it('hands a set longer than 10 pages to the native CLI with the original arguments', async () => {
    const deps = await setup((_body, index) => ({
      status: 200,
      json: envelopeOf([index], {
        headers: { link: `<https://x/r?page=${index + 2}>; rel="next"` },
      }),
    }));
    const result = await runCli(['native', 'api', 'r', '--paginate'], deps);
    expect(relay?.requests).toHaveLength(10);
    expect(result).toMatchObject({ code: 3, stdout: '' });
    expect(deps.nativeRuns).toMatchObject([{ file: NATIVE, args: ['api', 'r', '--paginate'] }]);
  });

  it.each([
    [
      'a full page without a Link header is unprovable',
      Array.from({ length: 100 }, (_, i) => i),
      true,
    ],
    ['a short page without a Link header ends the set', [1, 2], false],
    ['total_count reached ends the set', { total_count: 2, workflow_runs: [1, 2] }, false],
    [
      'total_count not reached without a Link header is unprovable',
      { total_count: 5, workflow_runs: [1, 2] },
      true,
    ],
  ])('pagination heuristics: %s', async (_name, body, delegates) => {
    const deps = await setup(() => ({ status: 200, json: envelopeOf(body) }));
    const result = await runCli(['native', 'api', 'r', '--paginate'], deps);
    expect(deps.nativeRuns.length === 1).toBe(delegates);
    if (!delegates) expect(result.stdout).toBe(JSON.stringify(body));
  });

  it.each([
    [
      404,
      '{"message":"Not Found","documentation_url":"https://docs.github.com/rest"}',
      'gh: Not Found (HTTP 404)\n',
    ],
    [
      422,
      '{"message":"Validation Failed","errors":[{"resource":"Search","code":"invalid"}]}',
      'gh: Validation Failed (HTTP 422)\n',
    ],
    [422, '{"errors":[{"message":"a"},"b"]}', 'gh: a\nb\n'],
    [
      409,
      '{"message":"Conflict","errors":"Some description"}',
      'gh: Some description (Conflict)\n',
    ],
    [500, '{}', 'gh: HTTP 500\n'],
  ])(
    'prints an HTTP %i as gh does: the text-encoded body on stdout, the message on stderr, exit 1',
    async (status, body, stderr) => {
      const deps = await setup(() => ({
        status: 200,
        json: { ...envelopeOf(null, { status }), body, body_encoding: 'text' },
      }));
      const result = await runCli(['native', 'api', 'repos/acme/nope'], deps);
      expect(result).toMatchObject({ code: 1, stdout: body, stderr });
      expect(deps.nativeRuns).toEqual([]);
    },
  );

  it('prints `HTTP <code>` for an error body that is not JSON by content type', async () => {
    const deps = await setup(() => ({
      status: 200,
      json: {
        ...envelopeOf(null, { status: 502, headers: { 'content-type': 'text/html' } }),
        body: '{"message":"x"}',
        body_encoding: 'text',
      },
    }));
    const result = await runCli(['native', 'api', 'repos/acme/nope'], deps);
    expect(result).toMatchObject({ code: 1, stdout: '{"message":"x"}', stderr: 'gh: HTTP 502\n' });
  });

  it('hands an error body gh cannot decode to the native CLI', async () => {
    const deps = await setup(() => ({
      status: 200,
      json: { ...envelopeOf(null, { status: 404 }), body: '[1]', body_encoding: 'text' },
    }));
    const result = await runCli(['native', 'api', 'repos/acme/nope'], deps);
    expect(result).toMatchObject({ code: 3, stdout: '' });
    expect(deps.nativeRuns).toHaveLength(1);
  });

  it('counts the items of Link-paginated pages towards total_count on a page without Link', async () => {
    const deps = await setup((_body, index) =>
      index === 0
        ? {
            status: 200,
            json: envelopeOf(
              { total_count: 2, items: [1] },
              { headers: { link: '<https://x/r?page=2>; rel="next"' } },
            ),
          }
        : { status: 200, json: envelopeOf({ total_count: 2, items: [2] }) },
    );
    const result = await runCli(['native', 'api', 'r', '--paginate'], deps);
    expect(result).toMatchObject({
      code: 0,
      stdout: '{"total_count":2,"items":[1]}{"total_count":2,"items":[2]}',
    });
    expect(deps.nativeRuns).toEqual([]);
  });

  it('ends pagination at a Link header without rel="next", whatever the page holds', async () => {
    const full = Array.from({ length: 100 }, (_, i) => i);
    const deps = await setup(() => ({
      status: 200,
      json: envelopeOf(full, {
        headers: {
          link: '<https://api.github.com/r?page=1>; rel="prev", <https://api.github.com/r?page=1>; rel="first"',
        },
      }),
    }));
    const result = await runCli(['native', 'api', 'r', '--paginate'], deps);
    expect(result).toMatchObject({ code: 0, stdout: JSON.stringify(full) });
    expect(relay?.requests).toHaveLength(1);
    expect(deps.nativeRuns).toEqual([]);
  });

  it('with -X GET sends -f/-F fields as the query string, as gh does', async () => {
    const deps = await setup(() => ({ status: 200, json: envelopeOf({ total_count: 0 }) }));
    const args = [
      'search/issues',
      '-X',
      'GET',
      '-f',
      'q=repo:acme/widgets is:open',
      '-F',
      'per_page=5',
    ];
    const result = await runCli(['native', 'api', ...args], deps);
    expect(result).toMatchObject({ code: 0, stdout: '{"total_count":0}' });
    expect(relay?.requests[0]?.json).toMatchObject({
      method: 'GET',
      path: '/search/issues',
      query: { per_page: '5', q: 'repo:acme/widgets is:open' },
    });
  });

  it('fills {owner} and {repo} from GH_REPO', async () => {
    const deps = await setup(() => ({ status: 200, json: envelopeOf([]) }), {
      GH_REPO: 'acme/widgets',
    });
    const result = await runCli(['native', 'api', 'repos/{owner}/{repo}/releases'], deps);
    expect(result.code).toBe(0);
    expect(relay?.requests[0]?.json).toMatchObject({ path: '/repos/acme/widgets/releases' });
  });

  it('fills {owner}, {repo} and {branch} from the git remotes and the current branch', async () => {
    const deps = await setup(() => ({ status: 200, json: envelopeOf({}) }));
    const withGit = {
      ...deps,
      runProcess: (_file: string, args: readonly string[]) =>
        Promise.resolve({
          code: 0,
          stdout: Buffer.from(
            args[0] === 'symbolic-ref'
              ? 'refs/heads/feature/x\n'
              : 'remote.origin.url https://github.com/acme/widgets.git\n',
          ),
          stderr: new Uint8Array(),
        }),
    };
    const result = await runCli(['native', 'api', 'repos/:owner/:repo/branches/{branch}'], withGit);
    expect(result.code).toBe(0);
    expect(relay?.requests[0]?.json).toMatchObject({
      path: '/repos/acme/widgets/branches/feature/x',
    });
  });

  // gh v2.60 api.go fillPlaceholders: `if os.Getenv("GH_REPO") != ""` → its own error (the
  // native gh, which runs without GH_REPO under SPEC.md rule 16, would read git's branch).
  it.each([
    [
      ['repos/{owner}/{repo}/branches/{branch}'],
      "unable to expand placeholder in path: unable to determine an appropriate value for the 'branch' placeholder\n",
    ],
    [
      ['repos/:owner/:repo/commits/:branch', '-i'],
      "unable to expand placeholder in path: unable to determine an appropriate value for the 'branch' placeholder\n",
    ],
    [
      ['repos/{owner}/{repo}/commits', '-X', 'GET', '-F', 'sha={branch}'],
      'error parsing "sha" value: unable to determine an appropriate value for the \'branch\' placeholder\n',
    ],
  ])("prints gh's error for {branch} under GH_REPO: %j", async (args, stderr) => {
    const deps = await setup(() => ({ status: 200, json: envelopeOf({}) }), {
      GH_REPO: 'acme/widgets',
    });
    const result = await runCli(['native', 'api', ...args], deps);
    expect(result).toMatchObject({ code: 1, stdout: '', stderr });
    expect(relay?.requests).toEqual([]);
    expect(deps.nativeRuns).toEqual([]);
  });

  // The native gh runs without GH_REPO (SPEC.md client rule 16): it gets what GH_REPO names.
  it.each([
    [
      ['repos/{owner}/{repo}/pulls/1', '-i'],
      ['repos/acme/widgets/pulls/1', '-i'],
    ],
    [
      ['graphql', '-F', 'owner={owner}', '-F', 'name=:repo', '-f', 'query=q($owner:String!){x}'],
      ['graphql', '-F', 'owner=acme', '-F', 'name=widgets', '-f', 'query=q($owner:String!){x}'],
    ],
  ])('fills %j from GH_REPO for the native CLI', async (args, expected) => {
    const deps = await setup(() => ({ status: 200, json: envelopeOf({}) }), {
      GH_REPO: 'acme/widgets',
    });
    const result = await runCli(['native', 'api', ...args], deps);
    expect(result.code).toBe(3);
    expect(relay?.requests).toEqual([]);
    expect(deps.nativeRuns).toMatchObject([{ args: ['api', ...expected] }]);
  });

  it.each([
    ['{owner} outside a repository', ['repos/{owner}/{repo}'], {}],
    ['a terminal-forced stdout', ['repos/a/b'], { GH_FORCE_TTY: '1' }],
  ])('%s runs the native CLI', async (_name, args, env) => {
    const deps = await setup(() => ({ status: 200, json: envelopeOf({}) }), env);
    const result = await runCli(['native', 'api', ...args], deps);
    expect(result.code).toBe(3);
    expect(relay?.requests).toEqual([]);
    expect(deps.nativeRuns).toMatchObject([{ args: ['api', ...args] }]);
  });

  it.skipIf(JQ === undefined)(
    'filters each page through the system jq, raw strings and compact JSON',
    async () => {
      const deps = await setup((_body, index) =>
        index === 0
          ? {
              status: 200,
              json: envelopeOf([{ t: 'a' }], {
                headers: { link: '<https://x/r?page=2>; rel="next"' },
              }),
            }
          : { status: 200, json: envelopeOf([{ t: 'b' }]) },
      );
      const real = createNodeDependencies({ selfPath: undefined });
      const withJq = {
        ...deps,
        runProcess: real.runProcess,
        findExecutable: real.findExecutable,
        env: { ...deps.env, PATH: process.env.PATH },
      };
      const result = await runCli(['native', 'api', 'r', '--paginate', '--jq', '.[].t'], withJq);
      expect(result).toMatchObject({ code: 0, stdout: 'a\nb\n' });
    },
  );

  it.skipIf(JQ === undefined)(
    'prints --jq results as gh does: sorted keys, gh numbers, HTML-escaped JSON',
    async () => {
      const deps = await setup(() => ({
        status: 200,
        json: envelopeOf({ z: { b: 1, a: '<&>' }, n: 2.5, m: 1, s: 'x' }),
      }));
      const real = createNodeDependencies({ selfPath: undefined });
      const withJq = {
        ...deps,
        runProcess: real.runProcess,
        findExecutable: real.findExecutable,
        env: { ...deps.env, PATH: process.env.PATH },
      };
      const result = await runCli(
        ['native', 'api', 'r', '--jq', '.z, .n, .m, .s, (.z | .[])'],
        withJq,
      );
      expect(result).toMatchObject({
        code: 0,
        stdout: '{"a":"\\u003c\\u0026\\u003e","b":1}\n2.50\n1\nx\n<&>\n1\n',
      });
    },
  );

  it.skipIf(JQ === undefined)(
    'runs --jq on an error body without a message, as gh does, then prints HTTP <code>',
    async () => {
      const deps = await setup(() => ({
        status: 200,
        json: { ...envelopeOf(null, { status: 500 }), body: '{"x":1}', body_encoding: 'text' },
      }));
      const real = createNodeDependencies({ selfPath: undefined });
      const withJq = {
        ...deps,
        runProcess: real.runProcess,
        findExecutable: real.findExecutable,
        env: { ...deps.env, PATH: process.env.PATH },
      };
      const filtered = await runCli(['native', 'api', 'r', '--jq', '.x'], withJq);
      expect(filtered).toMatchObject({ code: 1, stdout: '1\n', stderr: 'gh: HTTP 500\n' });
    },
  );

  it('hands a --jq expression gojq runs differently to the native CLI without a relay read', async () => {
    const deps = await setup(() => ({ status: 200, json: envelopeOf({}) }));
    const withJq = { ...deps, findExecutable: () => Promise.resolve('/usr/bin/jq') };
    const result = await runCli(['native', 'api', 'r', '--jq', 'keys_unsorted'], withJq);
    expect(result.code).toBe(3);
    expect(relay?.requests).toEqual([]);
  });

  it.each([
    ['a bare rate_limit read', ['rate_limit']],
    [
      "a bare rate_limit read with --paginate (its per_page is not the user's)",
      ['rate_limit', '--paginate'],
    ],
  ])('prints the quota notice after %s', async (_name, args) => {
    const deps = await setup(() => ({
      status: 200,
      json: envelopeOf({ resources: {} }, { routeKind: 'rate_limit' }),
    }));
    const result = await runCli(['native', 'api', ...args], deps);
    expect(result).toMatchObject({ code: 0, stdout: '{"resources":{}}', stderr: QUOTA_NOTICE });
  });

  it.each([
    ['a failed rate_limit read', ['rate_limit'], 500],
    ['a rate_limit read with a query', ['rate_limit?x=1'], 200],
    ['a paginated rate_limit read with a query', ['rate_limit?per_page=5', '--paginate'], 200],
    ['another path', ['repos/a/b'], 200],
  ])('prints no quota notice for %s', async (_name, args, status) => {
    const deps = await setup(() => ({
      status: 200,
      json: { ...envelopeOf(null, { status }), body: '{}', body_encoding: 'text' },
    }));
    const result = await runCli(['native', 'api', ...args], deps);
    expect(result.stderr).not.toContain(QUOTA_NOTICE.trim());
  });

  it('sends cache-control max-age=0 under RELAY_FRESH=1 unless the command sets one', async () => {
    const deps = await setup(() => ({ status: 200, json: envelopeOf({}) }), { RELAY_FRESH: '1' });
    await runCli(['native', 'api', 'r'], deps);
    await runCli(['native', 'api', 'r', '-H', 'Cache-Control: max-age=60'], deps);
    expect(relay?.requests.map((r) => r.json.headers as unknown)).toEqual([
      { 'cache-control': 'max-age=0' },
      { 'cache-control': 'max-age=60' },
    ]);
  });
});

describe("relay native api: the body as gh 2.60 reads it (go-gh's sanitizer, exact bytes)", () => {
  const withSystemJq = (deps: Awaited<ReturnType<typeof setup>>) => {
    const real = createNodeDependencies({ selfPath: undefined });
    return {
      ...deps,
      runProcess: real.runProcess,
      findExecutable: real.findExecutable,
      env: { ...deps.env, PATH: process.env.PATH },
    };
  };

  it('writes control characters of a JSON body in caret notation, as go-gh does', async () => {
    const deps = await setup(() => ({
      status: 200,
      json: envelopeOf({ title: '\u001b[31mred\u009b', tab: 'a\tb' }),
    }));
    const result = await runCli(['native', 'api', 'repos/acme/widgets/issues/1'], deps);
    expect(result).toMatchObject({
      code: 0,
      stdout: '{"title":"^[[31mred^[","tab":"a\\tb"}',
      stderr: '',
    });
  });

  it('never writes an escape sequence of an error message to the terminal', async () => {
    const body = '{"message":"bad \\u001b]0;pwned\\u0007 thing"}';
    const deps = await setup(() => ({
      status: 200,
      json: { ...envelopeOf(null, { status: 404 }), body, body_encoding: 'text' },
    }));
    const result = await runCli(['native', 'api', 'repos/acme/nope'], deps);
    expect(result).toMatchObject({
      code: 1,
      stdout: '{"message":"bad ^[]0;pwned^G thing"}',
      stderr: 'gh: bad ^[]0;pwned^G thing (HTTP 404)\n',
    });
  });

  it('leaves a body that is not JSON by content type as it is', async () => {
    const bytes = Buffer.from('log \u001b[0m line\n', 'utf8');
    const deps = await setup(() => ({
      status: 200,
      json: {
        ...envelopeOf(null, { headers: { 'content-type': 'text/plain; charset=utf-8' } }),
        body: bytes.toString('utf8'),
        body_encoding: 'text',
      },
    }));
    const result = await runCli(['native', 'api', 'repos/acme/widgets/issues/1'], deps);
    expect(result.stdoutBytes.equals(bytes)).toBe(true);
  });

  it.skipIf(JQ === undefined)('filters the sanitized body with --jq, as gh does', async () => {
    const deps = await setup(() => ({
      status: 200,
      json: envelopeOf({ title: 'x\u001by' }),
    }));
    const result = await runCli(
      ['native', 'api', 'repos/acme/widgets/issues/1', '--jq', '.title, (.title | length)'],
      withSystemJq(deps),
    );
    expect(result).toMatchObject({ code: 0, stdout: 'x^[y\n4\n' });
  });

  it.each([
    [
      'a JSON body that is not UTF-8 (go-gh fails: invalid UTF-8 string)',
      {
        ...envelopeOf(null),
        body: Buffer.from([0x7b, 0x7d, 0xff]).toString('base64'),
        body_encoding: 'base64',
      },
    ],
  ])('hands %s to the native CLI', async (_name, envelope) => {
    const deps = await setup(() => ({ status: 200, json: envelope }));
    const result = await runCli(['native', 'api', 'repos/acme/widgets/issues/1'], deps);
    expect(result).toMatchObject({ code: 3, stdout: '' });
    expect(deps.nativeRuns).toMatchObject([{ args: ['api', 'repos/acme/widgets/issues/1'] }]);
  });

  it.skipIf(JQ === undefined)(
    "filters the forge's JSON text with --jq as Go decodes it (float64, sorted keys)",
    async () => {
      const forge = '{"b": 12345678901234567890, "100": "x", "+1": 1.0}';
      const envelope = JSON.stringify(envelopeOf('BODY')).replace('"BODY"', () => forge);
      const deps = await setup(() => ({ status: 200, text: envelope }));
      const result = await runCli(
        ['native', 'api', 'emojis', '--jq', '.b, keys, .["+1"]'],
        withSystemJq(deps),
      );
      expect(result).toMatchObject({
        code: 0,
        stdout: '12345678901234567168\n["+1","100","b"]\n1\n',
      });
      expect(deps.nativeRuns).toEqual([]);
    },
  );

  it("prints the forge's own JSON text when the envelope carries it, byte for byte", async () => {
    // What gh prints and JSON.stringify would not write: whitespace, 1.0, escapes, an integer
    // beyond 2^53, an index key after others, a trailing newline.
    const forge =
      '[\n  {"id": 12345678901234567890, "score": 1.0, "t": "\\u003cb\\u003e", "+1": 1, "100": 2}\n]\n';
    const envelope = JSON.stringify(envelopeOf('BODY')).replace('"BODY"', () => forge);
    const deps = await setup(() => ({ status: 200, text: envelope }));
    const result = await runCli(['native', 'api', 'repos/acme/widgets/issues'], deps);
    expect(result).toMatchObject({ code: 0, stdout: forge, stderr: '' });
    expect(deps.nativeRuns).toEqual([]);
  });

  it('splices and slurps pages of forge JSON text as gh does', async () => {
    const pagesText = ['[{"a": 1.0}]', '[ {"b": 2} ]\n'];
    const deps = await setup((_body, index) => {
      const page = index % 2;
      const envelope = envelopeOf('BODY', {
        headers: page === 0 ? { link: '<https://x/r?page=2>; rel="next"' } : {},
      });
      const text = JSON.stringify(envelope).replace('"BODY"', () => pagesText[page] ?? '');
      return { status: 200, text };
    });
    const spliced = await runCli(['native', 'api', 'r', '--paginate'], deps);
    // paginatedArrayReader looks at the first and last bytes only: `[ ` becomes `, `.
    expect(spliced).toMatchObject({ code: 0, stdout: '[{"a": 1.0}, {"b": 2} ]\n' });
    const slurped = await runCli(['native', 'api', 'r', '--paginate', '--slurp'], deps);
    expect(slurped).toMatchObject({ code: 0, stdout: '[[{"a": 1.0}],[ {"b": 2} ]\n]' });
  });

  it('hands a body nested deeper than the envelope check to the native CLI', async () => {
    const deep = `${'['.repeat(5000)}1${']'.repeat(5000)}`;
    const envelope = JSON.stringify(envelopeOf('BODY')).replace('"BODY"', deep);
    const deps = await setup(() => ({ status: 200, text: envelope }));
    const result = await runCli(['native', 'api', 'repos/acme/widgets/issues/1'], deps);
    expect(result).toMatchObject({ code: 3, stdout: '' });
    expect(deps.nativeRuns).toHaveLength(1);
  });

  it('splices only the pages gh reads as JSON (content type per page)', async () => {
    const deps = await setup((_body, index) =>
      index === 0
        ? {
            status: 200,
            json: envelopeOf([1], { headers: { link: '<https://x/r?page=2>; rel="next"' } }),
          }
        : {
            status: 200,
            json: {
              ...envelopeOf(null, { headers: { 'content-type': 'text/plain' } }),
              body: '[2]',
              body_encoding: 'text',
            },
          },
    );
    const result = await runCli(['native', 'api', 'r', '--paginate'], deps);
    // gh strips the first page's `]` (not the last page) and leaves the text page whole.
    expect(result).toMatchObject({ code: 0, stdout: '[1[2]' });
  });
});

describe('relay native api: the login probe', () => {
  it('answers `api user --jq .login` from pool health and the saved login, without a forge read', async () => {
    const deps = await setup(() => ({ status: 200, json: { pool: 'team' } }));
    const result = await runCli(['native', 'api', 'user', '--jq', '.login'], deps);
    expect(result).toMatchObject({ code: 0, stdout: 'alice\n' });
    expect(relay?.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /v1/pools/team/health',
    ]);
  });

  it('with an explicit RELAY_TOKEN says why it cannot answer, instead of "no saved login"', async () => {
    const deps = await setup(() => ({ status: 200, json: { pool: 'team' } }), {
      RELAY_TOKEN: 'rly_explicit-token',
    });
    const result = await runCli(['native', 'api', 'user', '--jq', '.login'], deps);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('explicit relay token (RELAY_TOKEN)');
    expect(result.stderr).not.toContain('No saved login');
    expect(result.stderr).not.toContain('rly_explicit-token');
    expect(relay?.requests).toEqual([]);
  });

  it('fails with exit 4 when the saved token is rejected', async () => {
    const deps = await setup(() => ({ status: 401, json: errorOf('unauthorized') }));
    const result = await runCli(['native', 'api', 'user', '--jq', '.login'], deps);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('(unauthorized');
    expect(result.stderr).not.toContain('rly_saved-token');
  });
});

describe('relay native api: delegation (client rule 7)', () => {
  it.each([
    ['a non-GET method', ['repos/a/b/issues', '-X', 'POST']],
    ['a nested field', ['repos/a/b/issues', '-f', 'a[b]=c', '-X', 'GET']],
    ['a secret-looking query key', ['repos/a/b?access_token=x']],
    ['a disallowed header', ['repos/a/b', '-H', 'Authorization: token x']],
    ['an unmodelled flag', ['repos/a/b', '--include']],
    ['graphql', ['graphql', '-f', 'query=x']],
    ['a placeholder', ['repos/{owner}/{repo}']],
    ['--jq without jq on PATH', ['repos/a/b', '--jq', '.name']],
    // Paths and queries the relay refuses with 400: gh sends them as they are.
    ['a dot-dot segment', ['repos/acme/widgets/../secret-sauce']],
    ['an encoded dot', ['repos/acme/%2e%2e/x']],
    ['an encoded slash in a branch', ['repos/acme/widgets/branches/feature%2Fx']],
    ['a backslash', ['repos\\acme\\widgets']],
    ['a control character', ['repos/acme/widgets\t']],
    ['a space', ['repos/acme/widgets/contents/a b']],
    ['an empty query key', ['repos/acme/widgets?=x']],
    ['a secret-looking field', ['repos/a/b', '-X', 'GET', '-f', 'client_secret=x']],
    // Go refuses a header name that is not a token; a repeated header is two values.
    ['a header name with a space', ['repos/a/b', '-H', 'Accept : application/json']],
    ['a header name after a space', ['repos/a/b', '-H', ' Accept: application/json']],
    ['a repeated header', ['repos/a/b', '-H', 'Accept: a', '-H', 'accept: b']],
    ['a header value with a control character', ['repos/a/b', '-H', 'Accept: a\u0001']],
  ])('%s runs the native CLI with the original arguments', async (_name, args) => {
    const deps = await setup(() => ({ status: 200, json: envelopeOf({}) }));
    const result = await runCli(['native', 'api', ...args], deps);
    expect(result.code).toBe(3);
    expect(relay?.requests).toEqual([]);
    expect(deps.nativeRuns).toMatchObject([{ file: NATIVE, args: ['api', ...args] }]);
  });

  it.each([
    ['a missing file', (dir: string) => join(dir, 'gone.md'), 'open %s: no such file or directory'],
    ['a directory', (dir: string) => dir, 'read %s: is a directory'],
    ['a path through a file', () => '/etc/hostname/x', 'open %s: not a directory'],
  ])(
    "prints gh's own error for a -F @file it cannot read (%s), before any request",
    async (_name, pathOf, message) => {
      const deps = await setup(() => ({ status: 200, json: envelopeOf({}) }));
      const path = pathOf(dir.path);
      for (const args of [
        ['repos/a/b/issues', '-X', 'GET', '-F', `body=@${path}`],
        ['repos/a/b/issues', '-F', `body=@${path}`],
      ]) {
        const result = await runCli(['native', 'api', ...args], deps);
        expect(result).toMatchObject({
          code: 1,
          stdout: '',
          stderr: `error parsing "body" value: ${message.replace('%s', path)}\n`,
        });
      }
      expect(relay?.requests).toEqual([]);
      expect(deps.nativeRuns).toEqual([]);
    },
  );

  it("prints gh's own error for an --input file it cannot open, before any request", async () => {
    const deps = await setup(() => ({ status: 200, json: envelopeOf({}) }));
    const path = join(dir.path, 'gone.json');
    const result = await runCli(['native', 'api', 'repos/a/b/issues', '--input', path], deps);
    expect(result).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `open ${path}: no such file or directory\n`,
    });
    expect(relay?.requests).toEqual([]);
    expect(deps.nativeRuns).toEqual([]);
  });

  // Publications keep gh's meaning but run from sanitized snapshots (client rule 16), so the
  // native argv is the publication dispatcher's; the relay is never asked.
  it.each([
    ['a field flag (gh POSTs)', ['repos/a/b/issues', '-f', 'title=x']],
    ['--raw-field', ['repos/a/b/issues', '--raw-field=title=x']],
    ['a typed field read from stdin', ['repos/a/b/issues', '-F', 'n=@-', '-X', 'GET']],
  ])('%s runs the native CLI, not the relay', async (_name, args) => {
    const deps = await setup(() => ({ status: 200, json: envelopeOf({}) }));
    const result = await runCli(['native', 'api', ...args], deps);
    expect(result.code).toBe(3);
    expect(relay?.requests).toEqual([]);
    expect(deps.nativeRuns).toHaveLength(1);
    expect(deps.nativeRuns[0]?.args[0]).toBe('api');
  });
});

describe('relay native api: fallback and retries (client rules 5 and 6)', () => {
  it('runs the native CLI on fallback_local, without relay credentials in its environment', async () => {
    const deps = await setup(
      () => ({ status: 424, json: errorOf('fallback_local', 'repo_not_public') }),
      {
        RELAY_TOKEN: 'rly_env-token',
        RELAY_ADMIN_TOKEN: 'admin-secret',
        GH_TOKEN: 'user-token',
      },
    );
    const result = await runCli(['native', 'api', 'repos/a/b'], deps);
    expect(result.code).toBe(3);
    expect(relay?.requests).toHaveLength(1);
    expect(deps.sleeps).toEqual([]);
    const run = deps.nativeRuns[0];
    expect(run?.args).toEqual(['api', 'repos/a/b']);
    expect(run?.env.GH_TOKEN).toBe('user-token');
    expect(run?.env.RELAY_TOKEN).toBeUndefined();
    expect(run?.env.RELAY_ADMIN_TOKEN).toBeUndefined();
  });

  it('prefers RELAY_NATIVE_CLI over PATH', async () => {
    const deps = await setup(
      () => ({ status: 424, json: errorOf('fallback_local', 'route_denied') }),
      {
        RELAY_NATIVE_CLI: '/usr/local/real-gh',
      },
    );
    await runCli(['native', 'api', 'r'], deps);
    expect(deps.nativeRuns[0]?.file).toBe('/usr/local/real-gh');
  });

  it('retries a transient fallback twice, after 1 s then 3 s, then runs locally', async () => {
    const deps = await setup(() => ({
      status: 424,
      json: errorOf('fallback_local', 'identities_cooling_down'),
    }));
    const result = await runCli(['native', 'api', 'r'], deps);
    expect(relay?.requests).toHaveLength(3);
    expect(deps.sleeps).toEqual([1000, 3000]);
    expect(result.code).toBe(3);
  });

  it('serves the read when a retry succeeds', async () => {
    const deps = await setup((_b, index) =>
      index === 0
        ? { status: 424, json: errorOf('fallback_local', 'forge_rate_limited') }
        : { status: 200, json: envelopeOf({ ok: true }) },
    );
    const result = await runCli(['native', 'api', 'r'], deps);
    expect(result).toMatchObject({ code: 0, stdout: '{"ok":true}' });
    expect(deps.nativeRuns).toEqual([]);
  });

  it('RELAY_RETRIES=0 disables retries', async () => {
    const deps = await setup(
      () => ({ status: 424, json: errorOf('fallback_local', 'relay_overloaded') }),
      {
        RELAY_RETRIES: '0',
      },
    );
    await runCli(['native', 'api', 'r'], deps);
    expect(relay?.requests).toHaveLength(1);
    expect(deps.sleeps).toEqual([]);
  });

  it('RELAY_NO_FALLBACK=1 fails instead of running the native CLI', async () => {
    const deps = await setup(
      () => ({ status: 424, json: errorOf('fallback_local', 'route_denied') }),
      {
        RELAY_NO_FALLBACK: '1',
      },
    );
    const result = await runCli(['native', 'api', 'r'], deps);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('(fallback_local, reason route_denied');
    expect(deps.nativeRuns).toEqual([]);
  });

  it.each([
    ['string protection denial', 403, errorOf('string_rewrite_denied'), 1],
    ['pool policy unavailable', 503, errorOf('pool_policy_unavailable'), 1],
    ['no grant', 403, errorOf('pool_forbidden'), 1],
    ['bad token', 401, errorOf('unauthorized'), 4],
  ])('a %s fails closed without retry or fallback', async (_name, status, json, exit) => {
    const deps = await setup(() => ({ status, json }));
    const result = await runCli(['native', 'api', 'r'], deps);
    expect(result.code).toBe(exit);
    expect(relay?.requests).toHaveLength(1);
    expect(deps.nativeRuns).toEqual([]);
  });

  it.each([
    ['internal_error', { status: 500, json: errorOf('internal_error') }],
    ['a malformed 502', { status: 502, text: '<html>bad gateway</html>' }],
    ['a malformed 504', { status: 504, text: '', json: undefined }],
  ])(
    'a service error (%s) is retried, then fails without running locally',
    async (_name, answer) => {
      const deps = await setup(() => answer);
      const result = await runCli(['native', 'api', 'r'], deps);
      expect(relay?.requests).toHaveLength(3);
      expect(deps.sleeps).toEqual([1000, 3000]);
      expect(result.code).toBe(1);
      expect(deps.nativeRuns).toEqual([]);
    },
  );
});
