import { describe, expect, it } from 'vitest';
import { createFakeRunPort } from './run-fake-port.js';
import type { FakeAnswer } from './run-fake-port.js';
import { renderGistList, runGistList } from './gist-list.js';
import type { ListedGist } from './gist-list.js';

const LIST = '/users/monalisa/gists';

/** A public gist as `/users/{login}/gists` lists it (files without contents). */
const gist = (
  id: string,
  created: string,
  files: readonly string[],
  description: string | null = null,
  extra: Record<string, unknown> = {},
) => ({
  id,
  description,
  public: true,
  created_at: created,
  updated_at: created.replace('T', 'T').replace(/:00Z$/, ':30Z'),
  files: Object.fromEntries(files.map((name) => [name, { filename: name, size: 1 }])),
  ...extra,
});

/**
 * gh's list_test.go facts: a gist with a description, one without whose only file is named
 * (the name shown), one with only `gistfile*` names (empty description), several files.
 */
const GISTS = [
  gist('1234567890', '2020-07-10T10:00:00Z', ['cool.txt'], 'my cool text'),
  gist('4567890123', '2020-07-11T10:00:00Z', ['gistfile0.txt'], ''),
  gist(
    '2345678901',
    '2020-07-12T10:00:00Z',
    ['gistfile0.txt', 'gistfile1.txt'],
    'tea  for\tdinner',
  ),
  gist('3456789012', '2020-07-13T10:00:00Z', ['gistfile0.txt', 'gistfile1.txt', 'sleep.md']),
];

const port = (answers: Record<string, FakeAnswer | readonly FakeAnswer[]>) =>
  createFakeRunPort(answers);
const plan = (flags: Record<string, readonly string[]>) => ({ flags });

