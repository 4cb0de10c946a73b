import type { Context } from 'hono';
import { RelayHttpError } from '../relay-http-error.js';

/** The default cap on a request body, in bytes. */
export const DEFAULT_BODY_MAX_BYTES = 16 * 1024;

/**
 * Reads a request body as UTF-8 text: the content type must be `application/json`, and at most
 * `maxBytes` bytes are read (the rest is never buffered).
 *
 * @param c - the request context
 * @param maxBytes - the cap
 * @returns the text
 * @throws RelayHttpError `unsupported_media_type` (415), `payload_too_large` (413), or
 *   `invalid_request` (400) for a body that is not UTF-8
 */
export async function readJsonText(c: Context, maxBytes: number): Promise<string> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/json\s*(?:;|$)/i.test(type.trim())) {
    throw new RelayHttpError('unsupported_media_type');
  }
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > maxBytes) {
    throw new RelayHttpError('payload_too_large');
  }
  const body = c.req.raw.body;
  if (body === null) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader: ReadableStreamDefaultReader<Uint8Array> = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new RelayHttpError('payload_too_large');
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new RelayHttpError('invalid_request');
  }
}

/**
 * Reads and parses a JSON request body (see {@link readJsonText}).
 *
 * @throws RelayHttpError as {@link readJsonText}, and `invalid_request` for malformed JSON
 */
export async function readJsonBody(
  c: Context,
  maxBytes: number = DEFAULT_BODY_MAX_BYTES,
): Promise<unknown> {
  const text = await readJsonText(c, maxBytes);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new RelayHttpError('invalid_request');
  }
}
