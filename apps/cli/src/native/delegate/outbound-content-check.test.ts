import { compileRules } from '@relay/rewrite-engine';
import type { RuleSet } from '@relay/rewrite-engine';
import { describe, expect, it } from 'vitest';
import {
  argumentTexts,
  checkNativeArgv,
  checkRelayRequest,
  formatRefusal,
} from './outbound-content-check.js';
import type { OutboundVerdict } from './outbound-content-check.js';

function rules(...patterns: string[]): RuleSet {
  const compiled = compileRules(patterns.map((pattern) => ({ pattern, replacement: 'x' })));
  if (!compiled.ok) throw new Error(compiled.error.code);
  return compiled.value;
}

const GUARD = rules('project-falcon', '^codename');

describe('argumentTexts', () => {
  it.each<[string, string[]]>([
    ['plain', ['plain']],
    ['--body=text', ['--body=text', 'text']],
    ['--body', ['--body']],
    ['-bvalue', ['-bvalue', 'value']],
    ['-b', ['-b']],
    ['key=value', ['key=value', 'value']],
    ['=value', ['=value']],
    ['--', ['--']],
    ['repos/o/%41', ['repos/o/%41', 'repos/o/A']],
    ['q=%41+b', ['q=%41+b', '%41+b', 'q=A+b', 'q=A b', 'A+b', 'A b']],
  ])('%s', (element, texts) => {
    expect(argumentTexts(element)).toEqual(texts);
  });
});

describe('checkNativeArgv', () => {
  it.each<[string, string[], OutboundVerdict['kind'], string?]>([
    ['an argv with no match', ['issue', 'create', '--title', 'hello', '--body', 'world'], 'pass'],
    [
      'a --body value',
      ['issue', 'create', '--body', 'about project-falcon'],
      'refuse',
      'argument 4',
    ],
    ['a --title=value', ['issue', 'create', '--title=project-falcon'], 'refuse', 'argument 3'],
    [
      'an anchored pattern on a --flag=value',
      ['pr', 'create', '--title=codename x'],
      'refuse',
      'argument 3',
    ],
    [
      'an anchored pattern on -f key=value',
      ['api', 'x', '-f', 'body=codename x'],
      'refuse',
      'argument 4',
    ],
    ['an anchored pattern on -tVALUE', ['pr', 'create', '-tcodename'], 'refuse', 'argument 3'],
    [
      'an anchored pattern elsewhere in a value',
      ['pr', 'create', '--title', 'my codename'],
      'pass',
    ],
    ['the command words themselves', ['project-falcon'], 'refuse', 'argument 1'],
    [
      'a percent-encoded gh api endpoint (the forge decodes it)',
      ['api', 'repos/acme/widgets/issues?labels=project%2Dfalc%6Fn', '-H', 'X: y'],
      'refuse',
      'argument 2',
    ],
    [
      'a percent-encoded path segment',
      ['api', '-X', 'PUT', 'repos/acme/widgets/contents/project%2dfalcon.md'],
      'refuse',
      'argument 4',
    ],
  ])('%s: %s', (_name, argv, kind, where) => {
    const verdict = checkNativeArgv(GUARD, argv);
    expect(verdict.kind).toBe(kind);
    if (verdict.kind === 'refuse') {
      expect(verdict.where).toBe(where);
      expect(verdict.failure).toEqual({ code: 'blocked', category: 'pattern_match' });
    }
  });

  it('an empty policy passes any argv', () => {
    expect(checkNativeArgv(rules(), ['issue', 'create', '--body', 'project-falcon'])).toEqual({
      kind: 'pass',
    });
  });

  it('refuses a text the engine cannot check (a lone surrogate)', () => {
    const verdict = checkNativeArgv(GUARD, ['issue', 'create', '--body', 'a\ud800b']);
    expect(verdict).toEqual({
      kind: 'refuse',
      where: 'argument 4',
      failure: { code: 'aborted', category: 'invalid_unicode' },
    });
  });
});

describe('checkRelayRequest', () => {
  const base = { pool: 'team', method: 'GET', path: '/repos/acme/widgets' };
  it.each<[string, object, OutboundVerdict['kind'], string?]>([
    ['a clean read', base, 'pass'],
    ['the path', { ...base, path: '/repos/acme/project-falcon' }, 'refuse', 'path'],
    ['a query value', { ...base, query: { q: 'project-falcon' } }, 'refuse', 'query'],
    [
      'a query value in a list',
      { ...base, query: { labels: ['a', 'project-falcon'] } },
      'refuse',
      'query',
    ],
    ['a query key', { ...base, query: { 'project-falcon': '1' } }, 'refuse', 'query'],
    [
      'a header value',
      { ...base, headers: { 'if-none-match': 'project-falcon' } },
      'refuse',
      'header',
    ],
    ['an anchored pattern mid-path', { ...base, path: '/repos/codename/x' }, 'pass'],
  ])('%s', (_name, request, kind, where) => {
    const verdict = checkRelayRequest(GUARD, request as typeof base);
    expect(verdict.kind).toBe(kind);
    if (verdict.kind === 'refuse') expect(verdict.where).toBe(where);
  });
});

describe('formatRefusal', () => {
  it('names the place and a generic category, never the pattern or the text', () => {
    expect(
      formatRefusal({
        kind: 'refuse',
        where: 'argument 3',
        failure: { code: 'blocked', category: 'pattern_match' },
      }),
    ).toBe('refused: argument 3 matches the string-rewrite policy');
    expect(
      formatRefusal({
        kind: 'refuse',
        where: 'path',
        failure: { code: 'aborted', category: 'zero_width_match' },
      }),
    ).toBe('refused: path cannot be checked against the string-rewrite policy: zero_width_match');
  });
});
