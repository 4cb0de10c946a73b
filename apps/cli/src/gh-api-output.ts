import type { RelayEnvelope } from '@relay/protocol';

/**
 * The body bytes of an envelope as `gh api` prints them: a JSON body serialized compactly
 * (the relay does not promise the original whitespace), text as UTF-8 (an empty body prints
 * nothing), base64 decoded to the exact bytes.
 */
export function envelopeBodyBytes(envelope: Pick<RelayEnvelope, 'body' | 'body_encoding'>): Buffer {
  switch (envelope.body_encoding) {
    case 'json':
      return Buffer.from(JSON.stringify(envelope.body), 'utf8');
    case 'text':
      return Buffer.from(typeof envelope.body === 'string' ? envelope.body : '', 'utf8');
    case 'base64':
      return Buffer.from(typeof envelope.body === 'string' ? envelope.body : '', 'base64');
  }
}

/** Whether the envelope's body is JSON as `gh` decides it (by content type). */
export function isJsonEnvelope(
  envelope: Pick<RelayEnvelope, 'headers' | 'body_encoding'>,
): boolean {
  return envelope.body_encoding === 'json' || isGhJsonContentType(envelope.headers);
}

/**
 * Splices the pages of `gh api --paginate` exactly as gh's `paginatedArrayReader` does: a
 * page that starts with `[` continues the first page's array (its `[` becomes `,`, or a
 * space for an empty array) and every page but the last loses a closing `]`. Pages that are
 * not arrays are printed one after another. gh wraps only the pages it read as JSON (by
 * content type): `spliced[i]` false prints page i as it is.
 */
export function splicePaginatedPages(
  pages: readonly Buffer[],
  spliced: readonly boolean[] = pages.map(() => true),
): Buffer {
  const out: Buffer[] = [];
  pages.forEach((page, index) => {
    let bytes = page;
    if (spliced[index] !== true) {
      out.push(bytes);
      return;
    }
    if (index > 0 && bytes[0] === 0x5b /* [ */) {
      const replacement = bytes[1] === 0x5d /* ] */ ? 0x20 : 0x2c; // ' ' or ','
      bytes = Buffer.concat([Buffer.from([replacement]), bytes.subarray(1)]);
    }
    const last = index === pages.length - 1;
    if (!last && bytes.length > 0 && bytes[bytes.length - 1] === 0x5d) {
      bytes = bytes.subarray(0, bytes.length - 1);
    }
    out.push(bytes);
  });
  return Buffer.concat(out);
}

/** `--slurp`: every page as one element of an outer JSON array, as gh prints it. */
export function slurpPages(pages: readonly Buffer[]): Buffer {
  const parts: Buffer[] = [Buffer.from('[')];
  pages.forEach((page, index) => {
    if (index > 0) parts.push(Buffer.from(','));
    parts.push(page);
  });
  parts.push(Buffer.from(']'));
  return Buffer.concat(parts);
}

/** What gh's error parsing makes of an error body. */
export type GhErrorMessage =
  /** gh's message; empty when the body names none (gh then says `HTTP <code>`). */
  | { readonly ok: true; readonly message: string }
  /** gh's own JSON decoding fails (it then prints a Go decoding error and no body). */
  | { readonly ok: false };

const MESSAGE_FIELD = 'Message';
const ERRORS_FIELD = 'Errors';

/** Go's `bytes.EqualFold` for the two field names (simple folding: `ſ` folds to `s`). */
function goFoldEquals(key: string, field: string): boolean {
  if (key === field) return true;
  const folded = key.replace(/\u017f/g, 's').replace(/\u212a/g, 'k');
  return folded.length === field.length && folded.toLowerCase() === field.toLowerCase();
}

/**
 * The value Go's `json.Unmarshal` gives a struct field: the last key naming it exactly, else
 * the last key naming it case-insensitively (Go prefers the exact name only per key; every
 * matching key sets the field, in document order).
 */
function goField(
  record: Record<string, unknown>,
  field: string,
): { found: boolean; value: unknown } {
  let found = false;
  let value: unknown;
  for (const [key, candidate] of Object.entries(record)) {
    if (!goFoldEquals(key, field)) continue;
    found = true;
    value = candidate;
  }
  return { found, value };
}

/** Go's `json.Unmarshal` of one key into a `string` field: null keeps it, another type fails. */
function goStringField(
  record: Record<string, unknown>,
  previous: string,
): { ok: true; value: string } | { ok: false } {
  let value = previous;
  for (const [key, candidate] of Object.entries(record)) {
    if (!goFoldEquals(key, MESSAGE_FIELD)) continue;
    if (typeof candidate === 'string') value = candidate;
    else if (candidate !== null) return { ok: false };
  }
  return { ok: true, value };
}

/**
 * gh api's `parseErrorResponse` (pkg/cmd/api/api.go) over the decoded body: a string `errors`
 * gives `<errors> (<message>)` (or `<errors>`); else a `message` gives `<message> (HTTP <code>)`;
 * else an `errors` array gives its items joined by a newline: an object's `message` (gh decodes
 * every object into one reused struct, so an object without one repeats the previous message),
 * a string as is, other items skipped. Field names match case-insensitively, as Go's decoder
 * does. A body Go cannot decode into that shape (not JSON, a top-level array, string, number or
 * boolean, a `message` that is not a string) is `{ ok: false }`.
 */
export function ghErrorMessage(status: number, body: string): GhErrorMessage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { ok: false };
  }
  if (parsed === null) return { ok: true, message: '' };
  if (typeof parsed !== 'object' || Array.isArray(parsed)) return { ok: false };
  const record = parsed as Record<string, unknown>;
  const message = goStringField(record, '');
  if (!message.ok) return { ok: false };
  const errors = goField(record, ERRORS_FIELD);
  if (errors.found && typeof errors.value === 'string' && errors.value !== '') {
    return {
      ok: true,
      message: message.value === '' ? errors.value : `${errors.value} (${message.value})`,
    };
  }
  if (message.value !== '') return { ok: true, message: `${message.value} (HTTP ${status})` };
  if (!errors.found || !Array.isArray(errors.value)) return { ok: true, message: '' };
  const items: string[] = [];
  let objectMessage = '';
  for (const item of errors.value as unknown[]) {
    if (typeof item === 'string') items.push(item);
    else if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
      const decoded = goStringField(item as Record<string, unknown>, objectMessage);
      if (!decoded.ok) return { ok: false };
      objectMessage = decoded.value;
      items.push(objectMessage);
    }
  }
  return { ok: true, message: items.join('\n') };
}

/** gh api's JSON test of a response: its `Content-Type` matches `[/+]json(;|$)`. */
export function isGhJsonContentType(headers: Readonly<Record<string, string>>): boolean {
  return /[/+]json(;|$)/.test(headers['content-type'] ?? '');
}

/**
 * The line `gh api` prints on stderr for a failed response: `gh: <message>` with
 * {@link ghErrorMessage}'s message, else `gh: HTTP <code>`.
 */
export function formatGhHttpError(status: number, message: string): string {
  return message === '' ? `gh: HTTP ${status}\n` : `gh: ${message}\n`;
}

/**
 * The `rel="next"` target of a Link header as gh's `findNextPage` finds it: the first
 * `<url>;\s*rel="next"` match of `<([^>]+)>;\s*rel="([^"]+)"` whose rel is exactly `next`.
 */
export function findNextLink(link: string | undefined): string | undefined {
  if (link === undefined) return undefined;
  for (const match of link.matchAll(/<([^>]+)>;\s*rel="([^"]+)"/g)) {
    if (match[2] === 'next') return match[1];
  }
  return undefined;
}
