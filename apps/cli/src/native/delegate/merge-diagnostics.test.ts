import { describe, expect, it } from 'vitest';
import {
  DIAGNOSTICS_MAX_BLOCK_BYTES,
  DIAGNOSTICS_MAX_LINE_BYTES,
  formatMergeDiagnostics,
  isMergeDiagnosticsEnabled,
  parseMergeDiagnostics,
} from './merge-diagnostics.js';

/** gh's `--include` block: the status line with `\n`, headers and the end with `\r\n`. */
function block(headers: readonly string[], status = 'HTTP/2.0 200 OK'): Uint8Array {
  return new TextEncoder().encode(
    `${status}\n${headers.map((line) => `${line}\r\n`).join('')}\r\n`,
  );
}

const FULL = [
  'Content-Type: application/json; charset=utf-8',
  'Retry-After: 60',
  'X-Github-Request-Id: E5B8:3C1F1:1A6C5A7:1B5F1E3:6565F1C4',
  'X-Ratelimit-Limit: 5000',
  'X-Ratelimit-Remaining: 4999',
  'X-Ratelimit-Reset: 1700000000',
  'X-Ratelimit-Resource: core',
  'X-Ratelimit-Used: 1',
];

function record(headers: readonly string[], status?: string): string {
  return formatMergeDiagnostics(parseMergeDiagnostics(block(headers, status)));
}

const UNAVAILABLE = 'relay: merge diagnostics: unavailable\n';

describe('merge diagnostics (client rule 13)', () => {
  it('prints the fixed fields of a full block', () => {
    expect(record(FULL)).toBe(
      'relay: merge diagnostics: status=200 request_id=E5B8:3C1F1:1A6C5A7:1B5F1E3:6565F1C4 resource=core limit=5000 remaining=4999 used=1 reset=1700000000 retry_after=60\n',
    );
  });

  it('prints - for absent headers, and the status of an error', () => {
    expect(record([], 'HTTP/1.1 405 Method Not Allowed')).toBe(
      'relay: merge diagnostics: status=405 request_id=- resource=- limit=- remaining=- used=- reset=- retry_after=-\n',
    );
  });

  it.each(['core', 'search', 'graphql', 'integration_manifest', 'code_search'])(
    'names the quota resource %s',
    (resource) => {
      expect(record([`X-RateLimit-Resource: ${resource}`])).toContain(` resource=${resource} `);
    },
  );

  it.each<[string, number]>([
    ['0', 0],
    ['9223372036854775807', 0],
  ])('accepts the integer %s', (value) => {
    expect(record([`X-Ratelimit-Limit: ${value}`])).toContain(` limit=${value} `);
  });

  it.each<[string, string[], string?]>([
    ['2^63 as an integer', ['X-Ratelimit-Limit: 9223372036854775808']],
    ['a negative integer', ['X-Ratelimit-Remaining: -1']],
    ['a leading zero', ['X-Ratelimit-Used: 01']],
    ['a sign', ['X-Ratelimit-Reset: +5']],
    ['an empty value', ['X-Ratelimit-Limit:']],
    ['a date Retry-After', ['Retry-After: Wed, 21 Oct 2015 07:28:00 GMT']],
    ['an unknown resource', ['X-Ratelimit-Resource: audit_log']],
    ['a request id with a space', ['X-Github-Request-Id: AB CD']],
    ['a request id of 129 characters', [`X-Github-Request-Id: ${'A'.repeat(129)}`]],
    ['a duplicate header', ['X-Ratelimit-Limit: 1', 'x-ratelimit-limit: 1']],
    ['joined repeated values', ['X-Ratelimit-Limit: 1, 2']],
    ['a malformed status line', [], 'HTTP/2.0 2000 OK'],
    ['no status line', [], 'X-Ratelimit-Limit: 1'],
  ])('invalidates the whole block: %s', (_name, headers, status) => {
    expect(
      record([...FULL.filter((line) => !line.startsWith('Content')), ...headers], status),
    ).toBe(UNAVAILABLE);
  });

  it('accepts a request id of 128 characters', () => {
    expect(record([`X-Github-Request-Id: ${'A'.repeat(128)}`])).toContain(
      `request_id=${'A'.repeat(128)} `,
    );
  });

  it.each<[string, number, boolean]>([
    ['a line of exactly 4 KiB', DIAGNOSTICS_MAX_LINE_BYTES, true],
    ['a line of 4 KiB + 1', DIAGNOSTICS_MAX_LINE_BYTES + 1, false],
  ])('%s (an unselected header) → valid %s', (_name, bytes, valid) => {
    const line = `X-Other: ${'v'.repeat(bytes - 'X-Other: '.length)}`;
    expect(record([...FULL, line]) === UNAVAILABLE).toBe(!valid);
  });

  it('bounds the block at 32 KiB through its empty line', () => {
    const base = block(FULL).byteLength;
    const filler = (total: number): string[] => {
      // Lines of `X-F: …\r\n` adding exactly `total` bytes.
      const lines: string[] = [];
      let left = total;
      while (left > 0) {
        const size = Math.min(left, 4000);
        const body = size - 2;
        lines.push(`X-F: ${'f'.repeat(body - 5)}`);
        left -= size;
      }
      return lines;
    };
    const at = filler(DIAGNOSTICS_MAX_BLOCK_BYTES - base);
    expect(block([...FULL, ...at]).byteLength).toBe(DIAGNOSTICS_MAX_BLOCK_BYTES);
    expect(record([...FULL, ...at])).not.toBe(UNAVAILABLE);
    const past = filler(DIAGNOSTICS_MAX_BLOCK_BYTES - base + 1);
    expect(block([...FULL, ...past]).byteLength).toBe(DIAGNOSTICS_MAX_BLOCK_BYTES + 1);
    expect(record([...FULL, ...past])).toBe(UNAVAILABLE);
  });

  it('needs the empty line that ends the block', () => {
    const text = new TextEncoder().encode('HTTP/2.0 200 OK\nX-Ratelimit-Limit: 1\r\n');
    expect(formatMergeDiagnostics(parseMergeDiagnostics(text))).toBe(UNAVAILABLE);
    expect(formatMergeDiagnostics(parseMergeDiagnostics(new Uint8Array()))).toBe(UNAVAILABLE);
  });

  it('ignores what follows the block', () => {
    const bytes = new TextEncoder().encode(
      'HTTP/2.0 200 OK\nX-Ratelimit-Used: 3\r\n\r\n{"merged":true}',
    );
    expect(formatMergeDiagnostics(parseMergeDiagnostics(bytes))).toContain(' used=3 ');
  });

  it.each<[string | undefined, boolean]>([
    ['1', true],
    ['true', false],
    ['01', false],
    [' 1', false],
    [undefined, false],
  ])('RELAY_DIAGNOSTICS=%j enables the record: %s', (value, enabled) => {
    expect(isMergeDiagnosticsEnabled(value === undefined ? {} : { RELAY_DIAGNOSTICS: value })).toBe(
      enabled,
    );
  });
});
