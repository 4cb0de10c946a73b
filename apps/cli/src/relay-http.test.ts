import { describe, expect, it } from 'vitest';
import { formatCliError } from './cli-error.js';
import { sendRelayRequest, toReplyError } from './relay-http.js';
import type { RelayHttpRequest } from './relay-http.js';

const refused: typeof fetch = () => Promise.reject(new TypeError('fetch failed'));

describe('an unreachable relay', () => {
  it.each<[string, RelayHttpRequest, string]>([
    [
      'a caller request',
      {
        method: 'POST',
        url: 'http://127.0.0.1:9/v1/forge/request',
        token: 'rly_secret-token',
        body: {},
        redirects: 'same-origin',
      },
      'http://127.0.0.1:9/v1/forge/request',
    ],
    [
      'stats with a query and user info in the URL',
      {
        method: 'GET',
        url: 'http://someone:hunter2@127.0.0.1:9/base/v1/pools/team/stats?client=nobody#x',
        token: 'rly_secret-token',
        redirects: 'same-origin',
      },
      'http://127.0.0.1:9/base/v1/pools/team/stats',
    ],
  ])('%s: relay_unreachable names the URL tried, never a token', async (_name, request, url) => {
    const reply = await sendRelayRequest(refused, request);
    expect(reply).toEqual({ kind: 'unreachable', url });
    if (reply.kind !== 'unreachable') return;
    const error = toReplyError(reply);
    const line = formatCliError(error);
    expect(error.code).toBe('relay_unreachable');
    expect(line).toContain(url);
    for (const secret of ['rly_secret-token', 'hunter2', 'someone', 'client=nobody']) {
      expect(line).not.toContain(secret);
    }
  });
});
