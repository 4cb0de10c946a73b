import type { ForgeResponse } from '@relay/forge-transport';

/** A forge answer for unit tests: JSON body, no rate-limit data unless given. */
export function forgeResponse(
  status: number,
  body: unknown,
  rateLimit: ForgeResponse['rateLimit'] = {},
): ForgeResponse {
  return {
    status,
    headers: { 'content-type': 'application/json' },
    rateLimit,
    body: { encoding: 'json', body: body as never },
    upstreamBytes: 0,
    servedBy: 'api',
    redirects: 0,
  };
}
