import { compileRules } from '@relay/rewrite-engine';
import type { RuleSet } from '@relay/rewrite-engine';
import { describe, expect, it } from 'vitest';
import {
  checkFileContents,
  gistStandardInput,
  locateFileArguments,
  standardInputContent,
} from './publication-best-effort.js';
import type { FileArgument } from './publication-best-effort.js';
import { forcePublicHost } from './publication-child-env.js';
import { classifyCommandPublication } from './publication-commands.js';
import {
  CONTENT_BUDGET_BYTES,
  decodeContent,
  formatContentRefusal,
  sanitizePublication,
} from './publication-content.js';
import type { PublicationPlan } from './publication-model.js';
import { containsActiveRuleJson } from './publication-rule-json.js';

function rules(...pairs: [string, string][]): RuleSet {
  const compiled = compileRules(pairs.map(([pattern, replacement]) => ({ pattern, replacement })));
  if (!compiled.ok) throw new Error(compiled.error.code);
  return compiled.value;
}

function planOf(argv: string[]): PublicationPlan {
  const verdict = classifyCommandPublication(argv);
  if (verdict.kind !== 'modeled') throw new Error('not modeled');
  return verdict.plan;
}

const GUARD = rules(['falc[o0]n', 'bird'], ['secret-[0-9]+', 'redacted']);
const PATTERNS = GUARD.rules.map((rule) => rule.pattern);

describe('containsActiveRuleJson: recognizable active rule JSON', () => {
  it.each<[string, string, boolean]>([
    ['a rule object', '{"pattern": "falc[o0]n", "replacement": "bird"}', true],
    [
      'a rules document',
      '{"schema_version":1,"rules":[{"replacement":"x","pattern":"secret-[0-9]+"}]}',
      true,
    ],
    ['JSON whitespace around the colon', 'see "pattern"\n\t :\r\n "falc[o0]n" here', true],
    ['an escaped key', '{"p\\u0061ttern": "falc[o0]n"}', true],
    ['an escaped value', '{"pattern": "falc\\u005bo0]n"}', true],
    ['an escaped slash', '{"pattern": "secret-[0-9]+\\/"}', false],
    ['inside prose in a code block', '```\n"pattern":"secret-[0-9]+"\n```', true],
    ['the pattern text alone', 'the regex falc[o0]n is banned', false],
    ['an inactive pattern', '{"pattern": "eagle"}', false],
    ['another key', '{"patterns": "falc[o0]n"}', false],
    ['a key in another case', '{"Pattern": "falc[o0]n"}', false],
    ['a YAML member', 'pattern: falc[o0]n', false],
    ['a value that is not a string', '{"pattern": ["falc[o0]n"]}', false],
    ['an unterminated value', '{"pattern": "falc[o0]n', false],
    ['a raw control character in the value', '{"pattern": "falc[o0]n\n"}', false],
    ['a second member after a miss', '{"pattern": "x"} {"pattern": "falc[o0]n"}', true],
  ])('%s → %s', (_name, text, expected) => {
    expect(containsActiveRuleJson(text, PATTERNS)).toBe(expected);
  });

  it('recognizes nothing without active rules', () => {
    expect(containsActiveRuleJson('{"pattern": "falc[o0]n"}', [])).toBe(false);
  });
});