describe('gh gist list --public through the relay port', () => {
  it('gh’s table: newest created first, descriptions as gh picks them, RFC 3339 updated times', async () => {
    const fake = port({ [LIST]: { body: GISTS, route: 'user_gist_list' } });
    const outcome = await runGistList(fake, plan({ public: ['true'] }), 'monalisa');
    expect(outcome).toEqual({
      kind: 'done',
      code: 0,
      stdout:
        '3456789012\tsleep.md\t3 files\tpublic\t2020-07-13T10:00:30Z\n' +
        '2345678901\ttea for dinner\t2 files\tpublic\t2020-07-12T10:00:30Z\n' +
        '4567890123\t\t1 file\tpublic\t2020-07-11T10:00:30Z\n' +
        '1234567890\tmy cool text\t1 file\tpublic\t2020-07-10T10:00:30Z\n',
      stderr: '',
    });
    expect(fake.reads).toEqual([{ path: LIST, query: { per_page: '100' } }]);
  });

  it('--limit keeps the newest; --filter matches a description or a file name (case-sensitive)', async () => {
    const limited = await runGistList(
      port({ [LIST]: { body: GISTS } }),
      plan({ public: ['true'], limit: ['0x2'] }),
      'monalisa',
    );
    expect(
      limited.kind === 'done' && limited.stdout.split('\n').map((l) => l.split('\t')[0]),
    ).toEqual(['3456789012', '2345678901', '']);
    const filtered = await runGistList(
      port({ [LIST]: { body: GISTS } }),
      plan({ public: ['true'], filter: ['cool'] }),
      'monalisa',
    );
    expect(filtered).toMatchObject({
      stdout: '1234567890\tmy cool text\t1 file\tpublic\t2020-07-10T10:00:30Z\n',
    });
    const byName = await runGistList(
      port({ [LIST]: { body: GISTS } }),
      plan({ public: ['true'], filter: ['sleep'] }),
      'monalisa',
    );
    expect(byName).toMatchObject({ stdout: expect.stringMatching(/^3456789012\t/) as string });
    const none = await runGistList(
      port({ [LIST]: { body: GISTS } }),
      plan({ public: ['true'], filter: ['COOL'] }),
      'monalisa',
    );
    // gh's no-results error is silent without a terminal, exit 0.
    expect(none).toEqual({ kind: 'done', code: 0, stdout: '', stderr: '' });
  });

  it('reads every page (REST’s order is not GraphQL’s), at most 10', async () => {
    const next = (page: number) => ({
      link: `<https://api.github.com${LIST}?per_page=100&page=${String(page)}>; rel="next"`,
    });
    const paged = port({
      [LIST]: { body: [GISTS[0]], ...next(2) },
      [`${LIST}?page=2`]: { body: [GISTS[3]] },
    });
    const outcome = await runGistList(paged, plan({ public: ['true'], limit: ['1'] }), 'monalisa');
    expect(outcome).toMatchObject({ stdout: expect.stringMatching(/^3456789012\t/) as string });
    expect(paged.reads).toHaveLength(2);

    const endless: Record<string, FakeAnswer> = { [LIST]: { body: [GISTS[0]], ...next(2) } };
    for (let page = 2; page <= 10; page += 1) {
      endless[`${LIST}?page=${String(page)}`] = { body: [GISTS[0]], ...next(page + 1) };
    }
    const tooMany = port(endless);
    expect(await runGistList(tooMany, plan({ public: ['true'] }), 'monalisa')).toEqual({
      kind: 'delegate',
      reason: 'unsupported_shape',
    });
    expect(tooMany.reads).toHaveLength(10);
  });

  it.each([
    [
      'two gists created in the same second at the cut',
      [
        gist('a1', '2021-01-01T00:00:00Z', ['a.txt'], 'a'),
        gist('b2', '2021-01-01T00:00:00Z', ['b.txt'], 'b'),
      ],
      { limit: ['1'] },
    ],
    [
      'two gists created in the same second, both shown',
      [
        gist('a1', '2021-01-01T00:00:00Z', ['a.txt'], 'a'),
        gist('b2', '2021-01-01T00:00:00Z', ['b.txt'], 'b'),
      ],
      {},
    ],
    [
      'no description and two named files (gh ranges over a Go map)',
      [gist('a1', '2021-01-01T00:00:00Z', ['a.txt', 'b.txt'])],
      {},
    ],
    [
      'more than 10 files (GraphQL lists 10 by default)',
      [
        gist(
          'a1',
          '2021-01-01T00:00:00Z',
          Array.from({ length: 11 }, (_, i) => `f${String(i)}`),
          'x',
        ),
      ],
      {},
    ],
    [
      'a secret gist in the answer',
      [gist('a1', '2021-01-01T00:00:00Z', ['a'], 'x', { public: false })],
      {},
    ],
    ['a time with a fraction', [gist('a1', '2021-01-01T00:00:00.5Z', ['a'], 'x')], {}],
    [
      'two file names gh’s sanitizer makes one',
      [gist('a1', '2021-01-01T00:00:00Z', ['a\u001b', 'a^['], 'x')],
      {},
    ],
    ['a backspace in a file name', [gist('a1', '2021-01-01T00:00:00Z', ['a\bb'], 'x')], {}],
  ])('%s: gh runs', async (_name, body, flags) => {
    expect(
      await runGistList(
        port({ [LIST]: { body } }),
        plan({ public: ['true'], ...flags }),
        'monalisa',
      ),
    ).toEqual({ kind: 'delegate', reason: 'unsupported_shape' });
  });

  it('file names as gh’s sanitizer leaves them (an escape in a name is caret text, not a raw ESC)', async () => {
    const body = [gist('a1', '2021-01-01T00:00:00Z', ['evil\u001b[31m.txt'], '')];
    const shown = await runGistList(
      port({ [LIST]: { body } }),
      plan({ public: ['true'] }),
      'monalisa',
    );
    expect(shown).toMatchObject({
      stdout: 'a1\tevil^[[31m.txt\t1 file\tpublic\t2021-01-01T00:00:30Z\n',
    });
    // --filter sees the sanitized name too: `G` matches the BEL's `^G`.
    const bell = [gist('b2', '2021-01-01T00:00:00Z', ['a\u0007b', 'gistfile1.txt'], '')];
    const matched = await runGistList(
      port({ [LIST]: { body: bell } }),
      plan({ public: ['true'], filter: ['G'] }),
      'monalisa',
    );
    expect(matched).toMatchObject({ stdout: 'b2\ta^Gb\t2 files\tpublic\t2021-01-01T00:00:30Z\n' });
  });

  it('a same-second pair beyond the cut does not matter', async () => {
    const body = [
      gist('new', '2021-02-01T00:00:00Z', ['n.txt'], 'n'),
      gist('a1', '2021-01-01T00:00:00Z', ['a.txt'], 'a'),
      gist('b2', '2021-01-01T00:00:00Z', ['b.txt'], 'b'),
    ];
    expect(
      await runGistList(
        port({ [LIST]: { body } }),
        plan({ public: ['true'], limit: ['1'] }),
        'monalisa',
      ),
    ).toMatchObject({ kind: 'done', stdout: expect.stringMatching(/^new\tn\t1 file/) as string });
  });

  it.each([
    ['the default (every gist, secret ones included)', {}, 'unsupported_shape'],
    ['--secret', { secret: ['true'] }, 'unsupported_shape'],
    ['--public --secret (gh: secret)', { public: ['true'], secret: ['true'] }, 'unsupported_shape'],
    ['--public=false', { public: ['false'] }, 'unsupported_shape'],
    [
      '--include-content',
      { public: ['true'], filter: ['x'], 'include-content': ['true'] },
      'unsupported_flag',
    ],
    ['a regular expression filter', { public: ['true'], filter: ['co+l'] }, 'unsupported_flag'],
    // Perhaps bytes that are not UTF-8 (Node's argv decoding): Go's regexp refuses those.
    ['a filter with U+FFFD', { public: ['true'], filter: ['caf\uFFFD'] }, 'unsupported_flag'],
  ])('%s runs gh without a read', async (_name, flags, reason) => {
    const fake = port({});
    expect(await runGistList(fake, plan(flags), 'monalisa')).toEqual({ kind: 'delegate', reason });
    expect(fake.reads).toHaveLength(0);
  });

  it('no saved login (an explicit RELAY_TOKEN): gh runs', async () => {
    expect(await runGistList(port({}), plan({ public: ['true'] }), undefined)).toEqual({
      kind: 'delegate',
      reason: 'unsupported_shape',
    });
  });
});

