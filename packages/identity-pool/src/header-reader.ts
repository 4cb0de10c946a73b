/**
 * Response headers as the identity pool reads them: a WHATWG `Headers`, or a plain record as
 * node:http and most test doubles give them (names in any case; a repeated header as an array).
 */
export type HeaderSource =
  Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * Reads one header, case-insensitively. A repeated header yields its first value.
 *
 * @param headers - the response headers
 * @param name - the header name, lowercase
 * @returns the trimmed value, or `undefined` when the header is absent
 */
export function readHeader(headers: HeaderSource, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name)?.trim() ?? undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    const first = typeof value === 'string' ? value : value?.[0];
    if (first !== undefined) return first.trim();
  }
  return undefined;
}
