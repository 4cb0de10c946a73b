import { describe, expect, it } from 'vitest';
import { RelayReadError, readDashboardData, toDashboardUrls } from './relay-client.js';

describe('toDashboardUrls', () => {
  it('resolves the caller endpoints beside /dashboard/, never with the token', () => {
    expect(toDashboardUrls('http://relay.test/dashboard/', 'team a', '7d')).toEqual({
      health: 'http://relay.test/v1/pools/team%20a/health',
      identities: 'http://relay.test/v1/pools/team%20a/identities',
      stats: 'http://relay.test/v1/pools/team%20a/stats?window=7d',
      timeseries: 'http://relay.test/v1/pools/team%20a/stats/timeseries?window=7d&bucket=6h',
      denials: 'http://relay.test/v1/pools/team%20a/denials?window=7d&limit=50',
    });
  });

  it('keeps a path prefix in front of the relay', () => {
    expect(toDashboardUrls('https://x.test/relay/dashboard/', 'p', '1h').health).toBe(
      'https://x.test/relay/v1/pools/p/health',
    );
  });
});

describe('readDashboardData', () => {
  it('sends the token as a bearer header only, without cookies', async () => {
    const seen: { url: string; init: RequestInit | undefined }[] = [];
    const data = await readDashboardData({
      base: 'http://relay.test/dashboard/',
      pool: 'team',
      token: 'rly_token',
      window: '24h',
      fetch: (input, init) => {
        const url = input instanceof Request ? input.url : input.toString();
        seen.push({ url, init });
        return Promise.resolve(Response.json({ ok: url }));
      },
    });
    expect(seen).toHaveLength(5);
    for (const { url, init } of seen) {
      expect(url).not.toContain('rly_token');
      expect(init?.credentials).toBe('omit');
      expect(new Headers(init?.headers).get('authorization')).toBe('Bearer rly_token');
    }
    expect(data.health).toEqual({ ok: 'http://relay.test/v1/pools/team/health' });
  });

  it.each([
    [401, 'unauthorized'],
    [403, 'pool_forbidden'],
    [503, 'unavailable'],
  ] as const)('maps HTTP %i to %s', async (status, code) => {
    const read = readDashboardData({
      base: 'http://relay.test/dashboard/',
      pool: 'team',
      token: 't',
      window: '24h',
      fetch: () => Promise.resolve(new Response('{}', { status })),
    });
    await expect(read).rejects.toBeInstanceOf(RelayReadError);
    await expect(read).rejects.toMatchObject({ code });
  });
});
