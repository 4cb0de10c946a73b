import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Makes `n` random bytes. */
export type RandomBytes = (n: number) => Uint8Array;

/**
 * Makes a caller token: `rly_` and 32 random bytes in base64url (DESIGN.md §3).
 *
 * @param random - the source of random bytes; default `crypto.randomBytes`
 */
export function createCallerToken(random: RandomBytes = randomBytes): string {
  return `rly_${Buffer.from(random(32)).toString('base64url')}`;
}

/**
 * The SHA-256 of a token, in hex: the only form a caller token is stored in.
 *
 * @param token - the token
 */
export function hashToken(token: string): string {
  // One-shot: no Hash object per request.
  return hash('sha256', token, 'hex');
}

/**
 * Compares two token hashes (or any two hex digests) in constant time.
 *
 * @returns whether they are equal
 */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
