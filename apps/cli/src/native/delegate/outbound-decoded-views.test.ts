import { describe, expect, it } from 'vitest';
import {
  base64DecodedViews,
  contentFileViews,
  graphqlStringViews,
  jsonStringViews,
  percentDecodedViews,
} from './outbound-decoded-views.js';

describe('percentDecodedViews', () => {
  it.each<[string, string[]]>([
    ['plain', []],
    ['repos/o/%53ECRET', ['repos/o/SECRET']],
    ['issues?labels=%53ec%72et', ['issues?labels=Secret']],
    ['q=a+b', ['q=a b']],
    ['q=%41+b', ['q=A+b', 'q=A b']],
    ['caf%C3%A9', ['café']],
    ['caf%c3%a9', ['café']],
    ['100% sure', []],
    ['%zz and %4', []],
    ['%FF', ['\ufffd']],
    ['%2541', ['%41']],
  ])('%s', (text, views) => {
    expect(percentDecodedViews(text)).toEqual(views);
  });
});

describe('jsonStringViews', () => {
  it.each<[string, string[]]>([
    ['{"body":"SECRET"}', []],
    ['{"body":"\\u0053ECRET"}', ['SECRET']],
    ['{"b\\u006fdy":"x"}', ['body']],
    ['{"a":["x","\\u0053\\u0045CRET"],"n":{"k":"\\"q\\""}}', ['SECRET', '"q"']],
    ['{"body":"x","body":"\\u0053ECRET"}', ['SECRET']],
    ['[[[[["\\ud83d\\ude00"]]]]]', ['😀']],
    ['"\\u0053ECRET"', ['SECRET']],
    ['not json "\\q" "\\u0041"', ['A']],
    ['a "line\\\nbreak"', []],
    ['no escapes at all', []],
  ])('%s', (text, views) => {
    expect(jsonStringViews(text)).toEqual(views);
  });

  it('reads a deeply nested document without recursion', () => {
    const depth = 200_000;
    const text = `${'['.repeat(depth)}"\\u0041"${']'.repeat(depth)}`;
    expect(jsonStringViews(text)).toEqual(['A']);
  });
});

describe('graphqlStringViews', () => {
  it.each<[string, string[]]>([
    ['mutation { a(body: "SECRET") }', []],
    ['mutation { a(body: "\\u0053ECRET") }', ['SECRET']],
    ['{ a(b: "\\u{53}E\\u{1F600}") }', ['SE😀']],
    ['{ a(b: "\\"\\\\\\/\\b\\f\\n\\r\\t") }', ['"\\/\b\f\n\r\t']],
    ['# a comment "\n{ a(b: "\\u0041") }', ['A']],
    ['# "\\u0042"\n{ a(b: "\\u0041") }', ['A']],
    ['{ a(b: """ " \\""" \\u0042 """, c: "\\u0041") }', ['A']],
    ['{ a(b: "\\u{110000}") }', []],
    ['{ a(b: "\\u004") }', []],
    ['no strings \\u0041', []],
  ])('%s', (text, views) => {
    expect(graphqlStringViews(text)).toEqual(views);
  });
});

describe('contentFileViews', () => {
  it('reads JSON strings, GraphQL strings and the GraphQL strings inside JSON strings', () => {
    expect(contentFileViews('{"query":"mutation { a(b: \\"\\\\u0041\\") }"}')).toEqual([
      'mutation { a(b: "\\u0041") }',
      'A',
    ]);
    expect(contentFileViews('mutation { a(b: "\\u0041") }')).toEqual(['A']);
    expect(contentFileViews('plain text')).toEqual([]);
  });
});

describe('base64DecodedViews', () => {
  it.each<[string, string[]]>([
    ['U0VDUkVU', ['SECRET']],
    ['U0VDUkVUCg==', ['SECRET\n']],
    ['U0VD\nUkVU\n', ['SECRET']],
    ['U0VDUkVUIQ', ['SECRET!']],
    ['Y2Fmw6k-Pz8_', ['café>???']],
    ['//79U0VDUkVU', ['\u001a\u001a\u001aSECRET']],
    ['SECRET', []],
    ['U0VDUkVU!', []],
    ['a=b=c=dd', []],
    ['U0VDUkVUU', []],
  ])('%j', (text, views) => {
    expect(base64DecodedViews(text)).toEqual(views);
  });

  it('never reads longer than the text', () => {
    const text = 'a'.repeat(1 << 20);
    const [view = ''] = base64DecodedViews(text);
    expect(new TextEncoder().encode(view).byteLength).toBeLessThanOrEqual(text.length);
  });

  it('reads the base64 of a content file and of each JSON string in it', () => {
    expect(contentFileViews('U0VDUkVU')).toEqual(['SECRET']);
    expect(contentFileViews('{"message":"m","content":"U0VDUkVU"}')).toEqual(['SECRET']);
  });
});
