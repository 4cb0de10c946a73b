import { describe, expect, it } from 'vitest';
import { forgeResponse } from './__fixtures__/forge-responses.js';
import { createProbeValidators } from './probe-validators.js';

const withEtag = (status: number, etag?: string) => {
  const response = forgeResponse(status, status === 200 ? { private: false } : null);
  return etag === undefined ? response : { ...response, headers: { ...response.headers, etag } };
};

describe('probe validators', () => {
  it('keeps the ETag each identity received, and sends it only from that identity', () => {
    const v = createProbeValidators();
    expect(v.has('/repos/a/b')).toBe(false);
    v.record('/repos/a/b', 'pat-1', withEtag(200, 'W/"one"'));
    v.record('/repos/a/b', 'pat-2', withEtag(200, 'W/"two"'));
    expect(v.has('/repos/a/b')).toBe(true);
    expect([...v.holders('/repos/a/b')]).toEqual(['pat-1', 'pat-2']);
    expect(v.conditionalHeaders('/repos/a/b', 'pat-1')).toEqual({ 'if-none-match': 'W/"one"' });
    expect(v.conditionalHeaders('/repos/a/b', 'pat-3')).toEqual({});
    expect(v.conditionalHeaders('/repos/a/c', 'pat-1')).toEqual({});
  });

  it.each([
    ['a 304 with an ETag replaces it', withEtag(304, 'W/"new"'), { 'if-none-match': 'W/"new"' }],
    ['a 404 is ignored', withEtag(404, 'W/"gone"'), { 'if-none-match': 'W/"old"' }],
    ['an answer without an ETag is ignored', withEtag(200), { 'if-none-match': 'W/"old"' }],
  ])('%s', (_name, response, headers) => {
    const v = createProbeValidators();
    v.record('/repos/a/b', 'pat-1', withEtag(200, 'W/"old"'));
    v.record('/repos/a/b', 'pat-1', response);
    expect(v.conditionalHeaders('/repos/a/b', 'pat-1')).toEqual(headers);
  });

  it('keeps at most its bound of repositories, dropping the oldest', () => {
    const v = createProbeValidators(2);
    for (const repo of ['one', 'two', 'three']) {
      v.record(`/repos/a/${repo}`, 'pat-1', withEtag(200, `"${repo}"`));
    }
    expect(['one', 'two', 'three'].map((repo) => v.has(`/repos/a/${repo}`))).toEqual([
      false,
      true,
      true,
    ]);
  });
});
