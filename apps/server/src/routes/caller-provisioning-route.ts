import { callerProvisioningRequestSchema, type CallerProvisioningResponse } from '@relay/protocol';
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
 * POST /v1/admin/callers (admin token): resolves the account's immutable id with GET
 * /users/{forge_login}, proves that account's membership of ALLOWED_FORGE_ORG (GET
 * /orgs/{org}/members/{login} sent by an identity of the target pool, else the anonymous
 * public-members check), then enrolls atomically: only the requested grant is added, the named
 * client is rotated under the 16-client cap, roles are never promoted, a disabled caller stays
 * disabled. Answers 201 with a one-time caller token.
 */
export function createCallerProvisioningRoute(services: ServerServices): Hono<AppEnv> {
  const route = new Hono<AppEnv>();
  route.post('/v1/admin/callers', async (c) => {
    const parsed = callerProvisioningRequestSchema.safeParse(await readJsonBody(c));
    if (!parsed.success) throw new RelayHttpError('invalid_request');
    const request = parsed.data;

    const rewriteCheck = await loadRewriteCheck(services);
    const authorization = await services.resolvePoolAuthorization?.(request.pool);
    const account = await services.forgeAccounts.getUser(
      request.forge_login,
      rewriteCheck,
      authorization,
    );
    if (!account.ok) throw toForgeAccountHttpError(account.error);
    if (account.value === undefined) throw new RelayHttpError('not_found');

    const org = services.settings.allowedForgeOrg;
    let verifiedAtIso: string | undefined;
    if (org !== undefined) {
      let member = false;
      if (authorization !== undefined) {
        const checked = await services.forgeAccounts.isOrgMember(
          org,
          account.value.login,
          rewriteCheck,
          authorization,
        );
        if (!checked.ok) throw toForgeAccountHttpError(checked.error);
        member = checked.value;
      }
      if (!member) {
        const checked = await services.forgeAccounts.isOrgMember(
          org,
          account.value.login,
          rewriteCheck,
        );
        if (!checked.ok) throw toForgeAccountHttpError(checked.error);
        member = checked.value;
      }
      if (!member) throw new RelayHttpError('org_membership_required');
      verifiedAtIso = toIso(services.now());
    }

    const now = services.now();
    const token = createCallerToken(services.randomBytes);
    const expiresAt = toIso(now + services.settings.membershipTtlS * 1000);
    const enrolled = await services.callers.enroll({
      forgeUserId: account.value.id,
      login: account.value.login,
      grantPool: request.pool,
      newPoolPolicyJson: newPoolPolicyJson(services),
      clientName: request.name,
      tokenSha256: hashToken(token),
      nowIso: toIso(now),
      expiresAtIso: expiresAt,
      ...(verifiedAtIso === undefined ? {} : { verifiedAtIso }),
    });
    if (!enrolled.ok) throw new RelayHttpError(enrolled.error.code);
    const body: CallerProvisioningResponse = {
      token,
      caller_id: enrolled.value.callerId,
      forge_user_id: account.value.id,
      login: account.value.login,
      pool: request.pool,
      client: enrolled.value.clientName,
      expires_at: expiresAt,
    };
    return c.json(body, 201);
  });
  return route;
}
