/**
 * Account fields that only the account's own token (or, for an organization, its members) sees:
 * plan, private repository and gist counts, disk usage, e-mail and notification settings, an
 * organization's billing address and member settings. No account profile the relay serves
 * (`user_view`, the GET /user rewrite) ever shows them.
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
  // An organization's settings, shown to its members and owners only.
  'billing_email',
  'two_factor_requirement_enabled',
  'default_repository_permission',
  'members_can_create_repositories',
  'members_allowed_repository_creation_type',
  'members_can_create_public_repositories',
  'members_can_create_private_repositories',
  'members_can_create_internal_repositories',
  'members_can_fork_private_repositories',
  'members_can_create_pages',
  'members_can_create_public_pages',
  'members_can_create_private_pages',
  'web_commit_signoff_required',
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
