import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.js';
import { RelayHttpError } from '../relay-http-error.js';
import { readBearerToken } from './caller-authenticator.js';
import { digestsEqual, hashToken } from './caller-token.js';

/**
 * Middleware of `/v1/admin/*`: the bearer token must be the admin token (compared in constant
 * time through its SHA-256). With no admin token configured every admin request is refused.
 *
 * @param adminToken - RELAY_ADMIN_TOKEN, or undefined
 * @throws RelayHttpError `unauthorized` (401)
 */
export function createAdminAuthenticator(
  adminToken: string | undefined,
): MiddlewareHandler<AppEnv> {
  const expected = adminToken === undefined ? undefined : hashToken(adminToken);
  return async (c, next) => {
    const token = readBearerToken(c.req.header('authorization'));
    if (
      expected === undefined ||
      token === undefined ||
      !digestsEqual(hashToken(token), expected)
    ) {
      throw new RelayHttpError('unauthorized');
    }
    await next();
  };
}
