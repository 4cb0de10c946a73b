import { z } from 'zod';
import { forgeLoginSchema, poolIdSchema, utcTimestampSchema } from './common-schemas.js';
import { CLIENT_NAME_MAX_LENGTH, CLIENT_NAME_MIN_LENGTH } from './limits.js';
import { err, ok, type Result } from './result.js';

const LOCAL_SUFFIX = /\.local$/i;

/**
 * Normalizes a client name: trailing `.local` suffixes are removed case-insensitively and
 * repeatedly, case is preserved. The result must be 1-80 characters of printable text.
 */
export function normalizeClientName(
  raw: string,
): Result<
  string,
  { code: 'invalid_client_name'; cause: 'empty' | 'too_long' | 'control_character' }
> {
  let name = raw.trim();
  while (LOCAL_SUFFIX.test(name)) name = name.replace(LOCAL_SUFFIX, '');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name))
    return err({ code: 'invalid_client_name', cause: 'control_character' });
  const length = Array.from(name).length;
  if (length < CLIENT_NAME_MIN_LENGTH) return err({ code: 'invalid_client_name', cause: 'empty' });
  if (length > CLIENT_NAME_MAX_LENGTH)
    return err({ code: 'invalid_client_name', cause: 'too_long' });
  return ok(name);
}

/**
 * The default client name of a host: its hostname normalized, then truncated to 80 characters
 * (explicit names are never truncated). Falls back to `client` for an unusable hostname.
 */
export function defaultClientName(hostname: string): string {
  let name = hostname.trim();
  while (LOCAL_SUFFIX.test(name)) name = name.replace(LOCAL_SUFFIX, '');
  // eslint-disable-next-line no-control-regex
  name = Array.from(name.replace(/[\u0000-\u001f\u007f]/g, ''))
    .slice(0, CLIENT_NAME_MAX_LENGTH)
    .join('');
  return name.length > 0 ? name : 'client';
}

/** A client name, normalized (see {@link normalizeClientName}). */
export const clientNameSchema = z.string().transform((raw, ctx) => {
  const result = normalizeClientName(raw);
  if (!result.ok) {
    ctx.addIssue({ code: 'custom', message: `client name: ${result.error.cause}` });
    return z.NEVER;
  }
  return result.value;
});

/** A caller token: `rly_` and 32 random bytes in base64url (DESIGN.md §3). */
export const callerTokenSchema = z
  .string()
  .regex(/^rly_[A-Za-z0-9_-]{43}$/, { error: 'not a caller token' });

/** The body of POST /v1/login/forge-cli. */
export const loginRequestSchema = z.strictObject({
  forge_token: z.string().min(1).max(4096),
  client: clientNameSchema,
  pool: poolIdSchema.optional(),
});

/** A login request. */
export type LoginRequest = z.output<typeof loginRequestSchema>;

/** The response of POST /v1/login/forge-cli. */
export const loginResponseSchema = z.strictObject({
  token: callerTokenSchema,
  login: forgeLoginSchema,
  forge_user_id: z.int().positive(),
  pool: poolIdSchema,
  client: z.string().min(1),
  expires_at: utcTimestampSchema,
});

/** A login response. */
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** The body of POST /v1/admin/callers. */
export const callerProvisioningRequestSchema = z.strictObject({
  pool: poolIdSchema,
  forge_login: forgeLoginSchema,
  name: clientNameSchema,
});

/** A caller provisioning request. */
export type CallerProvisioningRequest = z.output<typeof callerProvisioningRequestSchema>;

/** The response of POST /v1/admin/callers: the one-time caller token and who it belongs to. */
export const callerProvisioningResponseSchema = z.strictObject({
  token: callerTokenSchema,
  caller_id: z.string().min(1),
  forge_user_id: z.int().positive(),
  login: forgeLoginSchema,
  pool: poolIdSchema,
  client: z.string().min(1),
  expires_at: utcTimestampSchema,
});

/** A caller provisioning response. */
export type CallerProvisioningResponse = z.infer<typeof callerProvisioningResponseSchema>;
