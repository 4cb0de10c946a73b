import { ENVELOPE_HEADER_ALLOWLIST, NEVER_FORWARDED_HEADERS } from '@relay/protocol';
import { describe, expect, it } from 'vitest';
import { toEnvelopeHeaders } from './response-headers.js';

describe('toEnvelopeHeaders', () => {
  it.each(ENVELOPE_HEADER_ALLOWLIST.map((name) => [name]))('keeps %s', (name) => {
    expect(toEnvelopeHeaders({ [name]: 'v' })).toEqual({ [name]: 'v' });
  });

  it.each(NEVER_FORWARDED_HEADERS.map((name) => [name]))('drops %s', (name) => {
    expect(toEnvelopeHeaders({ [name]: 'secret', etag: '"e"' })).toEqual({ etag: '"e"' });
  });

  it.each([
    ['server'],
    ['x-frame-options'],
    ['location'],
    ['content-length'],
    ['x-github-sso'],
    ['strict-transport-security'],
  ])('drops %s (not on the allowlist)', (name) => {
    expect(toEnvelopeHeaders({ [name]: 'v' })).toEqual({});
  });

  it('lowercases names and joins repeated headers', () => {
    expect(
      toEnvelopeHeaders({
        Link: ['<a>; rel="next"', '<b>; rel="last"'],
        'Set-Cookie': ['a=1', 'b=2'],
        vary: undefined,
      }),
    ).toEqual({ link: '<a>; rel="next", <b>; rel="last"' });
  });
});
