/**
 * Account fields that only the account's own token sees (plan, private repository and gist
 * counts, disk usage, e-mail and notification settings). The GET /user rewrite never shows them.
 */
export const PRIVATE_PROFILE_FIELDS = [
  'plan',
  'total_private_repos',
  'owned_private_repos',
  'private_gists',
  'disk_usage',
  'collaborators',
  'two_factor_authentication',
  'notification_email',
  'email_visibility',
  'business_plus',
  'ldap_dn',
] as const;

/**
 * Removes {@link PRIVATE_PROFILE_FIELDS} from a user profile body; other bodies are returned
 * unchanged.
 *
 * @param body - a JSON body
 */
export function toPublicProfile(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const profile: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const field of PRIVATE_PROFILE_FIELDS) Reflect.deleteProperty(profile, field);
  return profile;
}
