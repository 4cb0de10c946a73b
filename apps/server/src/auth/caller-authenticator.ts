import { callerTokenSchema } from '@relay/protocol';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.js';
import { RelayHttpError } from '../relay-http-error.js';
import type { CallerStore } from '../storage/caller-store.js';
import { digestsEqual, hashToken } from './caller-token.js';

/** Options of {@link createCallerAuthenticator}. */
export interface CallerAuthenticatorOptions {
  readonly callers: CallerStore;
  /** The clock, epoch milliseconds. */
  readonly now: () => number;
  /** A client's last use is written at most this often. Default 60 s. */
  readonly touchIntervalMs?: number;
}

/**
 * Reads a bearer token from an Authorization header value.
 *
 * @returns the token, or undefined when the header is absent or not `Bearer <token>`
 */
export function readBearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(header);
  return match?.[1];
}

/**
 * Middleware of the caller surfaces (`/v1/pools/:pool/*`): authenticates the caller bearer
 * token (hash lookup, constant-time comparison, expiry, disabled callers refused) and checks
 * the grant on `:pool`. Sets the `caller` variable.
 *
 * @throws RelayHttpError `unauthorized` (401) or `pool_forbidden` (403)
 */
export function createCallerAuthenticator(
  options: CallerAuthenticatorOptions,
): MiddlewareHandler<AppEnv> {
  const touchIntervalMs = options.touchIntervalMs ?? 60_000;
  return async (c, next) => {
    const token = readBearerToken(c.req.header('authorization'));
    if (token === undefined || !callerTokenSchema.safeParse(token).success) {
      throw new RelayHttpError('unauthorized');
    }
    const digest = hashToken(token);
    const owner = await options.callers.findTokenOwner(digest);
    const now = options.now();
    if (
      owner === undefined ||
      !digestsEqual(owner.tokenSha256, digest) ||
      Date.parse(owner.expiresAtIso) <= now ||
      owner.disabled
    ) {
      throw new RelayHttpError('unauthorized');
    }
    const pool = c.req.param('pool');
    if (pool === undefined || !(await options.callers.hasGrant(owner.callerId, pool))) {
      throw new RelayHttpError('pool_forbidden');
    }
    if (owner.lastUsedAtIso === null || now - Date.parse(owner.lastUsedAtIso) >= touchIntervalMs) {
      await options.callers.touchClient(owner.clientId, new Date(now).toISOString());
    }
    c.set('caller', {
      callerId: owner.callerId,
      clientId: owner.clientId,
      clientName: owner.clientName,
      login: owner.login,
    });
    await next();
  };
}