describe('sanitizePublication', () => {
  it('rewrites the title, the body and an asset label, and leaves structure alone', () => {
    const plan = planOf([
      'issue',
      'create',
      '-t',
      'the falc0n',
      '-b',
      'about secret-42',
      '-l',
      'bug',
    ]);
    expect(sanitizePublication(GUARD, plan, ['the falc0n', 'about secret-42'])).toEqual({
      ok: true,
      value: ['the bird', 'about redacted'],
    });
  });

  it('refuses a structural value that matches (a label is never rewritten)', () => {
    const plan = planOf(['issue', 'create', '-t', 'T', '-b', 'B', '-l', 'falcon']);
    expect(sanitizePublication(GUARD, plan, ['T', 'B'])).toEqual({
      ok: false,
      error: { code: 'value_blocked', failure: { code: 'blocked', category: 'pattern_match' } },
    });
  });

  it('refuses an asset path that matches', () => {
    const plan = planOf(['release', 'upload', 'v1', 'secret-1.tgz']);
    expect(sanitizePublication(GUARD, plan, [])).toMatchObject({
      ok: false,
      error: { code: 'value_blocked' },
    });
  });

  it('refuses content a replacement makes match again (final scan)', () => {
    const looping = rules(['alpha', 'beta'], ['beta', 'alpha']);
    const plan = planOf(['issue', 'comment', '3', '-b', 'alpha']);
    expect(sanitizePublication(looping, plan, ['alpha'])).toEqual({
      ok: false,
      error: {
        code: 'content_blocked',
        field: 'body',
        failure: { code: 'blocked', category: 'final_scan_match' },
      },
    });
  });

  it('refuses active rule JSON in the body', () => {
    const plan = planOf(['issue', 'comment', '3', '-F', 'x']);
    expect(sanitizePublication(GUARD, plan, ['{"pattern":"falc[o0]n"}'])).toEqual({
      ok: false,
      error: { code: 'active_rule_json', field: 'body' },
    });
  });

  it.each<[string, number, number, boolean]>([
    ['one text at 1 MiB', CONTENT_BUDGET_BYTES, 0, true],
    ['one text 1 byte past 1 MiB', CONTENT_BUDGET_BYTES + 1, 0, false],
    ['title and body at 1 MiB together', CONTENT_BUDGET_BYTES - 10, 10, true],
    ['title and body 1 byte past 1 MiB together', CONTENT_BUDGET_BYTES - 10, 11, false],
  ])('the content budget: %s', (_name, bodyBytes, titleBytes, passes) => {
    const plan = planOf(['issue', 'create', '-t', 'x', '-b', 'y']);
    const result = sanitizePublication(GUARD, plan, [
      't'.repeat(titleBytes),
      'b'.repeat(bodyBytes),
    ]);
    expect(result.ok).toBe(passes);
    if (!result.ok) expect(result.error.code).toBe('content_budget');
  });

  it('counts UTF-8 bytes, not UTF-16 units', () => {
    const plan = planOf(['issue', 'comment', '3', '-b', 'x']);
    const text = 'é'.repeat(CONTENT_BUDGET_BYTES / 2) + 'a';
    expect(sanitizePublication(GUARD, plan, [text])).toMatchObject({
      ok: false,
      error: { code: 'content_budget' },
    });
  });

  it('refuses a rewrite that grows past the budget', () => {
    const growing = rules(['a', 'bb']);
    const plan = planOf(['issue', 'create', '-t', 'x', '-b', 'y']);
    const half = 'a'.repeat(CONTENT_BUDGET_BYTES / 2 - 1);
    expect(sanitizePublication(growing, plan, [half, 'a'])).toMatchObject({ ok: true });
    expect(sanitizePublication(growing, plan, [half, 'aa'])).toMatchObject({
      ok: false,
      error: { code: 'content_budget' },
    });
  });

  it('never puts the pattern or the content in its messages', () => {
    const messages = [
      formatContentRefusal({ code: 'active_rule_json', field: 'body' }),
      formatContentRefusal({
        code: 'content_blocked',
        field: 'title',
        failure: { code: 'blocked', category: 'final_scan_match' },
      }),
      formatContentRefusal({
        code: 'value_blocked',
        failure: { code: 'blocked', category: 'pattern_match' },
      }),
    ];
    expect(messages.join('\n')).not.toMatch(/falc|secret/);
  });
});

describe('decodeContent', () => {
  it('decodes UTF-8 and refuses other bytes', () => {
    expect(decodeContent(new TextEncoder().encode('héllo'))).toBe('héllo');
    expect(decodeContent(Uint8Array.of(0x68, 0xff))).toBeNull();
  });
});

