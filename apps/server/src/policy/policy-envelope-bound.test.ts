import { describe, expect, it } from 'vitest';
import {
  MAX_POLICY_REVISION,
  isPolicyEnvelopeWithinLimit,
  measurePolicyEnvelopeBytes,
} from './policy-envelope-bound.js';

const AT = '2030-01-01T00:00:00.000Z';
const EMPTY_ENVELOPE = `{"schema_version":1,"revision":${String(MAX_POLICY_REVISION)},"updated_at":"${AT}","rules":[]}`;

describe('measurePolicyEnvelopeBytes', () => {
  it.each([
    ['no rules', [], EMPTY_ENVELOPE.length],
    [
      'one ASCII rule',
      [{ pattern: 'a', replacement: 'b' }],
      EMPTY_ENVELOPE.length + '{"pattern":"a","replacement":"b"}'.length,
    ],
    // UTF-8 bytes, not UTF-16 units: é is 2 bytes, 😀 is 4.
    [
      'non-ASCII text',
      [{ pattern: 'é', replacement: '😀' }],
      EMPTY_ENVELOPE.length + '{"pattern":"","replacement":""}'.length + 6,
    ],
    // JSON escapes count as written: a quote is 2 bytes, a control character 6.
    [
      'escaped characters',
      [{ pattern: '"', replacement: '\u0001' }],
      EMPTY_ENVELOPE.length + '{"pattern":"","replacement":""}'.length + 8,
    ],
  ])('%s', (_what, rules, expected) => {
    expect(measurePolicyEnvelopeBytes(rules, AT)).toBe(expected);
  });

  it('measures at the largest revision, so no later revision can grow it', () => {
    const stored = JSON.stringify({ schema_version: 1, revision: 2, updated_at: AT, rules: [] });
    expect(measurePolicyEnvelopeBytes([], AT)).toBe(stored.length + 15);
  });
});

describe('isPolicyEnvelopeWithinLimit', () => {
  const fill = (bytes: number) => [
    {
      pattern: 'p',
      replacement: 'x'.repeat(
        bytes - measurePolicyEnvelopeBytes([{ pattern: 'p', replacement: '' }], AT),
      ),
    },
  ];
  it.each([
    [65_535, true],
    [65_536, true],
    [65_537, false],
  ])('%i bytes → %s', (bytes, expected) => {
    expect(measurePolicyEnvelopeBytes(fill(bytes), AT)).toBe(bytes);
    expect(isPolicyEnvelopeWithinLimit(fill(bytes), AT)).toBe(expected);
  });
});
