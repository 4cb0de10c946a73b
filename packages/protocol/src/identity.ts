import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import {
  getForgeLoginSchema,
  getPoolIdSchema,
  getRepoNameSchema,
  getSecretRefSchema,
  getUtcTimestampSchema,
} from './common-schemas.js';
import { IDENTITY_KINDS } from './relay-envelope.js';
import { DEFAULT_IDENTITY_WEIGHT } from './limits.js';

/** Returns {@link identityIdSchema}, built on the first call (the same instance after). */
export const getIdentityIdSchema = /* @__PURE__ */ lazySchema(() =>
  z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$/, {
    error: 'identity id: 1-128 of [A-Za-z0-9._:@-]',
  }),
);

/**
 * An identity id: 1-128 characters of letters, digits, '.', '_', '-', ':' and '@'.
 * Built at import; a bundle that reads only {@link getIdentityIdSchema} builds it on first use.
 */
export const identityIdSchema = /* @__PURE__ */ getIdentityIdSchema();

/** The suffix GitHub gives the login of an app's bot account (`acme-relay[bot]`). */
export const BOT_LOGIN_SUFFIX = '[bot]';

/** Returns {@link identityLoginSchema}, built on the first call (the same instance after). */
export const getIdentityLoginSchema = /* @__PURE__ */ lazySchema(() =>
  z.string().regex(/^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}(?:\[bot\])?$/, {
    error: 'not a forge login or app bot login',
  }),
);

/**
 * The login of an identity: a forge login (1-39 letters, digits or single hyphens, not starting
 * or ending with a hyphen), optionally followed by {@link BOT_LOGIN_SUFFIX}, as GitHub names an
 * app's bot account (`acme-relay[bot]`). Only identity registration and records take the
 * suffix; caller logins, owners and path parameters stay plain forge logins.
 * Built at import; a bundle that reads only {@link getIdentityLoginSchema} builds it on first use.
 */
export const identityLoginSchema = /* @__PURE__ */ getIdentityLoginSchema();

/** Returns {@link identityScopeSchema}, built on the first call (the same instance after). */
export const getIdentityScopeSchema = /* @__PURE__ */ lazySchema(() =>
  z
    .strictObject({
      owner: z
        .union([z.literal('*'), getForgeLoginSchema()])
        .transform((owner) => owner.toLowerCase()),
      repo: getRepoNameSchema().optional(),
      allow_private: z.boolean().default(false),
    })
    .refine((scope) => !(scope.owner === '*' && scope.repo !== undefined), {
      error: "the wildcard owner '*' takes no repo",
      path: ['repo'],
    }),
);

/**
 * A scope of an identity: an owner (lowercased) and an optional repository. Owner '*' marks a
 * PAT as broad enough for any public repository once the public guard passes; it takes no repo.
 * Built at import; a bundle that reads only {@link getIdentityScopeSchema} builds it on first use.
 */
export const identityScopeSchema = /* @__PURE__ */ getIdentityScopeSchema();

/** A scope of an identity. */
export type IdentityScope = z.output<typeof identityScopeSchema>;

/** Returns {@link identityRegistrationSchema}, built on the first call (the same instance after). */
export const getIdentityRegistrationSchema = /* @__PURE__ */ lazySchema(() =>
  z
    .strictObject({
      id: getIdentityIdSchema(),
      kind: z.enum(IDENTITY_KINDS),
      login: getIdentityLoginSchema(),
      secret_ref: getSecretRefSchema(),
      installation_id: z.int().positive().max(Number.MAX_SAFE_INTEGER).nullable().optional(),
      scopes: z.array(getIdentityScopeSchema()).max(256).default([]),
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
    })),
);

/**
 * The body of POST /v1/admin/pools/:pool/identities: the identity fields of SPEC.md. The pool
 * comes from the path. `installation_id` is required and positive for `forge_app`, and absent
 * (or null) for `pat`. `login` is {@link identityLoginSchema}; the `[bot]` suffix only on a
 * `forge_app`. `weight` defaults to 100.
 * Built at import; a bundle that reads only {@link getIdentityRegistrationSchema} builds it on first use.
 */
export const identityRegistrationSchema = /* @__PURE__ */ getIdentityRegistrationSchema();

/** A validated identity registration. */
export type IdentityRegistration = z.output<typeof identityRegistrationSchema>;
/** What an admin may send to register an identity. */
export type IdentityRegistrationInput = z.input<typeof identityRegistrationSchema>;

/** Returns {@link identityRecordSchema}, built on the first call (the same instance after). */
export const getIdentityRecordSchema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({
    id: getIdentityIdSchema(),
    pool: getPoolIdSchema(),
    kind: z.enum(IDENTITY_KINDS),
    login: getIdentityLoginSchema(),
    secret_ref: getSecretRefSchema(),
    installation_id: z.int().positive().nullable(),
    scopes: z.array(
      z.strictObject({
        owner: z.string(),
        repo: z.string().optional(),
        allow_private: z.boolean(),
      }),
    ),
    weight: z.int().min(0),
    created_at: getUtcTimestampSchema(),
    updated_at: getUtcTimestampSchema(),
  }),
);

/**
 * An identity as the admin API returns it: the registration plus its pool and timestamps. It
 * names its secret binding but never holds a secret value.
 * Built at import; a bundle that reads only {@link getIdentityRecordSchema} builds it on first use.
 */
export const identityRecordSchema = /* @__PURE__ */ getIdentityRecordSchema();

/** An identity record. */
export type IdentityRecord = z.infer<typeof identityRecordSchema>;
