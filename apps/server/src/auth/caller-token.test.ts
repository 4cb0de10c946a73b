import { createHash } from 'node:crypto';
import { callerTokenSchema } from '@relay/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readBearerToken } from './caller-authenticator.js';
import { createCallerToken, digestsEqual, hashToken } from './caller-token.js';

describe('caller tokens', () => {
  it('are rly_ and 32 random bytes in base64url, for any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => {
        const token = createCallerToken(() => bytes);
        expect(callerTokenSchema.safeParse(token).success).toBe(true);
        expect(Buffer.from(token.slice(4), 'base64url')).toEqual(Buffer.from(bytes));
      }),
    );
  });

  it('hash to a 64-digit hex SHA-256 that compares equal only to itself', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(hashToken(a)).toMatch(/^[0-9a-f]{64}$/);
        expect(digestsEqual(hashToken(a), hashToken(b))).toBe(a === b);
      }),
    );
  });

  it('hash is the SHA-256 of the UTF-8 bytes (stored digests stay valid)', () => {
    expect(hashToken('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (token) => {
        expect(hashToken(token)).toBe(createHash('sha256').update(token, 'utf8').digest('hex'));
      }),
    );
  });
});

describe('readBearerToken', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['Bearer   abc  ', 'abc'],
    ['Basic abc', undefined],
    ['Bearer', undefined],
    ['Bearer a b', undefined],
    [undefined, undefined],
  ])('reads %j as %j', (header, token) => {
    expect(readBearerToken(header)).toBe(token);
  });
});
