import { describe, expect, it } from 'vitest';
import {
  EMPTY_API_CONTEXT,
  fillPlaceholdersInArgs,
  isLoginProbe,
  planApiInvocation,
} from './native-api-invocation.js';
import type { ApiPlanContext } from './native-api-invocation.js';
import { isSecretQueryKey } from '@relay/route-classifier';

describe('planApiInvocation', () => {
  it.each([
    [['repos/a/b'], { path: '/repos/a/b', query: {}, paginate: false }],
    [
      ['/repos/a/b?state=all&labels=x&labels=y'],
      { path: '/repos/a/b', query: { state: 'all', labels: ['x', 'y'] } },
    ],
    [['repos/a/b', '--paginate'], { query: { per_page: '100' }, paginate: true }],
    [['repos/a/b?per_page=50', '--paginate'], { query: { per_page: '50' } }],
    // An escaped `;` is sent escaped, as gh sends it.
    [['repos/a/b/issues?q=a%3Bb'], { query: { q: 'a;b' } }],
    [['repos/a/b', '-X', 'GET'], { path: '/repos/a/b' }],
    [['repos/a/b/contents?path=x&ref=main'], { query: { path: 'x', ref: 'main' } }],
    [['repos/a/b/pulls?patch=1'], { query: { patch: '1' } }],
    [['repos/a/b', '--method=get'], { path: '/repos/a/b' }],
    [
      ['repos/a/b', '-H', 'Accept: application/vnd.github.raw'],
      { headers: { accept: 'application/vnd.github.raw' } },
    ],
    [
      ['repos/a/b', '-H', 'X-GitHub-Api-Version: 2022-11-28'],
      { headers: { 'x-github-api-version': '2022-11-28' } },
    ],
    [['repos/a/b', '-q', '.a', '--jq', '.b'], { jq: '.b' }],
    [['repos/a/b', '--jq=.x'], { jq: '.x' }],
    [['repos/a/b', '--paginate', '--slurp'], { slurp: true }],
    // gh: an empty --jq is no filter (FilterOutput == ""), so it does not clash with --slurp.
    [['repos/a/b', '--jq', ''], { jq: undefined }],
    [['repos/a/b', '-q', '.a', '--jq='], { jq: undefined }],
    [['repos/a/b', '--paginate', '--slurp', '--jq', ''], { slurp: true, jq: undefined }],
    [['repos/a/b', '-X', 'get'], { path: '/repos/a/b' }],
    [
      ['repos/a/b', '-H', 'accept:application/vnd.github.raw  '],
      { headers: { accept: 'application/vnd.github.raw' } },
    ],
  ])('%j is relayed', (args, expected) => {
    expect(planApiInvocation(args)).toMatchObject({ kind: 'relay', ...expected });
  });

  it.each([
    [['repos/a/b', '-X', 'POST'], 'method'],
    [['repos/a/b', '-XDELETE'], 'method'],
    [['repos/a/b', '-f', 'a=b'], 'field_flags'],
    [['repos/a/b', '-F', 'a=1'], 'field_flags'],
    [['repos/a/b', '-X', 'GET', '-F', 'a=@-'], 'field_flags'],
    [['repos/a/b', '--field', 'a=1'], 'field_flags'],
    [['repos/a/b', '--raw-field', 'a=1'], 'field_flags'],
    [['repos/a/b?client_secret=x'], 'secret_query_key'],
    [['repos/a/b?Api-Key=x'], 'secret_query_key'],
    [['repos/a/b?x=%zz&%zz=1'], 'secret_query_key'],
    // The classifier's own list (isSecretQueryKey): the client delegates what the relay refuses.
    [['repos/a/b?gh_pat=x'], 'secret_query_key'],
    [['repos/a/b?basicAuth=x'], 'secret_query_key'],
    [['repos/a/b?PHPSESSID=x'], 'secret_query_key'],
    [['repos/a/b?ssh.key=x'], 'secret_query_key'],
    [['repos/a/b?mfa_code=1'], 'secret_query_key'],
    [['repos/a/b', '-H', 'Authorization: token x'], 'header'],
    [['repos/a/b', '-H', 'X-Custom: 1'], 'header'],
    [['repos/a/b', '--input', 'f.json'], 'unsupported_flag'],
    [['repos/a/b', '-t', '{{.}}'], 'unsupported_flag'],
    [['repos/a/b', '--hostname', 'ghe.example'], 'unsupported_flag'],
    [['repos/a/b', '-i'], 'unsupported_flag'],
    [['repos/a/b', '--verbose'], 'unsupported_flag'],
    [['repos/a/b', '--unknown'], 'unsupported_flag'],
    [['graphql'], 'unsupported_path'],
    [['https://api.github.com/repos/a/b'], 'unsupported_path'],
    [['repos/{owner}/{repo}'], 'placeholder'],
    [['repos/{foo}/x'], 'unsupported_path'],
    [['repos/a/b', '-f', 'q=x'], 'field_flags'],
    [['repos/a/b', '-X', 'POST', '-f', 'q=x'], 'method'],
    [['repos/a/b', '-X', 'GET', '-f', 'a[b]=c'], 'field_flags'],
    [['repos/a/b', '-X', 'GET', '-f', 'novalue'], 'field_flags'],
    [['repos/a/b', '-X', 'GET', '-f', 'access_token=x'], 'secret_query_key'],
    [['repos/a/b', '--slurp'], 'invalid_usage'],
    [['repos/a/b', '--paginate', '--slurp', '--jq', '.'], 'invalid_usage'],
    [[], 'invalid_usage'],
    [['a', 'b'], 'invalid_usage'],
    [['repos/a/b', '-H'], 'invalid_usage'],
    [['repos/a/b', '-H', 'Accept : x'], 'invalid_usage'],
    [['repos/a/b', '-H', 'Accept: a', '-H', 'ACCEPT: b'], 'header'],
    [['repos/a/b', '-H', 'Accept: caf\u00e9'], 'header'],
    [['repos/a/../b'], 'unsupported_path'],
    [['repos/a/b/contents/%2E%2E/x'], 'unsupported_path'],
    [['repos/a/b/contents/a%5cb'], 'unsupported_path'],
    [['repos/a/b/branches/x%2Fy'], 'unsupported_path'],
    [['repos/a/b\x00'], 'unsupported_path'],
    [['repos/a/b/contents/é'], 'unsupported_path'],
    // An empty key: the relay's query rules refuse it, gh sends it (not a secret key).
    [['repos/a/b?=x'], 'unsupported_path'],
    // gh sends a `;` of the path's query as it is (and --paginate's addPerPage, whose
    // url.ParseQuery fails on it, appends per_page=100 after the path's own per_page).
    [['repos/a/b/issues?state=closed;per_page=1'], 'unsupported_path'],
    [['repos/a/b/labels?per_page=1;x=1', '--paginate'], 'unsupported_path'],
  ])('%j delegates (%s)', (args, reason) => {
    expect(planApiInvocation(args)).toEqual({ kind: 'delegate', reason });
  });
});

