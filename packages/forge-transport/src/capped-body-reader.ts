import { err, ok } from '@relay/protocol';
import type { Result } from '@relay/protocol';

/**
 * Reads a body stream up to a byte cap. The read stops as soon as the cap is passed (the
 * iterator is returned, which destroys a Node stream and its connection); a body of exactly
 * `limitBytes` bytes is read in full.
 *
 * @param body - the body's chunks
 * @param limitBytes - the most bytes accepted
 * @returns the bytes, or `too_large`; stream errors are thrown
 */
export async function readCappedBody(
  body: AsyncIterable<Uint8Array>,
  limitBytes: number,
): Promise<Result<Uint8Array, 'too_large'>> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.length;
    if (total > limitBytes) return err('too_large');
    chunks.push(chunk);
  }
  return ok(chunks.length === 1 && chunks[0] !== undefined ? chunks[0] : Buffer.concat(chunks));
}
