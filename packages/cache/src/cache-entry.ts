import type { BodyEncoding, RouteKind } from '@relay/protocol';

/**
 * Who obtained a validator: a pooled identity (by id) or the anonymous lane. GitHub scopes an
 * ETag to the token that received it, so a revalidation is only worth sending from the same lane.
 */
export type ValidatorLane =
  { readonly kind: 'anonymous' } | { readonly kind: 'identity'; readonly id: string };

/** The validators of a cached answer, kept with the lane that obtained them. */
export interface CachedValidators {
  readonly etag?: string;
  readonly lastModified?: string;
  readonly lane: ValidatorLane;
}

/**
 * One shared-cache entry: a public, reduced upstream answer and its timing. Times are
 * milliseconds since the epoch, read from the injected clock.
 */
export interface CacheEntry {
  /** The route kind the answer belongs to. */
  readonly routeKind: RouteKind;
  /** The upstream status (200 or 204; a 202 pending answer is never stored). */
  readonly status: number;
  /** Replayable response headers: never rate-limit headers, never credentials. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body, already reduced (see `reduceResponseBody`). */
  readonly body: unknown;
  /** How `body` is encoded. */
  readonly bodyEncoding: BodyEncoding;
  /**
   * The JSON text the forge wrote for a `json` body, kept only when `JSON.stringify(body)` would
   * not give it back (and never for a reduced body): `JSON.parse(bodySource)` is `body`. The
   * relay's envelope carries these bytes, so that a client prints what the forge sent.
   */
  readonly bodySource?: string;
  /** ETag / Last-Modified and the lane that obtained them, when upstream sent any. */
  readonly validators?: CachedValidators;
  /** When upstream last confirmed the answer (a 200, a 304 or an existence probe). */
  readonly validatedAt: number;
  /** The end of freshness: from here on the entry is expired. */
  readonly expiresAt: number;
  /** The end of the bounded stale window: from here on the entry is never served. */
  readonly staleUntil: number;
  /** Approximate stored size in bytes (body, headers and validators). */
  readonly bytes: number;
  /**
   * The repository whose data the entry holds (`owner/repo`, lowercase), when it holds one:
   * `purgeScope` removes every entry of a repository that turned out private.
   */
  readonly scope?: string;
}

/**
 * Approximates the stored size of an entry in bytes: UTF-8 bytes of the serialized body, the
 * headers and the validators, plus a fixed overhead for the numeric fields.
 *
 * @param entry - the entry without its `bytes` field.
 * @returns the size in bytes.
 */
export function measureEntryBytes(entry: Omit<CacheEntry, 'bytes'>): number {
  const ENTRY_OVERHEAD_BYTES = 64;
  let bytes = ENTRY_OVERHEAD_BYTES + entry.routeKind.length;
  if (typeof entry.body === 'string') bytes += utf8Length(entry.body);
  else if (entry.body !== undefined) bytes += utf8Length(JSON.stringify(entry.body));
  if (entry.bodySource !== undefined) bytes += utf8Length(entry.bodySource);
  for (const [name, value] of Object.entries(entry.headers)) {
    bytes += utf8Length(name) + utf8Length(value);
  }
  const validators = entry.validators;
  if (validators !== undefined) {
    bytes += utf8Length(validators.etag ?? '') + utf8Length(validators.lastModified ?? '');
    if (validators.lane.kind === 'identity') bytes += utf8Length(validators.lane.id);
  }
  return bytes;
}

/** UTF-8 length of a string without allocating an encoded copy. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Whether two lanes are the same (the anonymous lane, or the same identity id): a revalidation
 * is only worth sending when the lane about to send it obtained the validators.
 *
 * @param a - one lane.
 * @param b - the other lane.
 * @returns true when a validator of `a` can earn a 304 for `b`.
 */
export function isSameLane(a: ValidatorLane, b: ValidatorLane): boolean {
  if (a.kind === 'anonymous') return b.kind === 'anonymous';
  return b.kind === 'identity' && a.id === b.id;
}