function withContext(
  env: Record<string, string>,
  repo?: { owner: string; name: string },
  branch?: string,
  stdoutIsTTY = false,
): ApiPlanContext {
  return {
    env,
    stdoutIsTTY,
    fields: { ...EMPTY_API_CONTEXT.fields, baseRepo: () => repo, branch: () => branch },
  };
}

const HUBOT = { owner: 'hubot', name: 'robot-uprising' };

describe('planApiInvocation: -X GET fields, placeholders, the terminal, the host', () => {
  it.each([
    // gh: with GET the fields become the query string (keys sorted, -F typed, arrays as k[]).
    [
      ['search/issues', '-X', 'GET', '-f', 'q=repo:cli/cli is:open remote'],
      { path: '/search/issues', query: { q: 'repo:cli/cli is:open remote' } },
    ],
    [
      [
        'repos/a/b/issues?state=all',
        '--method',
        'get',
        '-F',
        'per_page=5',
        '-f',
        'labels[]=x',
        '-f',
        'labels[]=y',
      ],
      { query: { state: 'all', 'labels[]': ['x', 'y'], per_page: '5' } },
    ],
    [
      [
        'repos/a/b/issues',
        '-X',
        'GET',
        '-F',
        'page=2',
        '-F',
        'draft=false',
        '-F',
        'milestone=null',
      ],
      { query: { draft: 'false', milestone: '', page: '2' } },
    ],
    // --paginate adds per_page=100 before the fields unless a per_page field or value exists.
    [
      ['repos/a/b/issues', '--paginate', '-X', 'GET', '-f', 'state=all'],
      { query: { per_page: '100', state: 'all' } },
    ],
    [
      ['repos/a/b/issues', '--paginate', '-X', 'GET', '-F', 'per_page=10'],
      { query: { per_page: '10' } },
    ],
    [['repos/a/b/issues?per_page=', '--paginate'], { query: { per_page: ['', '100'] } }],
    [['repos/a/b/issues?per_page=7', '--paginate'], { query: { per_page: '7' } }],
  ])('%j', (args, expected) => {
    expect(planApiInvocation(args, withContext({}, HUBOT, 'trunk'))).toMatchObject({
      kind: 'relay',
      ...expected,
    });
  });

  it.each([
    [['repos/{owner}/{repo}/releases'], '/repos/hubot/robot-uprising/releases', {}],
    [['repos/:owner/:repo/branches/:branch'], '/repos/hubot/robot-uprising/branches/trunk', {}],
    [
      ['repos/{owner}/{repo}/commits', '-X', 'GET', '-F', 'sha={branch}', '-f', 'author={owner}'],
      '/repos/hubot/robot-uprising/commits',
      { author: '{owner}', sha: 'trunk' },
    ],
  ])('fills %j from the base repository and branch', (args, path, query) => {
    expect(planApiInvocation(args, withContext({}, HUBOT, 'trunk'))).toMatchObject({
      kind: 'relay',
      path,
      query,
    });
  });

  it.each([
    [['repos/{owner}/{repo}'], withContext({}), 'placeholder'],
    [['repos/o/r/branches/{branch}'], withContext({}, HUBOT), 'placeholder'],
    [['repos/a/b'], withContext({}, HUBOT, 'trunk', true), 'tty_output'],
    [['repos/a/b'], withContext({ GH_FORCE_TTY: '1' }), 'tty_output'],
    [['repos/a/b'], withContext({ CLICOLOR_FORCE: '1' }), 'color_output'],
    [['repos/a/b'], withContext({ GH_HOST: 'ghe.example.com' }), 'other_host'],
    [['repos/a/b'], withContext({ GH_HOST: ' github.com' }), 'other_host'],
    [['repos/a/b'], withContext({ GH_HOST: 'github.com\n' }), 'other_host'],
  ])('%j delegates (%s)', (args, context, reason) => {
    expect(planApiInvocation(args, context)).toEqual({ kind: 'delegate', reason });
  });

  it('keeps serving with CLICOLOR_FORCE=0 and GH_HOST=github.com', () => {
    const context = withContext({ CLICOLOR_FORCE: '0', GH_HOST: 'github.com' });
    expect(planApiInvocation(['repos/a/b'], context)).toMatchObject({ kind: 'relay' });
  });
});

