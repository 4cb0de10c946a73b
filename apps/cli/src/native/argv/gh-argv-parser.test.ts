import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseGhArgv } from './gh-argv-parser.js';
import { HELP_FLAG, REPO_FLAG, SERVED_COMMAND_FLAGS } from './gh-command-table.js';

const PR_LIST = [...SERVED_COMMAND_FLAGS['pr list'].flags, HELP_FLAG, REPO_FLAG];

describe('parseGhArgv: pflag syntax', () => {
  it.each<[string, string[], { args: string[]; flags: Record<string, string[]> }]>([
    ['a long value flag', ['--limit', '5'], { args: [], flags: { limit: ['5'] } }],
    ['--flag=value', ['--limit=5'], { args: [], flags: { limit: ['5'] } }],
    ['--flag= (empty value)', ['--search='], { args: [], flags: { search: [''] } }],
    ['a short value flag', ['-L', '5'], { args: [], flags: { limit: ['5'] } }],
    ['-Lvalue', ['-L5'], { args: [], flags: { limit: ['5'] } }],
    ['-L=value', ['-L=5'], { args: [], flags: { limit: ['5'] } }],
    ['a boolean', ['--draft'], { args: [], flags: { draft: ['true'] } }],
    ['--bool=false', ['--web=false'], { args: [], flags: { web: ['false'] } }],
    ['-w=0', ['-w=0'], { args: [], flags: { web: ['false'] } }],
    ['grouped booleans', ['-dw'], { args: [], flags: { draft: ['true'], web: ['true'] } }],
    [
      'a group ending in a value flag',
      ['-dR', 'acme/widgets'],
      { args: [], flags: { draft: ['true'], repo: ['acme/widgets'] } },
    ],
    [
      'a group with a glued value',
      ['-dRacme/w'],
      { args: [], flags: { draft: ['true'], repo: ['acme/w'] } },
    ],
    [
      'repeated repeatable flags, in order',
      ['--label', 'bug', '-l', 'ui', '--json', 'number', '--json=title'],
      { args: [], flags: { label: ['bug', 'ui'], json: ['number', 'title'] } },
    ],
    [
      'a repeated single flag keeps every occurrence',
      ['-L', '1', '-L', '2'],
      { args: [], flags: { limit: ['1', '2'] } },
    ],
    [
      'a value that starts with a dash is taken (pflag)',
      ['--search', '-label:bug'],
      { args: [], flags: { search: ['-label:bug'] } },
    ],
    [
      'positional arguments among flags',
      ['a', '-d', 'b'],
      { args: ['a', 'b'], flags: { draft: ['true'] } },
    ],
    ['a lone dash is positional', ['-'], { args: ['-'], flags: {} }],
    [
      'everything after -- is positional',
      ['-d', '--', '--web', '-R', 'x', '--'],
      { args: ['--web', '-R', 'x', '--'], flags: { draft: ['true'] } },
    ],
  ])('%s', (_name, tokens, expected) => {
    const parsed = parseGhArgv(tokens, PR_LIST);
    expect(parsed).toEqual({
      ok: true,
      value: { ...expected, terminated: tokens.includes('--') },
    });
  });

  it.each<[string, string[], unknown]>([
    ['an unknown long flag', ['--frob'], { code: 'unknown_flag', flag: '--frob' }],
    ['an unknown long flag with a value', ['--frob=1'], { code: 'unknown_flag', flag: '--frob=1' }],
    ['an unknown shorthand', ['-z'], { code: 'unknown_flag', flag: '-z' }],
    ['an unknown shorthand inside a group', ['-dz'], { code: 'unknown_flag', flag: '-z' }],
    ['bad flag syntax', ['--=x'], { code: 'unknown_flag', flag: '--=x' }],
    ['a negative number is a shorthand to gh', ['-1'], { code: 'unknown_flag', flag: '-1' }],
    ['-h (the help; nothing after it is read)', ['-dh', '--limit'], { code: 'help' }],
  ])('stops at %s as gh does', (_name, tokens, error) => {
    expect(parseGhArgv(tokens, PR_LIST)).toEqual({ ok: false, error });
  });

  it.each<[string, string[], string, Record<string, unknown>]>([
    ['a value flag at the end', ['--limit'], 'limit', { code: 'missing_value', form: 'long' }],
    [
      'a short value flag at the end',
      ['-d', '-L'],
      'limit',
      { code: 'missing_value', form: 'short' },
    ],
    ['one ending a group', ['-dL'], 'limit', { code: 'missing_value', form: 'short' }],
    [
      'a bad boolean',
      ['--web=maybe'],
      'web',
      { code: 'invalid_value', value: 'maybe', cause: 'bool_syntax' },
    ],
    [
      'a bad nil-boolean',
      ['-d=yes'],
      'draft',
      { code: 'invalid_value', value: 'yes', cause: 'bool_syntax' },
    ],
    [
      'a bad integer',
      ['-L', 'ten'],
      'limit',
      { code: 'invalid_value', value: 'ten', cause: 'int_syntax' },
    ],
    [
      'an integer beyond 64 bits',
      ['--limit=9223372036854775808'],
      'limit',
      { code: 'invalid_value', value: '9223372036854775808', cause: 'int_range' },
    ],
    [
      'an enum value gh does not list',
      ['-s', 'draft'],
      'state',
      { code: 'invalid_value', value: 'draft', cause: 'enum' },
    ],
    [
      'an enum value with non-ASCII text',
      ['-s', 'cloſed'],
      'state',
      { code: 'unmodelled_value', value: 'cloſed' },
    ],
    [
      'a label Go’s CSV reader refuses',
      ['-l', 'a"b'],
      'label',
      { code: 'unmodelled_value', value: 'a"b' },
    ],
    [
      'the first problem, left to right',
      ['-s', 'x', '-L', 'y'],
      'state',
      { code: 'invalid_value', value: 'x', cause: 'enum' },
    ],
  ])('rejects %s as pflag does', (_name, tokens, flagName, error) => {
    const parsed = parseGhArgv(tokens, PR_LIST);
    expect(parsed).toMatchObject({ ok: false, error: { ...error, flag: { name: flagName } } });
  });

  it.each([
    [
      'an enum in another case (gh compares case-insensitively, keeps the text)',
      ['-s', 'OPEN'],
      { state: ['OPEN'] },
    ],
    ['Go integer syntax with underscores', ['-L', '1_0'], { limit: ['1_0'] }],
    ['an empty --json (no fields, no error)', ['--json='], { json: [''] }],
  ])('accepts %s', (_name, tokens, flags) => {
    expect(parseGhArgv(tokens, PR_LIST)).toEqual({
      ok: true,
      value: { args: [], flags, terminated: false },
    });
  });

  it('never throws on any argv', () => {
    const token = fc.oneof(
      fc.constantFrom(
        '--',
        '-',
        '-d',
        '-L',
        '--web',
        '--label',
        '-R',
        '--json',
        '-dR',
        '--x=',
        '-w=',
      ),
      fc.string(),
    );
    fc.assert(
      fc.property(fc.array(token), (tokens) => {
        expect(() => parseGhArgv(tokens, PR_LIST)).not.toThrow();
      }),
    );
  });

  it('keeps every token after a -- that ends the flags positional, in order', () => {
    const positional = fc.string().filter((text) => !text.startsWith('-'));
    const unit = fc.oneof(
      fc.constant(['-d']),
      fc.constant(['--web']),
      fc.tuple(fc.constantFrom('-L', '--limit'), fc.integer().map(String)),
      fc.tuple(fc.constantFrom('-R', '--search', '-B'), fc.string()),
      fc.tuple(fc.constantFrom('--label', '--json'), fc.stringMatching(/^[a-z,]*$/)),
      positional.map((text) => [text]),
    );
    fc.assert(
      fc.property(fc.array(unit), fc.array(fc.string()), (units, after) => {
        const parsed = parseGhArgv([...units.flat(), '--', ...after], PR_LIST);
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        expect(parsed.value.terminated).toBe(true);
        expect(parsed.value.args.slice(parsed.value.args.length - after.length)).toEqual(after);
        expect(parsed.value.args.length).toBe(
          units.filter((u) => u.length === 1 && !u.join('').startsWith('-')).length + after.length,
        );
      }),
    );
  });
});
