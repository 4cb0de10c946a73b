import { REWRITE_DOCUMENT_MAX_BYTES, type StringRewritePutResult } from '@relay/protocol';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.js';
import { readJsonText } from '../http/json-body-reader.js';
import { isPolicyEnvelopeWithinLimit } from '../policy/policy-envelope-bound.js';
import { RelayHttpError } from '../relay-http-error.js';
import type { ServerServices } from '../server-services.js';
import { readRewritePolicy, toIso } from './policy-snapshot.js';

/** Paths of the string-rewrite surfaces; every response there carries `no-store`. */
export const STRING_REWRITE_PATHS = [
  '/v1/admin/string-rewrites',
  '/v1/pools/:pool/string-rewrites',
] as const;

/** Middleware: `Cache-Control: no-store` on every response, errors included. */
export const noStore: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  c.res.headers.set('cache-control', 'no-store');
};

/**
 * GET /v1/admin/string-rewrites (admin token; always the primary store), GET
 * /v1/pools/:pool/string-rewrites (a granted caller), and PUT /v1/admin/string-rewrites
 * (exactly schema_version, expected_revision and rules; validated by the rewrite engine; 409
 * on a stale revision, 400 for a malformed body or for rules whose GET envelope could exceed
 * 65,536 bytes at any revision, 503 when the stored policy is unusable; the answer holds
 * rule_count, not the rules). Authentication is mounted by the app.
 */
export function createStringRewriteRoute(services: ServerServices): Hono<AppEnv> {
  const route = new Hono<AppEnv>();
  const get = async (c: Context<AppEnv>) => c.json(await readRewritePolicy(services), 200);
  route.get('/v1/admin/string-rewrites', get);
  route.get('/v1/pools/:pool/string-rewrites', get);
  route.put('/v1/admin/string-rewrites', async (c) => {
    const text = await readJsonText(c, REWRITE_DOCUMENT_MAX_BYTES).catch((error: unknown) => {
      if (error instanceof RelayHttpError && error.code === 'invalid_request') {
        throw new RelayHttpError('invalid_string_rewrite_policy');
      }
      throw error;
    });
    const update = services.parsePolicyUpdate(text);
    if (!update.ok) throw new RelayHttpError('invalid_string_rewrite_policy');
    const updatedAt = toIso(services.now());
    // What is stored must keep every GET envelope within the document limit, at any revision.
    if (!isPolicyEnvelopeWithinLimit(update.value.rules, updatedAt)) {
      throw new RelayHttpError('invalid_string_rewrite_policy');
    }
    let replaced;
    try {
      replaced = await services.stringRewrites.replace(
        update.value.expectedRevision,
        update.value.rules,
        updatedAt,
      );
    } catch {
      throw new RelayHttpError('string_rewrite_policy_unavailable');
    }
    if (!replaced.ok) throw new RelayHttpError(replaced.error.code);
    const body: StringRewritePutResult = {
      schema_version: replaced.value.schema_version,
      revision: replaced.value.revision,
      updated_at: replaced.value.updated_at,
      rule_count: replaced.value.rules.length,
    };
    return c.json(body, 200);
  });
  return route;
}
