import { callerProvisioningRequestSchema, type CallerProvisioningResponse } from '@relay/protocol';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { createCallerToken, hashToken } from '../auth/caller-token.js';
import type { ForgeAccount, ObservedForgeCall } from '../forge/forge-account-client.js';
import { toOrgMemberRoute, toUserViewRoute } from '../forge/pool-identity-lanes.js';
import { readWithPoolIdentity, type PoolIdentityLane } from '../forge/pooled-identity-read.js';
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
 * Runs a provisioning read with an identity of the target pool, selected, failed over and
 * cooled down as relay requests are ({@link readWithPoolIdentity}); anonymously when the pool
 * has no lane or no identity could serve.
 */
async function readPooledElseAnonymous<T>(
  lane: PoolIdentityLane | undefined,
  route: Parameters<typeof readWithPoolIdentity>[1],
  send: (authorization?: string) => Promise<ObservedForgeCall<T>>,
): Promise<ObservedForgeCall<T>['result']> {
  if (lane !== undefined) {
    const pooled = await readWithPoolIdentity(lane, route, send);
    if (pooled.kind === 'served') return pooled.result;
  }
  return (await send()).result;
}

/**
 * POST /v1/admin/callers (admin token): resolves the account's immutable id with GET
 * /users/{forge_login}, proves that account's membership of ALLOWED_FORGE_ORG (GET
 * /orgs/{org}/members/{login} sent by an identity of the target pool, else the anonymous
 * public-members check), then enrolls atomically: only the requested grant is added, the named
 * client is rotated under the 16-client cap, roles are never promoted, a disabled caller stays
 * disabled. Answers 201 with a one-time caller token. The pool's identities are used as relay
 * requests use them: selection, then on a 401 or an unusable credential the next identity, the
 * failed one cooling down; with none left, the reads are anonymous.
 *
 * Every read takes a permit of the upstream governor first (README "Staying under GitHub's
 * limits"): a pooled read under its identity's key, an anonymous one under `anonymous:api`. A
 * pooled read the governor refused is sent anonymously instead; a refused anonymous read, or a
 * membership the anonymous check cannot prove after a refused pooled check, answers 503
 * `relay_overloaded`.
 */
export function createCallerProvisioningRoute(services: ServerServices): Hono<AppEnv> {
  const route = new Hono<AppEnv>();
  route.post('/v1/admin/callers', async (c) => {
    const parsed = callerProvisioningRequestSchema.safeParse(await readJsonBody(c));
    if (!parsed.success) throw new RelayHttpError('invalid_request');
    const request = parsed.data;

    const rewriteCheck = await loadRewriteCheck(services);
    const lane = await services.poolIdentityLane?.(request.pool);
    const found = await readPooledElseAnonymous<ForgeAccount | undefined>(
      lane,
      toUserViewRoute(request.forge_login),
      (authorization) =>
        services.forgeAccounts.getUser(request.forge_login, rewriteCheck, authorization),
    );
    if (!found.ok) throw toForgeAccountHttpError(found.error);
    const account = found.value;
    if (account === undefined) throw new RelayHttpError('not_found');

    const org = services.settings.allowedForgeOrg;
    let verifiedAtIso: string | undefined;
    if (org !== undefined) {
      let member = false;
      // The governor refused the pooled check: the public-members check below can prove
      // membership, but its "no" proves nothing (the member may be private).
      let pooledRefused = false;
      if (lane !== undefined) {
        const pooled = await readWithPoolIdentity(
          lane,
          toOrgMemberRoute(org, account.login),
          (authorization) =>
            services.forgeAccounts.isOrgMember(org, account.login, rewriteCheck, authorization),
        );
        if (pooled.kind === 'served') {
          if (!pooled.result.ok) throw toForgeAccountHttpError(pooled.result.error);
          member = pooled.result.value;
        } else {
          pooledRefused = pooled.cause === 'relay_overloaded';
        }
      }
      if (!member) {
        const checked = (await services.forgeAccounts.isOrgMember(org, account.login, rewriteCheck))
          .result;
        if (!checked.ok) throw toForgeAccountHttpError(checked.error);
        member = checked.value;
      }
      if (!member && pooledRefused) throw new RelayHttpError('relay_overloaded');
      if (!member) throw new RelayHttpError('org_membership_required');
      verifiedAtIso = toIso(services.now());
    }

    const now = services.now();
    const token = createCallerToken(services.randomBytes);
    const expiresAt = toIso(now + services.settings.membershipTtlS * 1000);
    const enrolled = await services.callers.enroll({
      forgeUserId: account.id,
      login: account.login,
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
      forge_user_id: account.id,
      login: account.login,
      pool: request.pool,
      client: enrolled.value.clientName,
      expires_at: expiresAt,
    };
    return c.json(body, 201);
  });
  return route;
}