describe("planApiInvocation: gh's parseFields error for a @file it cannot read", () => {
  const context: ApiPlanContext = {
    ...EMPTY_API_CONTEXT,
    fields: {
      ...EMPTY_API_CONTEXT.fields,
      readFile: (path) =>
        path === 'gone.md' ? { error: 'open gone.md: no such file or directory' } : undefined,
    },
  };
  const fail = {
    kind: 'fail',
    stderr: 'error parsing "body" value: open gone.md: no such file or directory\n',
  };

  it.each([
    [['repos/a/b/issues', '-X', 'GET', '-F', 'body=@gone.md']],
    // gh parses the fields before choosing POST, before the endpoint and the terminal matter.
    [['repos/a/b/issues', '-F', 'body=@gone.md']],
    [['graphql', '-F', 'body=@gone.md']],
    [['repos/a/b/issues', '-X', 'PATCH', '-f', 'title=x', '-F', 'body=@gone.md']],
    // gh reads the value before it finds the field overridden.
    [['repos/a/b', '-X', 'GET', '-f', 'body=1', '-F', 'body=@gone.md']],
  ])('%j prints it', (args) => {
    expect(planApiInvocation(args, context)).toEqual(fail);
  });

  it.each([
    // gh's usage checks come first.
    [['repos/a/b', '-X', 'POST', '--paginate', '-F', 'body=@gone.md'], 'invalid_usage'],
    [['repos/a/b', '--slurp', '-F', 'body=@gone.md'], 'invalid_usage'],
    // An earlier field fails first (an overridden field; standard input, not modelled).
    [['repos/a/b', '-X', 'GET', '-f', 'x=1', '-f', 'x=2', '-F', 'body=@gone.md'], 'field_flags'],
    [['repos/a/b', '-X', 'GET', '-F', 'x=@-', '-F', 'body=@gone.md'], 'field_flags'],
  ])('%j delegates (%s)', (args, reason) => {
    expect(planApiInvocation(args, context)).toEqual({ kind: 'delegate', reason });
  });
});

describe("planApiInvocation: gh's {branch} error under GH_REPO", () => {
  const error = "unable to determine an appropriate value for the 'branch' placeholder";
  const context: ApiPlanContext = {
    ...EMPTY_API_CONTEXT,
    fields: { ...EMPTY_API_CONTEXT.fields, baseRepo: () => HUBOT, branch: () => ({ error }) },
  };

  it.each([
    [
      ['repos/{owner}/{repo}/branches/{branch}'],
      `unable to expand placeholder in path: ${error}\n`,
    ],
    // Whatever the method, the flags gh checks nothing about, the endpoint and the terminal.
    [
      ['repos/:owner/:repo/git/refs/heads/:branch', '-X', 'DELETE', '-i'],
      `unable to expand placeholder in path: ${error}\n`,
    ],
    [
      ['https://api.github.com/repos/{owner}/{repo}/branches/{branch}'],
      `unable to expand placeholder in path: ${error}\n`,
    ],
    // The fields come first.
    [
      ['repos/{owner}/{repo}/branches/{branch}', '-F', 'ref={branch}'],
      `error parsing "ref" value: ${error}\n`,
    ],
  ])('%j prints it', (args, stderr) => {
    expect(planApiInvocation(args, context)).toEqual({ kind: 'fail', stderr });
    expect(planApiInvocation(args, { ...context, stdoutIsTTY: true })).toEqual({
      kind: 'fail',
      stderr,
    });
  });

  it('fills {owner} and {repo} and delegates -i without {branch}', () => {
    expect(planApiInvocation(['repos/{owner}/{repo}', '-i'], context)).toEqual({
      kind: 'delegate',
      reason: 'unsupported_flag',
    });
  });
});