describe('renderGistList: gh v2.60’s list_test.go fixtures (their public gists)', () => {
  const UPDATED = '2020-07-30T15:24:28Z';
  const listed = (id: string, description: string, fileNames: string[], createdAt: string) => ({
    id,
    description,
    fileNames,
    createdAt,
    updatedAt: UPDATED,
  });
  it.each<[string, ListedGist[], string | undefined, string]>([
    [
      '"nontty output": a file name stands for an empty description, gistfile names do not',
      [
        listed('1234567890', '', ['cool.txt'], '2020-07-30T15:00:02Z'),
        listed('4567890123', '', ['gistfile0.txt'], '2020-07-30T15:00:01Z'),
      ],
      undefined,
      '1234567890\tcool.txt\t1 file\tpublic\t2020-07-30T15:24:28Z\n' +
        '4567890123\t\t1 file\tpublic\t2020-07-30T15:24:28Z\n',
    ],
    [
      '"filtered": a match in the description or a file name, never in the file text',
      [
        listed('1234', 'octo match in the description', ['main.txt'], '2020-07-30T15:00:03Z'),
        listed('3456', 'match in the file text', ['main.txt'], '2020-07-30T15:00:01Z'),
      ],
      'octo',
      '1234\tocto match in the description\t1 file\tpublic\t2020-07-30T15:24:28Z\n',
    ],
  ])('%s', (_name, gists, filter, expected) => {
    expect(renderGistList(gists, 10, filter)).toBe(expected);
  });
});
