import { POLICY_FAILURE_CLASSES } from '@relay/protocol';
import { describe, expect, it } from 'vitest';
import { formatCliError } from '../../cli-error.js';
import {
  formatPolicyFailure,
  parseCfRay,
  toPolicyFailureError,
} from './outbound-policy-failure.js';

const START = Date.parse('2026-11-25T12:00:00.000Z');

describe('parseCfRay', () => {
  it.each<[string, string | null | undefined, string | undefined]>([
    ['16 lowercase hex digits', '0123456789abcdef', '0123456789abcdef'],
    ['with a data centre', '8f2c1a9b7d3e4f10-AMS', '8f2c1a9b7d3e4f10-AMS'],
    ['uppercase hex digits', '0123456789ABCDEF-SJC', '0123456789ABCDEF-SJC'],
    ['absent', null, undefined],
    ['undefined', undefined, undefined],
    ['empty', '', undefined],
    ['15 hex digits', '0123456789abcde', undefined],
    ['17 hex digits', '0123456789abcdef0', undefined],
    ['a non-hex digit', '0123456789abcdeg', undefined],
    ['a lowercase data centre', '0123456789abcdef-ams', undefined],
    ['a two-letter data centre', '0123456789abcdef-AM', undefined],
    ['a four-letter data centre', '0123456789abcdef-AMSX', undefined],
    ['a trailing hyphen', '0123456789abcdef-', undefined],
    ['surrounding space', ' 0123456789abcdef', undefined],
    ['a trailing newline', '0123456789abcdef\n', undefined],
    ['two values', '0123456789abcdef, 0123456789abcdef', undefined],
  ])('%s', (_name, value, expected) => {
    expect(parseCfRay(value)).toBe(expected);
  });
});

describe('formatPolicyFailure', () => {
  it('renders the fixed fields in order', () => {
    expect(formatPolicyFailure({ class: 'timeout', attemptStartMs: START, elapsedMs: 5001 })).toBe(
      'string-rewrite policy unavailable: class timeout, attempt_utc 2026-11-25T12:00:00.000Z, elapsed_ms 5001',
    );
  });

  it('adds http_status and cf_ray when they are known', () => {
    expect(
      formatPolicyFailure({
        class: 'http_status',
        attemptStartMs: START,
        elapsedMs: 12.6,
        httpStatus: 502,
        cfRay: '0123456789abcdef-AMS',
      }),
    ).toBe(
      'string-rewrite policy unavailable: class http_status, attempt_utc 2026-11-25T12:00:00.000Z, elapsed_ms 13, http_status 502, cf_ray 0123456789abcdef-AMS',
    );
  });

  it('adds a fixed hint for a missing login, and never a negative time', () => {
    expect(
      formatPolicyFailure({
        class: 'setup',
        attemptStartMs: START,
        elapsedMs: -3,
        hint: 'not_logged_in',
      }),
    ).toBe(
      'string-rewrite policy unavailable: class setup, attempt_utc 2026-11-25T12:00:00.000Z, elapsed_ms 0; no relay login, run `relay login`',
    );
  });

  it.each(POLICY_FAILURE_CLASSES)('is one stderr line with exit 1 for class %s', (failureClass) => {
    const error = toPolicyFailureError({
      class: failureClass,
      attemptStartMs: START,
      elapsedMs: 1,
    });
    expect(error.code).toBe('string_rewrite_policy_failure');
    expect(error.exitCode).toBe(1);
    const line = formatCliError(error);
    expect(line).toBe(
      `relay: string-rewrite policy unavailable: class ${failureClass}, attempt_utc 2026-11-25T12:00:00.000Z, elapsed_ms 1 (string_rewrite_policy_failure)\n`,
    );
  });
});
