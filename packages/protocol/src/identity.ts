import { z } from 'zod';
import {
  forgeLoginSchema,
  poolIdSchema,
  repoNameSchema,
  secretRefSchema,
  utcTimestampSchema,
} from './common-schemas.js';
import { IDENTITY_KINDS } from './relay-envelope.js';
import { DEFAULT_IDENTITY_WEIGHT } from './limits.js';

/** An identity id: 1-128 characters of letters, digits, '.', '_', '-', ':' and '@'. */
export const identityIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$/, {
  error: 'identity id: 1-128 of [A-Za-z0-9._:@-]',
});

/** The suffix GitHub gives the login of an app's bot account (`acme-relay[bot]`). */
export const BOT_LOGIN_SUFFIX = '[bot]';

/**
 * The login of an identity: a forge login (1-39 letters, digits or single hyphens, not starting
 * or ending with a hyphen), optionally followed by {@link BOT_LOGIN_SUFFIX}, as GitHub names an
 * app's bot account (`acme-relay[bot]`). Only identity registration and records take the
 * suffix; caller logins, owners and path parameters stay plain forge logins.
 */
export const identityLoginSchema = z
  .string()
  .regex(/^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}(?:\[bot\])?$/, {
    error: 'not a forge login or app bot login',
  });

/**
 * A scope of an identity: an owner (lowercased) and an optional repository. Owner '*' marks a
 * PAT as broad enough for any public repository once the public guard passes; it takes no repo.
 */
export const identityScopeSchema = z
  .strictObject({
    owner: z.union([z.literal('*'), forgeLoginSchema]).transform((owner) => owner.toLowerCase()),
    repo: repoNameSchema.optional(),
    allow_private: z.boolean().default(false),
  })
  .refine((scope) => !(scope.owner === '*' && scope.repo !== undefined), {
    error: "the wildcard owner '*' takes no repo",
    path: ['repo'],
  });

/** A scope of an identity. */
export type IdentityScope = z.output<typeof identityScopeSchema>;

/**
 * The body of POST /v1/admin/pools/:pool/identities: the identity fields of SPEC.md. The pool
 * comes from the path. `installation_id` is required and positive for `forge_app`, and absent
 * (or null) for `pat`. `login` is {@link identityLoginSchema}; the `[bot]` suffix only on a
 * `forge_app`. `weight` defaults to 100.
 */
export const identityRegistrationSchema = z
  .strictObject({
    id: identityIdSchema,
    kind: z.enum(IDENTITY_KINDS),
    login: identityLoginSchema,
    secret_ref: secretRefSchema,
    installation_id: z.int().positive().max(Number.MAX_SAFE_INTEGER).nullable().optional(),
    scopes: z.array(identityScopeSchema).max(256).default([]),
    weight: z.int().min(0).max(1_000_000).default(DEFAULT_IDENTITY_WEIGHT),
  })
  .superRefine((identity, ctx) => {
    const hasInstallation =
      identity.installation_id !== undefined && identity.installation_id !== null;
    if (identity.kind === 'forge_app' && !hasInstallation) {
      ctx.addIssue({
        code: 'custom',
        message: 'forge_app needs a positive installation_id',
        path: ['installation_id'],
      });
    }
    if (identity.kind === 'pat' && hasInstallation) {
      ctx.addIssue({
        code: 'custom',
        message: 'installation_id applies to forge_app only',
        path: ['installation_id'],
      });
    }
    if (identity.kind === 'pat' && identity.login.endsWith(BOT_LOGIN_SUFFIX)) {
      ctx.addIssue({
        code: 'custom',
        message: 'a bot login belongs to a forge_app',
        path: ['login'],
      });
    }
    if (identity.kind === 'forge_app' && identity.scopes.some((s) => s.owner === '*')) {
      ctx.addIssue({
        code: 'custom',
        message: "the wildcard owner '*' applies to pat only",
        path: ['scopes'],
      });
    }
  })
  .transform(({ installation_id, ...rest }) => ({
    ...rest,
    installation_id: installation_id ?? null,
  }));

/** A validated identity registration. */
export type IdentityRegistration = z.output<typeof identityRegistrationSchema>;
/** What an admin may send to register an identity. */
export type IdentityRegistrationInput = z.input<typeof identityRegistrationSchema>;

/**
 * An identity as the admin API returns it: the registration plus its pool and timestamps. It
 * names its secret binding but never holds a secret value.
 */
export const identityRecordSchema = z.strictObject({
  id: identityIdSchema,
  pool: poolIdSchema,
  kind: z.enum(IDENTITY_KINDS),
  login: identityLoginSchema,
  secret_ref: secretRefSchema,
  installation_id: z.int().positive().nullable(),
  scopes: z.array(
    z.strictObject({ owner: z.string(), repo: z.string().optional(), allow_private: z.boolean() }),
  ),
  weight: z.int().min(0),
  created_at: utcTimestampSchema,
  updated_at: utcTimestampSchema,
});

/** An identity record. */
export type IdentityRecord = z.infer<typeof identityRecordSchema>;
