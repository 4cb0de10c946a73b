import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRequestId, createRequestIdFactory } from './request-id.js';

const V7 = /^req_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids', () => {
  it('are req_ and a version 7 UUID, unique', () => {
    const ids = Array.from({ length: 2000 }, () => createRequestId());
    for (const id of ids) expect(id).toMatch(V7);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('draw fresh random bytes for every id, refilling the pool when it runs out', () => {
    let draws = 0;
    const make = createRequestIdFactory({
      now: () => 0,
      fillRandom: (bytes) => {
        draws++;
        // A distinct number in the last four bytes of every 16-byte slot of every draw.
        const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        for (let slot = 0; slot < bytes.length / 16; slot++) {
          view.setUint32(slot * 16 + 12, draws * 100_000 + slot);
        }
      },
    });
    const ids = Array.from({ length: 600 }, () => make());
    expect(new Set(ids.map((id) => id.slice(-17))).size).toBe(600);
    expect(draws).toBe(3);
  });

  it('carry the clock in their first 48 bits', () => {
    const id = createRequestIdFactory({
      now: () => 0x0123_4567_89ab,
      fillRandom: (bytes) => bytes.fill(0),
    })();
    expect(id).toBe('req_01234567-89ab-7000-8000-000000000000');
  });

  it('sort by creation time whatever the random bits', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 47 }),
        fc.integer({ min: 1, max: 2 ** 20 }),
        fc.uint8Array({ minLength: 16, maxLength: 16 }),
        fc.uint8Array({ minLength: 16, maxLength: 16 }),
        (earlier, gap, first, second) => {
          const make = (ms: number, random: Uint8Array) =>
            createRequestIdFactory({
              now: () => ms,
              fillRandom: (bytes) => {
                bytes.set(random);
              },
            })();
          const a = make(earlier, first);
          const b = make(earlier + gap, second);
          expect(a).toMatch(V7);
          expect(b).toMatch(V7);
          expect(a < b).toBe(true);
        },
      ),
    );
  });
});
