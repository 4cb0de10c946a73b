/**
 * SPEC.md client rule 13: the merge diagnostics record. Under RELAY_DIAGNOSTICS=1 (that exact
 * value) the final PR-merge dispatch — the exact-head squash merge converted to the merge
 * endpoint — runs `gh api --include --silent` with captured output; the header block gh prints
 * (`HTTP/2.0 200 OK`, then `Name: value` lines, then an empty line) is parsed here and one
 * fixed-field record is printed on stderr.
 *
 * The record, always the same fields in the same order, `-` for an absent header:
 * `relay: merge diagnostics: status=200 request_id=ABCD:1234 resource=core limit=5000
 * remaining=4999 used=1 reset=1700000000 retry_after=-`.
 *
 * Selected values and their grammar:
 * - status: the status line `HTTP/<d>[.<d>] <3 digits>[ <text>]`, 100 to 599;
 * - request_id (`X-GitHub-Request-Id`): 1 to 128 characters of hex digits and colons;
 * - resource (`X-RateLimit-Resource`): core, search, graphql, integration_manifest, code_search;
 * - limit, remaining, used, reset (`X-RateLimit-*`) and retry_after (`Retry-After`): decimal
 *   digits without sign or leading zeros, at most 2^63 − 1 (a non-negative signed 64-bit
 *   integer; Retry-After's HTTP-date form is therefore malformed).
 *
 * The whole block is invalid — one fixed line `relay: merge diagnostics: unavailable` instead —
 * when: no status line; a malformed status line or selected value; a selected header twice
 * (gh joins repeated values with `, `, which is malformed too); a line longer than 4,096 bytes
 * (its text, without the line ending); a block longer than 32,768 bytes (through its empty
 * line), or no empty line ending it. Other headers are ignored, never printed.
 */

/** The longest line of the header block, in bytes, without its line ending. */
export const DIAGNOSTICS_MAX_LINE_BYTES = 4096;
/** The longest header block, in bytes, through its terminating empty line. */
export const DIAGNOSTICS_MAX_BLOCK_BYTES = 32_768;
/** The quota resources the record may name. */
export const QUOTA_RESOURCES = [
  'core',
  'search',
  'graphql',
  'integration_manifest',
  'code_search',
] as const;
/** The largest value of the integer fields: 2^63 − 1. */
export const MAX_DIAGNOSTIC_INTEGER = 9_223_372_036_854_775_807n;

/** The record's fields; `undefined` is an absent header. */
export interface MergeDiagnostics {
  readonly status: number;
  readonly requestId: string | undefined;
  readonly resource: (typeof QUOTA_RESOURCES)[number] | undefined;
  readonly limit: bigint | undefined;
  readonly remaining: bigint | undefined;
  readonly used: bigint | undefined;
  readonly reset: bigint | undefined;
  readonly retryAfter: bigint | undefined;
}

type IntegerField = 'limit' | 'remaining' | 'used' | 'reset' | 'retryAfter';

/** The selected headers, by lower-case name. */
const SELECTED: Readonly<Record<string, 'requestId' | 'resource' | IntegerField>> = {
  'x-github-request-id': 'requestId',
  'x-ratelimit-resource': 'resource',
  'x-ratelimit-limit': 'limit',
  'x-ratelimit-remaining': 'remaining',
  'x-ratelimit-used': 'used',
  'x-ratelimit-reset': 'reset',
  'retry-after': 'retryAfter',
};

const STATUS_LINE = /^HTTP\/[0-9](?:\.[0-9])? ([1-5][0-9][0-9])(?: [^\r\n]*)?$/;
const REQUEST_ID = /^[0-9A-Fa-f:]{1,128}$/;
const INTEGER = /^(?:0|[1-9][0-9]{0,18})$/;

const decoder = new TextDecoder('utf-8', { fatal: false });

function parseInteger(value: string): bigint | undefined {
  if (!INTEGER.test(value)) return undefined;
  const parsed = BigInt(value);
  return parsed <= MAX_DIAGNOSTIC_INTEGER ? parsed : undefined;
}

/**
 * Parses the header block gh printed (`gh api --include --silent`: the status line ends with
 * `\n`, header lines and the final empty line with `\r\n`; a bare `\n` is accepted too).
 *
 * @param output - the captured stdout, starting with the block
 * @returns the record's fields, or `null` when the block is invalid
 */
export function parseMergeDiagnostics(output: Uint8Array): MergeDiagnostics | null {
  const fields: { -readonly [K in keyof MergeDiagnostics]?: MergeDiagnostics[K] } = {};
  const seen = new Set<string>();
  let offset = 0;
  let status: number | undefined;
  for (;;) {
    const newline = output.indexOf(0x0a, offset);
    if (newline < 0 || newline + 1 > DIAGNOSTICS_MAX_BLOCK_BYTES) return null;
    let end = newline;
    if (end > offset && output[end - 1] === 0x0d) end -= 1;
    if (end - offset > DIAGNOSTICS_MAX_LINE_BYTES) return null;
    const line = decoder.decode(output.subarray(offset, end));
    offset = newline + 1;
    if (status === undefined) {
      const match = STATUS_LINE.exec(line);
      if (match === null) return null;
      status = Number(match[1]);
      continue;
    }
    if (line === '') break;
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).toLowerCase();
    const field = SELECTED[name];
    if (field === undefined) continue;
    if (seen.has(name)) return null;
    seen.add(name);
    const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
    if (field === 'requestId') {
      if (!REQUEST_ID.test(value)) return null;
      fields.requestId = value;
    } else if (field === 'resource') {
      const resource = QUOTA_RESOURCES.find((candidate) => candidate === value);
      if (resource === undefined) return null;
      fields.resource = resource;
    } else {
      const parsed = parseInteger(value);
      if (parsed === undefined) return null;
      fields[field] = parsed;
    }
  }
  return {
    status,
    requestId: fields.requestId,
    resource: fields.resource,
    limit: fields.limit,
    remaining: fields.remaining,
    used: fields.used,
    reset: fields.reset,
    retryAfter: fields.retryAfter,
  };
}

function show(value: bigint | string | number | undefined): string {
  return value === undefined ? '-' : String(value);
}

/** The one stderr line of the record, or of an invalid block. */
export function formatMergeDiagnostics(diagnostics: MergeDiagnostics | null): string {
  if (diagnostics === null) return 'relay: merge diagnostics: unavailable\n';
  const d = diagnostics;
  return (
    `relay: merge diagnostics: status=${show(d.status)} request_id=${show(d.requestId)} ` +
    `resource=${show(d.resource)} limit=${show(d.limit)} remaining=${show(d.remaining)} ` +
    `used=${show(d.used)} reset=${show(d.reset)} retry_after=${show(d.retryAfter)}\n`
  );
}

/** Whether the diagnostics record is asked for: RELAY_DIAGNOSTICS is exactly `1`. */
export function isMergeDiagnosticsEnabled(
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  return env.RELAY_DIAGNOSTICS === '1';
}
