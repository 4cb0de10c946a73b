import { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { RelayHttpError } from '../relay-http-error.js';

/** Strict UTF-8 (a one-shot decode keeps no state between calls). */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The default cap on a request body, in bytes. */
export const DEFAULT_BODY_MAX_BYTES = 16 * 1024;

/**
 * The cap on the request bodies of `c`: the app's `maxRequestBytes` variable
 * (RELAY_MAX_REQUEST_BYTES, set by `createApp`), else {@link DEFAULT_BODY_MAX_BYTES}.
 */
export function requestBodyCap(c: Context): number {
  const configured: unknown = c.get('maxRequestBytes');
  return typeof configured === 'number' ? configured : DEFAULT_BODY_MAX_BYTES;
}

/**
 * Whether part of the request body has not arrived yet (a Node request whose message is not
 * complete). An answer given then should close the connection instead of waiting for the rest.
 * Always false outside @hono/node-server, where the body is already a stream of its own.
 */
export function isRequestBodyPending(c: Context): boolean {
  const incoming = nodeIncoming(c);
  return incoming !== undefined && !incoming.complete;
}

/**
 * Reads a request body as UTF-8 text: the content type must be `application/json`, and at most
 * `maxBytes` bytes are read (the rest is never buffered).
 *
 * @param c - the request context
 * @param maxBytes - the cap; default {@link requestBodyCap}
 * @returns the text
 * @throws RelayHttpError `unsupported_media_type` (415), `payload_too_large` (413), or
 *   `invalid_request` (400) for a body that is not UTF-8 or that ended before its end (the
 *   client closed the connection, or the server's request deadline closed it)
 */
export async function readJsonText(
  c: Context,
  maxBytes: number = requestBodyCap(c),
): Promise<string> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/json\s*(?:;|$)/i.test(type.trim())) {
    throw new RelayHttpError('unsupported_media_type');
  }
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > maxBytes) {
    throw new RelayHttpError('payload_too_large');
  }
  const incoming = nodeIncoming(c);
  const chunks =
    incoming === undefined
      ? await readWebBody(c, maxBytes)
      : await readIncoming(incoming, maxBytes);
  if (chunks === 'too_large') {
    // The rest of the body is never read: the connection closes after the answer.
    c.header('connection', 'close');
    throw new RelayHttpError('payload_too_large');
  }
  try {
    return UTF8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  } catch {
    throw new RelayHttpError('invalid_request');
  }
}

/**
 * Reads and parses a JSON request body (see {@link readJsonText}).
 *
 * @param c - the request context
 * @param maxBytes - the cap; default {@link requestBodyCap}
 * @throws RelayHttpError as {@link readJsonText}, and `invalid_request` for malformed JSON
 */
export async function readJsonBody(
  c: Context,
  maxBytes: number = requestBodyCap(c),
): Promise<unknown> {
  const text = await readJsonText(c, maxBytes);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new RelayHttpError('invalid_request');
  }
}

/**
 * The Node request under @hono/node-server (its `HttpBindings`), read directly: the web-stream
 * view of it (`c.req.raw.body`) builds a full fetch Request and a stream adapter per request.
 */
function nodeIncoming(c: Context): IncomingMessage | undefined {
  const env: unknown = c.env;
  if (typeof env !== 'object' || env === null || !('incoming' in env)) return undefined;
  const { incoming } = env;
  return incoming instanceof IncomingMessage ? incoming : undefined;
}

/** Reads a Node request body up to `maxBytes`; past it, stops reading and says so. */
function readIncoming(
  incoming: IncomingMessage,
  maxBytes: number,
): Promise<Buffer[] | 'too_large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
    };
    const onData = (chunk: Buffer | string) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buffer.byteLength;
      if (size > maxBytes) {
        cleanup();
        incoming.pause();
        resolve('too_large');
        return;
      }
      chunks.push(buffer);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks);
    };
    // A body cut short is the client's doing (or the request deadline's), not the server's: a
    // typed 400 that nobody reads, instead of an unexpected error per slow client.
    const cutShort = () => new RelayHttpError('invalid_request', 'The request body ended early.');
    const onError = () => {
      cleanup();
      reject(cutShort());
    };
    const onClose = () => {
      cleanup();
      if (incoming.readableEnded) resolve(chunks);
      else reject(cutShort());
    };
    if (incoming.readableEnded) {
      resolve([]);
      return;
    }
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
  });
}

/** Reads a fetch Request body (tests through `app.request`, other adapters) up to `maxBytes`. */
async function readWebBody(c: Context, maxBytes: number): Promise<Uint8Array[] | 'too_large'> {
  const body = c.req.raw.body;
  if (body === null) return [];
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader: ReadableStreamDefaultReader<Uint8Array> = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return 'too_large';
    }
    chunks.push(value);
  }
}