describe("planApiInvocation: gh's error for an --input file it cannot open", () => {
  const context: ApiPlanContext = {
    ...EMPTY_API_CONTEXT,
    fields: {
      ...EMPTY_API_CONTEXT.fields,
      readFile: () => ({ error: 'open gone.md: no such file or directory' }),
    },
    openError: (path) =>
      path === 'gone.json' ? `open ${path}: no such file or directory` : undefined,
  };

  it.each([
    [['repos/a/b/issues', '--input', 'gone.json'], 'open gone.json: no such file or directory\n'],
    [
      ['repos/a/b/issues', '--input=gone.json', '-X', 'PATCH', '-i'],
      'open gone.json: no such file or directory\n',
    ],
    // The fields fail first.
    [
      ['repos/a/b/issues', '--input', 'gone.json', '-F', 'x=@gone.md'],
      'error parsing "x" value: open gone.md: no such file or directory\n',
    ],
  ])('%j prints it', (args, stderr) => {
    expect(planApiInvocation(args, context)).toEqual({ kind: 'fail', stderr });
  });

  it.each([
    [['repos/a/b/issues', '--input', 'body.json'], 'unsupported_flag'],
    [['repos/a/b/issues', '--input', '-'], 'unsupported_flag'],
    // gh's usage check comes first.
    [['repos/a/b/issues', '--input', 'gone.json', '--paginate'], 'invalid_usage'],
  ])('%j delegates (%s)', (args, reason) => {
    expect(planApiInvocation(args, context)).toEqual({ kind: 'delegate', reason });
  });
});

describe('fillPlaceholdersInArgs (where gh fills {owner} and {repo})', () => {
  const fill = (value: string) => value.replaceAll('{owner}', 'acme').replaceAll('{repo}', 'w');

  it.each([
    [
      ['repos/{owner}/{repo}', '-i'],
      ['repos/acme/w', '-i'],
    ],
    [
      ['graphql', '-F', 'o={owner}', '-f', 'q={owner}', '--field=r={repo}', '-Fx={owner}'],
      ['graphql', '-F', 'o=acme', '-f', 'q={owner}', '--field=r=w', '-Fx=acme'],
    ],
    // Not filled by gh: @file paths, integers, literals, a key, -f, header values.
    [
      ['x', '-F', 'a=@{owner}.txt', '-F', '{owner}=1', '-H', 'X-A: {owner}', '-F', 'n=null'],
      ['x', '-F', 'a=@{owner}.txt', '-F', '{owner}=1', '-H', 'X-A: {owner}', '-F', 'n=null'],
    ],
    [
      ['--', 'repos/{owner}'],
      ['--', 'repos/acme'],
    ],
  ])('%j → %j', (args, expected) => {
    expect(fillPlaceholdersInArgs(args, fill)).toEqual(expected);
  });

  it.each([
    [['repos/{owner}', '--unknown']],
    [['repos/{owner}', '-iq', '.x']],
    [['repos/{owner}', '-F']],
  ])('leaves %j as it is (undefined)', (args) => {
    expect(fillPlaceholdersInArgs(args, fill)).toBeUndefined();
  });

  it('is undefined when a placeholder cannot be filled', () => {
    expect(fillPlaceholdersInArgs(['repos/{owner}'], () => undefined)).toBeUndefined();
  });
});

describe('isLoginProbe', () => {
  it.each([
    [['user', '--jq', '.login'], true],
    [['/user', '-q', '.login'], true],
    [['user', '--jq=.login'], true],
    [['user'], false],
    [['user', '--jq', '.id'], false],
    [['users/alice', '--jq', '.login'], false],
    [['user', '--jq', '.login', '--paginate'], false],
  ])('%j → %s', (args, expected) => {
    expect(isLoginProbe(args)).toBe(expected);
  });
});

describe('isSecretQueryKey', () => {
  it.each([
    ['access_token', true],
    ['client_secret', true],
    ['X-Api-Key', true],
    ['sig', true],
    ['auth_code', true],
    ['author', false],
    ['per_page', false],
    ['state', false],
    ['signed', false],
    ['%zz', true],
  ])('%s → %s', (key, expected) => {
    expect(isSecretQueryKey(key)).toBe(expected);
  });
});
