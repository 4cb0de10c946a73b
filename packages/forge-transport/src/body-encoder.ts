import type { BodyEncoding } from '@relay/protocol';

/** A JSON value as `JSON.parse` produces it. */
export type JsonValue =
  string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** An envelope body and its encoding; the fields are the envelope's `body` and `body_encoding`. */
export type EncodedBody =
  | {
      readonly encoding: Extract<BodyEncoding, 'json'>;
      readonly body: JsonValue;
      /**
       * The body's own JSON text, present only when it is not `JSON.stringify(body)` (whitespace,
       * a number written `1.0`, escapes such as `\u003c`, keys JavaScript orders differently):
       * `JSON.parse(source)` is `body`. The relay writes it into the envelope in place of
       * `JSON.stringify(body)`, so that a client prints the forge's bytes, as gh does.
       */
      readonly source?: string;
    }
  | { readonly encoding: Extract<BodyEncoding, 'text'>; readonly body: string | null }
  | { readonly encoding: Extract<BodyEncoding, 'base64'>; readonly body: string };

/**
 * What kind of body this is, for the empty-body rule: an API answer (empty → `null`), or a
 * public document such as a diff, patch, raw file, web page or job log (empty → `''`).
 */
export type BodyKind = 'api' | 'document';

/** What {@link encodeBody} needs to know besides the bytes. */
export interface EncodeBodyOptions {
  /** The upstream status; only 2xx JSON is parsed. */
  readonly status: number;
  /** The upstream `content-type`, if any. */
  readonly contentType?: string | undefined;
  /** Which empty-body rule applies. */
  readonly kind: BodyKind;
}

/** Bytes at the start of a body in which a NUL selects base64. */
export const NUL_SCAN_BYTES = 1024;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Whether a `content-type` names JSON: `application/json` or `application/<anything>+json`,
 * parameters ignored, case-insensitive.
 *
 * @param contentType - a `content-type` header value
 */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const mediaType = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return mediaType === 'application/json' || /^application\/[^/\s]+\+json$/u.test(mediaType);
}

const DOCUMENT_MEDIA_TYPE =
  /^(?:application\/vnd\.github(?:\.v3)?\.(?:diff|patch|raw)|text\/x-(?:diff|patch))$/u;

/**
 * Whether an `accept` or `content-type` value names a document the API host serves in place of
 * an API value — a diff, a patch or a file's raw content: one of its media types (comma-separated,
 * parameters ignored, case-insensitive) is `application/vnd.github.diff`,
 * `application/vnd.github.patch` or `application/vnd.github.raw` (`.v3.` forms included; not
 * `raw+json`, a JSON value), `text/x-diff` or `text/x-patch`. Its empty body is `''` like the
 * patch or raw host's, not `null` (SPEC.md "Body encoding rules" 2), so the same read gives the
 * same envelope whichever lane served it.
 *
 * @param value - an `accept` or `content-type` header value
 */
export function namesDocumentMediaType(value: string | undefined): boolean {
  if (value === undefined) return false;
  return value
    .split(',')
    .some((range) => DOCUMENT_MEDIA_TYPE.test((range.split(';')[0] ?? '').trim().toLowerCase()));
}

function decodeStrict(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Encodes bytes losslessly: base64 for invalid UTF-8, a leading UTF-8 byte-order mark or a NUL
 * within the first {@link NUL_SCAN_BYTES} bytes; text otherwise (literal U+FFFD, CRLF and later
 * NULs preserved).
 *
 * @param bytes - the upstream body
 * @returns a text or base64 body; never json
 */
export function encodeOpaqueBody(bytes: Uint8Array): EncodedBody {
  const hasBom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const hasEarlyNul = bytes.subarray(0, NUL_SCAN_BYTES).includes(0);
  const text = hasBom || hasEarlyNul ? undefined : decodeStrict(bytes);
  if (text === undefined) {
    return {
      encoding: 'base64',
      body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64'),
    };
  }
  return { encoding: 'text', body: text };
}

/**
 * Encodes an upstream body for the envelope, exactly per SPEC.md "Body encoding rules":
 * 1. empty: `null` (API) or `''` (documents), text encoding;
 * 2. 2xx with a JSON content type: parsed with ordinary `JSON.parse` semantics, the text kept
 *    as `source` when `JSON.stringify` would not give it back; malformed JSON (a leading BOM
 *    included) and JSON too deep for `JSON.stringify` fall back to rule 3;
 * 3. otherwise {@link encodeOpaqueBody}.
 *
 * @param bytes - the upstream body, already within the size cap
 * @param options - status, content type and body kind
 * @returns the envelope body and its encoding
 */
export function encodeBody(bytes: Uint8Array, options: EncodeBodyOptions): EncodedBody {
  if (bytes.length === 0) {
    return { encoding: 'text', body: options.kind === 'api' ? null : '' };
  }
  if (options.status >= 200 && options.status < 300 && isJsonContentType(options.contentType)) {
    const text = decodeStrict(bytes);
    if (text !== undefined) {
      try {
        const body = JSON.parse(text) as JsonValue;
        // JSON.stringify also throws on a value nested deeper than its stack (a few thousand
        // levels, which JSON.parse accepts): such a body is kept opaque, byte for byte, instead
        // of failing wherever the relay serializes it later.
        return JSON.stringify(body) === text
          ? { encoding: 'json', body }
          : { encoding: 'json', body, source: text };
      } catch {
        // Malformed JSON falls back to the lossless opaque encoding.
      }
    }
  }
  return encodeOpaqueBody(bytes);
}
