import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { getForgeLoginSchema, getPoolIdSchema, getUtcTimestampSchema } from './common-schemas.js';
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
 *
 * The result is a fixed point of {@link normalizeClientName} — the name the relay stores is the
 * name the client sent: control characters are removed first, and trimming, `.local` removal
 * and truncation repeat until nothing changes (a cut can leave `.local` or a space at the end).
 */
export function defaultClientName(hostname: string): string {
  // eslint-disable-next-line no-control-regex
  let name = hostname.replace(/[\u0000-\u001f\u007f]/g, '');
  for (let previous: string | undefined; previous !== name;) {
    previous = name;
    name = name.trim();
    while (LOCAL_SUFFIX.test(name)) name = name.replace(LOCAL_SUFFIX, '');
    name = Array.from(name).slice(0, CLIENT_NAME_MAX_LENGTH).join('');
  }
  return name.length > 0 ? name : 'client';
}

/** Returns {@link clientNameSchema}, built on the first call (the same instance after). */
export const getClientNameSchema = /* @__PURE__ */ lazySchema(() =>
  z.string().transform((raw, ctx) => {
    const result = normalizeClientName(raw);
    if (!result.ok) {
      ctx.addIssue({ code: 'custom', message: `client name: ${result.error.cause}` });
      return z.NEVER;
    }
    return result.value;
  }),
);

/**
 * A client name, normalized (see {@link normalizeClientName}).
 * Built at import; a bundle that reads only {@link getClientNameSchema} builds it on first use.
 */
export const clientNameSchema = /* @__PURE__ */ getClientNameSchema();

/** Returns {@link callerTokenSchema}, built on the first call (the same instance after). */
export const getCallerTokenSchema = /* @__PURE__ */ lazySchema(() =>
  z.string().regex(/^rly_[A-Za-z0-9_-]{43}$/, { error: 'not a caller token' }),
);

/**
 * A caller token: `rly_` and 32 random bytes in base64url (DESIGN.md §3).
 * Built at import; a bundle that reads only {@link getCallerTokenSchema} builds it on first use.
 */
export const callerTokenSchema = /* @__PURE__ */ getCallerTokenSchema();

/**
 * A forge token as the login sends it in an Authorization header: visible ASCII without spaces
 * (GitHub's tokens are letters, digits and underscores). A value with a control character, a
 * space or a non-ASCII character cannot be one, and cannot even be written into a header.
 */
const FORGE_TOKEN_PATTERN = /^[\x21-\x7e]+$/;

/** Returns {@link loginRequestSchema}, built on the first call (the same instance after). */
export const getLoginRequestSchema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({
    forge_token: z
      .string()
      .min(1)
      .max(4096)
      .regex(FORGE_TOKEN_PATTERN, { error: 'not a forge token' }),
    client: getClientNameSchema(),
    pool: getPoolIdSchema().optional(),
  }),
);

/**
 * The body of POST /v1/login/forge-cli.
 * Built at import; a bundle that reads only {@link getLoginRequestSchema} builds it on first use.
 */
export const loginRequestSchema = /* @__PURE__ */ getLoginRequestSchema();

/** A login request. */
export type LoginRequest = z.output<typeof loginRequestSchema>;

/** Returns {@link loginResponseSchema}, built on the first call (the same instance after). */
export const getLoginResponseSchema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({
    token: getCallerTokenSchema(),
    login: getForgeLoginSchema(),
    forge_user_id: z.int().positive(),
    pool: getPoolIdSchema(),
    client: z.string().min(1),
    expires_at: getUtcTimestampSchema(),
  }),
);

/**
 * The response of POST /v1/login/forge-cli.
 * Built at import; a bundle that reads only {@link getLoginResponseSchema} builds it on first use.
 */
export const loginResponseSchema = /* @__PURE__ */ getLoginResponseSchema();

/** A login response. */
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** Returns {@link callerProvisioningRequestSchema}, built on the first call (the same instance after). */
export const getCallerProvisioningRequestSchema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({
    pool: getPoolIdSchema(),
    forge_login: getForgeLoginSchema(),
    name: getClientNameSchema(),
  }),
);

/**
 * The body of POST /v1/admin/callers.
 * Built at import; a bundle that reads only {@link getCallerProvisioningRequestSchema} builds it on first use.
 */
export const callerProvisioningRequestSchema = /* @__PURE__ */ getCallerProvisioningRequestSchema();

/** A caller provisioning request. */
export type CallerProvisioningRequest = z.output<typeof callerProvisioningRequestSchema>;

/** Returns {@link callerProvisioningResponseSchema}, built on the first call (the same instance after). */
export const getCallerProvisioningResponseSchema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({
    token: getCallerTokenSchema(),
    caller_id: z.string().min(1),
    forge_user_id: z.int().positive(),
    login: getForgeLoginSchema(),
    pool: getPoolIdSchema(),
    client: z.string().min(1),
    expires_at: getUtcTimestampSchema(),
  }),
);

/**
 * The response of POST /v1/admin/callers: the one-time caller token and who it belongs to.
 * Built at import; a bundle that reads only {@link getCallerProvisioningResponseSchema} builds it on first use.
 */
export const callerProvisioningResponseSchema =
  /* @__PURE__ */ getCallerProvisioningResponseSchema();

/** A caller provisioning response. */
export type CallerProvisioningResponse = z.infer<typeof callerProvisioningResponseSchema>;
