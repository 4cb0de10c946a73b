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
  if (envelope.body_encoding === 'json') return true;
  const type = envelope.headers['content-type'] ?? '';
  return /[/+]json(;|$)/i.test(type.trim());
}

/**
 * Splices the pages of `gh api --paginate` exactly as gh's `paginatedArrayReader` does: a
 * page that starts with `[` continues the first page's array (its `[` becomes `,`, or a
 * space for an empty array) and every page but the last loses a closing `]`. Pages that are
 * not arrays are printed one after another.
 */
export function splicePaginatedPages(pages: readonly Buffer[]): Buffer {
  const out: Buffer[] = [];
  pages.forEach((page, index) => {
    let bytes = page;
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

/**
 * The line `gh api` prints on stderr for an HTTP error: `gh: <message> (HTTP <code>)` with the
 * message (and each `errors[].message`) of a JSON error body, else `gh: HTTP <code>`.
 */
export function formatGhHttpError(status: number, body: unknown): string {
  const messages: string[] = [];
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    if (typeof record.message === 'string' && record.message !== '') messages.push(record.message);
    if (Array.isArray(record.errors)) {
      for (const item of record.errors as unknown[]) {
        if (typeof item === 'string') messages.push(item);
        else if (typeof item === 'object' && item !== null) {
          const message = (item as Record<string, unknown>).message;
          if (typeof message === 'string' && message !== '') messages.push(message);
        }
      }
    }
  }
  return messages.length === 0
    ? `gh: HTTP ${status}\n`
    : `gh: ${messages.join('\n')} (HTTP ${status})\n`;
}

/** The `rel="next"` target of a Link header, if any. */
export function findNextLink(link: string | undefined): string | undefined {
  if (link === undefined) return undefined;
  for (const part of link.split(',')) {
    const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (match === null) continue;
    const params = match[2] ?? '';
    if (/(^|;)\s*rel\s*=\s*"?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/i.test(params)) return match[1];
  }
  return undefined;
}
