import { compileRules } from '@relay/rewrite-engine';
import { describe, expect, it } from 'vitest';
import {
  aliasCandidates,
  aliasExpansionTexts,
  findAlias,
  parseAliasList,
} from './publication-alias.js';

describe('aliasCandidates', () => {
  it.each<[string[], string[]]>([
    [['co', '12'], ['co']],
    [['issue', 'mine'], ['issue mine']],
    [['issue', 'comment', '1'], []],
    [['issue', '--help'], []],
    [['api', 'x'], []],
    [['help', 'environment'], []],
    [['environment'], []],
    [['version'], []],
    [['--version'], []],
    [[], []],
    [['constructor'], ['constructor']],
    [['-R', 'o/r', 'co', '12'], ['co']],
    [['--web', 'co'], []],
    [['--web', 'co', '12'], ['12']],
    [['pr', '-R', 'o/r', 'mine'], ['pr mine']],
    [['pr', '-R', 'o/r', 'list'], []],
    [['-d', 'notes', 'gist', 'create', 'a.txt'], []],
    [['pr', '--repo=o/r', 'mine'], ['pr mine']],
    [['--', 'co'], []],
  ])('%j', (argv, names) => {
    expect(aliasCandidates(argv).map(({ name }) => name)).toEqual(names);
  });
});

describe('parseAliasList', () => {
  it("reads gh's lines, YAML quoting and blocks", () => {
    const list = [
      'cc: issue comment 1 --body SEC$1',
      `long: 'issue comment 1 --body it''s'`,
      'x:y: pr checkout',
      '"q: x": "issue comment 1 --body \\u0041"',
      'multi: |-',
      '    issue comment 1',
      '    --body two',
      '',
    ].join('\n');
    expect(parseAliasList(list)).toEqual([
      { names: ['cc'], expansions: ['issue comment 1 --body SEC$1'] },
      {
        names: ['long'],
        expansions: ["'issue comment 1 --body it''s'", "issue comment 1 --body it's"],
      },
      { names: ['x:y'], expansions: ['pr checkout'] },
      {
        names: ['"q: x"', 'q: x'],
        expansions: ['"issue comment 1 --body \\u0041"', 'issue comment 1 --body A'],
      },
      {
        names: ['multi'],
        expansions: [
          '|-\nissue comment 1\n--body two',
          '|- issue comment 1 --body two',
          'issue comment 1\n--body two',
        ],
      },
    ]);
  });

  it('reads a folded long value with its fold as a space', () => {
    const list = "long: 'issue comment 1 --body a\n    SECRET'\n";
    expect(parseAliasList(list)[0]?.expansions).toContain('issue comment 1 --body a SECRET');
  });

  it('reads nothing from an empty list', () => {
    expect(parseAliasList('')).toEqual([]);
  });
});

describe('aliasExpansionTexts: what gh will run, checked', () => {
  const guard = (() => {
    const compiled = compileRules([
      { pattern: 'SECRET', replacement: 'x' },
      { pattern: '^codename$', replacement: 'x' },
    ]);
    if (!compiled.ok) throw new Error(compiled.error.code);
    return compiled.value;
  })();
  const blocked = (expansion: string, args: string[]) =>
    aliasExpansionTexts({ names: ['a'], expansions: [expansion] }, args).some(
      (text) => !guard.check(text).ok,
    );

  it.each<[string, string[], boolean]>([
    ['issue comment 1 --body SECRET', [], true],
    ['issue comment 1 --body SE\\CRET', [], true],
    ['issue comment 1 --body "SE"CR\'ET\'', [], true],
    ['issue comment 1 --body SEC$1', ['RET'], true],
    ['issue comment 1 --body SEC$1', ['XYZ'], false],
    ['issue comment 1 --body=code\\name', [], true],
    ['!gh issue comment 1 --body "SEC$1"', ['RET'], true],
    ['pr checkout', ['12'], false],
  ])('%s %j → %s', (expansion, args, refused) => {
    expect(blocked(expansion, args)).toBe(refused);
  });
});

describe('findAlias', () => {
  const entries = parseAliasList('co: pr checkout\nissue mine: issue list -a @me\n');
  it('finds a top-level or nested alias with the arguments after its name', () => {
    expect(findAlias(['co', '12'], entries)).toMatchObject({ args: ['12'] });
    expect(findAlias(['issue', 'mine', '-L', '3'], entries)).toMatchObject({ args: ['-L', '3'] });
    expect(findAlias(['ext', 'x'], entries)).toBeUndefined();
    expect(findAlias(['pr', 'checkout', '12'], entries)).toBeUndefined();
    expect(findAlias(['-R', 'o/r', 'co', '12'], entries)).toMatchObject({
      args: ['-R', 'o/r', '12'],
    });
    expect(findAlias(['issue', '-R', 'o/r', 'mine'], entries)).toMatchObject({
      args: ['-R', 'o/r'],
    });
  });
});
