import { describe, expect, it } from 'vitest';
import { buildRequestHeaders, isValidHeaderValue } from './request-headers.js';

describe('buildRequestHeaders', () => {
  it('forwards only the allowlisted caller headers, plus the relay user agent', () => {
    const headers = buildRequestHeaders({
      callerHeaders: {
        Accept: 'application/vnd.github.v3.diff',
        'X-Forge-Api-Version': '2022-11-28',
        'If-None-Match': 'W/"abc"',
        'if-modified-since': 'Sun, 22 Nov 2026 10:00:00 GMT',
        'cache-control': 'max-age=0',
        authorization: 'token caller-secret',
        'proxy-authorization': 'Basic x',
        cookie: 'session=1',
        'x-api-key': 'k',
        'user-agent': 'caller-agent',
        host: 'evil.example',
      },
      userAgent: 'relay-test',
    });
    expect(headers).toEqual({
      ok: true,
      value: {
        checked: {
          accept: 'application/vnd.github.v3.diff',
          'x-github-api-version': '2022-11-28',
          'if-none-match': 'W/"abc"',
          'if-modified-since': 'Sun, 22 Nov 2026 10:00:00 GMT',
          'user-agent': 'relay-test',
        },
      },
    });
  });

  it('keeps the pooled credential apart from the checked headers', () => {
    expect(buildRequestHeaders({ authorization: 'Bearer pooled', userAgent: 'ua' })).toEqual({
      ok: true,
      value: { checked: { 'user-agent': 'ua' }, authorization: 'Bearer pooled' },
    });
  });

  it.each([
    [{ callerHeaders: { accept: 'a\r\nx-evil: 1' }, userAgent: 'ua' }],
    [{ callerHeaders: { 'if-none-match': 'é' }, userAgent: 'ua' }],
    [{ userAgent: 'ua\n' }],
    [{ authorization: 'Bearer a\nb', userAgent: 'ua' }],
    [{ authorization: '  ', userAgent: 'ua' }],
  ])('refuses header values that are not valid HTTP: %j', (parts) => {
    expect(buildRequestHeaders(parts)).toEqual({ ok: false, error: 'invalid_header' });
  });

  it.each([
    ['W/"x"', true],
    ['a\tb c', true],
    ['', true],
    ['a\u0000', false],
    ['a\u007f', false],
    ['\u00ff', false],
  ])('isValidHeaderValue(%j) → %s', (value, expected) => {
    expect(isValidHeaderValue(value)).toBe(expected);
  });
});
