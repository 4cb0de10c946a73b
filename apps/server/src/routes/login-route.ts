import { loginRequestSchema, type LoginResponse } from '@relay/protocol';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { createCallerToken, hashToken } from '../auth/caller-token.js';
import { readJsonBody } from '../http/json-body-reader.js';
import { RelayHttpError } from '../relay-http-error.js';
import type { ServerServices } from '../server-services.js';
import {
  loadRewriteCheck,
  newPoolPolicyJson,
  toForgeAccountHttpError,
  toIso,
} from './policy-snapshot.js';

/**
 * POST /v1/login/forge-cli: exchanges a forge token for a caller token. The forge token is
 * verified with GET /user, membership with GET /user/memberships/orgs/{ALLOWED_FORGE_ORG}
 * (state `active`); the caller is bound by immutable id, enrolled into DEFAULT_LOGIN_POOL, and
 * only the named client's token is rotated. The forge token is never stored or logged.
 */
export function createLoginRoute(services: ServerServices): Hono<AppEnv> {
  const route = new Hono<AppEnv>();
  route.post('/v1/login/forge-cli', async (c) => {
    const parsed = loginRequestSchema.safeParse(await readJsonBody(c));
    if (!parsed.success) throw new RelayHttpError('invalid_request');
    const request = parsed.data;
    const org = services.settings.allowedForgeOrg;
    if (org === undefined) throw new RelayHttpError('org_membership_required');

    const rewriteCheck = await loadRewriteCheck(services);
    const account = await services.forgeAccounts.getAuthenticatedUser(
      request.forge_token,
      rewriteCheck,
    );
    if (!account.ok) throw toForgeAccountHttpError(account.error);
    const membership = await services.forgeAccounts.getOwnMembership(
      request.forge_token,
      org,
      rewriteCheck,
    );
    if (!membership.ok) throw toForgeAccountHttpError(membership.error);
    if (membership.value !== 'active') throw new RelayHttpError('org_membership_required');

    const now = services.now();
    const token = createCallerToken(services.randomBytes);
    const expiresAt = toIso(now + services.settings.membershipTtlS * 1000);
    const pool = request.pool ?? services.settings.defaultLoginPool;
    const enrolled = await services.callers.enroll({
      forgeUserId: account.value.id,
      login: account.value.login,
      grantPool: services.settings.defaultLoginPool,
      newPoolPolicyJson: newPoolPolicyJson(services),
      requirePool: pool,
      clientName: request.client,
      tokenSha256: hashToken(token),
      nowIso: toIso(now),
      expiresAtIso: expiresAt,
      verifiedAtIso: toIso(now),
    });
    if (!enrolled.ok) throw new RelayHttpError(enrolled.error.code);
    const body: LoginResponse = {
      token,
      login: account.value.login,
      forge_user_id: account.value.id,
      pool,
      client: enrolled.value.clientName,
      expires_at: expiresAt,
    };
    return c.json(body, 200);
  });
  return route;
}
