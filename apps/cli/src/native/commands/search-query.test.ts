import { describe, expect, it } from 'vitest';
import type { SearchExportCommand } from '../export/search-export.js';
import { buildSearchRequest } from './search-query.js';

type Flags = Readonly<Record<string, readonly string[]>>;

describe('gh’s search q, admitted only inside SPEC.md’s search grammar', () => {
  it.each<[string, SearchExportCommand, readonly string[], Flags, string]>([
    [
      'keywords, then the qualifiers byte-sorted (type:issue added)',
      'search issues',
      ['crash', 'boot'],
      { repo: ['acme/widgets'], state: ['open'] },
      'crash boot repo:acme/widgets state:open type:issue',
    ],
    [
      'search prs adds type:pr',
      'search prs',
      ['fix'],
      { repo: ['acme/widgets'] },
      'fix repo:acme/widgets type:pr',
    ],
    [
      '--include-prs drops type:issue',
      'search issues',
      ['fix'],
      { repo: ['acme/widgets'], 'include-prs': ['true'] },
      'fix repo:acme/widgets',
    ],
    [
      '--include-prs=false keeps it',
      'search issues',
      ['fix'],
      { repo: ['acme/widgets'], 'include-prs': ['false'] },
      'fix repo:acme/widgets type:issue',
    ],
    [
      'a repo: keyword instead of --repo',
      'search issues',
      ['repo:acme/widgets', 'crash'],
      {},
      'repo:acme/widgets crash type:issue',
    ],
    [
      'no keywords, --repo only',
      'search issues',
      [],
      { repo: ['acme/widgets'] },
      'repo:acme/widgets type:issue',
    ],
    [
      'an empty --repo value adds nothing',
      'search code',
      ['map'],
      { repo: ['', 'acme/widgets'] },
      'map repo:acme/widgets',
    ],
    ['repository search: plain terms', 'search repos', ['cli', 'shell'], {}, 'cli shell'],
    [
      '--limit, --order and --sort are parameters, not qualifiers',
      'search commits',
      ['fix'],
      { repo: ['acme/widgets'], limit: ['5'], order: ['asc'], sort: ['author-date'] },
      'fix repo:acme/widgets',
    ],
  ])('%s', (_name, command, args, flags, q) => {
    const built = buildSearchRequest(command, args, flags);
    expect(built).toMatchObject({ ok: true, request: { q } });
  });

  it('sends order and sort only when given', () => {
    expect(buildSearchRequest('search repos', ['cli'], {})).toEqual({
      ok: true,
      request: { kind: 'repositories', q: 'cli', order: undefined, sort: undefined },
    });
    expect(
      buildSearchRequest('search issues', ['x'], {
        repo: ['a/b'],
        order: ['asc', 'desc'],
        sort: ['created'],
      }),
    ).toEqual({
      ok: true,
      request: { kind: 'issues', q: 'x repo:a/b type:issue', order: 'desc', sort: 'created' },
    });
  });

  it.each<[string, SearchExportCommand, readonly string[], Flags, string]>([
    ['no keywords and no flags (gh’s flag error)', 'search issues', [], {}, 'invalid_usage'],
    [
      '--author',
      'search issues',
      ['x'],
      { repo: ['a/b'], author: ['monalisa'] },
      'unsupported_flag',
    ],
    ['--label', 'search prs', ['x'], { repo: ['a/b'], label: ['bug'] }, 'unsupported_flag'],
    ['--owner', 'search repos', ['x'], { owner: ['acme'] }, 'unsupported_flag'],
    ['--language', 'search code', ['x'], { repo: ['a/b'], language: ['go'] }, 'unsupported_flag'],
    ['--merged', 'search prs', ['x'], { repo: ['a/b'], merged: ['true'] }, 'unsupported_flag'],
    [
      '--author of commits',
      'search commits',
      ['x'],
      { repo: ['a/b'], author: ['m'] },
      'unsupported_flag',
    ],
    [
      '--state on repos (not a flag of it)',
      'search repos',
      ['x'],
      { state: ['open'] },
      'unsupported_flag',
    ],
    ['no repo qualifier', 'search issues', ['crash'], {}, 'unsupported_shape'],
    // U+FFFD: perhaps an argument that is not UTF-8, whose bytes gh would send.
    ['U+FFFD in a keyword', 'search repos', ['caf\uFFFD'], {}, 'unsupported_shape'],
    ['U+FFFD in --repo', 'search code', ['x'], { repo: ['a/\uFFFD'] }, 'unsupported_shape'],
    ['two repo qualifiers', 'search issues', ['x'], { repo: ['a/b,c/d'] }, 'unsupported_shape'],
    ['OR', 'search issues', ['a', 'OR', 'b'], { repo: ['a/b'] }, 'unsupported_shape'],
    ['NOT', 'search prs', ['NOT', 'b'], { repo: ['a/b'] }, 'unsupported_shape'],
    ['a negated term', 'search issues', ['-label:bug'], { repo: ['a/b'] }, 'unsupported_shape'],
    [
      'a quoted (spaced) keyword',
      'search issues',
      ['broken feature'],
      { repo: ['a/b'] },
      'unsupported_shape',
    ],
    [
      'a keyword with a quote',
      'search commits',
      ['say"hi'],
      { repo: ['a/b'] },
      'unsupported_shape',
    ],
    ['a qualifier keyword', 'search issues', ['label:bug'], { repo: ['a/b'] }, 'unsupported_shape'],
    [
      'type:pr keyword beside type:issue',
      'search issues',
      ['type:pr'],
      { repo: ['a/b'] },
      'unsupported_shape',
    ],
    [
      'an upper-case state',
      'search issues',
      ['x'],
      { repo: ['a/b'], state: ['OPEN'] },
      'unsupported_shape',
    ],
    [
      'a qualifier in a repository search',
      'search repos',
      ['language:go'],
      {},
      'unsupported_shape',
    ],
    ['a malformed --repo', 'search code', ['x'], { repo: ['acme'] }, 'unsupported_shape'],
    [
      'a --repo value Go’s CSV reader refuses',
      'search code',
      ['x'],
      { repo: ['"a/b'] },
      'invalid_usage',
    ],
  ])('runs gh: %s', (_name, command, args, flags, reason) => {
    expect(buildSearchRequest(command, args, flags)).toEqual({ ok: false, reason });
  });
});
