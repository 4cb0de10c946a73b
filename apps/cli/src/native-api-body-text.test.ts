import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { envelopeBodyText, forgeJsonText } from './native-api-body-text.js';

/** An envelope's text as the relay writes it: compact, with the body's text in place. */
function envelopeWith(bodyText: string, extra: Record<string, unknown> = {}): string {
  const text = JSON.stringify({ status: 200, headers: {}, body: '@BODY@', ...extra });
  return text.replace('"@BODY@"', () => bodyText);
}

describe('envelopeBodyText', () => {
  it.each([
    '{"id": 12345678901234567890, "score": 1.0}',
    '[\n  {"title": "\\u003cb\\u003e", "+1": 1, "100": 2}\n]\n',
    '"a \\"quoted\\" } ] , string"',
    '-0',
    'null',
    '[[], {}, [{"a": [1, {"b": "]}"}]}]]',
  ])('reads back %j', (bodyText) => {
    expect(envelopeBodyText(envelopeWith(bodyText, { body_encoding: 'json' }))).toBe(bodyText);
  });

  it('reads the last body member, as JSON.parse keeps it', () => {
    expect(envelopeBodyText('{"body":1,"x":{"body":2},"body":[3]}')).toBe('[3]');
  });

  it('reads a member named by an escape', () => {
    expect(envelopeBodyText('{"b\\u006fdy":{"a":1.0}}')).toBe('{"a":1.0}');
  });

  it.each(['[]', '{}', '{"status":200}', '"body"', ''])('is undefined for %j', (text) => {
    expect(envelopeBodyText(text)).toBeUndefined();
  });

  it('reads any JSON body back from a compact envelope', () => {
    fc.assert(
      fc.property(fc.json(), fc.jsonValue(), (bodyText, other) => {
        expect(envelopeBodyText(envelopeWith(bodyText, { relay: other }))).toBe(bodyText);
      }),
    );
  });
});

describe('forgeJsonText', () => {
  it('is the body text when its value is the envelope body', () => {
    const text = '{"score": 1.0}';
    expect(forgeJsonText(envelopeWith(text), { score: 1 })).toBe(text);
  });

  it('is undefined when the text is not the body the envelope was parsed into', () => {
    expect(forgeJsonText(envelopeWith('{"score":2}'), { score: 1 })).toBeUndefined();
    expect(forgeJsonText(undefined, { score: 1 })).toBeUndefined();
  });
});
