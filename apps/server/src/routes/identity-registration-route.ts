import { identityRegistrationSchema, poolIdSchema } from '@relay/protocol';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { readJsonBody } from '../http/json-body-reader.js';
import { RelayHttpError } from '../relay-http-error.js';
import type { ServerServices } from '../server-services.js';
import { newPoolPolicyJson, toIso } from './policy-snapshot.js';

/**
 * POST /v1/admin/pools/:pool/identities (admin token): creates (201) or updates (200) an
 * identity; the pool is created implicitly. 409 `identity_conflict` when the id exists with
 * another pool or kind. Secret bindings are not resolved here. The body names the binding and
 * never holds a secret value.
 */
export function createIdentityRegistrationRoute(services: ServerServices): Hono<AppEnv> {
  const route = new Hono<AppEnv>();
  route.post('/v1/admin/pools/:pool/identities', async (c) => {
    const pool = poolIdSchema.safeParse(c.req.param('pool'));
    if (!pool.success) throw new RelayHttpError('invalid_request');
    const parsed = identityRegistrationSchema.safeParse(await readJsonBody(c));
    if (!parsed.success) throw new RelayHttpError('invalid_request');
    const result = await services.identities.upsert(
      pool.data,
      parsed.data,
      toIso(services.now()),
      newPoolPolicyJson(services),
    );
    if (!result.ok) throw new RelayHttpError('identity_conflict');
    return c.json(result.value.identity, result.value.created ? 201 : 200);
  });
  return route;
}
