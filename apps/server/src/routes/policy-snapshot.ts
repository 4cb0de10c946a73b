import type { RewriteCheck } from '@relay/forge-transport';
import { RelayHttpError } from '../relay-http-error.js';
import type { ServerServices } from '../server-services.js';
import type { ForgeAccountError } from '../forge/forge-account-client.js';
import { createDefaultPoolPolicy, type StringRewritePolicy } from '@relay/protocol';

/**
 * Reads the stored string-rewrite policy from the primary store.
 *
 * @throws RelayHttpError `string_rewrite_policy_unavailable` when it is missing, corrupt or
 *   unreadable
 */
export async function readRewritePolicy(services: ServerServices): Promise<StringRewritePolicy> {
  let policy;
  try {
    policy = await services.stringRewrites.read();
  } catch {
    throw new RelayHttpError('string_rewrite_policy_unavailable');
  }
  if (!policy.ok) throw new RelayHttpError('string_rewrite_policy_unavailable');
  return policy.value;
}

/**
 * Loads one frozen string-rewrite snapshot for the forge calls of a request.
 *
 * @throws RelayHttpError `string_rewrite_policy_unavailable` when the policy is missing,
 *   corrupt or unreadable
 */
export async function loadRewriteCheck(services: ServerServices): Promise<RewriteCheck> {
  const policy = await readRewritePolicy(services);
  const check = services.createRewriteCheck(policy.rules);
  if (check === undefined) throw new RelayHttpError('string_rewrite_policy_unavailable');
  return check;
}

/** Maps a forge account failure to the relay error it answers with. */
export function toForgeAccountHttpError(error: ForgeAccountError): RelayHttpError {
  return new RelayHttpError(error.code);
}

/** The policy text of a pool created now: the deployment defaults, materialized. */
export function newPoolPolicyJson(services: ServerServices): string {
  return JSON.stringify(
    createDefaultPoolPolicy({ allowedOwners: services.settings.defaultAllowedOwners }),
  );
}

/** The ISO time `ms` milliseconds since the epoch. */
export function toIso(ms: number): string {
  return new Date(ms).toISOString();
}
