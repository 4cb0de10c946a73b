import {
  REWRITE_DOCUMENT_MAX_BYTES,
  type StringRewritePolicy,
  type StringRewritePutResult,
  type StringRewriteRule,
} from '@relay/protocol';
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
 * /v1/pools/:pool/string-rewrites (a granted caller) — 503 when the stored policy is missing,
 * corrupt, or holds rules a PUT would refuse — and PUT /v1/admin/string-rewrites
 * (exactly schema_version, expected_revision and rules; validated by the rewrite engine; 409
 * on a stale revision, 400 for a malformed body or for rules whose GET envelope could exceed
 * 65,536 bytes at any revision, 503 when the stored policy is unusable; the answer holds
 * rule_count, not the rules). Authentication is mounted by the app.
 */
export function createStringRewriteRoute(services: ServerServices): Hono<AppEnv> {
  const route = new Hono<AppEnv>();
  // Verdicts per stored rule list (the store hands out one frozen list per unchanged row).
  const servable = new WeakMap<readonly StringRewriteRule[], boolean>();
  /**
   * Whether a stored policy may be served: its rules are what a PUT would accept (the rule
   * language, the limits, unique patterns, well-formed Unicode) and its GET envelope is within
   * 65,536 bytes. A row edited outside the API can hold anything the schema admits; such a
   * policy blocks the relay (its rules do not compile) and is not handed to clients either.
   */
  const isServable = (policy: StringRewritePolicy): boolean => {
    let verdict = servable.get(policy.rules);
    if (verdict === undefined) {
      const body = { schema_version: 1, expected_revision: 0, rules: policy.rules };
      verdict = services.parsePolicyUpdate(JSON.stringify(body)).ok;
      servable.set(policy.rules, verdict);
    }
    return (
      verdict && Buffer.byteLength(JSON.stringify(policy), 'utf8') <= REWRITE_DOCUMENT_MAX_BYTES
    );
  };
  const get = async (c: Context<AppEnv>) => {
    const policy = await readRewritePolicy(services);
    if (!isServable(policy)) throw new RelayHttpError('string_rewrite_policy_unavailable');
    return c.json(policy, 200);
  };
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
