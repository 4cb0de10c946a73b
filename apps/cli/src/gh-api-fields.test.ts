import { describe, expect, it } from 'vitest';
import { fieldsToQuery, fillPlaceholders, namesPlaceholder } from './gh-api-fields.js';
import type { ApiFieldContext } from './gh-api-fields.js';

const files: Record<string, string> = { 'body.txt': 'from a file\n' };
const missing = { error: 'open missing.txt: no such file or directory' };

const HUBOT = { owner: 'hubot', name: 'robot-uprising' };

function context(
  repo: { owner: string; name: string } | null = HUBOT,
  branch: string | null = 'trunk',
): ApiFieldContext {
  return {
    baseRepo: () => repo ?? undefined,
    branch: () => branch ?? undefined,
    readFile: (path) => {
      if (path === 'missing.txt') return missing;
      return files[path] === undefined ? undefined : Buffer.from(files[path]);
    },
  };
}

// gh's Test_fillPlaceholders (pkg/cmd/api/api_test.go), as facts.
describe('fillPlaceholders', () => {
  it.each([
    ['repos/owner/repo/releases', 'repos/owner/repo/releases'],
    ['repos/:owner/:repo/releases', 'repos/hubot/robot-uprising/releases'],
    ['repos/{owner}/{repo}/releases', 'repos/hubot/robot-uprising/releases'],
    [
      'repos/owner/repo/branches/{branch}/protection/required_status_checks',
      'repos/owner/repo/branches/trunk/protection/required_status_checks',
    ],
    ['repos/owner/repo/branches/:branch/protection', 'repos/owner/repo/branches/trunk/protection'],
    [':ownership/:repository', ':ownership/:repository'],
    ['{}{ownership}/{repository}', '{}{ownership}/{repository}'],
    [
      'repos/{owner}/{repo}/issues?creator={owner}',
      'repos/hubot/robot-uprising/issues?creator=hubot',
    ],
  ])('%s → %s', (value, expected) => {
    expect(fillPlaceholders(value, context())).toBe(expected);
  });

  it.each([
    ['repos/{owner}/{repo}/branches/{branch}', context(null, null)],
    ['repos/o/r/branches/{branch}', context(null, null)],
    ['{branch}-{owner}', context({ owner: 'hubot', name: 'r' }, null)],
    ['repos/{owner}/x', context(null)],
  ])('%s fails as gh does (no repository or branch)', (value, ctx) => {
    expect(fillPlaceholders(value, ctx)).toBeUndefined();
  });

  it.each([
    ['repos/{owner}/{repo}', { repo: true, branch: false }],
    ['x/:branch', { repo: false, branch: true }],
    ['{foo}/:ownership', { repo: false, branch: false }],
  ])('namesPlaceholder(%s)', (value, expected) => {
    expect(namesPlaceholder(value)).toEqual(expected);
  });
});

// gh's parseFields + addQuery (fields.go, http.go Test_addQuery) for a GET.
describe('fieldsToQuery', () => {
  it.each([
    [['a=hello'], [], [['a', 'hello']]],
    [
      ['a[]=hello', 'a[]=world'],
      [],
      [
        ['a[]', 'hello'],
        ['a[]', 'world'],
      ],
    ],
    [[], ['a=123'], [['a', '123']]],
    [
      [],
      ['a=+007', 'b=-0'],
      [
        ['a', '7'],
        ['b', '0'],
      ],
    ],
    [[], ['a=null'], [['a', '']]],
    [
      [],
      ['a=true', 'b=false'],
      [
        ['a', 'true'],
        ['b', 'false'],
      ],
    ],
    [['a=true'], [], [['a', 'true']]],
    // Beyond int64 or not decimal: a string.
    [
      [],
      ['n=9223372036854775808', 'h=0x10', 'f=1.5'],
      [
        ['f', '1.5'],
        ['h', '0x10'],
        ['n', '9223372036854775808'],
      ],
    ],
    // Keys sorted as url.Values.Encode sorts them; raw fields first.
    [
      ['q=is:open', 'b=2'],
      ['a=x'],
      [
        ['a', 'x'],
        ['b', '2'],
        ['q', 'is:open'],
      ],
    ],
    [['x=a=b'], [], [['x', 'a=b']]],
    [['x='], [], [['x', '']]],
    // `key[]` alone is an empty array: nothing in the query.
    [['labels[]'], [], []],
    [
      [],
      ['owner={owner}', 'ref={branch}'],
      [
        ['owner', 'hubot'],
        ['ref', 'trunk'],
      ],
    ],
    [[], ['body=@body.txt'], [['body', 'from a file\n']]],
    [['raw={owner}'], [], [['raw', '{owner}']]],
  ])('-f %j -F %j', (raw, magic, pairs) => {
    expect(fieldsToQuery(raw, magic, context())).toMatchObject({ pairs });
  });

  it('notes a per_page field (gh then adds none)', () => {
    expect(fieldsToQuery(['per_page=5'], [], context())).toMatchObject({ hasPerPage: true });
    expect(fieldsToQuery(['page=5'], [], context())).toMatchObject({ hasPerPage: false });
  });

  // gh's parseFields stops at the first failing field, raw fields first.
  it.each([
    [
      [],
      ['body=@missing.txt'],
      'error parsing "body" value: open missing.txt: no such file or directory',
    ],
    [
      ['a=1'],
      ['n=1', 'labels[]=@missing.txt', 'x=@-'],
      'error parsing "labels[]" value: open missing.txt: no such file or directory',
    ],
  ])("-f %j -F %j is gh's error %j", (raw, magic, error) => {
    expect(fieldsToQuery(raw, magic, context())).toEqual({ error });
  });

  it.each([
    [['novalue'], ['body=@missing.txt']],
    [[], ['a=1', 'a=2', 'body=@missing.txt']],
    [[], ['x=@-', 'body=@missing.txt']],
  ])('-f %j -F %j fails earlier, as gh does (not served)', (raw, magic) => {
    expect(fieldsToQuery(raw, magic, context())).toBeUndefined();
  });

  it.each([
    [['novalue'], []],
    [['a[b]'], []],
    [['a=1', 'a=2'], []],
    [['a=1', 'a[]=2'], []],
    [['a[]=1', 'a=2'], []],
    [['[]=1'], []],
    // Nested maps: gh flattens `a[b]=c` to `b=c` in Go map order; not modelled.
    [['a[b]=c'], []],
    [['a[][b]=c'], []],
    [[], ['body=@unreadable.txt']],
    [[], ['body=@-']],
    [[], ['ref={branch}']],
  ])('-f %j -F %j is not served', (raw, magic) => {
    expect(fieldsToQuery(raw, magic, context(null, null))).toBeUndefined();
  });
});