describe('the best-effort path of unmodeled commands', () => {
  it.each<[string, string[], FileArgument[]]>([
    [
      'an unmodeled issue create',
      ['issue', 'create', '--body-file', 'b.md', '--editor'],
      [{ index: 3, prefix: '', path: 'b.md' }],
    ],
    ['-F attached', ['pr', 'merge', '3', '-Fb.md'], [{ index: 3, prefix: '-F', path: 'b.md' }]],
    [
      '--notes-file=',
      ['release', 'edit', 'v1', '--notes-file=-'],
      [{ index: 3, prefix: '--notes-file=', path: '-' }],
    ],
    [
      'api fields and input',
      [
        'api',
        'graphql',
        '-F',
        'query=@q.graphql',
        '--field=x=@-',
        '-f',
        'y=@z',
        '--input',
        'in.json',
      ],
      [
        { index: 3, prefix: 'query=@', path: 'q.graphql' },
        { index: 4, prefix: '--field=x=@', path: '-' },
        { index: 8, prefix: '', path: 'in.json' },
      ],
    ],
    ['a typed field without a file', ['api', 'x', '-F', 'n=1'], []],
    [
      'workflow run fields',
      ['workflow', 'run', 'ci.yml', '-F', 'notes=@n.txt'],
      [{ index: 4, prefix: 'notes=@', path: 'n.txt' }],
    ],
    ['after --', ['issue', 'comment', '3', '--', '--body-file', 'x'], []],
    [
      'gist create files',
      [
        'gist',
        'create',
        '-d',
        'notes.txt',
        'a.txt',
        '--public',
        '-',
        '--filename=x',
        '--',
        '-b.txt',
      ],
      [
        { index: 4, prefix: '', path: 'a.txt', named: true },
        { index: 9, prefix: '', path: '-b.txt', named: true },
      ],
    ],
    [
      'gist edit: the source file',
      ['gist', 'edit', 'abc', '-f', 'a.txt', 'new.txt'],
      [{ index: 5, prefix: '', path: 'new.txt' }],
    ],
    [
      'gist edit: the source from standard input',
      ['gist', 'edit', '-d', 'x', 'abc', '-'],
      [{ index: 5, prefix: '', path: '-' }],
    ],
    [
      'gist edit: the file of --add without a source',
      ['gist', 'edit', 'abc', '--add', 'b.txt'],
      [{ index: 4, prefix: '', path: 'b.txt', named: true }],
    ],
    [
      'gist edit: --add= and -a attached',
      ['gist', 'edit', 'abc', '-ab.txt'],
      [{ index: 3, prefix: '-a', path: 'b.txt', named: true }],
    ],
    [
      'gist edit: --add names the gist file when a source is given',
      ['gist', 'edit', 'abc', '--add=new.md', 'src.md'],
      [{ index: 4, prefix: '', path: 'src.md' }],
    ],
    ['gist edit: the editor (no file)', ['gist', 'edit', 'abc', '-f', 'a.txt'], []],
    [
      'variable set: the env file',
      ['variable', 'set', '--env-file', 'vars.env'],
      [{ index: 3, prefix: '', path: 'vars.env' }],
    ],
    [
      'variable set: -f attached, and standard input',
      ['variable', 'set', '-fvars.env', '-f', '-'],
      [
        { index: 2, prefix: '-f', path: 'vars.env' },
        { index: 4, prefix: '', path: '-' },
      ],
    ],
  ])('locates the content files: %s', (_name, argv, expected) => {
    expect(locateFileArguments(argv)).toEqual(expected);
  });

  it.each<[string[], ReturnType<typeof gistStandardInput>]>([
    [['gist', 'create'], 'when_piped'],
    [['gist', 'create', '-d', 'notes', '--public'], 'when_piped'],
    [['gist', 'create', '-f', 'a.txt', '-'], 'always'],
    [['gist', 'create', 'a.txt', '-'], 'always'],
    [['gist', 'create', 'a.txt'], 'never'],
    [['gist', 'create', '--', '-'], 'always'],
    [['gist', 'edit', 'abc', '-'], 'never'],
    [['issue', 'create'], 'never'],
  ])('gist create reads standard input: %j → %s', (argv, mode) => {
    expect(gistStandardInput(argv)).toBe(mode);
  });

  it.each<[string[], ReturnType<typeof standardInputContent>]>([
    [['gist', 'create'], 'when_piped'],
    [['workflow', 'run', 'ci.yml', '--json'], 'when_piped'],
    [['workflow', 'run', 'ci.yml', '--json=true'], 'when_piped'],
    [['workflow', 'run', 'ci.yml', '--json=false'], 'never'],
    [['workflow', 'run', 'ci.yml', '-f', 'a=b'], 'never'],
    [['workflow', 'run', 'ci.yml', '--', '--json'], 'never'],
    [['variable', 'set', 'NAME'], 'when_piped'],
    [['variable', 'set', 'NAME', '--body='], 'when_piped'],
    [['variable', 'set', 'NAME', '-b', 'value'], 'never'],
    [['variable', 'set', 'NAME', '-bvalue'], 'never'],
    [['variable', 'set', '--env-file', 'x.env'], 'never'],
    [['secret', 'set', 'NAME'], 'never'],
  ])('standard input published: %j → %s', (argv, mode) => {
    expect(standardInputContent(argv)).toBe(mode);
  });

  it('checks file contents without rewriting, within the budget', () => {
    expect(checkFileContents(GUARD, ['fine', 'also fine']).ok).toBe(true);
    expect(checkFileContents(GUARD, ['about falcon'])).toEqual({
      ok: false,
      error: { code: 'file_blocked', failure: { code: 'blocked', category: 'pattern_match' } },
    });
    expect(checkFileContents(GUARD, ['{"pattern":"secret-[0-9]+"}'])).toMatchObject({
      ok: false,
      error: { code: 'active_rule_json' },
    });
    expect(checkFileContents(GUARD, ['{"body":"about f\\u0061lcon"}'])).toEqual({
      ok: false,
      error: { code: 'file_blocked', failure: { code: 'blocked', category: 'pattern_match' } },
    });
    expect(checkFileContents(GUARD, ['{"\\u0066alcon":1}'])).toMatchObject({
      ok: false,
      error: { code: 'file_blocked' },
    });
    expect(checkFileContents(GUARD, ['{"body":"fine \\u0041"}']).ok).toBe(true);
    expect(checkFileContents(GUARD, ['a'.repeat(CONTENT_BUDGET_BYTES)]).ok).toBe(true);
    expect(checkFileContents(GUARD, ['a'.repeat(CONTENT_BUDGET_BYTES), 'b'])).toMatchObject({
      ok: false,
      error: { code: 'content_budget' },
    });
  });
});

describe('forcePublicHost', () => {
  it('forces GH_HOST and removes GH_REPO and the enterprise tokens', () => {
    expect(
      forcePublicHost({
        GH_HOST: 'ghe.example',
        GH_REPO: 'other/repo',
        GH_ENTERPRISE_TOKEN: 'x',
        GITHUB_ENTERPRISE_TOKEN: 'y',
        GH_TOKEN: 'kept',
        PATH: '/bin',
      }),
    ).toEqual({ GH_HOST: 'github.com', GH_TOKEN: 'kept', PATH: '/bin' });
  });
});
