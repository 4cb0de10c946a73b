import { getRelayEnvelopeSchema } from '@relay/protocol';
import type { RelayEnvelope, RelayRequestInput } from '@relay/protocol';
import { readSavedLogin, resolveConfigDir } from './auth-store.js';
import type { SavedLogin } from './auth-store.js';
import { resolveCallerAuth } from './caller-auth.js';
import type { CallerAuth, CallerAuthOptions } from './caller-auth.js';
import type { CliDependencies } from './cli-dependencies.js';
import { CliError } from './cli-error.js';
import { joinUrl, sendRelayRequest } from './relay-http.js';
import type { RelayReply } from './relay-http.js';

/** The saved login (or undefined) and the auth snapshot built from it. */
export interface CallerSession {
  readonly saved: SavedLogin | undefined;
  readonly auth: CallerAuth;
}

/**
 * Loads `auth.json` once and resolves one auth snapshot from it (client rule 2): every
 * request of a command uses this same URL and token.
 *
 * @throws CliError `invalid_config`, `not_logged_in`, `usage_error`
 */
export async function loadCallerSession(
  deps: CliDependencies,
  options: CallerAuthOptions = {},
): Promise<CallerSession> {
  const saved = await readSavedLogin(resolveConfigDir(deps.env, deps.homeDir));
  if (!saved.ok) {
    throw new CliError('invalid_config', {
      message: `The saved login is ${saved.error.cause}; run \`relay login\` again.`,
    });
  }
  const auth = resolveCallerAuth(deps.env, saved.value, options);
  if (!auth.ok) throw auth.error;
  return { saved: saved.value, auth: auth.value };
}

/**
 * POST /v1/forge/request with the session's token, for `relay native`: every request first
 * passes the outbound string guard (SPEC.md client rule 15) — a fresh policy from the pool's
 * string-rewrites endpoint, merged with the local rules file, and the request's path, query and
 * header values checked against it — so each relay request costs one more GET.
 *
 * @throws CliError `string_rewrite_policy_failure`, `string_rewrite_blocked` (nothing is sent)
 */
export async function postForgeRequest(
  deps: CliDependencies,
  auth: CallerAuth,
  request: RelayRequestInput,
): Promise<RelayReply> {
  const { guardRelayRequest } = await import('./native/delegate/outbound-guard.js');
  await guardRelayRequest(deps, auth, request);
  return postUnguardedForgeRequest(deps, auth, request);
}

/**
 * POST /v1/forge/request with the session's token and no client-side policy fetch: only for
 * `relay request`, the debug wrapper that prints the relay's own answer (the relay checks every
 * request against the policy itself).
 */
export function postUnguardedForgeRequest(
  deps: CliDependencies,
  auth: CallerAuth,
  request: RelayRequestInput,
): Promise<RelayReply> {
  return sendRelayRequest(deps.fetch, {
    method: 'POST',
    url: joinUrl(auth.url, '/v1/forge/request'),
    token: auth.token,
    body: request,
    redirects: 'same-origin',
  });
}

/** GET a caller endpoint of the pool (`/health`, `/stats?…`). */
export function getPoolResource(
  deps: CliDependencies,
  auth: CallerAuth,
  resource: string,
): Promise<RelayReply> {
  return sendRelayRequest(deps.fetch, {
    method: 'GET',
    url: joinUrl(auth.url, `/v1/pools/${encodeURIComponent(auth.pool)}/${resource}`),
    token: auth.token,
    redirects: 'same-origin',
  });
}

/**
 * Validates a served envelope.
 *
 * @throws CliError `relay_protocol_error` when the body is not an envelope
 */
export function parseEnvelope(json: unknown): RelayEnvelope {
  // jitless: a process parses a handful of envelopes, fewer than zod's generated parser repays.
  const parsed = getRelayEnvelopeSchema().safeParse(json, { jitless: true });
  if (!parsed.success) {
    throw new CliError('relay_protocol_error', {
      message: 'The relay server answered with something that is not a relay envelope.',
    });
  }
  return parsed.data;
}
