import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/** Returns {@link poolIdSchema}, built on the first call (the same instance after). */
export const getPoolIdSchema = /* @__PURE__ */ lazySchema(() =>
  z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, { error: 'pool id: 1-100 of [A-Za-z0-9._-]' }),
);

/**
 * A pool id: 1-100 characters of letters, digits, '.', '_' and '-', starting with a letter or
 * digit. Pool ids appear in URL paths, so nothing else is accepted.
 * Built at import; a bundle that reads only {@link getPoolIdSchema} builds it on first use.
 */
export const poolIdSchema = /* @__PURE__ */ getPoolIdSchema();

/** Returns {@link forgeLoginSchema}, built on the first call (the same instance after). */
export const getForgeLoginSchema = /* @__PURE__ */ lazySchema(() =>
  z
    .string()
    .regex(/^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/, { error: 'not a forge login' }),
);

/**
 * A forge account or organization login (GitHub: 1-39 letters, digits or single hyphens).
 * Case is kept; compare logins case-insensitively.
 * Built at import; a bundle that reads only {@link getForgeLoginSchema} builds it on first use.
 */
export const forgeLoginSchema = /* @__PURE__ */ getForgeLoginSchema();

/** Returns {@link repoNameSchema}, built on the first call (the same instance after). */
export const getRepoNameSchema = /* @__PURE__ */ lazySchema(() =>
  z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,100}$/, { error: 'not a repository name' })
    .refine((name) => name !== '.' && name !== '..', { error: 'not a repository name' }),
);

/**
 * A repository name (GitHub: 1-100 of letters, digits, '.', '_' and '-'; not '.' or '..').
 * Built at import; a bundle that reads only {@link getRepoNameSchema} builds it on first use.
 */
export const repoNameSchema = /* @__PURE__ */ getRepoNameSchema();

/** Returns {@link commitShaSchema}, built on the first call (the same instance after). */
export const getCommitShaSchema = /* @__PURE__ */ lazySchema(() =>
  z
    .string()
    .regex(/^(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/, { error: 'not a commit hash' })
    .transform((sha) => sha.toLowerCase()),
);

/**
 * A git commit hash: 40 (SHA-1) or 64 (SHA-256) hexadecimal digits, normalized to lowercase.
 * Built at import; a bundle that reads only {@link getCommitShaSchema} builds it on first use.
 */
export const commitShaSchema = /* @__PURE__ */ getCommitShaSchema();

/** Returns {@link utcTimestampSchema}, built on the first call (the same instance after). */
export const getUtcTimestampSchema = /* @__PURE__ */ lazySchema(() =>
  z.iso.datetime({ offset: false }),
);

/**
 * An ISO 8601 UTC timestamp (`2026-01-02T03:04:05Z`, optional fraction).
 * Built at import; a bundle that reads only {@link getUtcTimestampSchema} builds it on first use.
 */
export const utcTimestampSchema = /* @__PURE__ */ getUtcTimestampSchema();

/** Returns {@link secretRefSchema}, built on the first call (the same instance after). */
export const getSecretRefSchema = /* @__PURE__ */ lazySchema(() =>
  z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, { error: 'secret_ref: 1-128 of [A-Za-z0-9_.-]' }),
);

/**
 * A secret binding name: 1-128 characters of `[A-Za-z0-9_.-]` (DESIGN.md §3).
 * Built at import; a bundle that reads only {@link getSecretRefSchema} builds it on first use.
 */
export const secretRefSchema = /* @__PURE__ */ getSecretRefSchema();

/** Returns {@link httpUrlSchema}, built on the first call (the same instance after). */
export const getHttpUrlSchema = /* @__PURE__ */ lazySchema(() => z.url({ protocol: /^https?$/ }));

/**
 * An absolute http(s) URL.
 * Built at import; a bundle that reads only {@link getHttpUrlSchema} builds it on first use.
 */
export const httpUrlSchema = /* @__PURE__ */ getHttpUrlSchema();

/** Returns {@link semverSchema}, built on the first call (the same instance after). */
export const getSemverSchema = /* @__PURE__ */ lazySchema(() =>
  z.string().regex(/^(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?$/, {
    error: 'not a semantic version',
  }),
);

/**
 * A semantic version `MAJOR.MINOR.PATCH` with an optional pre-release.
 * Built at import; a bundle that reads only {@link getSemverSchema} builds it on first use.
 */
export const semverSchema = /* @__PURE__ */ getSemverSchema();
