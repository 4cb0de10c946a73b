import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSearchQuery, type SearchKind, type SearchRule } from './search-grammar.js';

const REPO_KINDS: readonly SearchKind[] = ['issues', 'code', 'commits'];

describe.each(REPO_KINDS)('%s search', (kind) => {
  it.each([
    ['repo:cli/cli', [], undefined, undefined],
    ['repo:cli/cli crash', ['crash'], undefined, undefined],
    ['crash repo:cli/cli type:pr state:open', ['crash'], 'pr', 'open'],
    ['repo:Cli/CLI   crash\tfix ', ['crash', 'fix'], undefined, undefined],
    ['repo:octo-org/hello.world_2 state:closed type:issue', [], 'issue', 'closed'],
    [
      'repo:cli/cli or and not foo-bar #123 @me',
      ['or', 'and', 'not', 'foo-bar', '#123', '@me'],
      undefined,
      undefined,
    ],
  ])('accepts %j', (q, terms, type, state) => {
    const result = parseSearchQuery(kind, q);
    expect(result).toEqual({
      ok: true,
      value: {
        kind,
        raw: q,
        terms,
        owner: q.includes('Cli/CLI') ? 'Cli' : /repo:([^/]+)/.exec(q)?.[1],
        repo: /repo:[^/]+\/(\S+)/.exec(q)?.[1],
        type,
        state,
      },
    });
  });

  it.each<[string, SearchRule]>([
    ['', 'empty'],
    ['   ', 'empty'],
    ['crash', 'repo_qualifier_count'],
    ['repo:cli/cli repo:cli/go-gh crash', 'repo_qualifier_count'],
    ['repo:cli crash', 'malformed_repo'],
    ['repo:cli/cli/extra', 'malformed_repo'],
    ['repo:/cli', 'malformed_repo'],
    ['repo:', 'malformed_repo'],
    ['repo:-x/y', 'malformed_repo'],
    ['repo:cli/..', 'malformed_repo'],
    ['REPO:cli/cli', 'uppercase_qualifier'],
    ['repo:cli/cli Type:pr', 'uppercase_qualifier'],
    ['repo:cli/cli type:PR', 'invalid_filter_value'],
    ['repo:cli/cli state:Open', 'invalid_filter_value'],
    ['repo:cli/cli state:merged', 'invalid_filter_value'],
    ['repo:cli/cli type:', 'invalid_filter_value'],
    ['repo:cli/cli type:pr type:issue', 'duplicate_filter'],
    ['repo:cli/cli state:open state:open', 'duplicate_filter'],
    ['repo:cli/cli is:pr', 'unknown_qualifier'],
    ['repo:cli/cli author:monalisa', 'unknown_qualifier'],
    ['repo:cli/cli org:cli', 'unknown_qualifier'],
    ['repo:cli/cli user:cli', 'unknown_qualifier'],
    ['repo:cli/cli "exact phrase"', 'quoted'],
    ["repo:cli/cli 'x'", 'quoted'],
    ['repo:cli/cli crash OR hang', 'boolean_operator'],
    ['repo:cli/cli NOT crash', 'boolean_operator'],
    ['repo:cli/cli crash AND hang', 'boolean_operator'],
    ['repo:cli/cli -crash', 'negated_term'],
    ['-repo:cli/cli crash', 'negated_term'],
    ['repo:cli/cli (crash)', 'grouping'],
    ['repo:cli/cli crash\nrepo:other/x', 'invalid_character'],
    ['repo:cli/cli crash\u00a0repo:other/x', 'invalid_character'],
    ['repo:cli/cli a\\b', 'invalid_character'],
    ['repo:cli/cli ' + 'a'.repeat(1100), 'too_long'],
  ])('rejects %j (%s)', (q, rule) => {
    expect(parseSearchQuery(kind, q)).toEqual({
      ok: false,
      error: { reason: 'search_denied', rule },
    });
  });
});

describe('repository search', () => {
  it.each([['relay'], ['relay cache  proxy']])('accepts plain terms %j', (q) => {
    const result = parseSearchQuery('repositories', q);
    expect(result.ok && result.value.terms).toEqual(q.split(/\s+/));
  });

  it.each<[string, SearchRule]>([
    ['', 'empty'],
    ['repo:cli/cli', 'qualifier_not_allowed'],
    ['relay stars:>100', 'qualifier_not_allowed'],
    ['relay language:go', 'qualifier_not_allowed'],
    ['relay OR cache', 'boolean_operator'],
    ['relay -cache', 'negated_term'],
    ['"relay cache"', 'quoted'],
  ])('rejects %j (%s)', (q, rule) => {
    expect(parseSearchQuery('repositories', q)).toEqual({
      ok: false,
      error: { reason: 'search_denied', rule },
    });
  });
});

describe('search grammar properties', () => {
  const token = fc.oneof(
    fc.constantFrom(
      'repo:cli/cli',
      'type:pr',
      'state:open',
      'OR',
      'NOT',
      '-x',
      '"q"',
      'is:pr',
      'crash',
      'REPO:a/b',
      ':',
      'repo:a',
    ),
    fc.string({ maxLength: 8 }),
  );

  it('accepted queries are never rewritten and hold exactly one repo qualifier', () => {
    fc.assert(
      fc.property(
        fc.array(token, { maxLength: 8 }),
        fc.constantFrom(' ', '  ', '\t'),
        (tokens, gap) => {
          const q = tokens.join(gap);
          const result = parseSearchQuery('issues', q);
          if (!result.ok) return;
          expect(result.value.raw).toBe(q);
          expect(q.split(/[ \t]+/).filter((part) => part.startsWith('repo:'))).toHaveLength(1);
          expect(q).not.toMatch(/(^|[ \t])((OR|NOT|AND)([ \t]|$)|-)/);
          expect(q).not.toMatch(/["()]/);
        },
      ),
    );
  });
});
