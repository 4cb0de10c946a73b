const MAX_DELTA_SECONDS = 2 ** 31;

/**
 * Reads the `max-age=N` directive of a request's `cache-control` header: the caller's bound on
 * acceptable staleness (SPEC.md "Relay request" rule 4). Other directives are ignored. A
 * malformed value (not a plain decimal integer) is ignored, a huge one counts as 2^31; when several valid `max-age`
 * directives appear, the smallest wins, since it is the strictest bound.
 *
 * @param header - the header value, or undefined when the request has none.
 * @returns the bound in whole seconds, or undefined when there is no valid `max-age`.
 *
 * @example
 * ```ts
 * parseMaxAge('no-cache, max-age=60'); // 60
 * ```
 */
export function parseMaxAge(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  let bound: number | undefined;
  for (const directive of header.split(',')) {
    const match = /^\s*max-age\s*=\s*(?:"(\d+)"|(\d+))\s*$/i.exec(directive);
    if (match === null) continue;
    // RFC 9111 §1.2.2: a delta-seconds value too large to represent counts as 2^31.
    const seconds = Math.min(Number(match[1] ?? match[2]), MAX_DELTA_SECONDS);
    if (bound === undefined || seconds < bound) bound = seconds;
  }
  return bound;
}
