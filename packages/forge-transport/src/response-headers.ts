import { NEVER_FORWARDED_HEADERS, filterEnvelopeHeaders } from '@relay/protocol';
import type { ResponseHeaders } from './rate-limit-parser.js';

/**
 * Reduces upstream response headers to the envelope allowlist of @relay/protocol
 * (`ENVELOPE_HEADER_ALLOWLIST`: content negotiation, caching, rate limits, request ids).
 * Repeated headers are joined with `, ` as HTTP list semantics allow; credentials, cookies and
 * token-describing headers (`NEVER_FORWARDED_HEADERS`) never pass, whatever the allowlist says.
 *
 * @param headers - response headers with lowercase names, repeated headers as arrays
 * @returns the envelope headers, names lowercase
 */
export function toEnvelopeHeaders(headers: ResponseHeaders): Record<string, string> {
  const pairs: (readonly [string, string])[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    if ((NEVER_FORWARDED_HEADERS as readonly string[]).includes(lower)) continue;
    pairs.push([lower, typeof value === 'string' ? value : value.join(', ')]);
  }
  return filterEnvelopeHeaders(pairs);
}
